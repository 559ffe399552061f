import type { FetchJson } from './fetch-json';

/** How long a provider's discovery document is used before it is read again. */
const DISCOVERY_TTL_MS = 60 * 60_000;
/** a failed discovery is not retried for this long (a provider that is down is not hammered) */
const FAILURE_BACKOFF_MS = 5_000;

interface Discovered {
  jwksUri: string;
  expiresAt: number;
}

/**
 * OpenID Connect discovery (`<issuer>/.well-known/openid-configuration`): the key set URL of each
 * issuer, cached an hour, one fetch in flight per issuer. The document must name the issuer it
 * was fetched for, as OpenID Connect Discovery 1.0 requires: a document copied from another
 * provider cannot make gw trust that provider's keys for this issuer.
 */
export class OpenIdDiscovery {
  private readonly found = new Map<string, Discovered>();
  private readonly inFlight = new Map<string, Promise<string>>();
  private readonly failedAt = new Map<string, { at: number; error: Error }>();

  constructor(
    private readonly fetchJson: FetchJson,
    private readonly now: () => number = Date.now,
  ) {}

  async jwksUri(issuer: string): Promise<string> {
    const known = this.found.get(issuer);
    if (known && known.expiresAt > this.now()) return known.jwksUri;
    const failed = this.failedAt.get(issuer);
    if (failed && this.now() - failed.at < FAILURE_BACKOFF_MS) {
      if (known) return known.jwksUri;
      throw failed.error;
    }
    let pending = this.inFlight.get(issuer);
    if (!pending) {
      pending = this.discover(issuer).finally(() => this.inFlight.delete(issuer));
      this.inFlight.set(issuer, pending);
    }
    try {
      return await pending;
    } catch (err) {
      this.failedAt.set(issuer, { at: this.now(), error: err as Error });
      if (known) return known.jwksUri;
      throw err;
    }
  }

  flush(): void {
    this.found.clear();
    this.failedAt.clear();
  }

  private async discover(issuer: string): Promise<string> {
    const document = (await this.fetchJson(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`)) as {
      issuer?: unknown;
      jwks_uri?: unknown;
    } | null;
    if (typeof document !== 'object' || document === null) throw new Error(`${issuer}: no discovery document`);
    if (document.issuer !== issuer)
      throw new Error(`${issuer}: the discovery document names another issuer (${String(document.issuer)})`);
    if (typeof document.jwks_uri !== 'string' || !/^https?:\/\//.test(document.jwks_uri))
      throw new Error(`${issuer}: the discovery document has no http(s) jwks_uri`);
    this.found.set(issuer, { jwksUri: document.jwks_uri, expiresAt: this.now() + DISCOVERY_TTL_MS });
    this.failedAt.delete(issuer);
    return document.jwks_uri;
  }
}

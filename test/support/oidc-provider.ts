import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { JWK } from 'jose' with { 'resolution-mode': 'import' };
import type * as OidcProviderExports from 'oidc-provider';
import type { Provider } from 'oidc-provider';
import { close, listen } from '../../lib/http/listen';

export interface OidcTestClient {
  client_id: string;
  client_secret: string;
  /**
   * scopes the client may ask for in a client credentials grant; without them it may ask for
   * any scope another client has (oidc-provider cannot say "no scopes" in client metadata)
   */
  scopes?: string[];
}

export interface OidcProviderOptions {
  clients: OidcTestClient[];
  /** the `aud` of every access token (the default resource indicator); https://api.gw.test unless given */
  audience?: string;
  /** lifetime of access tokens, in seconds (300 unless given) */
  accessTokenTtl?: number;
}

export interface TestProvider {
  /** http://127.0.0.1:<port>, stable across key rotations */
  issuer: string;
  /** the provider's JWKS endpoint, as its discovery document names it */
  jwksUri: string;
  /** the token endpoint, as its discovery document names it */
  tokenEndpoint: string;
  audience: string;
  /** the `kid` of the key that signs tokens now */
  readonly kid: string;
  /**
   * Client credentials grant (client_secret_basic): an RS256 JWT access token with the scopes
   * asked for. A refusal rejects with a TokenRequestError carrying the status and the OAuth error.
   */
  clientCredentialsToken(clientId: string, clientSecret: string, scope?: string): Promise<string>;
  /** a new signing key (new kid); the old key leaves the JWKS at once, the issuer and port stay */
  rotateKeys(): Promise<void>;
  close(): Promise<void>;
}

/** The token endpoint refused a request. */
export class TokenRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: string; error_description?: string } | undefined,
    text: string,
  ) {
    super(`token endpoint answered ${status}: ${text}`);
  }
}

export const DEFAULT_AUDIENCE = 'https://api.gw.test';

type OidcProviderModule = typeof OidcProviderExports;

/**
 * A real OpenID Connect provider (oidc-provider, certified) on 127.0.0.1 and a random port, for
 * tests of JWT and OpenID Connect client authentication. Only the client credentials grant is
 * enabled; its access tokens are JWTs (resource indicators, `accessTokenFormat: 'jwt'`) signed
 * RS256 by a key generated at start.
 *
 * oidc-provider reads its keys once, when constructed, and offers no way to swap them, so a key
 * rotation builds a new Provider with the new key and hands it the same listening server: the
 * issuer, port and discovery document stay, only the key changes.
 */
export async function startOidcProvider(options: OidcProviderOptions): Promise<TestProvider> {
  const oidc = await loadOidcProvider();
  const audience = options.audience ?? DEFAULT_AUDIENCE;
  const accessTokenTtl = options.accessTokenTtl ?? 300;
  const serverErrors: unknown[] = [];

  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.writeHead(503).end();
  };
  const server: Server = createServer((req, res) => handle(req, res));
  const port = await listen(server, 0, '127.0.0.1');
  const issuer = `http://127.0.0.1:${port}`;

  let kid = '';
  const useNewKey = async (): Promise<void> => {
    const signingKey = await generateSigningKey();
    const provider = buildProvider(oidc, issuer, signingKey, options.clients, audience, accessTokenTtl);
    // recorded, not printed: a refused request must not fill the test output, and a test that
    // meets a 500 can still see why (TokenRequestError names the last one)
    provider.on('server_error', (_ctx: unknown, err: unknown) => serverErrors.push(err));
    handle = provider.callback();
    kid = signingKey.kid!;
  };
  await useNewKey();

  const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as {
    jwks_uri: string;
    token_endpoint: string;
  };

  return {
    issuer,
    jwksUri: discovery.jwks_uri,
    tokenEndpoint: discovery.token_endpoint,
    audience,
    get kid() {
      return kid;
    },
    async clientCredentialsToken(clientId, clientSecret, scope) {
      const form = new URLSearchParams({ grant_type: 'client_credentials' });
      if (scope !== undefined) form.set('scope', scope);
      const basic = Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString('base64');
      const response = await fetch(discovery.token_endpoint, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      const text = await response.text();
      const body = parseJson(text) as { access_token?: string; error?: string } | undefined;
      if (response.status !== 200 || typeof body?.access_token !== 'string') {
        const last = serverErrors.at(-1);
        throw new TokenRequestError(response.status, body, last ? `${text} (provider: ${String(last)})` : text);
      }
      return body.access_token;
    },
    rotateKeys: useNewKey,
    close: () => close(server),
  };
}

let oidcProviderModule: Promise<OidcProviderModule> | undefined;

/**
 * oidc-provider is ESM-only: a dynamic import from CommonJS. On import it warns once that a
 * Node release without an LTS name is unsupported (true of any current release); that line is
 * kept out of the test output.
 */
function loadOidcProvider(): Promise<OidcProviderModule> {
  oidcProviderModule ??= (async () => {
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (!String(args[0]).includes('oidc-provider WARNING: Unsupported runtime')) warn(...args);
    };
    try {
      return await import('oidc-provider');
    } finally {
      console.warn = warn;
    }
  })();
  return oidcProviderModule;
}

async function generateSigningKey(): Promise<JWK> {
  const { generateKeyPair, exportJWK, calculateJwkThumbprint } = await import('jose');
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'RS256', use: 'sig' };
}

function buildProvider(
  oidc: OidcProviderModule,
  issuer: string,
  signingKey: JWK,
  clients: OidcTestClient[],
  audience: string,
  accessTokenTtl: number,
): Provider {
  const scopes = [...new Set(clients.flatMap((client) => client.scopes ?? []))];
  const resourceServer = {
    scope: scopes.join(' '),
    audience,
    accessTokenFormat: 'jwt',
    accessTokenTTL: accessTokenTtl,
    jwt: { sign: { alg: 'RS256' } },
  };
  return new oidc.Provider(issuer, {
    clients: clients.map((client) => ({
      client_id: client.client_id,
      client_secret: client.client_secret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: client.scopes?.length ? client.scopes.join(' ') : undefined,
    })),
    jwks: { keys: [signingKey] },
    scopes,
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resourceIndicator: string) => {
          if (resourceIndicator !== audience) throw new oidc.errors.InvalidTarget();
          return resourceServer;
        },
      },
    },
    ttl: { ClientCredentials: accessTokenTtl },
    adapter: InMemoryAdapter,
    // cookies sign nothing here (no interactive flows), but a fixed key keeps the provider quiet
    cookies: { keys: ['gw-test-cookie-key'] },
  });
}

/**
 * Where the provider keeps what it stores (JWT access tokens are not stored; this holds little).
 * oidc-provider's own in-memory adapter would do, but it warns on every start that it is not
 * for production; this one says nothing. Each provider (each key) has its own store.
 */
class InMemoryAdapter {
  private readonly records = new Map<string, Record<string, unknown>>();
  constructor(readonly model: string) {}
  async upsert(id: string, payload: Record<string, unknown>): Promise<void> {
    this.records.set(id, payload);
  }
  async find(id: string): Promise<Record<string, unknown> | undefined> {
    return this.records.get(id);
  }
  async findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
    return [...this.records.values()].find((payload) => payload.uid === uid);
  }
  async findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined> {
    return [...this.records.values()].find((payload) => payload.userCode === userCode);
  }
  async consume(id: string): Promise<void> {
    const payload = this.records.get(id);
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string): Promise<void> {
    this.records.delete(id);
  }
  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [id, payload] of this.records) if (payload.grantId === grantId) this.records.delete(id);
  }
}

/** client_secret_basic form-encodes the id and secret before base64 (RFC 6749 §2.3.1). */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

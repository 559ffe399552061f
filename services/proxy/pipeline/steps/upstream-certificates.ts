import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { Step } from '../compose';
import type { UpstreamTls } from '../upstream-pools';
import { refuse } from '../refuse';
import { MutualTlsMessages, type CertificateSource } from './mutual-tls';

/**
 * `upstream_certificates` (`{domain: certificate id}`, `*` for any domain, `*.example.com` for
 * its subdomains, `host:port` for one port): the client certificate, with its private key from
 * the store, the gateway presents to an HTTPS upstream that requires one. And
 * `proxy.transport.ssl_insecure_skip_verify`: the upstream's own certificate is not verified.
 * Both as in the reference gateway. Only certificates of the API's organisation are used.
 */
export function upstreamCertificatesStep(definition: ApiDefinition, certificates: CertificateSource): Step | undefined {
  const map = certificateMap(definition.upstream_certificates);
  const transport = (definition.proxy.transport ?? {}) as Record<string, unknown>;
  const insecure = transport.ssl_insecure_skip_verify === true;
  if (map.size === 0 && !insecure) return undefined;
  const orgId = definition.org_id ?? '';
  return async (ctx) => {
    const target = ctx.targetOverride ?? ctx.target ?? ctx.version!.target;
    if (target.protocol !== 'https:') return;
    const certId = certificateFor(map, target.hostname.toLowerCase(), target.port);
    if (certId === undefined) {
      if (insecure) ctx.upstreamTls = INSECURE;
      return;
    }
    let found;
    try {
      found = (await certificates.get([certId], orgId)).get(certId);
    } catch {
      return refuse(ctx, 503, MutualTlsMessages.storeUnavailable);
    }
    // A certificate missing from the store (or without its key) is not presented; the upstream decides.
    if (!found?.key_pem) {
      if (insecure) ctx.upstreamTls = INSECURE;
      return;
    }
    ctx.upstreamTls = {
      id: `${certId}${insecure ? ' insecure' : ''}`,
      cert: found.cert_pem,
      key: found.key_pem,
      rejectUnauthorized: !insecure,
    };
  };
}

const INSECURE: UpstreamTls = { id: 'insecure', rejectUnauthorized: false };

function certificateMap(value: unknown): Map<string, string> {
  const map = new Map<string, string>();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return map;
  for (const [domain, id] of Object.entries(value))
    if (typeof id === 'string' && id !== '') map.set(domain.trim().toLowerCase(), id);
  return map;
}

function certificateFor(map: Map<string, string>, hostname: string, port: number): string | undefined {
  const exact = map.get(`${hostname}:${port}`) ?? map.get(hostname);
  if (exact !== undefined) return exact;
  for (const [domain, id] of map) {
    if (domain.startsWith('*.') && hostname.endsWith(domain.slice(1))) return id;
  }
  return map.get('*');
}

import type { IncomingHttpHeaders } from 'node:http';
import { stringify } from 'yaml';
import type { Reply } from '../http/surface';

/** The gateway's own extension, left out of a document read with `?mode=public`. */
const GATEWAY_EXTENSION = 'x-gw-api-gateway';

/** `?mode=public`, as on the reference gateway: the plain OpenAPI document, without the gateway settings. */
export function publicView(document: unknown, query: Record<string, unknown>): unknown {
  if (query.mode !== 'public' || typeof document !== 'object' || document === null) return document;
  const { [GATEWAY_EXTENSION]: _settings, ...rest } = document as Record<string, unknown>;
  return rest;
}

/**
 * An OAS document in the form the client asked for: YAML when `?format=yaml` or an Accept
 * header naming YAML, JSON otherwise; without `x-gw-api-gateway` with `?mode=public`.
 */
export function documentReply(document: unknown, query: Record<string, unknown>, headers: IncomingHttpHeaders): Reply {
  const shown = publicView(document, query);
  const accept = String(headers.accept ?? '').toLowerCase();
  const yaml = query.format === 'yaml' || (query.format === undefined && /\byaml\b/.test(accept));
  if (!yaml) return { body: shown };
  return { body: stringify(shown, { aliasDuplicateObjects: false }), contentType: 'application/x-yaml' };
}

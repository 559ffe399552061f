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
  if (!wantsYaml(query, headers)) return { body: shown };
  return { body: stringify(shown, { aliasDuplicateObjects: false }), contentType: 'application/x-yaml' };
}

function wantsYaml(query: Record<string, unknown>, headers: IncomingHttpHeaders): boolean {
  const accept = String(headers.accept ?? '').toLowerCase();
  return query.format === 'yaml' || (query.format === undefined && /\byaml\b/.test(accept));
}

/**
 * A document (or a list of them) as a file to save, as the reference gateway's export: an
 * octet stream with `Content-Disposition: attachment;filename="…"`, JSON indented by two spaces
 * with `<`, `>` and `&` escaped as Go writes them (YAML when asked for). The file is named
 * `GwOasApiDef-{id}`, or `oas-{id}` with `?mode=public`.
 */
export function documentDownload(
  document: unknown,
  apiId: string | undefined,
  query: Record<string, unknown>,
  headers: IncomingHttpHeaders,
): Reply {
  const view = (one: unknown) => publicView(one, query);
  const shown = Array.isArray(document) ? document.map(view) : view(document);
  const yaml = wantsYaml(query, headers);
  const base = `${query.mode === 'public' ? 'oas' : 'GwOasApiDef'}${apiId ? `-${apiId}` : ''}`;
  const text = yaml
    ? stringify(shown, { aliasDuplicateObjects: false })
    : JSON.stringify(shown, null, 2).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${hex4(c)}`);
  return {
    body: Buffer.from(text, 'utf8'),
    contentType: 'application/octet-stream',
    headers: { 'content-disposition': `attachment;filename="${quoted(base)}.${yaml ? 'yaml' : 'json'}"` },
  };
}

/** The inside of a quoted header parameter: quotes and backslashes escaped, nothing unprintable. */
function quoted(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '\\$&');
}

const hex4 = (c: string) => c.charCodeAt(0).toString(16).padStart(4, '0');

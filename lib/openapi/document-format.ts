import type { IncomingHttpHeaders } from 'node:http';
import { stringify } from 'yaml';
import type { Reply } from '../http/surface';

/**
 * An OAS document in the form the client asked for: YAML when `?format=yaml` or an Accept
 * header naming YAML, JSON otherwise.
 */
export function documentReply(document: unknown, query: Record<string, unknown>, headers: IncomingHttpHeaders): Reply {
  const accept = String(headers.accept ?? '').toLowerCase();
  const yaml = query.format === 'yaml' || (query.format === undefined && /\byaml\b/.test(accept));
  if (!yaml) return { body: document };
  return { body: stringify(document, { aliasDuplicateObjects: false }), contentType: 'application/x-yaml' };
}

import { jsonObjectBody } from './json-body';

/**
 * The fields of a body sent either form-encoded (`application/x-www-form-urlencoded`, as the
 * reference dashboard's OAuth endpoints take it) or as one JSON object. Object values (a
 * `key_rules` session sent as JSON) become their JSON text; other values their string.
 */
export function formFields(raw: unknown, contentType: string | undefined): Record<string, string> {
  const text = typeof raw === 'string' ? raw : '';
  if (/^\s*application\/json/i.test(contentType ?? '') || text.trimStart().startsWith('{')) {
    const parsed = jsonObjectBody(text);
    return Object.fromEntries(
      Object.entries(parsed).map(([name, value]) => [
        name,
        typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value),
      ]),
    );
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) fields[name] ??= value;
  return fields;
}

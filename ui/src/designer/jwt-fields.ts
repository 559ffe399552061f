import { fromBase64, toBase64 } from './base64';

/**
 * The JWT and OpenID Connect fields whose stored form is not what the user types: the
 * reference gateway keeps `jwt_source` and OpenID client ids base64-encoded, and maps
 * (scope → policy, client id → policy) as objects the form edits as rows.
 */

/** `jwt_source` as the user wrote it: a secret, a PEM public key or a JWKS URL. A plain URL stored by hand shows as is. */
export function jwtSourceText(stored: unknown): string {
  return typeof stored === 'string' ? fromBase64(stored) : '';
}

/** The stored `jwt_source`: base64 of the text; empty stays empty (no central source: the key is looked up by kid). */
export function jwtSourceValue(text: string): string {
  return text.trim() === '' ? '' : toBase64(text);
}

/** One row of a map edited in the form. */
export interface MapRow {
  key: string;
  value: string;
}

/** An object's entries as rows, keys decoded with `decodeKey` (client ids are stored base64). */
export function rowsOf(map: unknown, decodeKey: (key: string) => string = (key) => key): MapRow[] {
  if (!map || typeof map !== 'object') return [];
  return Object.entries(map as Record<string, unknown>).map(([key, value]) => ({
    key: decodeKey(key),
    value: String(value ?? ''),
  }));
}

/** Rows back into the stored object; a row without a key is not stored yet, and of equal keys the last wins. */
export function mapOf(rows: MapRow[], encodeKey: (key: string) => string = (key) => key): Record<string, string> {
  const map: Record<string, string> = {};
  for (const row of rows) if (row.key.trim() !== '') map[encodeKey(row.key.trim())] = row.value;
  return map;
}

/** `openid_options.providers[].client_ids`: {base64 of client id: policy id} as rows of plain client ids. */
export const clientIdRows = (clientIds: unknown): MapRow[] => rowsOf(clientIds, fromBase64);
export const clientIdsOf = (rows: MapRow[]): Record<string, string> => mapOf(rows, toBase64);

/** A list field (`jwt_default_policies`, `jwt_allowed_issuers`) as the comma list the form shows. */
export function commaText(list: unknown): string {
  return Array.isArray(list) ? list.join(', ') : '';
}

export function commaList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

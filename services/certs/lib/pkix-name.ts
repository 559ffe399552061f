import type { PkixName } from '../../../contracts/certs/actions';

/** Attribute short names (as Node prints a distinguished name) and their object identifiers. */
const OIDS: Record<string, number[]> = {
  C: [2, 5, 4, 6],
  ST: [2, 5, 4, 8],
  L: [2, 5, 4, 7],
  O: [2, 5, 4, 10],
  OU: [2, 5, 4, 11],
  CN: [2, 5, 4, 3],
  serialNumber: [2, 5, 4, 5],
  street: [2, 5, 4, 9],
  postalCode: [2, 5, 4, 17],
  SN: [2, 5, 4, 4],
  GN: [2, 5, 4, 42],
  title: [2, 5, 4, 12],
  emailAddress: [1, 2, 840, 113549, 1, 9, 1],
  DC: [0, 9, 2342, 19200300, 100, 1, 25],
  UID: [0, 9, 2342, 19200300, 100, 1, 1],
};

/** The attributes that have a field of their own in Go's pkix.Name, besides being in Names. */
const LISTS = {
  C: 'Country',
  O: 'Organization',
  OU: 'OrganizationalUnit',
  L: 'Locality',
  ST: 'Province',
  street: 'StreetAddress',
  postalCode: 'PostalCode',
} as const;

/** One `key=value` line of Node's X509Certificate.subject/issuer, its escapes undone. */
function attribute(line: string): [string, string] | undefined {
  const equals = line.indexOf('=');
  if (equals <= 0) return undefined;
  const value = line.slice(equals + 1).replace(/\\(.)/g, '$1');
  return [line.slice(0, equals), value];
}

/**
 * A distinguished name as the reference gateway's certificate meta shows it: Go's pkix.Name
 * marshalled by encoding/json (its field names, absent lists as null, every attribute in
 * Names with its OID in order).
 */
export function pkixName(text: string): PkixName {
  const name: PkixName = {
    Country: null,
    Organization: null,
    OrganizationalUnit: null,
    Locality: null,
    Province: null,
    StreetAddress: null,
    PostalCode: null,
    SerialNumber: '',
    CommonName: '',
    Names: [],
    ExtraNames: null,
  };
  for (const line of text.split('\n')) {
    const parsed = attribute(line);
    if (!parsed) continue;
    const [key, value] = parsed;
    const oid = OIDS[key] ?? (/^\d+(\.\d+)+$/.test(key) ? key.split('.').map(Number) : undefined);
    if (oid) name.Names!.push({ Type: oid, Value: value });
    if (key === 'CN') name.CommonName = value;
    else if (key === 'serialNumber') name.SerialNumber = value;
    else if (key in LISTS) {
      const field = LISTS[key as keyof typeof LISTS];
      name[field] = [...(name[field] ?? []), value];
    }
  }
  if (name.Names!.length === 0) name.Names = null;
  return name;
}

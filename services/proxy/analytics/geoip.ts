import { open, type CountryResponse } from 'maxmind';
import { ConfigError } from '../../../lib/config/load-config';

/** Looks an IP address up in a GeoIP database: its ISO 3166-1 alpha-2 country, or ''. */
export type CountryLookup = (ip: string) => string;

/** The part of a maxmind Reader the lookup uses (a test can hand in its own). */
export interface CountryReader {
  get(ip: string): CountryResponse | null;
}

/** Addresses whose country is remembered; past this the memory starts afresh (a bound, not an LRU). */
const REMEMBERED_ADDRESSES = 10_000;

/**
 * Wraps a reader: a malformed address or one not in the database is '' (never a failed request).
 * Answers are remembered per address: the reader walks its tree for every lookup (its own cache
 * holds decoded records, not addresses), while clients mostly come back.
 */
export function countryLookup(reader: CountryReader): CountryLookup {
  const remembered = new Map<string, string>();
  return (ip) => {
    const known = remembered.get(ip);
    if (known !== undefined) return known;
    let country = '';
    try {
      const found = reader.get(stripZone(ip));
      country = found?.country?.iso_code ?? found?.registered_country?.iso_code ?? '';
    } catch {
      // a malformed address: no country
    }
    if (remembered.size >= REMEMBERED_ADDRESSES) remembered.clear();
    remembered.set(ip, country);
    return country;
  };
}

/** Opens GW_GEOIP_DB (a MaxMind .mmdb, Country or City); throws with the path when it can not. */
export async function openCountryLookup(path: string): Promise<CountryLookup> {
  try {
    return countryLookup(await open<CountryResponse>(path, { watchForUpdates: false }));
  } catch (err) {
    throw new ConfigError(`GW_GEOIP_DB: can not read the GeoIP database ${path}: ${(err as Error).message}`);
  }
}

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) is looked up as `1.2.3.4`. */
function stripZone(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}

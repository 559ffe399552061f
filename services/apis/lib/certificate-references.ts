import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { ApisErrors } from '../errors';

/** Which of `ids` (at most LOOKUP_BATCH) the certificate store holds for this organisation, and only for it. */
export type CertificateLookup = (ids: string[], orgId: string) => Promise<Set<string>>;

/** `certs.material` takes at most this many ids a call. */
const LOOKUP_BATCH = 1000;

/** A certificate id named by a definition, with the field that names it. */
interface CertificateReference {
  field: string;
  id: string;
}

/** A public key fingerprint (SHA-256 hex) pins a key by itself, without naming a stored certificate. */
const FINGERPRINT = /^(sha256\/)?[0-9a-f]{64}$/i;

/**
 * Checks the certificate ids a definition names (`client_certificates`, `upstream_certificates`,
 * `pinned_public_keys`, `certificates`; the OAS `server.clientCertificates.allowlist` and
 * `upstream.mutualTLS.domainToCertificateMapping` arrive here as the first two): each must be
 * a certificate of the API's own organisation. An id of another organisation reads like one that
 * does not exist, so nothing about that organisation shows.
 */
export async function checkCertificateReferences(definition: ApiDefinition, lookup: CertificateLookup): Promise<void> {
  const references = certificateReferences(definition);
  if (references.length === 0) return;
  const ids = [...new Set(references.map((reference) => reference.id))];
  const owned = new Set<string>();
  for (let start = 0; start < ids.length; start += LOOKUP_BATCH) {
    const found = await lookup(ids.slice(start, start + LOOKUP_BATCH), definition.org_id ?? '');
    for (const id of found) owned.add(id);
  }
  const foreign = references.find((reference) => !owned.has(reference.id));
  if (foreign) throw ApisErrors.unknownCertificate(foreign.field, foreign.id);
}

export function certificateReferences(definition: ApiDefinition): CertificateReference[] {
  const references: CertificateReference[] = [];
  const add = (field: string, id: unknown) => {
    if (typeof id !== 'string') throw ApisErrors.invalid(`${field} must be a certificate id (a string)`);
    if (id !== '') references.push({ field, id });
  };
  const list = (name: string) => {
    const value = definition[name];
    if (Array.isArray(value)) value.forEach((id, index) => add(`${name}[${index}]`, id));
  };
  const byDomain = (name: string, split: boolean) => {
    const value = definition[name];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    for (const [domain, ids] of Object.entries(value)) {
      const field = `${name}[${JSON.stringify(domain)}]`;
      if (!split || typeof ids !== 'string') add(field, ids);
      else for (const id of ids.split(',')) if (!FINGERPRINT.test(id.trim())) add(field, id.trim());
    }
  };
  list('client_certificates');
  list('certificates');
  byDomain('upstream_certificates', false);
  // `{domain: "id,id"}`: stored certificates' ids, or public key fingerprints.
  byDomain('pinned_public_keys', true);
  return references;
}

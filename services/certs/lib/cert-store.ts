import { X509Certificate } from 'node:crypto';
import type { Knex } from 'knex';
import type {
  CertificateBasics,
  CertificateMaterial,
  CertificateMeta,
  CertsCreateResult,
  CertsListResult,
} from '../../../contracts/certs/actions';
import { isUniqueViolation } from '../../../lib/store/database';
import { inOrg } from '../../../lib/store/org-scope';
import { paginate } from '../../../lib/store/paginate';
import type { SecretBox } from '../../../lib/secret-box';
import { CertsErrors } from '../errors';
import { pkixName } from './pkix-name';
import { dnsNames, nameAttribute, parseCertificateUpload } from './pem';

interface CertRow {
  id: string;
  org_id: string;
  fingerprint: string;
  cert_pem: string;
  sealed_key: string;
  created_at: number | string;
}

/**
 * The `certificates` table. Private keys are sealed before they are written and opened only
 * for `material` (gateway nodes on the bus); nothing else returns them.
 */
export class CertStore {
  constructor(
    private readonly db: Knex,
    private readonly box: SecretBox,
    private readonly pageSize: number,
    private readonly now: () => number = Date.now,
  ) {}

  async create(pem: string, orgId: string): Promise<CertsCreateResult> {
    const parsed = parseCertificateUpload(pem, this.now());
    const id = `${orgId}${parsed.fingerprint}`;
    if (await this.db('certificates').where('id', id).first()) throw CertsErrors.exists(id);
    const row: CertRow = {
      id,
      org_id: orgId,
      fingerprint: parsed.fingerprint,
      cert_pem: parsed.certPem,
      sealed_key: parsed.keyPem ? this.box.seal(parsed.keyPem) : '',
      created_at: this.now(),
    };
    try {
      await this.db('certificates').insert(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw CertsErrors.exists(id);
      throw err;
    }
    return { id, meta: describe(row) };
  }

  /** `page` unset: every certificate (the gateway API does not page). */
  async list(orgScope: string | undefined, detailed: boolean, page: number | undefined): Promise<CertsListResult> {
    const base = this.db('certificates').modify(inOrg(orgScope));
    const { rows, pages } = await paginate<CertRow>(base, page ?? 0, this.pageSize);
    return { certs: detailed ? rows.map((row) => basics(describe(row))) : rows.map((row) => row.id), pages };
  }

  async get(id: string, orgScope: string | undefined): Promise<CertificateMeta> {
    return describe(await this.find(id, orgScope));
  }

  async remove(id: string, orgScope: string | undefined): Promise<void> {
    await this.find(id, orgScope);
    await this.db('certificates').where('id', id).delete();
  }

  async removeOrganisation(orgId: string): Promise<string[]> {
    const ids = (await this.db('certificates').where('org_id', orgId).select('id')).map(
      (row: { id: string }) => row.id,
    );
    await this.db('certificates').where('org_id', orgId).delete();
    return ids;
  }

  /** The certificates (with their keys opened) among `ids` that belong to `orgId` (any organisation when unset). */
  async material(ids: string[], orgId: string | undefined, publicOnly = false): Promise<CertificateMaterial[]> {
    if (ids.length === 0) return [];
    const rows: CertRow[] = await this.db('certificates').whereIn('id', ids).modify(inOrg(orgId));
    return rows.map((row) => ({
      id: row.id,
      org_id: row.org_id,
      fingerprint: row.fingerprint,
      cert_pem: row.cert_pem,
      key_pem: row.sealed_key && !publicOnly ? this.openKey(row) : undefined,
      not_after: Date.parse(new X509Certificate(row.cert_pem).validTo),
    }));
  }

  private openKey(row: CertRow): string {
    const key = this.box.open(row.sealed_key);
    // Sealed under another GW_SECRET (or altered): say so instead of serving without the key.
    if (key === undefined) throw CertsErrors.keyUnreadable(row.id);
    return key;
  }

  private async find(id: string, orgScope: string | undefined): Promise<CertRow> {
    const row = await this.db<CertRow>('certificates').where('id', id).modify(inOrg(orgScope)).first();
    if (!row) throw CertsErrors.notFound(id);
    return row;
  }
}

function describe(row: CertRow): CertificateMeta {
  const cert = new X509Certificate(row.cert_pem);
  return {
    id: row.id,
    org_id: row.org_id,
    fingerprint: row.fingerprint,
    subject: pkixName(cert.subject),
    issuer: pkixName(cert.issuer),
    subject_cn: nameAttribute(cert.subject, 'CN'),
    issuer_cn: nameAttribute(cert.issuer, 'CN'),
    dns_names: dnsNames(cert.subjectAltName),
    has_private: row.sealed_key !== '',
    is_ca: cert.ca,
    not_before: new Date(cert.validFrom).toISOString(),
    not_after: new Date(cert.validTo).toISOString(),
  };
}

function basics(meta: CertificateMeta): CertificateBasics {
  const { id, issuer_cn, subject_cn, dns_names, has_private, is_ca, not_before, not_after } = meta;
  return { id, issuer_cn, subject_cn, dns_names, has_private, is_ca, not_before, not_after };
}

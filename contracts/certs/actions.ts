/**
 * `certs.*` actions: the certificate store (docs/authentication.md#certificates-and-mutual-tls,
 * the reference gateway's `/tyk/certs`). A certificate's id is its organisation id followed by
 * the SHA-256 fingerprint (hex) of its DER form, as in the reference gateway.
 */

/** What the list shows per certificate with `mode=detailed` (the reference's CertificateBasics). */
export interface CertificateBasics {
  id: string;
  issuer_cn: string;
  subject_cn: string;
  dns_names: string[];
  has_private: boolean;
  is_ca: boolean;
  /** ISO 8601 */
  not_before: string;
  not_after: string;
}

/** One attribute of a distinguished name: its object identifier and value (Go's AttributeTypeAndValue). */
export interface PkixAttribute {
  Type: number[];
  Value: string;
}

/** A distinguished name as the reference gateway marshals Go's pkix.Name; an absent list is null. */
export interface PkixName {
  Country: string[] | null;
  Organization: string[] | null;
  OrganizationalUnit: string[] | null;
  Locality: string[] | null;
  Province: string[] | null;
  StreetAddress: string[] | null;
  PostalCode: string[] | null;
  SerialNumber: string;
  CommonName: string;
  /** every attribute of the name, in the certificate's order */
  Names: PkixAttribute[] | null;
  ExtraNames: PkixAttribute[] | null;
}

/** One certificate (the reference's CertificateMeta); the private key is never part of it. */
export interface CertificateMeta extends CertificateBasics {
  fingerprint: string;
  org_id: string;
  subject: PkixName;
  issuer: PkixName;
}

export interface CertsListResult {
  /** ids, or details with `mode: 'detailed'` */
  certs: string[] | CertificateBasics[];
  pages: number;
}

export interface CertsCreateResult {
  id: string;
  meta: CertificateMeta;
}

/**
 * What a gateway node needs to use a certificate: the PEM text and, when the store has one,
 * the private key in clear. Only on the bus (never on an HTTP surface), and only for
 * certificates of the organisation asked for.
 */
export interface CertificateMaterial {
  id: string;
  org_id: string;
  fingerprint: string;
  cert_pem: string;
  key_pem?: string;
  /** epoch milliseconds */
  not_after: number;
}

const id = { type: 'string', empty: false, max: 200 };
const scope = { type: 'string', optional: true };

export const certsActionParams = {
  create: {
    pem: { type: 'string', empty: false, max: 1_000_000 },
    org_scope: scope,
    org_id: { type: 'string', optional: true, max: 64 },
  },
  list: {
    org_scope: scope,
    mode: { type: 'string', optional: true },
    page: { type: 'number', integer: true, optional: true },
  },
  get: { id, org_scope: scope },
  remove: { id, org_scope: scope },
  /** `org_id` unset: any organisation (the gateway's own TLS certificate, named by the operator) */
  material: {
    ids: { type: 'array', items: id, max: 1000 },
    org_id: { type: 'string', optional: true },
    public_only: { type: 'boolean', optional: true },
  },
};

export type CertsCreateParams = { pem: string; org_scope?: string; org_id?: string };
export type CertsListParams = { org_scope?: string; mode?: string; page?: number };
export type CertsGetParams = { id: string; org_scope?: string };
/** `public_only`: the certificates without their private keys (for services that only check a public key) */
export type CertsMaterialParams = { ids: string[]; org_id?: string; public_only?: boolean };

/** The `certs.*` actions: params and result of each (see contracts/actions.ts). */
export interface CertsActions {
  'certs.create': { params: CertsCreateParams; result: CertsCreateResult };
  'certs.list': { params: CertsListParams; result: CertsListResult };
  'certs.get': { params: CertsGetParams; result: CertificateMeta };
  'certs.remove': { params: CertsGetParams; result: { id: string } };
  'certs.material': { params: CertsMaterialParams; result: CertificateMaterial[] };
}

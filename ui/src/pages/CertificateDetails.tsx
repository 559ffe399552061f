import { get } from '../api';
import { CopyButton } from '../components/form';
import { Show, useLoad } from '../components/status';

/** A distinguished name as the API answers it (the reference's shape of Go's pkix.Name). */
interface DistinguishedName {
  CommonName: string;
  Organization: string[] | null;
  OrganizationalUnit: string[] | null;
  Locality: string[] | null;
  Province: string[] | null;
  Country: string[] | null;
}

interface CertificateMeta {
  id: string;
  fingerprint: string;
  subject: DistinguishedName;
  issuer: DistinguishedName;
  subject_cn: string;
  dns_names: string[];
  has_private: boolean;
  is_ca: boolean;
  not_before: string;
  not_after: string;
}

/** What the store knows of one certificate (never its private key). */
export function CertificateDetails({ id, onClose }: { id: string; onClose(): void }) {
  const cert = useLoad(() => get<CertificateMeta>(`/certs/${encodeURIComponent(id)}`), id);
  return (
    <article aria-label="Certificate details">
      <div className="page-head">
        <h2>Certificate details</h2>
        <button type="button" className="secondary outline small" onClick={onClose}>
          Close
        </button>
      </div>
      <Show loaded={cert} what="the certificate">
        {(c) => {
          const expired = Date.parse(c.not_after) < Date.now();
          return (
            <dl className="details">
              <dt>Id</dt>
              <dd>
                <code>{c.id}</code> <CopyButton text={c.id} label="Copy id" />
              </dd>
              <dt>Fingerprint (SHA-256)</dt>
              <dd>
                <code data-testid="cert-fingerprint">{c.fingerprint}</code>
              </dd>
              <dt>Subject</dt>
              <dd>{nameText(c.subject)}</dd>
              <dt>Issuer</dt>
              <dd>{nameText(c.issuer)}</dd>
              <dt>DNS names</dt>
              <dd>{c.dns_names.length > 0 ? c.dns_names.join(', ') : 'none'}</dd>
              <dt>Valid</dt>
              <dd>
                {c.not_before} to {c.not_after}
                {expired ? <strong> (expired)</strong> : null}
              </dd>
              <dt>Certificate authority</dt>
              <dd>{c.is_ca ? 'yes' : 'no'}</dd>
              <dt>Private key</dt>
              <dd>{c.has_private ? 'stored (never shown)' : 'none'}</dd>
            </dl>
          );
        }}
      </Show>
    </article>
  );
}

/** `CN=…, O=…, OU=…, L=…, ST=…, C=…`: the name's usual attributes, most specific first. */
function nameText(name: DistinguishedName): string {
  const parts: string[] = [];
  if (name.CommonName) parts.push(`CN=${name.CommonName}`);
  const lists: Array<[string, string[] | null]> = [
    ['O', name.Organization],
    ['OU', name.OrganizationalUnit],
    ['L', name.Locality],
    ['ST', name.Province],
    ['C', name.Country],
  ];
  for (const [label, values] of lists) for (const value of values ?? []) parts.push(`${label}=${value}`);
  return parts.join(', ') || 'none';
}

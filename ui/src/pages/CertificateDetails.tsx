import { get } from '../api';
import { CopyButton } from '../components/form';
import { Show, useLoad } from '../components/status';

interface CertificateMeta {
  id: string;
  fingerprint: string;
  subject: string;
  issuer: string;
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
              <dd>{c.subject}</dd>
              <dt>Issuer</dt>
              <dd>{c.issuer}</dd>
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

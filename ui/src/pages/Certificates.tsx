import { useState } from 'react';
import { del, get, messageOf, post } from '../api';
import { Field } from '../components/form';
import { Show, useLoad } from '../components/status';
import { useSession } from '../session';

interface Cert {
  id: string;
  issuer_cn: string;
  subject_cn: string;
  dns_names: string[];
  has_private: boolean;
  is_ca: boolean;
  not_after: string;
}

/** The organisation's certificates: upload PEM, see what each is, delete. Private keys never come back. */
export function Certificates() {
  const { can } = useSession();
  const writable = can('certificates', 'write');
  const certs = useLoad(() => get<{ certs: Cert[] }>('/certs?p=0&mode=detailed'), 'certs');
  return (
    <section>
      <h1>Certificates</h1>
      {writable && <Upload onAdded={certs.reload} />}
      <Show loaded={certs} what="certificates">
        {({ certs: rows }) =>
          rows.length === 0 ? (
            <p>No certificates yet. They serve mutual TLS with clients and upstreams.</p>
          ) : (
            <div className="overflow-auto">
              <table className="striped">
                <thead>
                  <tr>
                    <th scope="col">Subject</th>
                    <th scope="col">Issuer</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Private key</th>
                    <th scope="col">Id</th>
                    {writable && <th scope="col">Actions</th>}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((c) => (
                    <tr key={c.id}>
                      <td>
                        {c.subject_cn}
                        {c.is_ca ? ' (CA)' : ''}
                      </td>
                      <td>{c.issuer_cn}</td>
                      <td>{c.not_after?.slice(0, 10)}</td>
                      <td>{c.has_private ? 'yes' : 'no'}</td>
                      <td>
                        <code>{c.id}</code>
                      </td>
                      {writable && (
                        <td>
                          <button type="button" className="secondary outline small" onClick={async () => window.confirm(`Delete the certificate ${c.subject_cn}?`) && (await del(`/certs/${encodeURIComponent(c.id)}`).then(certs.reload, (err) => window.alert(messageOf(err))))}>
                            Delete
                          </button>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Show>
    </section>
  );
}

function Upload({ onAdded }: { onAdded(): void }) {
  const [pem, setPem] = useState('');
  const [error, setError] = useState('');
  const add = async () => {
    setError('');
    try {
      await post('/certs', { cert: pem });
      setPem('');
      onAdded();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <article>
      <h2>Add a certificate</h2>
      <Field label="Certificate (PEM, with its private key if it has one)" error={error}>
        {(a) => <textarea {...a} className="code" rows={6} spellCheck={false} value={pem} placeholder="-----BEGIN CERTIFICATE-----" onChange={(e: { target: HTMLTextAreaElement }) => setPem(e.target.value)} />}
      </Field>
      <button type="button" onClick={add} disabled={!pem.trim()}>
        Add certificate
      </button>
    </article>
  );
}

import { useState } from 'react';
import { del, get, messageOf, post } from '../api';
import { Field, Pager } from '../components/form';
import { Notice, Show, useLoad } from '../components/status';
import { useSession } from '../session';
import { CertificateDetails } from './CertificateDetails';

interface Cert {
  id: string;
  issuer_cn: string;
  subject_cn: string;
  dns_names: string[];
  has_private: boolean;
  is_ca: boolean;
  not_after: string;
}

/**
 * The organisation's certificates: upload PEM (pasted or from a file), see what each is (its
 * details and fingerprint), delete. A certificate is not edited: its id is its fingerprint, so a
 * changed one is a new upload. Private keys never come back.
 */
export function Certificates() {
  const { can } = useSession();
  const writable = can('certificates', 'write');
  const [page, setPage] = useState(1);
  const [round, setRound] = useState(0);
  const certs = useLoad(
    () => get<{ certs: Cert[]; pages: number }>(`/certs?p=${page}&mode=detailed`),
    `certs|${page}|${round}`,
  );
  const [shown, setShown] = useState('');
  const [notice, setNotice] = useState('');
  const changed = (text: string) => {
    setNotice(text);
    setRound((n) => n + 1);
  };
  const remove = async (c: Cert) => {
    if (!window.confirm(`Delete the certificate ${c.subject_cn || c.id}? APIs that use it will no longer find it.`))
      return;
    try {
      await del(`/certs/${encodeURIComponent(c.id)}`);
      if (shown === c.id) setShown('');
      changed(`Certificate ${c.subject_cn || c.id} deleted.`);
    } catch (err) {
      window.alert(messageOf(err));
    }
  };
  return (
    <section>
      <h1>Certificates</h1>
      <Notice text={notice} />
      {writable && <Upload onAdded={(id) => (changed(`Certificate added: ${id}`), setShown(id))} />}
      {shown && <CertificateDetails key={shown} id={shown} onClose={() => setShown('')} />}
      <Show loaded={certs} what="certificates">
        {({ certs: rows, pages }) =>
          rows.length === 0 ? (
            <p>No certificates yet. They serve mutual TLS with clients and upstreams.</p>
          ) : (
            <>
              <div className="overflow-auto">
                <table className="striped" aria-label="Certificates">
                  <thead>
                    <tr>
                      <th scope="col">Subject</th>
                      <th scope="col">Issuer</th>
                      <th scope="col">Expires</th>
                      <th scope="col">Private key</th>
                      <th scope="col">Id</th>
                      <th scope="col">Actions</th>
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
                        <td>
                          <button type="button" className="outline small" onClick={() => setShown(c.id)}>
                            Details
                          </button>{' '}
                          {writable && (
                            <button type="button" className="secondary outline small" onClick={() => void remove(c)}>
                              Delete
                            </button>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager page={page} pages={pages} onPage={setPage} />
            </>
          )
        }
      </Show>
    </section>
  );
}

function Upload({ onAdded }: { onAdded(id: string): void }) {
  const [pem, setPem] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const add = async () => {
    setError('');
    setBusy(true);
    try {
      const added = await post<{ Meta: string }>('/certs', { cert: pem });
      setPem('');
      onAdded(added.Meta);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const readFile = async (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    setError('');
    // A certificate is a few kilobytes; anything far larger is not one (the server would refuse it too).
    if (file.size > 1_000_000)
      return setError(`${file.name} is ${Math.round(file.size / 1024)} KB: not a PEM certificate.`);
    setPem(await file.text());
  };
  return (
    <article>
      <h2>Add a certificate</h2>
      <Field label="Certificate (PEM, with its private key if it has one)" name="cert" error={error}>
        {(a) => (
          <textarea
            {...a}
            className="code"
            rows={6}
            spellCheck={false}
            value={pem}
            placeholder="-----BEGIN CERTIFICATE-----"
            onChange={(e: { target: HTMLTextAreaElement }) => setPem(e.target.value)}
          />
        )}
      </Field>
      <Field label="…or read it from a file" name="cert-file" hint=".pem, .crt or .key with the certificate in it">
        {(a) => (
          <input
            {...a}
            type="file"
            accept=".pem,.crt,.cer,.key,text/plain"
            onChange={(e: { target: HTMLInputElement }) => void readFile(e.target.files)}
          />
        )}
      </Field>
      <button type="button" onClick={add} disabled={!pem.trim() || busy} aria-busy={busy}>
        Add certificate
      </button>
    </article>
  );
}

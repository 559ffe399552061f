import { get } from '../api';
import { Show, useLoad } from '../components/status';

interface Cert {
  id: string;
  fingerprint?: string;
  subject?: { common_name?: string } | string;
  not_after?: string;
  has_private?: boolean;
  [field: string]: unknown;
}

/** The organisation's certificates (details mode of GET /api/certs). */
export function Certificates() {
  const certs = useLoad(() => get<{ certs: Cert[] }>('/certs?p=0&mode=detailed'), 'certs');
  return (
    <section>
      <h1>Certificates</h1>
      <Show loaded={certs} what="certificates">
        {({ certs: rows }) =>
          rows.length === 0 ? (
            <p>No certificates. Upload PEM files with <code>POST /api/certs</code> to use mutual TLS or upstream certificates.</p>
          ) : (
            <table className="striped">
              <thead>
                <tr>
                  <th scope="col">Id</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Private key</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((c) => (
                  <tr key={String(c.id ?? c)}>
                    <td>
                      <code>{String(c.id ?? c)}</code>
                    </td>
                    <td>{typeof c.subject === 'object' ? c.subject?.common_name : String(c.subject ?? '')}</td>
                    <td>{c.not_after ?? ''}</td>
                    <td>{c.has_private ? 'yes' : 'no'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Show>
    </section>
  );
}

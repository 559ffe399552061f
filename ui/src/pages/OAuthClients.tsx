import { useState } from 'react';
import { del, get, messageOf, post } from '../api';
import { CopyButton, SelectField, TextField } from '../components/form';
import { ErrorBox, Notice, Show, useLoad } from '../components/status';
import { useSession } from '../session';
import { useApis } from './access';
import { activityHref } from './ClientActivity';
import { listPolicies } from './PolicyPicker';

interface Client {
  client_id: string;
  redirect_uri: string;
  policy_id: string;
  description: string;
}

/** OAuth 2.0 clients of the organisation's OAuth APIs: register (secret shown once), list, tokens (list, revoke), delete. */
export function OAuthClients() {
  const { can } = useSession();
  const apis = useApis();
  const oauthApis = (apis.data ?? []).filter((d) => d.use_oauth2);
  const [picked, setPicked] = useState('');
  const apiId = picked || oauthApis[0]?.api_id || '';
  if (apis.data && oauthApis.length === 0) return null;
  return (
    <article>
      <h2>OAuth clients</h2>
      <SelectField
        label="OAuth API"
        name="oauth-api"
        value={apiId}
        options={oauthApis.map((d) => [d.api_id, d.name] as [string, string])}
        onChange={setPicked}
      />
      {apiId && <ClientList apiId={apiId} writable={can('apis', 'write')} />}
    </article>
  );
}

function ClientList({ apiId, writable }: { apiId: string; writable: boolean }) {
  const clients = useLoad(() => get<{ apps: Client[] }>(`/apis/oauth/${encodeURIComponent(apiId)}?p=0`), apiId);
  const [tokensOf, setTokensOf] = useState('');
  const [error, setError] = useState('');
  return (
    <>
      {writable && <NewClient apiId={apiId} onCreated={clients.reload} />}
      {error && <ErrorBox error={error} />}
      <Show loaded={clients} what="OAuth clients">
        {({ apps }) =>
          apps.length === 0 ? (
            <p>No clients registered for this API.</p>
          ) : (
            <table className="striped">
              <thead>
                <tr>
                  <th scope="col">Client id</th>
                  <th scope="col">Description</th>
                  <th scope="col">Redirect URI</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {apps.map((c) => (
                  <tr key={c.client_id}>
                    <td>
                      <code>{c.client_id}</code>
                    </td>
                    <td>{c.description}</td>
                    <td>{c.redirect_uri}</td>
                    <td>
                      <button type="button" className="outline small" onClick={() => setTokensOf(c.client_id)}>
                        Tokens
                      </button>{' '}
                      {writable && (
                        <button
                          type="button"
                          className="secondary outline small"
                          onClick={async () =>
                            window.confirm('Delete this client and its tokens?') &&
                            (await del(`/apis/oauth/${encodeURIComponent(apiId)}/${c.client_id}`).then(
                              clients.reload,
                              (err) => setError(messageOf(err)),
                            ))
                          }
                        >
                          Delete
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Show>
      {tokensOf && <Tokens key={tokensOf} apiId={apiId} clientId={tokensOf} writable={writable} />}
    </>
  );
}

/**
 * The live tokens of one client (listed by hash: keys are stored hashed), each linked to its
 * analytics; revoke one (the operator pastes it, as RFC 7009 takes it) or all (with the client's
 * secret, which the server keeps only hashed).
 */
function Tokens({ apiId, clientId, writable }: { apiId: string; clientId: string; writable: boolean }) {
  const tokens = useLoad(
    () =>
      get<Array<{ code: string; expires: number }>>(
        `/apis/oauth/${encodeURIComponent(apiId)}/${encodeURIComponent(clientId)}/tokens`,
      ),
    `${apiId}|${clientId}`,
  );
  const [token, setToken] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const revoke =
    (path: string, body: Record<string, string>, done: string) => async (event: { preventDefault(): void }) => {
      event.preventDefault();
      setError('');
      setNotice('');
      try {
        await post(`/apis/oauth/${encodeURIComponent(clientId)}/${path}`, body);
        setToken('');
        setSecret('');
        setNotice(done);
        tokens.reload();
      } catch (err) {
        setError(messageOf(err));
      }
    };
  return (
    <section aria-label={`Tokens of client ${clientId}`}>
      <h3>
        Tokens of <code>{clientId}</code>
      </h3>
      <Show loaded={tokens} what="tokens">
        {(rows) =>
          rows.length === 0 ? (
            <p>No live tokens for this client.</p>
          ) : (
            <table className="striped" aria-label="Live tokens">
              <thead>
                <tr>
                  <th scope="col">Token (hash)</th>
                  <th scope="col">Expires (UTC)</th>
                  <th scope="col">Analytics</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((t) => (
                  <tr key={t.code}>
                    <td>
                      <code>{t.code}</code>
                    </td>
                    <td>{new Date(t.expires * 1000).toISOString().replace('T', ' ').slice(0, 19)}</td>
                    <td>
                      <a href={activityHref('keys', t.code)}>Activity</a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Show>
      {writable && (
        <div className="grid">
          <form
            onSubmit={revoke('revoke', { token }, 'If the token was one of this client, it no longer works.')}
            aria-label="Revoke a token"
          >
            <TextField
              label="Access or refresh token to revoke"
              name="revoke-token"
              type="password"
              value={token}
              onChange={setToken}
              required
            />
            <button type="submit" className="secondary">
              Revoke token
            </button>
          </form>
          <form
            onSubmit={revoke('revoke_all', { client_secret: secret }, "All of this client's tokens are revoked.")}
            aria-label="Revoke all tokens"
          >
            <TextField
              label="Client secret (to revoke every token)"
              name="revoke-secret"
              type="password"
              value={secret}
              onChange={setSecret}
              required
            />
            <button type="submit" className="secondary">
              Revoke all tokens
            </button>
          </form>
        </div>
      )}
      {error && <ErrorBox error={error} />}
      <Notice text={notice} />
    </section>
  );
}

function NewClient({ apiId, onCreated }: { apiId: string; onCreated(): void }) {
  const policies = useLoad(listPolicies, 'oauth-policies');
  const [form, setForm] = useState({ redirect_uri: 'https://', policy_id: '', description: '' });
  const [created, setCreated] = useState<{ client_id: string; secret: string } | null>(null);
  const [error, setError] = useState('');
  const create = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    setError('');
    try {
      setCreated(
        await post<{ client_id: string; secret: string }>(`/apis/oauth/${encodeURIComponent(apiId)}`, {
          ...form,
          policy_id: form.policy_id || undefined,
        }),
      );
      onCreated();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  if (created)
    return (
      <div className="secret">
        <p>
          Client <code>{created.client_id}</code> registered. Its secret, shown once: <code>{created.secret}</code>{' '}
          <CopyButton text={created.secret} label="Copy secret" />
        </p>
        <button type="button" className="outline" onClick={() => setCreated(null)}>
          Register another client
        </button>
      </div>
    );
  return (
    <form onSubmit={create} aria-label="Register an OAuth client">
      <div className="grid">
        <TextField
          label="Redirect URI"
          name="redirect_uri"
          value={form.redirect_uri}
          onChange={(redirect_uri) => setForm({ ...form, redirect_uri })}
          required
        />
        <SelectField
          label="Policy"
          name="oauth-policy"
          value={form.policy_id}
          options={[['', 'None'], ...(policies.data?.policies ?? []).map((p) => [p.id, p.name] as [string, string])]}
          onChange={(policy_id) => setForm({ ...form, policy_id })}
        />
        <TextField
          label="Description"
          name="oauth-description"
          value={form.description}
          onChange={(description) => setForm({ ...form, description })}
        />
      </div>
      {error && <ErrorBox error={error} />}
      <button type="submit">Register client</button>
    </form>
  );
}

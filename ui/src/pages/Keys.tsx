import { useState } from 'react';
import { ApiError, del, get, messageOf, post, put } from '../api';
import { CopyButton, NumberField, SelectField, TextField, Toggle } from '../components/form';
import { ErrorBox, Notice, useLoad } from '../components/status';
import { useSession } from '../session';
import { AccessRights, useApis, type AccessRight } from './access';
import { OAuthClients } from './OAuthClients';
import { listPolicies, PolicyPicker } from './PolicyPicker';

type Session = Record<string, any>;

/** Access keys: create (shown once), list per API, look up by key or hash, edit, delete. */
export function Keys() {
  const { can } = useSession();
  return (
    <section>
      <h1>Keys</h1>
      {can('keys', 'write') && <CreateKey />}
      <FindKey writable={can('keys', 'write')} />
      {can('keys', 'write') && <BasicUser />}
      {can('apis', 'read') && <OAuthClients />}
    </section>
  );
}

function CreateKey() {
  const { me } = useSession();
  const [usePolicies, setUsePolicies] = useState(true);
  const [policies, setPolicies] = useState<string[]>([]);
  const [policyRights, setPolicyRights] = useState<Record<string, AccessRight>>({});
  const [limits, setLimits] = useState({ rate: 100, per: 60, quota_max: -1, quota_renewal_rate: 3600 });
  const [rights, setRights] = useState<Record<string, AccessRight>>({});
  const [alias, setAlias] = useState('');
  const [created, setCreated] = useState<{ key: string; hash: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const submit = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    setError('');
    setErrors({});
    const session: Session = usePolicies
      ? { apply_policies: policies, access_rights: policyRights, alias }
      : { ...limits, access_rights: rights, alias };
    try {
      const answer = await post<{ key_id: string; key_hash: string }>('/keys', session);
      setCreated({ key: answer.key_id, hash: answer.key_hash });
    } catch (err) {
      setError(messageOf(err));
      if (err instanceof ApiError) setErrors(err.fields('session.'));
    }
  };
  if (created)
    return (
      <article className="secret" aria-label="New key">
        <h2>Key created</h2>
        <p>Copy the key now: it is shown only once. Store it like a password.</p>
        <p className="key-line">
          <code data-testid="new-key">{created.key}</code> <CopyButton text={created.key} label="Copy key" />
        </p>
        <p data-testid="key-usage">
          Send it in the <code>Authorization</code> header (or the header an API names) when you call an API it opens on
          the gateway, e.g.{' '}
          <code>
            curl -H "Authorization: {created.key}" {me.gateway_url}/your-listen-path/
          </code>
        </p>
        <p>
          <small>
            Hash (safe to share with support, usable for look-ups and analytics):{' '}
            <code data-testid="new-key-hash">{created.hash}</code>
          </small>
        </p>
        <button type="button" className="outline" onClick={() => setCreated(null)}>
          Create another key
        </button>
      </article>
    );
  return (
    <article>
      <h2>Create a key</h2>
      <form onSubmit={submit} aria-label="Create a key">
        <fieldset>
          <label>
            <input type="radio" name="key-source" checked={usePolicies} onChange={() => setUsePolicies(true)} /> Apply
            policies
          </label>
          <label>
            <input type="radio" name="key-source" checked={!usePolicies} onChange={() => setUsePolicies(false)} /> Own
            limits and access rights
          </label>
        </fieldset>
        <TextField
          label="Alias (optional)"
          name="alias"
          value={alias}
          onChange={setAlias}
          hint="A name shown in analytics instead of the hash"
        />
        {usePolicies ? (
          <PolicyPicker
            value={policies}
            onChange={(ids, rights) => {
              setPolicies(ids);
              setPolicyRights(rights);
            }}
          />
        ) : (
          <>
            <div className="grid">
              <NumberField
                label="Rate (requests)"
                name="rate"
                value={limits.rate}
                error={errors.rate}
                onChange={(rate) => setLimits({ ...limits, rate })}
              />
              <NumberField
                label="Per (seconds)"
                name="per"
                value={limits.per}
                error={errors.per}
                onChange={(per) => setLimits({ ...limits, per })}
              />
              <NumberField
                label="Quota (-1: none)"
                name="quota_max"
                value={limits.quota_max}
                error={errors.quota_max}
                onChange={(quota_max) => setLimits({ ...limits, quota_max })}
              />
              <NumberField
                label="Quota period (s)"
                name="quota_renewal_rate"
                value={limits.quota_renewal_rate}
                error={errors.quota_renewal_rate}
                onChange={(quota_renewal_rate) => setLimits({ ...limits, quota_renewal_rate })}
              />
            </div>
            <AccessRights value={rights} onChange={setRights} />
          </>
        )}
        {error && <ErrorBox error={error} />}
        <button type="submit">Create key</button>
      </form>
    </article>
  );
}

function FindKey({ writable }: { writable: boolean }) {
  const apis = useApis();
  const policyNames = useLoad(
    () =>
      listPolicies().then((r) => Object.fromEntries(r.policies.map((p) => [p.id, p.name])) as Record<string, string>),
    'policy-names',
  );
  const [apiId, setApiId] = useState('');
  const [keyText, setKeyText] = useState('');
  const [hashes, setHashes] = useState<string[] | null>(null);
  const [found, setFound] = useState<{ id: string; data: Session } | null>(null);
  const [newPassword, setNewPassword] = useState('');
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const api = apiId || apis.data?.[0]?.id || '';
  // Only basic-authentication users carry how their password is hashed.
  const basicUser = Boolean(found?.data.basic_auth_data?.hash_type);
  const lookUp = async (key: string) => {
    setError('');
    setNotice('');
    try {
      const answer = await get<{ key_id: string; data: Session }>(
        `/apis/${encodeURIComponent(api)}/keys/${encodeURIComponent(key)}`,
      );
      setFound({ id: answer.data.basic_auth_data?.hash_type ? answer.key_id : key, data: answer.data });
      setNewPassword('');
    } catch (err) {
      setFound(null);
      setError(messageOf(err));
    }
  };
  const list = async () => {
    setError('');
    try {
      setHashes((await get<{ data: { keys: string[] } }>(`/apis/${encodeURIComponent(api)}/keys?p=0`)).data.keys);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const save = async () => {
    if (!found) return;
    setError('');
    setNotice('');
    try {
      if (basicUser) {
        // An empty password keeps the current one.
        await put(`/apis/keys/basic/${encodeURIComponent(found.id)}`, {
          ...found.data,
          basic_auth_data: { password: newPassword },
        });
        setNewPassword('');
        setNotice(
          newPassword ? 'Basic-authentication user saved, with the new password.' : 'Basic-authentication user saved.',
        );
        return;
      }
      await put(`/apis/${encodeURIComponent(api)}/keys/${encodeURIComponent(found.id)}`, found.data);
      setNotice('Key saved.');
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const remove = async () => {
    if (
      !found ||
      !window.confirm(`Delete this ${basicUser ? 'user' : 'key'}? Requests with it will be refused at once.`)
    )
      return;
    try {
      await del(`/apis/${encodeURIComponent(api)}/keys/${encodeURIComponent(found.id)}`);
      setFound(null);
      setNotice(basicUser ? `Basic-authentication user ${found.id} deleted.` : 'Key deleted.');
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const set = (field: string, value: unknown) =>
    found && setFound({ ...found, data: { ...found.data, [field]: value } });
  return (
    <article>
      <h2>Find a key</h2>
      <form
        className="grid"
        onSubmit={(e: { preventDefault(): void }) => {
          e.preventDefault();
          void lookUp(keyText.trim());
        }}
      >
        <SelectField
          label="API"
          name="lookup-api"
          value={api}
          options={(apis.data ?? []).map((d) => [d.id, d.name] as [string, string])}
          onChange={setApiId}
        />
        <TextField
          label="Key, key hash or basic-auth username"
          name="lookup-key"
          value={keyText}
          onChange={setKeyText}
          required
        />
        <div className="inline-actions">
          <button type="submit">Look up</button>
          <button type="button" className="secondary" onClick={list} disabled={!api}>
            List this API's keys
          </button>
        </div>
      </form>
      {error && <ErrorBox error={error} />}
      <Notice text={notice} />
      {hashes && (
        <ul className="hash-list" aria-label="Keys of this API (hashes)">
          {hashes.length === 0 && <li>No keys give access to this API.</li>}
          {hashes.map((hash) => (
            <li key={hash}>
              <button type="button" className="link" onClick={() => void lookUp(hash)}>
                {hash}
              </button>
            </li>
          ))}
        </ul>
      )}
      {found && (
        <section aria-label="Key details">
          <h3>
            {basicUser ? (
              <>
                Basic-authentication user <code>{found.id}</code>
              </>
            ) : (
              <>
                Key <code>{found.data.alias || `${found.id.slice(0, 12)}…`}</code>
              </>
            )}
          </h3>
          {(found.data.apply_policies ?? []).length > 0 && (
            <p>
              <small>
                This key's limits and access rights come from its policies: what you set here is replaced by theirs on
                use.
              </small>
            </p>
          )}
          <div className="grid">
            <NumberField
              label="Rate"
              name="edit-rate"
              value={found.data.rate}
              onChange={(v) => set('rate', v)}
              disabled={!writable}
            />
            <NumberField
              label="Per (seconds)"
              name="edit-per"
              value={found.data.per}
              onChange={(v) => set('per', v)}
              disabled={!writable}
            />
            <NumberField
              label="Quota (-1: none)"
              name="edit-quota"
              value={found.data.quota_max}
              onChange={(v) => set('quota_max', v)}
              disabled={!writable}
            />
            <NumberField
              label="Quota remaining"
              name="quota_remaining"
              value={found.data.quota_remaining}
              onChange={() => undefined}
              disabled
            />
          </div>
          {basicUser && writable && (
            <TextField
              label="New password (empty: unchanged)"
              name="edit-basic-password"
              type="password"
              value={newPassword}
              onChange={setNewPassword}
            />
          )}
          <Toggle
            label="Inactive (refused)"
            name="is_inactive"
            checked={Boolean(found.data.is_inactive)}
            onChange={(v) => set('is_inactive', v)}
            disabled={!writable}
          />
          {(found.data.apply_policies ?? []).length === 0 && (
            <AccessRights
              value={found.data.access_rights ?? {}}
              onChange={(v) => set('access_rights', v)}
              disabled={!writable}
            />
          )}
          <p>
            Policies:{' '}
            {(found.data.apply_policies ?? []).map((id: string) => policyNames.data?.[id] ?? id).join(', ') || 'none'} ·
            APIs:{' '}
            {Object.values((found.data.access_rights ?? {}) as Record<string, AccessRight>)
              .map((r) => r.api_name)
              .join(', ') || 'none'}
          </p>
          {writable && (
            <div className="inline-actions">
              <button type="button" onClick={save}>
                {basicUser ? 'Save user' : 'Save key'}
              </button>
              <button type="button" className="secondary" onClick={remove}>
                {basicUser ? 'Delete user' : 'Delete key'}
              </button>
            </div>
          )}
        </section>
      )}
    </article>
  );
}

/** A basic-authentication user: a username and password that open the chosen APIs. */
function BasicUser() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [rights, setRights] = useState<Record<string, AccessRight>>({});
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const create = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    setError('');
    setNotice('');
    try {
      await post(`/apis/keys/basic/${encodeURIComponent(username)}`, {
        basic_auth_data: { password },
        access_rights: rights,
        rate: 100,
        per: 60,
        quota_max: -1,
      });
      setNotice(`Basic-authentication user ${username} created.`);
      setPassword('');
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <article>
      <h2>Basic-authentication user</h2>
      <p>
        <small>
          To change an existing user's password, limits or access, or to delete it, find it above by its username.
        </small>
      </p>
      <form onSubmit={create} aria-label="Create a basic-authentication user">
        <div className="grid">
          <TextField label="Username" name="basic-username" value={username} onChange={setUsername} required />
          <TextField
            label="Password"
            name="basic-password"
            type="password"
            value={password}
            onChange={setPassword}
            required
          />
        </div>
        <AccessRights value={rights} onChange={setRights} />
        {error && <ErrorBox error={error} />}
        <Notice text={notice} />
        <button type="submit">Create user</button>
      </form>
    </article>
  );
}

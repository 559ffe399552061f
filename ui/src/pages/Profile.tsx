import { useState } from 'react';
import { messageOf, put, type Envelope } from '../api';
import { CopyButton } from '../components/form';
import { ErrorBox } from '../components/status';
import { useSession } from '../session';

/** Who you are, and your own dashboard API access key: open to every signed-in user. */
export function Profile() {
  const { me } = useSession();
  const name = [me.user.first_name, me.user.last_name].join(' ').trim();
  const permissions = me.is_admin
    ? 'administrator'
    : Object.entries(me.user_permissions)
        .map(([permission, level]) => `${permission}: ${level}`)
        .join(', ') || 'none';
  return (
    <section>
      <div className="page-head">
        <h1>Your profile</h1>
      </div>
      <article>
        <dl className="profile">
          {name && (
            <>
              <dt>Name</dt>
              <dd>{name}</dd>
            </>
          )}
          <dt>Email address</dt>
          <dd>{me.user.email_address}</dd>
          <dt>Organisation</dt>
          <dd>{me.org.name}</dd>
          <dt>Permissions</dt>
          <dd data-testid="my-permissions">{permissions}</dd>
        </dl>
      </article>
      <AccessKey userId={me.user.id} />
    </section>
  );
}

/**
 * The key is stored hashed, so it can not be shown again: the only way to a usable key is a new
 * one, which ends the old one at once.
 */
function AccessKey({ userId }: { userId: string }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState('');
  const renew = async () => {
    if (!window.confirm('Renew your access key? Your current key stops working at once.')) return;
    setError('');
    try {
      setKey((await put<Envelope<string>>(`/users/${encodeURIComponent(userId)}/actions/key/reset`, {})).Meta);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <article className={key ? 'secret' : undefined} aria-label="Dashboard API access key">
      <h2>Dashboard API access key</h2>
      <p>
        Scripts and tools call the dashboard REST API with your access key in the <code>Authorization</code> header.
        They act with your permissions. The key is stored hashed and shown only once, when it is made.
      </p>
      {key ? (
        <>
          <p role="status">
            <strong>Your previous key no longer works.</strong> Copy the new key now: it is not shown again. Store it
            like a password.
          </p>
          <p className="key-line">
            <code data-testid="new-key">{key}</code> <CopyButton text={key} label="Copy key" />
          </p>
          <p>
            <code>
              curl -H "Authorization: {key}" {window.location.origin}/api/apis
            </code>
          </p>
        </>
      ) : (
        <p>
          <small>Renewing makes a new key and ends your current one at once: update whatever uses it.</small>
        </p>
      )}
      {error && <ErrorBox error={error} />}
      <button type="button" className={key ? 'secondary outline' : undefined} onClick={() => void renew()}>
        Renew my access key
      </button>
    </article>
  );
}

import { useState } from 'react';
import { ApiError, del, get, messageOf, post, put } from '../api';
import { CopyButton, SelectField, TextField, Toggle } from '../components/form';
import { ErrorBox, Notice, Show, useLoad, type Loaded } from '../components/status';
import { useSession } from '../session';
import { PermissionsEditor } from './PermissionsEditor';

interface UserRow {
  id: string;
  first_name: string;
  last_name: string;
  email_address: string;
  active: boolean;
  group_id: string;
  user_permissions: Record<string, string>;
}
interface GroupRow {
  id: string;
  name: string;
  description: string;
  user_permissions: Record<string, string>;
}

const summary = (p: Record<string, string>) =>
  p?.IsAdmin === 'admin'
    ? 'administrator'
    : Object.entries(p ?? {})
        .map(([name, level]) => `${name}: ${level}`)
        .join(', ') || 'none set';

const EMPTY_USER = {
  id: '',
  first_name: '',
  last_name: '',
  email_address: '',
  active: true,
  group_id: '',
  user_permissions: {} as Record<string, string>,
  password: '',
};
type Editing = typeof EMPTY_USER;

/** The organisation's users and user groups, with their permissions. */
export function Users() {
  const { can, me } = useSession();
  const writable = can('users', 'write');
  const users = useLoad(() => get<{ users: UserRow[] }>('/users?p=0'), 'users');
  const groups = useLoad(
    () =>
      can('user_groups', 'read')
        ? get<{ groups: GroupRow[] }>('/usergroups?p=0')
        : Promise.resolve({ groups: [] as GroupRow[] }),
    'groups',
  );
  const [editing, setEditing] = useState<Editing | null>(null);
  const groupName = (id: string) => groups.data?.groups.find((g) => g.id === id)?.name ?? id;
  return (
    <section>
      <div className="page-head">
        <h1>Users</h1>
        {writable && !editing && (
          <button type="button" onClick={() => setEditing({ ...EMPTY_USER })}>
            Add user
          </button>
        )}
      </div>
      {editing && (
        <UserForm
          user={editing}
          groups={groups.data?.groups ?? []}
          onDone={() => {
            setEditing(null);
            users.reload();
          }}
        />
      )}
      <Show loaded={users} what="users">
        {({ users: rows }) => (
          <div className="overflow-auto">
            <table className="striped">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Group</th>
                  <th scope="col">Permissions</th>
                  <th scope="col">Status</th>
                  {writable && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {rows.map((u) => (
                  <tr key={u.id}>
                    <td>{`${u.first_name} ${u.last_name}`.trim()}</td>
                    <td>{u.email_address}</td>
                    <td>{u.group_id ? groupName(u.group_id) : ''}</td>
                    <td>{summary(u.user_permissions)}</td>
                    <td>
                      {u.active ? (
                        <span className="badge ok">Active</span>
                      ) : (
                        <span className="badge off">Inactive</span>
                      )}
                    </td>
                    {writable && (
                      <td>
                        <button
                          type="button"
                          className="outline small"
                          onClick={() => setEditing({ ...EMPTY_USER, ...u, password: '' })}
                        >
                          Edit
                        </button>{' '}
                        {u.id !== me.user.id && (
                          <button
                            type="button"
                            className="secondary outline small"
                            onClick={async () => {
                              if (window.confirm(`Delete ${u.email_address}?`))
                                await del(`/users/${u.id}`).then(users.reload, (err) => window.alert(messageOf(err)));
                            }}
                          >
                            Delete
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Show>
      <Groups groups={groups} />
    </section>
  );
}

function UserForm({ user, groups, onDone }: { user: Editing; groups: GroupRow[]; onDone(): void }) {
  const [value, setValue] = useState(user);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [accessKey, setAccessKey] = useState('');
  const creating = !user.id;
  const set = (field: keyof Editing, v: unknown) => setValue({ ...value, [field]: v });
  const save = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    setError('');
    setErrors({});
    const { id, password, first_name, last_name, email_address, active, group_id, user_permissions } = value;
    const fields = { first_name, last_name, email_address, active, group_id, user_permissions };
    try {
      if (creating)
        setAccessKey((await post<{ Meta: { access_key: string } }>('/users', { ...fields, password })).Meta.access_key);
      else {
        await put(`/users/${id}`, fields);
        onDone();
      }
    } catch (err) {
      setError(messageOf(err));
      if (err instanceof ApiError) setErrors(err.fields('user.'));
    }
  };
  if (accessKey)
    return (
      <article className="secret">
        <h2>User created</h2>
        <p>
          Their dashboard API access key, shown once: <code>{accessKey}</code> <CopyButton text={accessKey} />
        </p>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </article>
    );
  return (
    <article>
      <h2>{creating ? 'Add a user' : `Edit ${user.email_address}`}</h2>
      <form onSubmit={save}>
        <div className="grid">
          <TextField
            label="First name"
            name="first_name"
            value={value.first_name}
            onChange={(v) => set('first_name', v)}
            error={errors.first_name}
          />
          <TextField
            label="Last name"
            name="last_name"
            value={value.last_name}
            onChange={(v) => set('last_name', v)}
            error={errors.last_name}
          />
        </div>
        <div className="grid">
          <TextField
            label="Email address"
            name="email_address"
            type="email"
            value={value.email_address}
            onChange={(v) => set('email_address', v)}
            error={errors.email_address}
            required
          />
          {creating && (
            <TextField
              label="Password"
              name="password"
              type="password"
              value={value.password}
              onChange={(v) => set('password', v)}
              error={errors.password}
            />
          )}
          <SelectField
            label="Group"
            name="group_id"
            value={value.group_id}
            options={[['', 'No group'], ...groups.map((g) => [g.id, g.name] as [string, string])]}
            onChange={(v) => set('group_id', v)}
          />
        </div>
        <Toggle label="Active" checked={value.active} onChange={(v) => set('active', v)} />
        <PermissionsEditor value={value.user_permissions} onChange={(v) => set('user_permissions', v)} />
        {error && <ErrorBox error={error} />}
        <div className="inline-actions">
          <button type="submit">{creating ? 'Add user' : 'Save user'}</button>
          <button type="button" className="secondary outline" onClick={onDone}>
            Cancel
          </button>
        </div>
      </form>
    </article>
  );
}

/** The groups, from the same load as the user form's group choice, so a new group is offered at once. */
function Groups({ groups }: { groups: Loaded<{ groups: GroupRow[] }> }) {
  const { can } = useSession();
  const readable = can('user_groups', 'read');
  const writable = can('user_groups', 'write');
  const [editing, setEditing] = useState<GroupRow | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  if (!readable) return null;
  const save = async () => {
    if (!editing) return;
    setError('');
    const { id, name, description, user_permissions } = editing;
    const group = { name, description, user_permissions };
    try {
      if (id) await put(`/usergroups/${id}`, group);
      else await post('/usergroups', group);
      setEditing(null);
      setNotice('Group saved.');
      groups.reload();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <>
      <div className="page-head">
        <h2>User groups</h2>
        {writable && !editing && (
          <button
            type="button"
            className="outline"
            onClick={() => setEditing({ id: '', name: '', description: '', user_permissions: {} })}
          >
            Add group
          </button>
        )}
      </div>
      <Notice text={notice} />
      {editing && (
        <article>
          <TextField
            label="Group name"
            name="group-name"
            value={editing.name}
            onChange={(name) => setEditing({ ...editing, name })}
          />
          <TextField
            label="Description"
            name="group-description"
            value={editing.description}
            onChange={(description) => setEditing({ ...editing, description })}
          />
          <PermissionsEditor
            value={editing.user_permissions}
            onChange={(user_permissions) => setEditing({ ...editing, user_permissions })}
          />
          {error && <ErrorBox error={error} />}
          <div className="inline-actions">
            <button type="button" onClick={save}>
              Save group
            </button>
            <button type="button" className="secondary outline" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </article>
      )}
      <Show loaded={groups} what="user groups">
        {({ groups: rows }) =>
          rows.length === 0 ? (
            <p>No user groups. A group gives its members the same permissions.</p>
          ) : (
            <table className="striped">
              <thead>
                <tr>
                  <th scope="col">Group</th>
                  <th scope="col">Description</th>
                  <th scope="col">Permissions</th>
                  {writable && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {rows.map((g) => (
                  <tr key={g.id}>
                    <td>{g.name}</td>
                    <td>{g.description}</td>
                    <td>{summary(g.user_permissions)}</td>
                    {writable && (
                      <td>
                        <button type="button" className="outline small" onClick={() => setEditing(g)}>
                          Edit
                        </button>{' '}
                        <button
                          type="button"
                          className="secondary outline small"
                          onClick={async () =>
                            window.confirm(`Delete the group ${g.name}?`) &&
                            (await del(`/usergroups/${g.id}`).then(groups.reload, (err) => setError(messageOf(err))))
                          }
                        >
                          Delete
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Show>
    </>
  );
}

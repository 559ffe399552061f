import { get } from '../api';
import { Show, useLoad } from '../components/status';
import { useSession } from '../session';

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

const permissions = (p: Record<string, string>) =>
  Object.entries(p ?? {})
    .map(([name, level]) => `${name}: ${level}`)
    .join(', ') || 'administrator (no restrictions)';

/** The organisation's users and user groups, with their permissions. */
export function Users() {
  const { can } = useSession();
  const users = useLoad(() => get<{ users: UserRow[] }>('/users?p=0'), 'users');
  const groups = useLoad(() => (can('user_groups', 'read') ? get<{ groups: GroupRow[] }>('/usergroups?p=0') : Promise.resolve({ groups: [] })), 'groups');
  return (
    <section>
      <h1>Users</h1>
      <Show loaded={users} what="users">
        {({ users: rows }) => (
          <table className="striped">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Permissions</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((u) => (
                <tr key={u.id}>
                  <td>{`${u.first_name} ${u.last_name}`.trim()}</td>
                  <td>{u.email_address}</td>
                  <td>{u.group_id ? `group ${u.group_id}; ` : ''}{permissions(u.user_permissions)}</td>
                  <td>{u.active ? <span className="badge ok">Active</span> : <span className="badge off">Inactive</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
      <h2>User groups</h2>
      <Show loaded={groups} what="user groups">
        {({ groups: rows }) =>
          rows.length === 0 ? (
            <p>No user groups.</p>
          ) : (
            <table className="striped">
              <thead>
                <tr>
                  <th scope="col">Group</th>
                  <th scope="col">Description</th>
                  <th scope="col">Permissions</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((g) => (
                  <tr key={g.id}>
                    <td>{g.name}</td>
                    <td>{g.description}</td>
                    <td>{permissions(g.user_permissions)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Show>
      <p>
        <small>Creating and editing users is done through the REST API (<code>/api/users</code>, <code>/api/usergroups</code>) in this release.</small>
      </p>
    </section>
  );
}

import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../lib/store/database';
import { migrate } from '../../lib/store/migrate';
import { hashSecret } from '../../lib/secret-hash';
import { USERS_MIGRATIONS } from '../../services/users/lib/migrations';
import { createTenant, type Tenant } from '../support/bootstrap';
import { http, type HttpResult } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

type Client = (path: string, options?: { method?: string; body?: unknown }) => Promise<HttpResult>;

/**
 * The users and user_groups permissions let a user manage people, never become more than it is:
 * it grants only what it holds and changes, resets, removes or signs in only users (and groups)
 * holding no more than itself. Administrators keep full power.
 */
describe('users: no escalation through users or user_groups write', () => {
  let node: TestNode;
  let admin: Tenant;
  let adminApi: Client;
  let manager: { id: string; access_key: string };
  let managerApi: Client;
  let strongGroup: string;
  const as =
    (headers: Record<string, string>): Client =>
    (path, options = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers });
  const createUser = async (client: Client, email: string, fields: Record<string, unknown> = {}) => {
    const res = await client('/users', {
      method: 'POST',
      body: { email_address: email, password: 'pw-123456', ...fields },
    });
    assert.equal(res.status, 200, res.text);
    return res.json.Meta as { id: string; access_key: string; email_address: string };
  };
  const denied = (res: HttpResult, message: RegExp) => {
    assert.equal(res.status, 403, res.text);
    assert.equal(res.json.Status, 'Error');
    assert.match(res.json.Message, message);
  };
  const me = async (client: Client) =>
    (await client('/me')).json as { is_admin: boolean; user_permissions: Record<string, string> };

  before(async () => {
    node = await startTestNode();
    admin = await createTenant(node.dashboardUrl, node.adminHeaders, 'Escalation');
    adminApi = as(admin.headers);
    manager = await createUser(adminApi, 'manager@escalation.test', { user_permissions: { users: 'write' } });
    managerApi = as({ authorization: manager.access_key });
    strongGroup = (
      await adminApi('/usergroups', {
        method: 'POST',
        body: { name: 'API writers', user_permissions: { apis: 'write' } },
      })
    ).json.Meta;
  });
  after(async () => {
    await node.stop();
    removeDir(node.dataDir);
  });

  it('a user can not give itself IsAdmin or a permission it does not hold', async () => {
    denied(
      await managerApi(`/users/${manager.id}`, {
        method: 'PUT',
        body: { user_permissions: { users: 'write', IsAdmin: 'admin' } },
      }),
      /only administrators can make an administrator/,
    );
    denied(
      await managerApi(`/users/${manager.id}`, {
        method: 'PUT',
        body: { user_permissions: { users: 'write', apis: 'read' } },
      }),
      /can not grant the 'apis' permission/,
    );
    denied(
      await managerApi(`/users/${manager.id}`, { method: 'PUT', body: { user_permissions: { users: 'admin' } } }),
      /can not grant the 'users' permission/,
    );
    const after = await me(managerApi);
    assert.equal(after.is_admin, false);
    assert.deepEqual(after.user_permissions, { users: 'write' });
  });

  it('a user can not join a group that holds more than it does', async () => {
    denied(
      await managerApi(`/users/${manager.id}`, { method: 'PUT', body: { group_id: strongGroup } }),
      /can not grant the 'apis' permission/,
    );
    assert.equal((await adminApi(`/users/${manager.id}`)).json.group_id, '');
  });

  it('a user created without permissions by a non-administrator has no rights, not an administrator', async () => {
    const created = await createUser(managerApi, 'nobody@escalation.test');
    const nobody = as({ authorization: created.access_key });
    assert.equal((await me(nobody)).is_admin, false);
    assert.equal((await nobody('/apis')).status, 403);
    assert.equal((await nobody('/users')).status, 403);
  });

  it('a user can not create a user with more than it holds', async () => {
    denied(
      await managerApi('/users', {
        method: 'POST',
        body: { email_address: 'boss@escalation.test', user_permissions: { IsAdmin: 'admin' } },
      }),
      /only administrators/,
    );
    denied(
      await managerApi('/users', {
        method: 'POST',
        body: { email_address: 'writer@escalation.test', user_permissions: { apis: 'write' } },
      }),
      /'apis'/,
    );
    denied(
      await managerApi('/users', {
        method: 'POST',
        body: { email_address: 'grouped@escalation.test', group_id: strongGroup },
      }),
      /'apis'/,
    );
    const listed = (await adminApi('/users?p=0')).json.users as Array<{ email_address: string }>;
    assert.ok(!listed.some((u) => /^(boss|writer|grouped)@/.test(u.email_address)), 'nothing created');
  });

  it("a user can not reset the administrator's access key or password, change or delete the administrator", async () => {
    denied(
      await managerApi(`/users/${admin.userId}/actions/key/reset`, { method: 'PUT' }),
      /this user is an administrator/,
    );
    assert.equal((await adminApi('/apis')).status, 200, "the administrator's key still works");
    denied(
      await managerApi(`/users/${admin.userId}/actions/reset`, {
        method: 'POST',
        body: { new_password: 'taken-over' },
      }),
      /this user is an administrator/,
    );
    denied(
      await managerApi(`/users/${admin.userId}`, {
        method: 'PUT',
        body: { email_address: 'manager-owned@escalation.test' },
      }),
      /this user is an administrator/,
    );
    denied(await managerApi(`/users/${admin.userId}`, { method: 'DELETE' }), /this user is an administrator/);
    assert.equal((await adminApi(`/users/${admin.userId}`)).json.email_address.endsWith('@example.com'), true);
  });

  it('a user can not touch a user holding a permission at a higher level than its own', async () => {
    const peerWriter = await createUser(adminApi, 'users-admin@escalation.test', {
      user_permissions: { users: 'admin' },
    });
    denied(
      await managerApi(`/users/${peerWriter.id}/actions/key/reset`, { method: 'PUT' }),
      /holds the 'users' permission at a level you do not/,
    );
    const reader = await createUser(adminApi, 'reader@escalation.test', { user_permissions: { users: 'read' } });
    const reset = await managerApi(`/users/${reader.id}/actions/key/reset`, { method: 'PUT' });
    assert.equal(reset.status, 200, 'a user holding less can still be managed');
  });

  it('a user can not sign in as the administrator, or anyone into a stronger group, through single sign-on', async () => {
    const adminEmail = (await adminApi(`/users/${admin.userId}`)).json.email_address;
    const sso = (body: Record<string, unknown>) =>
      managerApi('/sso', { method: 'POST', body: { ForSection: 'dashboard', OrgID: admin.orgId, ...body } });
    denied(await sso({ EmailAddress: adminEmail }), /this user is an administrator/);
    denied(await sso({ EmailAddress: 'newcomer@escalation.test', GroupID: strongGroup }), /'apis'/);

    const created = await sso({ EmailAddress: 'newcomer@escalation.test' });
    assert.equal(created.status, 200, created.text);
    const login = await http(`${node.dashboardUrl}/api/sso/login`, {
      method: 'POST',
      body: { nonce: created.json.Meta },
    });
    assert.equal(login.status, 200, login.text);
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const newcomer = await http(`${node.dashboardUrl}/api/me`, { headers: { cookie } });
    assert.equal(newcomer.json.is_admin, false, 'a person signed in by a non-administrator is not made one');
    assert.equal((await http(`${node.dashboardUrl}/api/users`, { headers: { cookie } })).status, 403);
  });

  it('a user with user_groups write can not make or change a group holding more than it does', async () => {
    const grouper = as({
      authorization: (
        await createUser(adminApi, 'grouper@escalation.test', { user_permissions: { user_groups: 'write' } })
      ).access_key,
    });
    denied(
      await grouper('/usergroups', {
        method: 'POST',
        body: { name: 'Admins', user_permissions: { IsAdmin: 'admin' } },
      }),
      /only administrators/,
    );
    denied(
      await grouper('/usergroups', { method: 'POST', body: { name: 'Writers', user_permissions: { apis: 'write' } } }),
      /'apis'/,
    );
    denied(
      await grouper(`/usergroups/${strongGroup}`, { method: 'PUT', body: { name: 'Renamed', user_permissions: {} } }),
      /this user group holds the 'apis' permission/,
    );
    denied(await grouper(`/usergroups/${strongGroup}`, { method: 'DELETE' }), /this user group holds/);
    const own = await grouper('/usergroups', {
      method: 'POST',
      body: { name: 'Group managers', user_permissions: { user_groups: 'read' } },
    });
    assert.equal(own.status, 200, own.text);
    denied(
      await grouper(`/usergroups/${own.json.Meta}`, {
        method: 'PUT',
        body: { name: 'Group managers', user_permissions: { user_groups: 'write', apis: 'read' } },
      }),
      /'apis'/,
    );
  });

  it('administrators keep full power: an administrator without permissions, resets, single sign-on for anyone', async () => {
    const second = await createUser(adminApi, 'second-admin@escalation.test');
    assert.deepEqual((await adminApi(`/users/${second.id}`)).json.user_permissions, { IsAdmin: 'admin' });
    const secondApi = as({ authorization: second.access_key });
    assert.equal((await me(secondApi)).is_admin, true);
    assert.equal((await secondApi(`/users/${manager.id}/actions/key/reset`, { method: 'PUT' })).status, 200);
    const nonce = await adminApi('/sso', {
      method: 'POST',
      body: { ForSection: 'dashboard', OrgID: admin.orgId, EmailAddress: 'sso-admin@escalation.test' },
    });
    const login = await http(`${node.dashboardUrl}/api/sso/login`, {
      method: 'POST',
      body: { nonce: nonce.json.Meta },
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    assert.equal((await http(`${node.dashboardUrl}/api/me`, { headers: { cookie } })).json.is_admin, true);
  });
});

describe('users: administrators made by empty permissions before they were explicit', () => {
  let node: TestNode;
  let dataDir: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gw-explicit-admins-'));
    const databaseUrl = `sqlite:${join(dataDir, 'gw.sqlite')}`;
    const db = openDatabase(databaseUrl);
    try {
      await migrate(
        db,
        'users',
        USERS_MIGRATIONS.filter((migration) => migration.name < '006'),
      );
      const row = (id: string, key: string, groupId: string) => ({
        id,
        org_id: 'legacy-org',
        email_address: `${id}@legacy.test`,
        first_name: '',
        last_name: '',
        password_hash: '',
        active: true,
        access_key_hash: hashSecret(key),
        group_id: groupId,
        user_permissions: '{}',
        created_at: 1_700_000_000_000,
        updated_at: 1_700_000_000_000,
      });
      await db('users').insert([
        row('legacy-admin', 'legacy-admin-key', ''),
        row('legacy-member', 'legacy-member-key', 'some-group'),
      ]);
    } finally {
      await db.destroy();
    }
    node = await startTestNode({ dataDir, databaseUrl });
  });
  after(async () => {
    await node.stop();
    removeDir(dataDir);
  });

  it('keeps a user stored with no permissions and no group an administrator, now with IsAdmin stored', async () => {
    const member = await http(`${node.dashboardUrl}/api/users/legacy-member`, {
      headers: { authorization: 'legacy-admin-key' },
    });
    assert.equal(member.status, 200, member.text);
    assert.deepEqual(member.json.user_permissions, {}, 'a group member keeps what it had');
    const admin = await http(`${node.dashboardUrl}/api/users/legacy-admin`, {
      headers: { authorization: 'legacy-admin-key' },
    });
    assert.deepEqual(admin.json.user_permissions, { IsAdmin: 'admin' });
  });
});

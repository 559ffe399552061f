import { strict as assert } from 'node:assert';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

describe('users, groups, permissions and organisation settings', () => {
  let node: TestNode;
  let admin: Tenant;
  const as =
    (headers: Record<string, string>) =>
    (path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers });
  let api: ReturnType<typeof as>;

  const createUser = async (email: string, fields: Record<string, unknown> = {}) => {
    const res = await api('/users', {
      method: 'POST',
      body: { email_address: email, first_name: 'T', last_name: 'User', ...fields },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.Message, 'User created');
    return res.json.Meta as { id: string; access_key: string; password: string };
  };

  before(async () => {
    node = await startTestNode();
    admin = await createTenant(node.dashboardUrl, node.adminHeaders, 'Permissions Inc');
    api = as(admin.headers);
  });
  after(async () => {
    await node.stop();
    removeDir(node.dataDir);
  });

  describe('users', () => {
    it('lists, reads, updates and deletes users of the organisation', async () => {
      const user = await createUser('bob@perm.test', { password: 'secret' });
      assert.equal(user.password, '');
      const listed = await api('/users');
      assert.ok(listed.json.users.some((u: { id: string }) => u.id === user.id));
      assert.equal(listed.json.pages, 1);
      const updated = await api(`/users/${user.id}`, {
        method: 'PUT',
        body: { first_name: 'Robert', password: 'ignored here' },
      });
      assert.deepEqual(updated.json, { Status: 'OK', Message: 'User updated', Meta: null });
      assert.equal((await api(`/users/${user.id}`)).json.first_name, 'Robert');
      const deleted = await api(`/users/${user.id}`, { method: 'DELETE' });
      assert.deepEqual(deleted.json, { Status: 'OK', Message: 'User deleted', Meta: null });
      assert.equal((await api(`/users/${user.id}`)).status, 404);
    });

    it('changes a password: current one required unless blank, then the new one logs in', async () => {
      const user = await createUser('carol@perm.test', { password: 'first' });
      const self = as({ authorization: user.access_key });
      const wrong = await self(`/users/${user.id}/actions/reset`, {
        method: 'POST',
        body: { current_password: 'nope', new_password: 'second' },
      });
      assert.equal(wrong.status, 403);
      assert.equal(wrong.json.Message, 'Current password is not correct');
      const right = await self(`/users/${user.id}/actions/reset`, {
        method: 'POST',
        body: { current_password: 'first', new_password: 'second' },
      });
      assert.deepEqual(right.json, { Status: 'OK', Message: 'User password updated', Meta: null });
      assert.equal(
        (
          await http(`${node.dashboardUrl}/api/login`, {
            method: 'POST',
            body: { email_address: 'carol@perm.test', password: 'first' },
          })
        ).status,
        401,
      );
      assert.equal(
        (
          await http(`${node.dashboardUrl}/api/login`, {
            method: 'POST',
            body: { email_address: 'carol@perm.test', password: 'second' },
          })
        ).status,
        200,
      );

      const blank = await createUser('dave@perm.test');
      const set = await as({ authorization: blank.access_key })(`/users/${blank.id}/actions/reset`, {
        method: 'POST',
        body: { new_password: 'fresh' },
      });
      assert.equal(set.status, 200, 'no current password needed when none is stored');
    });

    it('renews a user access key: the old one stops working at once', async () => {
      const user = await createUser('erin@perm.test');
      const res = await api(`/users/${user.id}/actions/key/reset`, { method: 'PUT', body: { userId: user.id } });
      assert.equal(res.json.Message, 'User session renewed');
      assert.match(res.json.Meta, /^[0-9a-f]{32}$/);
      assert.equal((await as({ authorization: user.access_key })('/apis')).status, 403);
      assert.equal((await as({ authorization: res.json.Meta })('/apis')).status, 200);
    });

    it('logs in with email and password, giving a session cookie the dashboard API accepts', async () => {
      await createUser('frank@perm.test', { password: 'pa55' });
      const login = await http(`${node.dashboardUrl}/api/login`, {
        method: 'POST',
        body: { email_address: 'frank@perm.test', password: 'pa55' },
      });
      assert.equal(login.status, 200);
      assert.equal(login.json.Message, 'Login successful');
      const cookie = login.headers.get('set-cookie')!;
      assert.match(cookie, /^gw-session=[0-9a-f]{48}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
      const listed = await http(`${node.dashboardUrl}/api/apis`, { headers: { cookie: cookie.split(';')[0] } });
      assert.equal(listed.status, 200);
      const bad = await http(`${node.dashboardUrl}/api/login`, {
        method: 'POST',
        body: { email_address: 'frank@perm.test', password: 'wrong' },
      });
      assert.equal(bad.status, 401);
      assert.equal(bad.json.Message, 'Email address or password not correct');
    });

    it('lets the admin API allow and disallow password resets', async () => {
      const user = await createUser('gina@perm.test', { user_permissions: { apis: 'read' } });
      const allowed = await http(`${node.dashboardUrl}/admin/users/${user.id}/actions/allow_reset_passwords`, {
        method: 'PUT',
        headers: node.adminHeaders,
      });
      assert.equal(allowed.json.Message, 'User updated');
      assert.deepEqual(allowed.json.Meta.user_permissions, { apis: 'read', ResetPassword: 'admin' });
      const disallowed = await http(`${node.dashboardUrl}/admin/users/${user.id}/actions/disallow_reset_passwords`, {
        method: 'PUT',
        headers: node.adminHeaders,
      });
      assert.deepEqual(disallowed.json.Meta.user_permissions, { apis: 'read' });
    });
  });

  describe('permissions', () => {
    let reader: ReturnType<typeof as>;
    let writer: ReturnType<typeof as>;
    let denied: ReturnType<typeof as>;
    let grouped: ReturnType<typeof as>;
    let apiId: string;

    before(async () => {
      apiId = (await api('/apis', { method: 'POST', body: keylessApi('Perm API', '/perm-api', 'http://127.0.0.1:9') }))
        .json.Meta;
      reader = as({
        authorization: (
          await createUser('reader@perm.test', { user_permissions: { apis: 'read', keys: 'read', users: 'read' } })
        ).access_key,
      });
      writer = as({
        authorization: (
          await createUser('writer@perm.test', {
            user_permissions: { apis: 'write', keys: 'write', policies: 'write', users: 'write', user_groups: 'write' },
          })
        ).access_key,
      });
      denied = as({
        authorization: (await createUser('denied@perm.test', { user_permissions: { apis: 'deny' } })).access_key,
      });
      const group = await api('/usergroups', {
        method: 'POST',
        body: { name: 'API editors', user_permissions: { apis: 'write', hooks: 'read' } },
      });
      assert.equal(group.json.Message, 'User group created');
      grouped = as({
        authorization: (
          await createUser('grouped@perm.test', { group_id: group.json.Meta, user_permissions: { hooks: 'deny' } })
        ).access_key,
      });
    });

    // [who, method, path, body, expected status]
    const table: Array<[string, string, () => string, unknown, number]> = [
      ['reader', 'GET', () => '/apis', undefined, 200],
      ['reader', 'POST', () => '/apis', keylessApi('R', '/r-1', 'http://127.0.0.1:9'), 403],
      ['reader', 'GET', () => '/users', undefined, 200],
      ['reader', 'POST', () => '/users', { email_address: 'x1@perm.test' }, 403],
      ['reader', 'GET', () => '/portal/policies', undefined, 403],
      ['reader', 'GET', () => '/usergroups', undefined, 403],
      ['reader', 'GET', () => '/org/permissions', undefined, 403],
      ['reader', 'GET', () => '/hooks', undefined, 403],
      ['reader', 'POST', () => '/keys', { access_rights: {} }, 403],
      ['reader', 'GET', () => `/apis/${apiId}/keys/unknown-key`, undefined, 404],
      ['writer', 'POST', () => '/apis', keylessApi('W', '/w-1', 'http://127.0.0.1:9'), 200],
      ['writer', 'POST', () => '/portal/policies', { name: 'p' }, 200],
      ['writer', 'POST', () => '/usergroups', { name: 'g' }, 200],
      ['writer', 'GET', () => '/org/opa', undefined, 403],
      ['writer', 'POST', () => '/hooks', { name: 'h', target_path: 'http://127.0.0.1:9/h' }, 403],
      ['writer', 'PUT', () => '/org/permissions', { additional_permissions: {} }, 403],
      ['denied', 'GET', () => '/apis', undefined, 403],
      ['denied', 'GET', () => `/apis/${apiId}`, undefined, 403],
      ['grouped', 'PUT', () => `/apis/${apiId}`, keylessApi('Perm API', '/perm-api', 'http://127.0.0.1:9'), 200],
      ['grouped', 'GET', () => '/users', undefined, 403],
      ['grouped', 'GET', () => '/hooks', undefined, 403],
    ];
    for (const [who, method, path, body, status] of table) {
      it(`${who}: ${method} ${path()} → ${status}`, async () => {
        const caller = { reader, writer, denied, grouped }[who]!;
        const res = await caller(path(), { method, body });
        assert.equal(res.status, status, res.text);
        if (status === 403) {
          assert.equal(res.json.Status, 'Error');
          assert.match(res.json.Message, /^Access denied: /);
        }
      });
    }

    it('lets an IsAdmin user do everything, including organisation settings', async () => {
      const boss = as({
        authorization: (await createUser('boss@perm.test', { user_permissions: { IsAdmin: 'admin' } })).access_key,
      });
      assert.equal((await boss('/org/permissions')).status, 200);
      assert.equal((await boss('/hooks')).status, 200);
      assert.equal((await boss('/users')).status, 200);
    });

    it("lets a user change their own password without the users write permission, but not someone else's", async () => {
      const self = await createUser('self@perm.test', { user_permissions: { users: 'read' } });
      const other = await createUser('other@perm.test');
      const client = as({ authorization: self.access_key });
      assert.equal(
        (await client(`/users/${self.id}/actions/reset`, { method: 'POST', body: { new_password: 'mine' } })).status,
        200,
      );
      assert.equal(
        (await client(`/users/${other.id}/actions/reset`, { method: 'POST', body: { new_password: 'theirs' } })).status,
        403,
      );
    });
  });

  describe('user groups', () => {
    it('creates, lists, updates and deletes groups', async () => {
      const created = await api('/usergroups', {
        method: 'POST',
        body: { name: 'Ops', description: 'operators', user_permissions: { analytics: 'read' } },
      });
      const id = created.json.Meta;
      assert.equal((await api(`/usergroups/${id}`)).json.name, 'Ops');
      const listed = await api('/usergroups');
      assert.ok(listed.json.groups.some((g: { id: string }) => g.id === id));
      assert.equal(typeof listed.json.pages, 'number');
      assert.equal(
        (await api(`/usergroups/${id}`, { method: 'PUT', body: { name: 'Operations' } })).json.Message,
        'User group updated',
      );
      assert.equal((await api(`/usergroups/${id}`)).json.name, 'Operations');
      assert.equal((await api(`/usergroups/${id}`, { method: 'DELETE' })).json.Message, 'User group deleted');
      assert.equal((await api(`/usergroups/${id}`)).status, 404);
    });

    it('refuses a user in a group of another organisation', async () => {
      const res = await api('/users', {
        method: 'POST',
        body: { email_address: 'lost@perm.test', group_id: '000000000000000000000000' },
      });
      assert.equal(res.status, 400);
    });
  });

  describe('organisation-level settings (administrators only)', () => {
    it('starts from the configured additional permissions and replaces the whole list on PUT', async () => {
      assert.deepEqual((await api('/org/permissions')).json, { additional_permissions: {} });
      const put = await api('/org/permissions', {
        method: 'PUT',
        body: { additional_permissions: { reports: 'Reports', billing: 'Billing' } },
      });
      assert.deepEqual(put.json, { Status: 'OK', Message: 'Additional Permissions updated in org level', Meta: null });
      await api('/org/permission', {
        method: 'PUT',
        body: { additional_permissions: { billing: 'Billing & invoices' } },
      });
      assert.deepEqual((await api('/org/permissions')).json, {
        additional_permissions: { billing: 'Billing & invoices' },
      });
    });

    it('starts from the shipped policy-engine rules and stores new ones', async () => {
      const initial = (await api('/org/opa')).json.open_policy;
      assert.equal(initial.enabled, false);
      assert.match(initial.rules, /package dashboard_users/);
      const put = await api('/org/opa', {
        method: 'PUT',
        body: { open_policy: { enabled: true, rules: 'package custom' } },
      });
      assert.deepEqual(put.json, { Status: 'OK', Message: 'OPA rules has been updated on org level', Meta: null });
      assert.deepEqual((await api('/org/opa')).json, { open_policy: { enabled: true, rules: 'package custom' } });
      assert.equal(
        (
          await api('/org/permission', {
            method: 'PUT',
            body: { open_policy: { enabled: false, rules: 'package again' } },
          })
        ).json.Message,
        'OPA rules has been updated on org level',
      );
    });
  });

  describe('deleting an organisation', () => {
    it('removes its users, groups, APIs, keys and policies, and its APIs stop being served', async () => {
      const doomed = await createTenant(node.dashboardUrl, node.adminHeaders, 'Doomed');
      const client = as(doomed.headers);
      const created = await client('/apis', {
        method: 'POST',
        body: keylessApi('Doomed API', '/doomed', 'http://127.0.0.1:9', { use_keyless: false }),
      });
      const key = await client('/keys', {
        method: 'POST',
        body: { access_rights: { [created.json.ID]: { api_id: created.json.ID } } },
      });
      await client('/portal/policies', { method: 'POST', body: { id: 'doomed-policy', name: 'doomed' } });
      await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/doomed/x`)).status, 401));

      const removed = await http(`${node.dashboardUrl}/admin/organisations/${doomed.orgId}`, {
        method: 'DELETE',
        headers: node.adminHeaders,
      });
      assert.equal(removed.json.Message, 'Org deleted');
      await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/doomed/x`)).status, 404));
      await eventually(async () => {
        assert.equal(
          (await http(`${node.dashboardUrl}/admin/users/${doomed.userId}`, { headers: node.adminHeaders })).status,
          404,
        );
        assert.equal(
          (await http(`${node.gatewayUrl}/gw/keys/${key.json.key_id}`, { headers: node.gwHeaders })).status,
          404,
        );
        assert.equal(
          (await http(`${node.gatewayUrl}/gw/policies/doomed-policy`, { headers: node.gwHeaders })).status,
          404,
        );
      });
      assert.equal((await client('/apis')).status, 403, "the organisation's users can no longer sign in");
    });
  });
});

import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { openDatabase } from '../../lib/store/database';
import { migrate } from '../../lib/store/migrate';
import { USERS_MIGRATIONS } from '../../services/users/lib/migrations';
import { createTenant, type Tenant } from '../support/bootstrap';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { STORE_VARIANTS } from '../support/stores';

/** Every column of every row of the users table, as the database holds it. */
async function usersTable(url: string): Promise<Array<Record<string, unknown>>> {
  const db = openDatabase(url);
  try {
    return await db('users').select('*');
  } finally {
    await db.destroy();
  }
}

/** The users table as the releases before hashed access keys left it: the plaintext key in `access_key`. */
async function legacyUsersTable(
  url: string,
  rows: Array<{ id: string; email: string; key: string; permissions: Record<string, string> }>,
): Promise<void> {
  const db = openDatabase(url);
  try {
    await migrate(
      db,
      'users',
      USERS_MIGRATIONS.filter((migration) => migration.name < '004'),
    );
    for (const row of rows) {
      await db('users').insert({
        id: row.id,
        org_id: 'legacy-org',
        email_address: row.email,
        first_name: '',
        last_name: '',
        password_hash: '',
        active: true,
        access_key: row.key,
        group_id: '',
        user_permissions: JSON.stringify(row.permissions),
        created_at: 1_700_000_000_000,
        updated_at: 1_700_000_000_000,
      });
    }
  } finally {
    await db.destroy();
  }
}

/** What the console shows while `work` runs (the node's logger writes to the console). */
async function consoleDuring(work: () => Promise<void>): Promise<string> {
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
  const saved = methods.map((name) => console[name]);
  const seen: string[] = [];
  for (const name of methods) console[name] = (...args: unknown[]) => void seen.push(format(...args));
  try {
    await work();
  } finally {
    methods.forEach((name, i) => (console[name] = saved[i]!));
  }
  return seen.join('\n');
}

for (const store of STORE_VARIANTS) {
  describe(`dashboard access keys are shown once and stored hashed (${store.name})`, function () {
    let node: TestNode;
    let database: { url: string; cleanup(): Promise<void> };
    let dataDir: string;
    let admin: Tenant;
    let reader: { id: string; access_key: string };
    const api = (key: string, path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers: { authorization: key } });

    before(async function () {
      if (!store.enabled) this.skip();
      dataDir = mkdtempSync(join(tmpdir(), 'gw-access-keys-'));
      database = await store.open(dataDir);
      node = await startTestNode({ dataDir, databaseUrl: database.url, logLevel: 'error' });
      admin = await createTenant(node.dashboardUrl, node.adminHeaders, 'Keyholders');
      const created = await api(admin.accessKey, '/users', {
        method: 'POST',
        body: {
          email_address: 'reader@keys.test',
          password: 'read only',
          user_permissions: { users: 'read', apis: 'read' },
        },
      });
      assert.equal(created.status, 200, created.text);
      reader = created.json.Meta;
    });
    after(async () => {
      if (!store.enabled) return;
      await node?.stop();
      await database.cleanup();
      removeDir(dataDir);
    });

    it('a read-only user lists and reads users but sees no access key, not even its own', async () => {
      const listed = await api(reader.access_key, '/users');
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(
        listed.json.users.map((u: { access_key: string }) => u.access_key),
        listed.json.users.map(() => ''),
      );
      assert.ok(listed.json.users.some((u: { id: string }) => u.id === admin.userId));
      for (const path of [`/users/${admin.userId}`, `/users/${reader.id}`]) {
        const one = await api(reader.access_key, path);
        assert.equal(one.status, 200, one.text);
        assert.equal(one.json.access_key, '');
        assert.equal(one.json.password, '');
      }
      for (const text of [listed.text, (await api(reader.access_key, `/users/${admin.userId}`)).text]) {
        assert.ok(!text.includes(admin.accessKey), "the administrator's key is not in the answer");
        assert.ok(!text.includes(reader.access_key), "the caller's own key is not in the answer");
      }
      const write = await api(reader.access_key, '/users', {
        method: 'POST',
        body: { email_address: 'sneaky@keys.test', user_permissions: { IsAdmin: 'admin' } },
      });
      assert.equal(write.status, 403);
    });

    it('the admin API, logins and permission changes never answer with an access key', async () => {
      const answers = [
        await http(`${node.dashboardUrl}/admin/users/${admin.userId}`, { headers: node.adminHeaders }),
        await http(`${node.dashboardUrl}/admin/users/${reader.id}/actions/allow_reset_passwords`, {
          method: 'PUT',
          headers: node.adminHeaders,
        }),
        await http(`${node.dashboardUrl}/api/login`, {
          method: 'POST',
          body: { email_address: 'reader@keys.test', password: 'read only' },
        }),
      ];
      for (const answer of answers) assert.equal(answer.status, 200, answer.text);
      const [fetched, allowed, login] = answers.map((answer) => answer.json);
      assert.equal(fetched.access_key, '');
      assert.equal(allowed.Meta.access_key, '');
      assert.equal(login.Meta.user.access_key, '');
      assert.equal(login.Meta.user.password, '');
      for (const answer of answers) {
        assert.ok(!answer.text.includes(admin.accessKey));
        assert.ok(!answer.text.includes(reader.access_key));
      }
    });

    it('single sign-on answers carry no access key, also for the user it creates', async () => {
      const nonce = await api(admin.accessKey, '/sso', {
        method: 'POST',
        body: { ForSection: 'dashboard', OrgID: admin.orgId, EmailAddress: 'sso@keys.test' },
      });
      assert.equal(nonce.status, 200, nonce.text);
      const login = await http(`${node.dashboardUrl}/api/sso/login`, {
        method: 'POST',
        body: { nonce: nonce.json.Meta },
      });
      assert.equal(login.status, 200, login.text);
      assert.equal(login.json.Meta.user.email_address, 'sso@keys.test');
      assert.equal(login.json.Meta.user.access_key, '');
    });

    it('the key given at creation works; a reset key replaces it at once', async () => {
      const created = await http(`${node.dashboardUrl}/admin/users`, {
        method: 'POST',
        headers: node.adminHeaders,
        body: { email_address: 'renewed@keys.test', org_id: admin.orgId },
      });
      assert.equal(created.status, 200, created.text);
      const first = created.json.Meta.access_key as string;
      assert.match(first, /^[0-9a-f]{32}$/);
      assert.equal((await api(first, `/users/${created.json.Meta.id}`)).status, 200);

      const reset = await api(admin.accessKey, `/users/${created.json.Meta.id}/actions/key/reset`, {
        method: 'PUT',
        body: { userId: created.json.Meta.id },
      });
      assert.equal(reset.json.Message, 'User session renewed');
      const second = reset.json.Meta as string;
      assert.match(second, /^[0-9a-f]{32}$/);
      assert.notEqual(second, first);
      const old = await api(first, '/users');
      assert.equal(old.status, 403);
      assert.equal(old.json.Message, 'Access key not recognised');
      assert.equal((await api(second, `/users/${created.json.Meta.id}`)).status, 200);
      assert.equal((await api(second, `/users/${created.json.Meta.id}`)).json.access_key, '');
    });

    it("a user without the users permission renews its own key with its login session, and no one else's", async () => {
      const created = await api(admin.accessKey, '/users', {
        method: 'POST',
        body: { email_address: 'viewer@keys.test', password: 'just looking', user_permissions: { apis: 'read' } },
      });
      assert.equal(created.status, 200, created.text);
      const viewer = created.json.Meta as { id: string; access_key: string };
      const login = await http(`${node.dashboardUrl}/api/login`, {
        method: 'POST',
        body: { email_address: 'viewer@keys.test', password: 'just looking' },
      });
      assert.equal(login.status, 200, login.text);
      // As curl sends it in the README's tour: the cookie, and no body.
      const session = { cookie: (login.headers.get('set-cookie') ?? '').split(';')[0] };
      const renewKey = (id: string) =>
        http(`${node.dashboardUrl}/api/users/${id}/actions/key/reset`, { method: 'PUT', headers: session });

      const renewed = await renewKey(viewer.id);
      assert.equal(renewed.status, 200, renewed.text);
      assert.equal(renewed.json.Message, 'User session renewed');
      const key = renewed.json.Meta as string;
      assert.match(key, /^[0-9a-f]{32}$/);
      assert.notEqual(key, viewer.access_key);
      const apis = await api(key, '/apis');
      assert.equal(apis.status, 200, apis.text);
      const old = await api(viewer.access_key, '/apis');
      assert.equal(old.status, 403);
      assert.equal(old.json.Message, 'Access key not recognised');

      for (const other of [reader.id, admin.userId]) {
        const refused = await renewKey(other);
        assert.equal(refused.status, 403, refused.text);
        assert.equal(refused.json.Message, "Access denied: this needs the 'users' permission at level 'write'");
      }
      assert.equal((await api(reader.access_key, '/apis')).status, 200, "the other user's key still works");

      const password = await http(`${node.dashboardUrl}/api/users/${viewer.id}/actions/reset`, {
        method: 'POST',
        headers: { authorization: key },
        body: { current_password: 'just looking', new_password: 'looking still' },
      });
      assert.equal(password.status, 200, password.text);
    });

    it('the users table holds no plaintext access key', async () => {
      const rows = await usersTable(database.url);
      assert.ok(rows.length >= 3);
      assert.ok(
        rows.every((row) => !('access_key' in row)),
        'no access_key column',
      );
      const stored = JSON.stringify(rows);
      assert.ok(!stored.includes(admin.accessKey));
      assert.ok(!stored.includes(reader.access_key));
    });

    it('never logs a presented access key, even when the lookup fails', async () => {
      const db = openDatabase(database.url);
      let failed: Awaited<ReturnType<typeof http>> | undefined;
      try {
        await db.schema.renameTable('users', 'users_away');
        const printed = await consoleDuring(async () => {
          failed = await api(reader.access_key, '/users');
        });
        assert.equal(failed!.status, 500);
        assert.match(printed, /unexpected error on dashboard surface/, 'the failure is logged');
        assert.ok(!printed.includes(reader.access_key), 'the key is not in the log');
      } finally {
        await db.schema.renameTable('users_away', 'users');
        await db.destroy();
      }
      assert.equal((await api(reader.access_key, '/users')).status, 200);
    });
  });

  describe(`access keys stored in plaintext by an earlier release (${store.name})`, function () {
    let node: TestNode | undefined;
    let database: { url: string; cleanup(): Promise<void> };
    let dataDir: string;
    const adminKey = 'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1';
    const readerKey = 'b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2';

    before(async function () {
      if (!store.enabled) this.skip();
      dataDir = mkdtempSync(join(tmpdir(), 'gw-legacy-keys-'));
      database = await store.open(dataDir);
    });
    after(async () => {
      if (!store.enabled) return;
      await node?.stop();
      await database.cleanup();
      removeDir(dataDir);
    });

    it('are hashed in place at start and keep working with the same key', async () => {
      await legacyUsersTable(database.url, [
        {
          id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
          email: 'old-admin@legacy.test',
          key: adminKey,
          permissions: { IsAdmin: 'admin' },
        },
        {
          id: 'bbbbbbbbbbbbbbbbbbbbbbbb',
          email: 'old-reader@legacy.test',
          key: readerKey,
          permissions: { users: 'read' },
        },
      ]);
      node = await startTestNode({ dataDir, databaseUrl: database.url });

      const rows = await usersTable(database.url);
      assert.equal(rows.length, 2);
      assert.ok(
        rows.every((row) => !('access_key' in row)),
        'no access_key column',
      );
      assert.ok(
        !JSON.stringify(rows).includes(adminKey) && !JSON.stringify(rows).includes(readerKey),
        'no plaintext key left',
      );

      const self = await http(`${node.dashboardUrl}/api/users/bbbbbbbbbbbbbbbbbbbbbbbb`, {
        headers: { authorization: readerKey },
      });
      assert.equal(self.status, 200, self.text);
      assert.equal(self.json.email_address, 'old-reader@legacy.test');
      assert.equal(self.json.access_key, '');
      const write = await http(`${node.dashboardUrl}/api/users/bbbbbbbbbbbbbbbbbbbbbbbb`, {
        method: 'PUT',
        headers: { authorization: adminKey },
        body: { first_name: 'Still admin' },
      });
      assert.equal(write.status, 200, write.text);
      const wrong = await http(`${node.dashboardUrl}/api/users`, {
        headers: { authorization: `${readerKey.slice(0, -1)}3` },
      });
      assert.equal(wrong.status, 403);
    });
  });
}

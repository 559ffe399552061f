import { strict as assert } from 'node:assert';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream } from '../support/upstream';

describe('dashboard REST API: who am I (GET /api/me) and signing out (POST /api/logout)', () => {
  let node: TestNode;
  let acme: Tenant;
  let email: string;

  before(async () => {
    node = await startTestNode();
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    email = (await http(`${node.dashboardUrl}/api/users/${acme.userId}`, { headers: acme.headers })).json.email_address;
  });
  after(async () => {
    await node.stop();
    removeDir(node.dataDir);
  });

  it('answers the signed-in user, their organisation and permissions for a login session cookie', async () => {
    const login = await http(`${node.dashboardUrl}/api/login`, {
      method: 'POST',
      body: { email_address: email, password: 'correct horse' },
    });
    assert.equal(login.status, 200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const me = await http(`${node.dashboardUrl}/api/me`, { headers: { cookie } });
    assert.equal(me.status, 200);
    assert.deepEqual(me.json, {
      user: { id: acme.userId, first_name: 'Ada', last_name: 'Admin', email_address: email },
      org: { id: acme.orgId, name: 'Acme' },
      is_admin: true,
      user_permissions: { IsAdmin: 'admin' },
      gateway_url: node.gatewayUrl,
    });
  });

  it('names the gateway at GW_GATEWAY_PORT on a management node, which runs no gateway of its own', async () => {
    const management = await startTestNode({ services: ['management'], gatewayPort: 18080 });
    try {
      const tenant = await createTenant(management.dashboardUrl, management.adminHeaders, 'Acme');
      const me = await http(`${management.dashboardUrl}/api/me`, { headers: tenant.headers });
      assert.equal(me.json.gateway_url, 'http://127.0.0.1:18080');
    } finally {
      await management.stop();
      removeDir(management.dataDir);
    }
  });

  it('answers any user, whatever their permissions, and never their access key', async () => {
    const created = await http(`${node.dashboardUrl}/api/users`, {
      method: 'POST',
      headers: acme.headers,
      body: {
        email_address: `reader-${Date.now()}@example.com`,
        password: 'pw-reader-1',
        user_permissions: { analytics: 'read' },
      },
    });
    const me = await http(`${node.dashboardUrl}/api/me`, { headers: { authorization: created.json.Meta.access_key } });
    assert.equal(me.status, 200);
    assert.equal(me.json.is_admin, false);
    assert.deepEqual(me.json.user_permissions, { analytics: 'read' });
    assert.doesNotMatch(me.text, new RegExp(created.json.Meta.access_key));
  });

  it('refuses a caller with no credentials in the envelope shape', async () => {
    const me = await http(`${node.dashboardUrl}/api/me`);
    assert.equal(me.status, 401);
    assert.equal(me.json.Status, 'Error');
  });

  it('signs out by ending the login session on the server and expiring its cookie', async () => {
    const login = await http(`${node.dashboardUrl}/api/login`, {
      method: 'POST',
      body: { email_address: email, password: 'correct horse' },
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    assert.equal((await http(`${node.dashboardUrl}/api/me`, { headers: { cookie } })).status, 200);
    const out = await http(`${node.dashboardUrl}/api/logout`, { method: 'POST', headers: { cookie }, body: {} });
    assert.equal(out.status, 200);
    assert.equal(out.json.Status, 'OK');
    assert.match(out.headers.get('set-cookie') ?? '', /^gw-session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0$/);
    const replayed = await http(`${node.dashboardUrl}/api/me`, { headers: { cookie } });
    assert.equal(replayed.status, 403, 'the old session token no longer signs anyone in');
    const again = await http(`${node.dashboardUrl}/api/logout`, { method: 'POST', headers: { cookie }, body: {} });
    assert.equal(again.status, 200, 'signing out twice is harmless');
  });
});

describe('dashboard REST API: the login cookie of a dashboard served over HTTPS (GW_DASHBOARD_URL https://…)', () => {
  let node: TestNode;
  let email: string;
  const origin = 'https://dashboard.example.test';

  before(async () => {
    node = await startTestNode({ dashboardUrl: origin });
    const acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    email = (await http(`${node.dashboardUrl}/api/users/${acme.userId}`, { headers: acme.headers })).json.email_address;
  });
  after(async () => {
    await node.stop();
    removeDir(node.dataDir);
  });

  it('is __Host-gw-session, Secure, Path=/ and without Domain; only that name signs in; signing out clears it', async () => {
    const login = await http(`${node.dashboardUrl}/api/login`, {
      method: 'POST',
      headers: { origin },
      body: { email_address: email, password: 'correct horse' },
    });
    assert.equal(login.status, 200, login.text);
    const set = login.headers.get('set-cookie') ?? '';
    assert.match(set, /^__Host-gw-session=[0-9a-f]{48}; Path=\/; HttpOnly; SameSite=Strict; Secure; Max-Age=\d+$/);
    const cookie = set.split(';')[0];
    const token = cookie.slice(cookie.indexOf('=') + 1);
    assert.equal((await http(`${node.dashboardUrl}/api/me`, { headers: { cookie } })).status, 200);
    const unprefixed = await http(`${node.dashboardUrl}/api/me`, { headers: { cookie: `gw-session=${token}` } });
    assert.equal(unprefixed.status, 401, 'a cookie without the prefix may have been planted by another host');
    const out = await http(`${node.dashboardUrl}/api/logout`, {
      method: 'POST',
      headers: { cookie, origin },
      body: {},
    });
    assert.equal(out.status, 200, out.text);
    assert.equal(
      out.headers.get('set-cookie'),
      '__Host-gw-session=; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=0',
    );
    assert.equal((await http(`${node.dashboardUrl}/api/me`, { headers: { cookie } })).status, 403);
  });

  it('is also removed on the gateway port', async () => {
    const upstream = await startUpstream();
    try {
      const tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Gate');
      const created = await http(`${node.dashboardUrl}/api/apis`, {
        method: 'POST',
        headers: tenant.headers,
        body: keylessApi('Secure', '/secure', upstream.url),
      });
      assert.equal(created.status, 200, created.text);
      await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/secure/x`)).status, 200), 5000);
      assert.equal(
        (await http(`${node.gatewayUrl}/secure/x`, { headers: { cookie: 'a=1; __Host-gw-session=SECRET' } })).status,
        200,
      );
      assert.equal(upstream.received.at(-1)!.headers.cookie, 'a=1');
    } finally {
      await upstream.close();
    }
  });
});

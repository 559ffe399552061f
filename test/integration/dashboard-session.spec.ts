import { strict as assert } from 'node:assert';
import { createTenant, type Tenant } from '../support/bootstrap';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

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
    const login = await http(`${node.dashboardUrl}/api/login`, { method: 'POST', body: { email_address: email, password: 'correct horse' } });
    assert.equal(login.status, 200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const me = await http(`${node.dashboardUrl}/api/me`, { headers: { cookie } });
    assert.equal(me.status, 200);
    assert.deepEqual(me.json, {
      user: { id: acme.userId, first_name: 'Ada', last_name: 'Admin', email_address: email },
      org: { id: acme.orgId, name: 'Acme' },
      is_admin: true,
      user_permissions: {},
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
      body: { email_address: `reader-${Date.now()}@example.com`, password: 'pw-reader-1', user_permissions: { analytics: 'read' } },
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
    const login = await http(`${node.dashboardUrl}/api/login`, { method: 'POST', body: { email_address: email, password: 'correct horse' } });
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

import { strict as assert } from 'node:assert';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { close, listen } from '../../lib/http/listen';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('single sign-on and webhooks', function () {
  this.timeout(30_000);
  let node: TestNode;
  let tenant: Tenant;
  let upstream: Upstream;
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];
  let failNext = 0;
  const api = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });

  before(async () => {
    upstream = await startUpstream();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        if (failNext > 0) {
          failNext--;
          res.writeHead(500).end('try again');
        } else res.writeHead(200).end('ok');
      });
    });
    receiverUrl = `http://127.0.0.1:${await listen(receiver, 0, '127.0.0.1')}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-test-'));
    mkdirSync(join(dataDir, 'templates', 'webhooks'), { recursive: true });
    node = await startTestNode({ dataDir, templatePath: join(dataDir, 'templates') });
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Hooks & SSO');
  });
  after(async () => {
    await node.stop();
    await upstream.close();
    await close(receiver);
    removeDir(node.dataDir);
  });

  describe('single sign-on', () => {
    it('creates a nonce that logs a new person in once, into the group', async () => {
      const group = await api('/usergroups', {
        method: 'POST',
        body: { name: 'Readers', user_permissions: { apis: 'read' } },
      });
      const created = await api('/sso', {
        method: 'POST',
        body: {
          ForSection: 'dashboard',
          OrgID: tenant.orgId,
          EmailAddress: 'sso-user@sso.test',
          GroupID: group.json.Meta,
        },
      });
      assert.equal(created.status, 200, created.text);
      assert.equal(created.json.Message, 'SSO Nonce created');
      const nonce = created.json.Meta;
      assert.match(nonce, /^[0-9a-f]{48}$/);

      const login = await http(`${node.dashboardUrl}/api/sso/login`, { method: 'POST', body: { nonce } });
      assert.equal(login.status, 200, login.text);
      assert.equal(login.json.Meta.user.email_address, 'sso-user@sso.test');
      assert.equal(login.json.Meta.user.group_id, group.json.Meta);
      const cookie = login.headers.get('set-cookie')!.split(';')[0];
      assert.equal(
        (await http(`${node.dashboardUrl}/api/apis`, { headers: { cookie } })).status,
        200,
        'the group grants apis read',
      );
      assert.equal((await http(`${node.dashboardUrl}/api/users`, { headers: { cookie } })).status, 403);

      const again = await http(`${node.dashboardUrl}/api/sso/login`, { method: 'POST', body: { nonce } });
      assert.equal(again.status, 401, 'a nonce works once');
    });

    it('lands on /tap with a nonce: a session cookie and a redirect to the dashboard', async () => {
      const created = await api('/sso', {
        method: 'POST',
        body: { ForSection: 'dashboard', OrgID: tenant.orgId, EmailAddress: 'tapper@sso.test' },
      });
      const res = await fetch(`${node.dashboardUrl}/tap?nonce=${created.json.Meta}`, { redirect: 'manual' });
      assert.equal(res.status, 302);
      assert.equal(res.headers.get('location'), '/');
      assert.match(res.headers.get('set-cookie') ?? '', /^gw-session=/);
    });

    it('refuses a nonce for another organisation and for the portal', async () => {
      assert.equal(
        (
          await api('/sso', {
            method: 'POST',
            body: { ForSection: 'dashboard', OrgID: 'someone-else', EmailAddress: 'x@sso.test' },
          })
        ).status,
        400,
      );
      const portal = await api('/sso', {
        method: 'POST',
        body: { ForSection: 'portal', OrgID: tenant.orgId, EmailAddress: 'x@sso.test' },
      });
      assert.equal(portal.status, 400);
      assert.match(portal.json.Message, /no developer portal/);
    });
  });

  describe('webhooks', () => {
    let hookId: string;
    let apiId: string;

    it('manages webhooks on /api/hooks', async () => {
      const created = await api('/hooks', {
        method: 'POST',
        body: {
          name: 'Alerts',
          method: 'POST',
          target_path: `${receiverUrl}/alerts`,
          header_map: { 'x-hook-secret': 's3cret' },
          event_timeout: 0,
        },
      });
      assert.equal(created.json.Message, 'Webhook created');
      hookId = created.json.Meta;
      const listed = await api('/hooks');
      assert.deepEqual(
        listed.json.hooks.map((h: { id: string }) => h.id),
        [hookId],
      );
      assert.equal(listed.json.pages, 1);
      assert.equal((await api(`/hooks/${hookId}`)).json.target_path, `${receiverUrl}/alerts`);
      const updated = await api(`/hooks/${hookId}`, {
        method: 'PUT',
        body: {
          name: 'Alerts',
          target_path: `${receiverUrl}/alerts`,
          header_map: { 'x-hook-secret': 's3cret' },
          event_timeout: 0,
        },
      });
      assert.equal(updated.json.Message, 'Webhook updated');
      const invalid = await api('/hooks', { method: 'POST', body: { name: 'bad', target_path: 'not a url' } });
      assert.equal(invalid.status, 400);
    });

    it("delivers a gateway event to the hooks of the API's hook_references: method, headers, JSON body", async () => {
      const created = await api('/apis', {
        method: 'POST',
        body: {
          ...keylessApi('Hooked', '/hooked', upstream.url, { use_keyless: false }),
          hook_references: [{ event_name: 'AuthFailure', hook: { id: hookId, name: 'Alerts' }, event_timeout: 0 }],
        },
      });
      apiId = created.json.ID;
      await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/hooked/x`)).status, 401));
      const before = received.length;
      assert.equal(
        (await http(`${node.gatewayUrl}/hooked/x`, { headers: { authorization: 'wrong-key' } })).status,
        403,
      );
      const delivery = await eventually(() => {
        const found = received.slice(before).find((r) => r.url === '/alerts');
        assert.ok(found, 'the receiver got the event');
        return found;
      }, 3000);
      assert.equal(delivery.method, 'POST');
      assert.equal(delivery.headers['x-hook-secret'], 's3cret');
      const event = JSON.parse(delivery.body);
      assert.equal(event.event, 'AuthFailure');
      assert.equal(event.api_id, apiId);
      assert.equal(event.org_id, tenant.orgId);
      assert.ok(Date.parse(event.time) > 0);
      const log = await eventually(async () => {
        const res = await api(`/hooks/${hookId}/deliveries`);
        assert.ok(res.json.deliveries.length > 0);
        return res.json.deliveries;
      });
      assert.equal(log[0].status, 'delivered');
      assert.equal(log[0].response_code, 200);
    });

    it('renders a template body, and keeps quiet during the event_timeout for the same key', async () => {
      // Templates are read from the webhooks folder under GW_TEMPLATE_PATH, by relative path.
      const template = 'hook-template.txt';
      writeFileSync(
        join(node.dataDir, 'templates', 'webhooks', template),
        'event={{.Event}} api={{ api_id }} path={{.meta.path}}',
      );
      const created = await api('/apis', {
        method: 'POST',
        body: {
          ...keylessApi('Templated', '/templated', upstream.url, { use_keyless: false }),
          hook_references: [
            {
              event_name: 'AuthFailure',
              hook: { name: 'inline', method: 'PUT', target_path: `${receiverUrl}/templated`, template_path: template },
              event_timeout: 60,
            },
          ],
        },
      });
      await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/templated/a`)).status, 401));
      for (let i = 0; i < 3; i++) await http(`${node.gatewayUrl}/templated/a`, { headers: { authorization: 'bad' } });
      const deliveries = await eventually(() => {
        const found = received.filter((r) => r.url === '/templated');
        assert.equal(found.length, 1);
        return found;
      }, 3000);
      assert.equal(deliveries[0].method, 'PUT');
      assert.equal(deliveries[0].body, `event=AuthFailure api=${created.json.ID} path=/templated/a`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(
        received.filter((r) => r.url === '/templated').length,
        1,
        'the same event is not sent again within event_timeout',
      );
    });

    it('retries a delivery after a 500', async () => {
      failNext = 1;
      const before = received.filter((r) => r.url === '/alerts').length;
      await http(`${node.gatewayUrl}/hooked/x`, { headers: { authorization: 'another-wrong-key' } });
      await eventually(() => assert.equal(received.filter((r) => r.url === '/alerts').length, before + 2), 5000);
      const log = await eventually(async () => {
        const res = await api(`/hooks/${hookId}/deliveries`);
        const latest = res.json.deliveries[0];
        assert.equal(latest.attempts, 2);
        return latest;
      }, 5000);
      assert.equal(log.status, 'delivered');
    });

    it('deletes a webhook', async () => {
      assert.equal((await api(`/hooks/${hookId}`, { method: 'DELETE' })).json.Message, 'Webhook deleted');
      assert.equal((await api(`/hooks/${hookId}`)).status, 404);
    });
  });
});

import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

const SECRET = 'TOP-SECRET-db-password';

/**
 * Webhooks send what a tenant chose to a URL the tenant chose: their templates come only from
 * GW_TEMPLATE_PATH/webhooks, and a hook reference finds only the API's own organisation's hooks.
 */
describe('webhooks: template files and organisations', function () {
  this.timeout(30_000);
  let node: TestNode;
  let receiver: Upstream;
  let upstream: Upstream;
  let orgA: Tenant;
  let orgB: Tenant;
  let templates: string;
  const api = (tenant: Tenant, path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const createHook = async (tenant: Tenant, body: Record<string, unknown>): Promise<string> => {
    const res = await api(tenant, '/hooks', { method: 'POST', body: { method: 'POST', event_timeout: 0, ...body } });
    assert.equal(res.status, 200, res.text);
    return res.json.Meta;
  };
  /** a keyed API of `tenant` with these hook references; resolves once the gateway serves it */
  const createHookedApi = async (
    tenant: Tenant,
    name: string,
    hookReferences: unknown[],
  ): Promise<{ id: string; apiId: string; path: string }> => {
    const path = `/${name}`;
    const res = await api(tenant, '/apis', {
      method: 'POST',
      body: { ...keylessApi(name, path, upstream.url, { use_keyless: false }), hook_references: hookReferences },
    });
    assert.equal(res.status, 200, res.text);
    await eventually(async () => assert.equal((await http(`${node.gatewayUrl}${path}/x`)).status, 401));
    return { id: res.json.Meta, apiId: res.json.ID, path };
  };
  /** a request with a wrong key: an AuthFailure event of that API */
  const authFailure = async (path: string) =>
    assert.equal((await http(`${node.gatewayUrl}${path}/x`, { headers: { authorization: 'wrong-key' } })).status, 403);
  const arrivedAt = (url: string) =>
    eventually(() => {
      const found = receiver.received.find((r) => r.url === url);
      assert.ok(found, `a delivery reached ${url}`);
      return found;
    }, 5000);

  before(async () => {
    receiver = await startUpstream();
    upstream = await startUpstream();
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-test-'));
    templates = join(dataDir, 'templates', 'webhooks');
    mkdirSync(join(templates, 'alerts'), { recursive: true });
    mkdirSync(join(dataDir, 'data'));
    writeFileSync(join(dataDir, 'data', 'secrets.json'), JSON.stringify({ password: SECRET }));
    node = await startTestNode({ dataDir, templatePath: join(dataDir, 'templates') });
    orgA = await createTenant(node.dashboardUrl, node.adminHeaders, 'Org A');
    orgB = await createTenant(node.dashboardUrl, node.adminHeaders, 'Org B');
  });
  after(async () => {
    await node.stop();
    await receiver.close();
    await upstream.close();
    removeDir(node.dataDir);
  });

  describe('template_path', () => {
    const bad: Array<[string, RegExp]> = [
      ['../../data/secrets.json', /holds a '\.\.' segment/],
      ['alerts/../../../data/secrets.json', /holds a '\.\.' segment/],
      ['/etc/passwd', /is absolute/],
      ['alerts\\..\\..\\secrets.json', /holds a backslash/],
      ['body\u0000.txt', /holds a control character/],
    ];

    it('refuses a path that could leave the templates folder on /api/hooks create and update: 400 envelope', async () => {
      const hookId = await createHook(orgA, {
        name: 'Fine',
        target_path: `${receiver.url}/fine`,
        template_path: 'alerts/body.txt',
      });
      for (const [templatePath, reason] of bad) {
        const created = await api(orgA, '/hooks', {
          method: 'POST',
          body: { name: 'Leaky', target_path: `${receiver.url}/leak`, template_path: templatePath },
        });
        assert.equal(created.status, 400, `${templatePath}: ${created.text}`);
        assert.deepEqual(created.json, { Status: 'Error', Message: created.json.Message, Meta: null });
        assert.match(
          created.json.Message,
          /template_path .* a webhook template is a path inside the webhook templates folder \(GW_TEMPLATE_PATH\/webhooks\)/,
        );
        assert.match(created.json.Message, reason);
        const updated = await api(orgA, `/hooks/${hookId}`, {
          method: 'PUT',
          body: { name: 'Fine', target_path: `${receiver.url}/fine`, template_path: templatePath },
        });
        assert.equal(updated.status, 400, `${templatePath}: ${updated.text}`);
      }
      assert.equal(
        (await api(orgA, `/hooks/${hookId}`)).json.template_path,
        'alerts/body.txt',
        'the hook kept its template',
      );
      assert.deepEqual(
        (await api(orgA, '/hooks')).json.hooks.map((h: { name: string }) => h.name),
        ['Fine'],
      );
    });

    it('refuses an inline hook of hook_references with such a path on /api/apis: 400 envelope', async () => {
      for (const [templatePath, reason] of bad) {
        const body = {
          ...keylessApi('Inline leak', '/inline-leak', upstream.url),
          hook_references: [
            {
              event_name: 'AuthFailure',
              hook: { name: 'x', target_path: `${receiver.url}/leak`, template_path: templatePath },
            },
          ],
        };
        const res = await api(orgA, '/apis', { method: 'POST', body });
        assert.equal(res.status, 400, `${templatePath}: ${res.text}`);
        assert.equal(res.json.Status, 'Error');
        assert.match(res.json.Message, /^hook_references\[0\]\.hook: template_path /);
        assert.match(res.json.Message, reason);
      }
      assert.equal((await api(orgA, '/apis')).json.apis.length, 0);
    });

    it('renders a template from the folder, and never sends a file a symlink in it points to', async () => {
      writeFileSync(join(templates, 'alerts', 'body.txt'), 'alert {{.Event}} on {{ api_id }}');
      symlinkSync(join(node.dataDir, 'data', 'secrets.json'), join(templates, 'leak.txt'));
      const leaky = await createHook(orgA, {
        name: 'Symlinked',
        target_path: `${receiver.url}/symlinked`,
        template_path: 'leak.txt',
      });
      const good = await createHook(orgA, {
        name: 'Templated',
        target_path: `${receiver.url}/templated`,
        template_path: 'alerts/body.txt',
      });
      const hooked = await createHookedApi(orgA, 'templates', [
        { event_name: 'AuthFailure', hook: { id: leaky } },
        { event_name: 'AuthFailure', hook: { id: good } },
      ]);
      await authFailure(hooked.path);

      const templated = await arrivedAt('/templated');
      assert.equal(templated.body, `alert AuthFailure on ${hooked.apiId}`);
      const symlinked = await arrivedAt('/symlinked');
      assert.ok(!symlinked.body.includes(SECRET), 'the file behind the symlink was not sent');
      assert.equal(symlinked.headers['content-type'], 'application/json');
      assert.equal(JSON.parse(symlinked.body).event, 'AuthFailure', 'the event went as JSON instead');
    });
    it('sends the event as JSON when the template file is missing; no server path in the log', async () => {
      const target_path = `${receiver.url}/missing-template`;
      const template_path = 'alerts/gone.txt';
      const hookId = await createHook(orgA, { name: 'Missing', target_path, template_path });
      const references = [{ event_name: 'AuthFailure', hook: { id: hookId } }];
      const hooked = await createHookedApi(orgA, 'missing-template', references);
      await authFailure(hooked.path);

      const delivery = await arrivedAt('/missing-template');
      assert.equal(delivery.headers['content-type'], 'application/json');
      assert.equal(JSON.parse(delivery.body).event, 'AuthFailure');
      const log = await eventually(async () => {
        const res = await api(orgA, `/hooks/${hookId}/deliveries`);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.json.deliveries.length, 1);
        return res.json.deliveries;
      }, 5000);
      assert.equal(log[0].status, 'delivered');
      assert.ok(!JSON.stringify(log).includes(node.dataDir), JSON.stringify(log));
      assert.doesNotMatch(JSON.stringify(log), /"\/|realpath|ENOENT/);
    });
  });

  describe('hook references across organisations', () => {
    let hookOfA: string;

    before(async () => {
      hookOfA = await createHook(orgA, {
        name: 'A alerts',
        target_path: `${receiver.url}/a-hook`,
        header_map: { 'x-a-secret': 'a-only' },
      });
    });

    it("refuses an API of B that names A's webhook: 400 'webhook not found', nothing of A shown", async () => {
      const references = [{ event_name: 'AuthFailure', hook: { id: hookOfA } }];
      const created = await api(orgB, '/apis', {
        method: 'POST',
        body: { ...keylessApi('B steals', '/b-steals', upstream.url), hook_references: references },
      });
      assert.equal(created.status, 400, created.text);
      assert.deepEqual(created.json, {
        Status: 'Error',
        Message: `hook_references[0]: webhook not found: ${hookOfA}`,
        Meta: null,
      });

      const own = await api(orgB, '/apis', { method: 'POST', body: keylessApi('B own', '/b-own', upstream.url) });
      const updated = await api(orgB, `/apis/${own.json.Meta}`, {
        method: 'PUT',
        body: { ...keylessApi('B own', '/b-own', upstream.url, { api_id: own.json.ID }), hook_references: references },
      });
      assert.equal(updated.status, 400, updated.text);
      assert.equal(updated.json.Message, `hook_references[0]: webhook not found: ${hookOfA}`);
      assert.deepEqual((await api(orgB, `/apis/${own.json.Meta}`)).json.hook_references, []);
    });

    it("delivers an API's event to its own organisation's webhook", async () => {
      const hookOfB = await createHook(orgB, {
        name: 'B alerts',
        target_path: `${receiver.url}/b-hook`,
        header_map: { 'x-b-secret': 'b-only' },
      });
      const hooked = await createHookedApi(orgB, 'b-hooked', [{ event_name: 'AuthFailure', hook: { id: hookOfB } }]);
      await authFailure(hooked.path);
      const delivery = await arrivedAt('/b-hook');
      assert.equal(delivery.headers['x-b-secret'], 'b-only');
      assert.equal(JSON.parse(delivery.body).org_id, orgB.orgId);
    });

    it("never fires A's webhook for an API that now belongs to B, even with the reference stored", async () => {
      // A's API references A's hook (valid), then the gateway admin moves it to B: the stored
      // reference now crosses organisations.
      const moved = await createHookedApi(orgA, 'moved', [
        { event_name: 'AuthFailure', hook: { id: hookOfA } },
        { event_name: 'AuthFailure', hook: { name: 'marker', target_path: `${receiver.url}/marker` } },
      ]);
      const gw = (path: string, options: { method?: string; body?: unknown } = {}) =>
        http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: node.gwHeaders });
      const definition = (await gw(`/apis/${moved.apiId}`)).json;
      assert.equal(
        (await gw(`/apis/${moved.apiId}`, { method: 'PUT', body: { ...definition, org_id: orgB.orgId } })).status,
        200,
      );
      await eventually(async () => assert.equal((await api(orgB, `/apis/${moved.id}`)).status, 200));

      await authFailure(moved.path);
      // The marker is the reference after A's: once it arrived, A's reference was dealt with.
      assert.equal(JSON.parse((await arrivedAt('/marker')).body).org_id, orgB.orgId);
      assert.equal(
        receiver.received.filter((r) => r.url === '/a-hook' || r.headers['x-a-secret'] !== undefined).length,
        0,
        "A's hook was not called",
      );
      assert.deepEqual((await api(orgA, `/hooks/${hookOfA}/deliveries`)).json.deliveries, []);
    });
  });
});

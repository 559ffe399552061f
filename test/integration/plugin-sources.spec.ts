import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { createTenant, type Tenant } from '../support/bootstrap';
import { apiDefinition, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';
import { http } from '../support/http';
import { removeDir } from '../support/node';

const PLUGINS_DIR = resolve(__dirname, '../support/plugins');
const FLAG = '__gwEvilPluginLoaded';
const flagged = () => (globalThis as Record<string, unknown>)[FLAG];

/**
 * custom_middleware names code the gateway runs: only files inside GW_PLUGINS_DIR and the
 * packages an operator listed in GW_PLUGIN_PACKAGES, whoever wrote the definition.
 */
describe('where plugins may be loaded from', () => {
  let gw: GatewayFixture;
  let tenant: Tenant;
  let evilDir: string;
  let evilFile: string;
  const gwApi = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${gw.node.gatewayUrl}/gw${path}`, { ...options, headers: gw.node.gwHeaders });
  const health = async () => (await gwApi('/health')).json;

  before(async () => {
    evilDir = mkdtempSync(join(tmpdir(), 'gw-evil-'));
    evilFile = join(evilDir, 'evil.js');
    writeFileSync(evilFile, `globalThis.${FLAG} = true;\nmodule.exports = {};\n`);
    gw = await startGatewayFixture({ pluginsDir: PLUGINS_DIR, pluginPackages: ['undici'] });
    tenant = await createTenant(gw.node.dashboardUrl, gw.node.adminHeaders, 'Plugin tenant');
  });
  after(async () => {
    await gw.stop();
    removeDir(evilDir);
    delete (globalThis as Record<string, unknown>)[FLAG];
  });

  const refused = () => [
    '/etc/passwd',
    evilFile,
    '../../lib/main',
    relative(PLUGINS_DIR, evilFile),
    'sub\\..\\..\\x.js',
    'a\u0000b.js',
  ];

  it('refuses other locations at save time on /gw/apis: 400 in the /gw shape', async () => {
    for (const [index, path] of refused().entries()) {
      const res = await gwApi('/apis', {
        method: 'POST',
        body: apiDefinition(`refused-gw-${index}`, `/refused-gw-${index}`, gw.upstream.url, {
          custom_middleware: { pre: [{ name: 'x', path }] },
        }),
      });
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.equal(res.json.status, 'error');
      assert.match(res.json.message, /custom_middleware\.pre\[0\]: plugin path .*\(GW_PLUGINS_DIR\)/, path);
      assert.equal((await gwApi(`/apis/refused-gw-${index}`)).status, 404, 'nothing was stored');
    }
    assert.equal(flagged(), undefined);
  });

  it('refuses them at save time on /api/apis (create and update): 400 envelope', async () => {
    const api = (path: string, method: string, body: unknown) =>
      http(`${gw.node.dashboardUrl}/api${path}`, { method, body, headers: tenant.headers });
    const created = await api('/apis', 'POST', {
      api_definition: apiDefinition('tenant-api', '/tenant-api', gw.upstream.url),
    });
    assert.equal(created.status, 200, created.text);
    for (const path of refused()) {
      const definition = apiDefinition('tenant-bad', '/tenant-bad', gw.upstream.url, {
        custom_middleware: { auth_check: { name: 'x', path } },
      });
      const res = await api('/apis', 'POST', { api_definition: definition });
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.deepEqual(Object.keys(res.json).sort(), ['Message', 'Meta', 'Status']);
      assert.equal(res.json.Status, 'Error');
      assert.match(res.json.Message, /custom_middleware\.auth_check: plugin path .*\(GW_PLUGINS_DIR\)/);
      const update = await api(`/apis/${created.json.Meta}`, 'PUT', {
        api_definition: {
          ...apiDefinition(created.json.ID, '/tenant-api', gw.upstream.url),
          custom_middleware: { post: [{ name: 'x', path }] },
        },
      });
      assert.equal(update.status, 400, `${path}: ${update.text}`);
    }
    assert.equal(flagged(), undefined);
  });

  it('still accepts a path inside GW_PLUGINS_DIR and a listed package', async () => {
    await gw.addApi(
      apiDefinition('inside', '/inside', gw.upstream.url, {
        custom_middleware: { pre: [{ name: 'gatekeeper', path: 'gatekeeper.ts' }] },
      }),
    );
    assert.equal((await gw.call('/inside/x')).headers.get('x-upstream'), 'yes');
    assert.equal(gw.upstream.received.at(-1)!.headers['x-gatekeeper'], 'passed');
    // undici is allowed by the operator but is not a plugin: it is loaded, and refused for that.
    await gw.addApi(
      apiDefinition('listed', '/listed', gw.upstream.url, {
        custom_middleware: { pre: [{ name: 'x', path: 'undici' }] },
      }),
    );
    assert.equal((await gw.call('/listed/x')).status, 503);
    assert.match((await health()).apis_failed.listed, /undici does not export a plugin/);
  });

  it('never loads code from elsewhere when a definition file in GW_APPS_DIR names it: 503, the reason in /gw/health', async () => {
    mkdirSync(gw.node.config.appsDir, { recursive: true });
    const files: Array<[string, string, RegExp]> = [
      ['file-absolute', evilFile, /plugin path '.*evil\.js' is absolute/],
      ['file-dotdot', relative(PLUGINS_DIR, evilFile), /holds a '\.\.' segment/],
      // A bare name the operator did not list is a path inside GW_PLUGINS_DIR, never a package.
      ['file-package', 'moleculer', /plugin module 'moleculer' not found/],
    ];
    for (const [apiId, path] of files) {
      writeFileSync(
        join(gw.node.config.appsDir, `${apiId}.json`),
        JSON.stringify(
          apiDefinition(apiId, `/${apiId}`, gw.upstream.url, { custom_middleware: { pre: [{ name: 'evil', path }] } }),
        ),
      );
    }
    assert.equal((await gwApi('/reload')).status, 200);
    const failed = (await health()).apis_failed;
    for (const [apiId, , reason] of files) {
      assert.match(failed[apiId] ?? 'not failed', reason, apiId);
      const res = await gw.call(`/${apiId}/x`);
      assert.equal(res.status, 503);
    }
    assert.equal(flagged(), undefined, 'the file outside GW_PLUGINS_DIR never ran');
  });
});

import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { browserAvailable, launchBrowser, type TestBrowser } from '../support/browser';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { oasFixture } from '../support/oas-fixtures';
import { buildUi } from '../support/ui-build';

const PASSWORD = 'correct horse battery';

/** The MCP APIs pages of the web dashboard: a tool switched in the browser is saved in the MCP API's document. */
describe('web dashboard: MCP APIs in a browser (headless chromium)', function () {
  this.timeout(60_000);
  let browser: TestBrowser | undefined;
  let node: TestNode;
  let uiDir = '';
  let headers: Record<string, string> = {};
  const email = `ada-${Date.now()}@example.com`;
  const pageErrors: string[] = [];
  const api = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers });

  before(async function () {
    if (!browserAvailable()) this.skip();
    uiDir = await buildUi();
    node = await startTestNode({ dashboardUiPath: uiDir });
    const org = await http(`${node.dashboardUrl}/admin/organisations`, {
      method: 'POST',
      headers: node.adminHeaders,
      body: { owner_name: 'Acme' },
    });
    const user = await http(`${node.dashboardUrl}/admin/users`, {
      method: 'POST',
      headers: node.adminHeaders,
      body: { first_name: 'Ada', email_address: email, org_id: org.json.Meta, password: PASSWORD, active: true },
    });
    assert.equal(user.status, 200, user.text);
    headers = { authorization: user.json.Meta.access_key };
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    if (node) {
      await node.stop();
      removeDir(node.dataDir);
    }
    if (uiDir) removeDir(uiDir);
  });

  async function signedInPage(): Promise<Page> {
    const page = await browser!.newPage();
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (e) => pageErrors.push(e.stack ?? e.message));
    await page.goto(`${node.dashboardUrl}/`);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    return page;
  }

  it("lists an MCP API, allows one more REST operation as a tool, denies a remote tool by name, the documents are saved so, and a refused save shows the API's message by the form", async () => {
    const petstore = oasFixture('petstore.yaml', 'http://127.0.0.1:9');
    petstore['x-gw-api-gateway'].info = { name: 'Pets', state: { active: true } };
    petstore['x-gw-api-gateway'].server.listenPath.value = '/pets/';
    const source = await api('/apis/oas', { method: 'POST', body: petstore });
    assert.equal(source.status, 200, source.text);
    const mcp = {
      openapi: '3.0.3',
      info: { title: 'Pets MCP', version: '1.0.0' },
      paths: {},
      'x-gw-api-gateway': {
        info: { name: 'Pets MCP', state: { active: true } },
        upstream: { url: `gw://${source.json.ID}/mcp` },
        server: { listenPath: { value: '/pets-mcp/', strip: true } },
      },
      'x-gw-mcp-server': { primitives: [{ source: { operationId: 'getPet' }, name: 'fetch_pet', allow: true }] },
    };
    const created = await api('/mcps', { method: 'POST', body: mcp });
    assert.equal(created.status, 200, created.text);
    const id = created.json.ID as string;

    const page = await signedInPage();
    await page.getByRole('link', { name: 'MCP APIs' }).click();
    await page.getByRole('row', { name: `Pets MCP /pets-mcp/ gw://${source.json.ID}/mcp REST as MCP` }).waitFor();
    await page.getByRole('link', { name: 'Pets MCP' }).click();
    const listPets = page.getByRole('switch', { name: 'Allow listPets' });
    assert.equal(await listPets.isChecked(), false, 'an operation not selected is shown denied');
    assert.equal(await page.getByRole('switch', { name: 'Allow fetch_pet' }).isChecked(), true);
    await listPets.check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('MCP API saved.').waitFor();

    const stored = await api(`/mcps/${id}`);
    assert.equal(stored.status, 200);
    assert.deepEqual(stored.json['x-gw-mcp-server'].primitives, [
      { source: { operationId: 'getPet' }, name: 'fetch_pet', allow: true },
      { source: { operationId: 'listPets' }, allow: true },
    ]);
    const expanded = await api(`/mcps/${id}?expand=true`);
    assert.deepEqual(
      expanded.json['x-gw-mcp-server'].primitives
        .filter((p: { allow: boolean }) => p.allow)
        .map((p: { name: string }) => p.name),
      ['fetch_pet', 'listPets'],
    );

    // A remote MCP server: deny a tool by name, its other tool's rules kept.
    const remote = structuredClone(mcp) as Record<string, any>;
    delete remote['x-gw-mcp-server'];
    remote['x-gw-api-gateway'].info.name = 'Weather MCP';
    remote['x-gw-api-gateway'].upstream.url = 'http://127.0.0.1:9/mcp';
    remote['x-gw-api-gateway'].server.listenPath.value = '/weather-mcp/';
    remote['x-gw-api-gateway'].middleware = {
      mcpTools: { get_forecast: { rateLimit: { enabled: true, rate: 10, per: '1m' } } },
    };
    const remoteCreated = await api('/mcps', { method: 'POST', body: remote });
    assert.equal(remoteCreated.status, 200, remoteCreated.text);
    const remoteId = remoteCreated.json.ID as string;
    await page.goto(`${node.dashboardUrl}/#/mcps/${remoteId}`);
    assert.equal(await page.getByRole('switch', { name: 'Allow get_forecast' }).isChecked(), true);
    await page.getByLabel('Tool name to deny').fill('admin_reset');
    await page.getByRole('button', { name: 'Deny tool' }).click();
    assert.equal(await page.getByRole('switch', { name: 'Allow admin_reset' }).isChecked(), false);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('MCP API saved.').waitFor();
    const remoteStored = await api(`/mcps/${remoteId}`);
    assert.deepEqual(remoteStored.json['x-gw-api-gateway'].middleware.mcpTools, {
      get_forecast: { rateLimit: { enabled: true, rate: 10, per: '1m' } },
      admin_reset: { block: { enabled: true } },
    });
    await browser!.screenshot(page, 'dashboard-mcp-tools');

    // Deleted meanwhile: the save is refused and the API's message shows by the form.
    const deleted = await api(`/mcps/${remoteId}`, { method: 'DELETE' });
    assert.equal(deleted.status, 200, deleted.text);
    const gone = await api(`/mcps/${remoteId}`, { method: 'PUT', body: remoteStored.json });
    assert.equal(gone.status, 404, gone.text);
    await page.getByRole('switch', { name: 'Allow get_forecast' }).uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('form', { name: 'Tools' }).getByRole('alert').getByText(gone.json.Message).waitFor();
    await page.close();
    assert.deepEqual(pageErrors, [], 'no uncaught exception in the page');
  });
});

import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { buildSchema, graphql } from 'graphql';
import type { Page } from 'playwright-core';
import { close, listen } from '../../lib/http/listen';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { browserAvailable, launchBrowser, type TestBrowser } from '../support/browser';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

const SDL = 'type Query { countries: [Country!]! } type Country { code: String! name: String! }';

/** Opens a playground page and waits until GraphiQL has drawn its query editor. */
async function openPlayground(page: Page, url: string): Promise<void> {
  const res = await page.goto(url);
  assert.equal(res?.status(), 200);
  await page.locator('.graphiql-query-editor .CodeMirror').waitFor({ state: 'visible' });
}

/**
 * Types `query` into GraphiQL's editor as a user would (its brackets close themselves and are
 * typed over), runs it with the execute button and answers the result pane's JSON.
 */
async function runTypedQuery(page: Page, endpoint: string, query: string): Promise<unknown> {
  await page.locator('.graphiql-query-editor .CodeMirror').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(query);
  const typed = await page
    .locator('.graphiql-query-editor .CodeMirror')
    .evaluate((el) => (el as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue());
  assert.equal(typed.replace(/\s+/g, ' ').trim(), query);
  const answered = page.waitForResponse(
    (r) =>
      new URL(r.url()).pathname === endpoint &&
      r.request().method() === 'POST' &&
      (r.request().postData() ?? '').includes('countries') === query.includes('countries'),
  );
  await page.locator('.graphiql-execute-button').click();
  assert.equal((await answered).status(), 200);
  const result = page.locator('.graphiql-response .CodeMirror');
  await eventually(
    async () =>
      assert.match(
        await result.evaluate((el) => (el as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue()),
        /"data"/,
      ),
    5000,
  );
  return JSON.parse(
    await result.evaluate((el) => (el as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue()),
  );
}

describe('GraphQL playgrounds in a browser (headless chromium)', () => {
  let browser: TestBrowser | undefined;
  let node: TestNode;
  let tenant: Tenant;
  let upstream: Server;
  const upstreamQueries: string[] = [];
  const pageErrors: string[] = [];

  before(async function () {
    if (!browserAvailable()) this.skip();
    const schema = buildSchema(SDL);
    upstream = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', async () => {
        const { query } = JSON.parse(body) as { query: string };
        upstreamQueries.push(query);
        const result = await graphql({
          schema,
          source: query,
          rootValue: { countries: () => [{ code: 'FR', name: 'France' }] },
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(result));
      });
    });
    const upstreamUrl = `http://127.0.0.1:${await listen(upstream, 0, '127.0.0.1')}`;
    node = await startTestNode();
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Browsers');
    const apis = [
      keylessApi('Browsed', '/browsed', upstreamUrl),
      {
        api_definition: {
          name: 'Countries',
          use_keyless: true,
          proxy: { listen_path: '/countries', target_url: `${upstreamUrl}/graphql`, strip_listen_path: true },
          graphql: {
            enabled: true,
            execution_mode: 'proxyOnly',
            schema: SDL,
            playground: { enabled: true, path: '/playground' },
          },
        },
      },
    ];
    for (const body of apis) {
      const res = await http(`${node.dashboardUrl}/api/apis`, { method: 'POST', headers: tenant.headers, body });
      assert.equal(res.status, 200, res.text);
    }
    await eventually(
      async () => assert.equal((await http(`${node.gatewayUrl}/countries/playground`)).status, 200),
      5000,
    );
    browser = await launchBrowser();
    browser.context.on('weberror', (error) => pageErrors.push(error.error().message));
  });
  after(async () => {
    await browser?.close();
    if (node) {
      await node.stop();
      removeDir(node.dataDir);
    }
    if (upstream) await close(upstream);
  });

  it('the dashboard /playground loads from local assets and answers a typed query for a signed-in user', async () => {
    const user = await http(`${node.dashboardUrl}/api/users`, {
      method: 'POST',
      headers: tenant.headers,
      body: {
        email_address: 'browser@browsers.test',
        first_name: 'B',
        last_name: 'R',
        password: 'pw-browser-1',
        user_permissions: { apis: 'read' },
      },
    });
    assert.equal(user.status, 200, user.text);
    // Signed in as the web dashboard is: the login's HTTP-only session cookie, kept by the browser.
    const login = await browser!.context.request.post(`${node.dashboardUrl}/api/login`, {
      data: { email_address: 'browser@browsers.test', password: 'pw-browser-1' },
    });
    assert.equal(login.status(), 200);
    const page = await browser!.newPage();
    await openPlayground(page, `${node.dashboardUrl}/playground`);
    const result = (await runTypedQuery(page, '/graphql', '{ apis { items { name } pages } }')) as {
      data: { apis: { items: Array<{ name: string }>; pages: number } };
    };
    assert.deepEqual(result.data.apis.items.map((api) => api.name).sort(), ['Browsed', 'Countries']);
    assert.equal(result.data.apis.pages, 1);
    assert.ok(existsSync(await browser!.screenshot(page, 'dashboard-playground')));
    assert.deepEqual(browser!.offHost, [], 'no request left this machine (no CDN)');
    assert.deepEqual(pageErrors, []);
    await page.close();
  });

  it("the gateway's playground of a proxy-only API loads from local assets and proxies a typed query upstream", async () => {
    const page = await browser!.newPage();
    await openPlayground(page, `${node.gatewayUrl}/countries/playground`);
    const result = await runTypedQuery(page, '/countries', '{ countries { code name } }');
    assert.deepEqual(result, { data: { countries: [{ code: 'FR', name: 'France' }] } });
    assert.ok(
      upstreamQueries.some((query) => query.replace(/\s+/g, ' ').trim() === '{ countries { code name } }'),
      JSON.stringify(upstreamQueries),
    );
    assert.ok(existsSync(await browser!.screenshot(page, 'gateway-playground')));
    assert.deepEqual(browser!.offHost, [], 'no request left this machine (no CDN)');
    assert.deepEqual(pageErrors, []);
    await page.close();
  });
});

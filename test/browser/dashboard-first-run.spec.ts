import { strict as assert } from 'node:assert';
import type { Page, Request } from 'playwright-core';
import { browserAvailable, launchBrowser, type TestBrowser } from '../support/browser';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { buildUi } from '../support/ui-build';
import { startUpstream, type Upstream } from '../support/upstream';

const PASSWORD = 'first start 123';

/**
 * The first start (docs/dashboard.md#first-start): a newcomer on a fresh node (no organisation,
 * no user) does the set-up of the README's tour in the browser, without curl.
 */
describe('web dashboard first run in a browser (headless chromium)', function () {
  this.timeout(60_000);
  let browser: TestBrowser | undefined;
  let node: TestNode;
  let upstream: Upstream;
  let uiDir = '';
  let page: Page;
  const pageProblems: string[] = [];
  /** every request the page sent with an admin-auth header */
  const withAdminSecret: string[] = [];

  before(async function () {
    if (!browserAvailable()) this.skip();
    uiDir = await buildUi();
    upstream = await startUpstream();
    node = await startTestNode({ dashboardUiPath: uiDir });
    browser = await launchBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    page.on('console', (m) => m.type() === 'error' && pageProblems.push(m.text()));
    page.on('pageerror', (e) => pageProblems.push(e.message));
    page.on('request', (r: Request) => {
      if (r.headers()['admin-auth'] !== undefined) withAdminSecret.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
  });

  after(async () => {
    await browser?.close();
    if (node) {
      await node.stop();
      removeDir(node.dataDir);
    }
    await upstream?.close();
    if (uiDir) removeDir(uiDir);
  });

  afterEach(() => {
    const csp = pageProblems.filter((p) => /Content Security Policy|Refused to/i.test(p));
    assert.deepEqual(csp, [], 'the page broke no Content-Security-Policy rule');
    assert.deepEqual(browser?.offHost ?? [], [], 'the page loaded nothing from another host');
  });

  const organisations = async () =>
    (await http(`${node.dashboardUrl}/admin/organisations`, { headers: node.adminHeaders })).json
      .organisations as Array<{ owner_name: string }>;
  const fieldError = (name: string) => page.locator(`[data-field="${name}"] .field-error`);

  async function fillSetup(values: { secret: string; email: string; confirm?: string }): Promise<void> {
    await page.getByLabel('Admin secret').fill(values.secret);
    await page.getByLabel('Organisation name').fill('Acme Widgets');
    await page.getByLabel('First name (optional)').fill('Ada');
    await page.getByLabel('Last name (optional)').fill('Lovelace');
    await page.getByLabel('Email address').fill(values.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(values.confirm ?? PASSWORD);
  }

  it('refuses a wrong admin secret, and values the server refuses, next to their fields, leaving nothing behind', async () => {
    assert.deepEqual(await organisations(), [], 'a fresh node');
    await page.goto(`${node.dashboardUrl}/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await browser!.screenshot(page, 'dashboard-sign-in-first-start');
    await page.getByRole('link', { name: 'Set up gw' }).click();
    await page.getByRole('heading', { name: 'Set up gw' }).waitFor();
    await browser!.screenshot(page, 'dashboard-setup');

    await fillSetup({ secret: 'not-the-secret', email: 'ada@acme.test', confirm: 'something else' });
    await page.getByRole('button', { name: 'Set up gw' }).click();
    assert.equal(await fieldError('confirm_password').textContent(), 'The passwords differ.');
    assert.deepEqual(withAdminSecret, [], 'checked in the browser first: nothing sent');

    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set up gw' }).click();
    await fieldError('admin_secret').waitFor();
    assert.match(
      (await fieldError('admin_secret').textContent()) ?? '',
      /^The server refused this admin secret \(admin-auth secret is not valid\)/,
    );
    assert.equal(await page.getByLabel('Admin secret').getAttribute('aria-invalid'), 'true');
    await browser!.screenshot(page, 'dashboard-setup-wrong-secret');

    // The browser takes this address; the server's schema does not: its message goes under the field.
    await page.getByLabel('Admin secret').fill(node.config.adminSecret);
    await page.getByLabel('Email address').fill('ada@localhost');
    await page.getByRole('button', { name: 'Set up gw' }).click();
    await fieldError('email_address').waitFor();
    assert.equal(await fieldError('email_address').textContent(), 'Must be a valid e-mail.');
    assert.deepEqual(await organisations(), [], 'the organisation made for the refused user was removed again');
  });

  it('sets up the organisation and its administrator with the admin secret, signs them in, and keeps the secret out of the browser', async () => {
    await page.getByLabel('Email address').fill('ada@acme.test');
    await page.getByRole('button', { name: 'Set up gw' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    assert.equal(await page.getByTestId('who').textContent(), 'Ada Lovelace');
    assert.equal(await page.getByTestId('org').textContent(), 'Acme Widgets');
    await page.getByText('No APIs yet.').waitFor();
    assert.equal(
      await page.getByRole('button', { name: 'Create API' }).count(),
      1,
      'the first user administers the organisation',
    );

    assert.deepEqual(
      withAdminSecret.map((r) => r.replace(/[0-9a-f]{24}$/, ':id')),
      [
        'POST /admin/organisations',
        'POST /admin/organisations',
        'POST /admin/users',
        'DELETE /admin/organisations/:id',
        'POST /admin/organisations',
        'POST /admin/users',
      ],
      'the admin secret went to the public admin API only, as a curl user would send it',
    );
    const kept = await page.evaluate<string>(
      'JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie })',
    );
    assert.ok(!kept.includes(node.config.adminSecret), 'not in localStorage, sessionStorage or readable cookies');
    const cookies = await browser!.context.cookies();
    assert.ok(
      cookies.every((c) => !c.value.includes(node.config.adminSecret)),
      'not in any cookie',
    );

    // The same login works from the sign-in form after signing out.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email address').fill('ada@acme.test');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });

  it('creates a keyless API in the designer that the gateway proxies, at the address the APIs page shows', async () => {
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.locator('input[name="name"]').fill('httpbin');
    await page.locator('input[name="proxy.listen_path"]').fill('/httpbin/');
    await page.locator('input[name="proxy.target_url"]').fill(upstream.url);
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.waitForURL(/#\/apis\/[0-9a-f]{24}$/);
    await page.getByRole('button', { name: 'Back to APIs' }).click();
    await page.getByRole('row', { name: /httpbin \/httpbin\/ Open \(keyless\) REST Active/ }).waitFor();
    assert.equal(
      await page.getByTestId('gateway-hint').textContent(),
      `Call them on the gateway at ${node.gatewayUrl} followed by their listen path, e.g. ${node.gatewayUrl}/httpbin/`,
    );

    const before = upstream.received.length;
    const proxied = await eventually(async () => {
      const res = await http(`${node.gatewayUrl}/httpbin/get?hello=world`);
      assert.equal(res.status, 200, res.text);
      return res;
    }, 5000);
    assert.equal(proxied.headers.get('x-upstream'), 'yes');
    const received = upstream.received.slice(before).at(-1);
    assert.equal(received?.method, 'GET');
    assert.equal(received?.url, '/get?hello=world', 'the listen path stripped, the query kept');
  });

  it('creates a protected API and a key for it; the key, shown once with its usage, opens the API', async () => {
    await page.getByRole('link', { name: 'APIs' }).first().click();
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.locator('input[name="name"]').fill('orders');
    await page.locator('input[name="proxy.listen_path"]').fill('/orders/');
    await page.locator('input[name="proxy.target_url"]').fill(upstream.url);
    await page.getByRole('tab', { name: 'Authentication' }).click();
    await page.getByRole('switch', { name: /^Open API \(keyless\)/ }).uncheck();
    assert.equal(
      await page.getByRole('checkbox', { name: 'Auth token' }).isChecked(),
      true,
      'protected: the auth token by default',
    );
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.waitForURL(/#\/apis\/[0-9a-f]{24}$/);

    await page.getByRole('link', { name: 'Keys' }).click();
    const form = page.getByRole('form', { name: 'Create a key' });
    await form.getByLabel('Own limits and access rights').check();
    await form.getByRole('checkbox', { name: /orders/ }).check();
    await form.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent()) ?? '';
    assert.ok(key.length > 16, 'the new key is shown');
    await page.getByRole('button', { name: 'Copy key' }).waitFor();
    assert.equal(
      await page.getByTestId('key-usage').locator('code').nth(1).textContent(),
      `curl -H "Authorization: ${key}" ${node.gatewayUrl}/your-listen-path/`,
    );
    await browser!.screenshot(page, 'dashboard-first-key');

    await eventually(
      async () => assert.equal((await http(`${node.gatewayUrl}/orders/items`)).status, 401, 'no key: refused'),
      5000,
    );
    const before = upstream.received.length;
    const allowed = await eventually(async () => {
      const res = await http(`${node.gatewayUrl}/orders/items`, { headers: { authorization: key } });
      assert.equal(res.status, 200, res.text);
      return res;
    }, 5000);
    assert.equal(allowed.json.url, '/items');
    assert.equal(upstream.received.slice(before).at(-1)?.url, '/items');
  });
});

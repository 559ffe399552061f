import { strict as assert } from 'node:assert';
import { createHash, X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { UI_CONTENT_SECURITY_POLICY } from '../../services/api/lib/web-ui';
import { browserAvailable, launchBrowser, type TestBrowser } from '../support/browser';
import { createTestPki } from '../support/certificates';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { form } from '../support/oauth';
import { buildUi } from '../support/ui-build';
import { startUpstream, type Upstream } from '../support/upstream';

const PASSWORD = 'correct horse battery';

/** Period path of today (UTC), as the activity views take it. */
function todayPeriod(): string {
  const now = new Date();
  const day = `${now.getUTCDate()}/${now.getUTCMonth() + 1}/${now.getUTCFullYear()}`;
  return `${day}/${day}`;
}

describe('web dashboard in a browser (headless chromium)', function () {
  this.timeout(60_000);
  let browser: TestBrowser | undefined;
  let node: TestNode;
  let upstream: Upstream;
  let uiDir = '';
  let admin: { email: string; key: string };
  let reader: { email: string; key: string };
  const pageProblems: string[] = [];
  /** uncaught exceptions in the pages (React unmounts the whole app on one) */
  const pageErrors: string[] = [];
  let keyHash = '';

  async function newPage(): Promise<Page> {
    // One browser profile for all tests: each starts signed out.
    await browser!.context.clearCookies();
    const page = await browser!.newPage();
    page.setDefaultTimeout(10_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    page.on('console', (m) => m.type() === 'error' && pageProblems.push(m.text()));
    page.on('pageerror', (e) => (pageProblems.push(e.message), pageErrors.push(e.stack ?? e.message)));
    return page;
  }

  async function signIn(page: Page, email: string): Promise<void> {
    await page.goto(`${node.dashboardUrl}/`);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  }

  before(async function () {
    if (!browserAvailable()) this.skip();
    uiDir = await buildUi();
    upstream = await startUpstream();
    node = await startTestNode({ dashboardUiPath: uiDir });
    const org = await http(`${node.dashboardUrl}/admin/organisations`, {
      method: 'POST',
      headers: node.adminHeaders,
      body: { owner_name: 'Acme Widgets' },
    });
    const email = `ada-${Date.now()}@example.com`;
    const user = await http(`${node.dashboardUrl}/admin/users`, {
      method: 'POST',
      headers: node.adminHeaders,
      body: {
        first_name: 'Ada',
        last_name: 'Admin',
        email_address: email,
        org_id: org.json.Meta,
        password: PASSWORD,
        active: true,
      },
    });
    admin = { email, key: user.json.Meta.access_key };
    const readerEmail = `rita-${Date.now()}@example.com`;
    const created = await http(`${node.dashboardUrl}/api/users`, {
      method: 'POST',
      headers: { authorization: admin.key },
      body: {
        first_name: 'Rita',
        last_name: 'Reader',
        email_address: readerEmail,
        password: PASSWORD,
        active: true,
        user_permissions: { apis: 'read', keys: 'read', policies: 'read', analytics: 'read' },
      },
    });
    assert.equal(created.status, 200, created.text);
    reader = { email: readerEmail, key: created.json.Meta.access_key };
    browser = await launchBrowser();
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
    assert.deepEqual(pageErrors.splice(0), [], 'no uncaught exception in the page');
  });

  it('serves the UI at / with a strict CSP, index.html not cached and hashed assets cached for good; API clients keep the JSON index', async () => {
    const page = await http(`${node.dashboardUrl}/`, { headers: { accept: 'text/html' } });
    assert.equal(page.status, 200);
    assert.match(page.text, /<div id="root"><\/div>/);
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    assert.equal(page.headers.get('content-security-policy'), UI_CONTENT_SECURITY_POLICY);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.text)?.[1];
    assert.ok(script, 'index.html loads a hashed script');
    const asset = await http(`${node.dashboardUrl}${script}`);
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get('cache-control') ?? '', /max-age=31536000, immutable/);
    const json = await http(`${node.dashboardUrl}/`, { headers: { accept: 'application/json' } });
    assert.equal(json.json.api, '/api');
  });

  it('refuses a wrong password with a clear message, then signs in and shows who you are and your organisation', async () => {
    const page = await newPage();
    await page.goto(`${node.dashboardUrl}/`);
    await browser!.screenshot(page, 'dashboard-sign-in');
    await page.getByLabel('Email address').fill(admin.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Email address or password not correct').waitFor();
    await signIn(page, admin.email);
    assert.equal(await page.getByTestId('who').textContent(), 'Ada Admin');
    assert.equal(await page.getByTestId('org').textContent(), 'Acme Widgets');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const me = await page.evaluate(() => fetch('/api/me').then((r) => r.status));
    assert.equal(me, 401, 'signed out: the session cookie is gone');
    await page.close();
  });

  it('creates an API in the designer, shows a validation error next to its field, and the gateway proxies it', async () => {
    const page = await newPage();
    await signIn(page, admin.email);
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.locator('input[name="name"]').fill('Orders');
    await page.locator('input[name="proxy.listen_path"]').fill('orders-without-slash');
    await page.locator('input[name="proxy.target_url"]').fill(upstream.url);
    await page.getByRole('button', { name: 'Create API' }).click();
    const fieldError = page.locator('[data-field="proxy.listen_path"] .field-error');
    await fieldError.waitFor();
    assert.match((await fieldError.textContent()) ?? '', /^Must start with '\/' and hold no spaces\.$/);
    assert.equal(await page.locator('input[name="proxy.listen_path"]').getAttribute('aria-invalid'), 'true');
    await browser!.screenshot(page, 'dashboard-api-validation-error');
    await page.locator('input[name="proxy.listen_path"]').fill('/orders/');
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.waitForURL(/#\/apis\/[0-9a-f]{24}$/);
    await page.getByRole('button', { name: 'Save' }).waitFor();
    await browser!.screenshot(page, 'dashboard-api-designer');
    await page.getByRole('tab', { name: 'Raw definition' }).click();
    assert.match(await page.getByLabel('Definition (JSON)').inputValue(), /"listen_path": "\/orders\/"/);
    const proxied = await eventually(async () => {
      const res = await http(`${node.gatewayUrl}/orders/items?x=1`);
      assert.equal(res.status, 200);
      return res;
    }, 5000);
    assert.equal(proxied.json.url, '/items?x=1');

    // An endpoint rule: first a path the server refuses, shown on the rules tab, then a block.
    await page.getByRole('tab', { name: 'Endpoint rules' }).click();
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await page.getByRole('textbox', { name: /^Path/ }).fill('(');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .locator('fieldset .field-error')
      .getByText(/extended_paths.black_list\[0\]: endpoint path '\(' is not a valid pattern/)
      .waitFor();
    await page.getByRole('textbox', { name: /^Path/ }).fill('/secret');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('API saved.').waitFor();
    await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/orders/secret`)).status, 403), 5000);
    assert.equal((await http(`${node.gatewayUrl}/orders/items`)).status, 200, 'other paths still pass');
    await browser!.screenshot(page, 'dashboard-api-endpoint-rules');

    await page.getByRole('link', { name: 'APIs' }).first().click();
    await page.getByRole('row', { name: /Orders \/orders\/ Open \(keyless\) REST Active/ }).waitFor();
    await browser!.screenshot(page, 'dashboard-apis');
    await page.close();
  });

  it('versions an API in the designer: v2 transforms the body and adds a header, a per-endpoint limit refuses with 429, a bad template shows by its field', async () => {
    const page = await newPage();
    await signIn(page, admin.email);
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.locator('input[name="name"]').fill('Shop');
    await page.locator('input[name="proxy.listen_path"]').fill('/shop/');
    await page.locator('input[name="proxy.target_url"]').fill(upstream.url);
    await page.getByRole('tab', { name: 'Versions' }).click();
    await page.getByRole('switch', { name: 'This API has versions' }).check();
    assert.equal(await page.locator('select[name="definition.location"]').inputValue(), 'header');
    await page.getByLabel('New version name').fill('v2');
    await page.getByRole('button', { name: 'Add version' }).click();
    await page.locator('select[name="version_data.default_version"]').selectOption('Default');
    const v2Target = page.locator('input[name="version_data.versions.v2.override_target"]');
    await v2Target.fill('ftp://files.test');
    await page.getByRole('button', { name: 'Create API' }).click();
    const targetError = page.locator('[data-field="version_data.versions.v2.override_target"] .field-error');
    await targetError.waitFor();
    assert.equal(
      await targetError.textContent(),
      "'ftp://files.test' is not an absolute http://, https:// or h2c:// URL",
    );
    await browser!.screenshot(page, 'dashboard-api-versions');
    await v2Target.fill('');
    await page.getByRole('button', { name: 'Endpoint rules of v2' }).click();
    assert.equal(await page.locator('select[name="rules-version"]').inputValue(), 'v2');

    const v2 = 'version_data.versions.v2.extended_paths';
    await page.getByRole('button', { name: 'Add a request body transform' }).click();
    await page.locator(`[name="${v2}.transform[0].path"]`).fill('/orders');
    const template = page.locator(`textarea[name="${v2}.transform[0].template_data.template_source"]`);
    await template.fill('{"item": "{{.name"}');
    await page.getByRole('button', { name: 'Add request headers' }).click();
    await page.locator(`[name="${v2}.transform_headers[0].path"]`).fill('/orders');
    await page.locator(`[name="${v2}.transform_headers[0].method"]`).selectOption('POST');
    await page.locator(`[name="${v2}.transform_headers[0].add_headers"]`).fill('X-Shop-Version: two');
    await page.getByRole('button', { name: 'Add an endpoint rate limit' }).click();
    await page.locator(`[name="${v2}.rate_limit[0].path"]`).fill('/limited');
    await page.locator(`[name="${v2}.rate_limit[0].rate"]`).fill('2');
    await page.locator(`[name="${v2}.rate_limit[0].per"]`).fill('60');

    // The server refuses the template; its complaint shows under the template, on v2's rules.
    await page.getByRole('tab', { name: 'Core settings' }).click();
    await page.getByRole('button', { name: 'Create API' }).click();
    const templateError = page.locator(`[data-field="${v2}.transform[0].template_data.template_source"] .field-error`);
    await templateError.waitFor();
    assert.match(
      (await templateError.textContent()) ?? '',
      /^extended_paths\.transform\[0\]: template_data\.template_source is not a template gw can run/,
    );
    assert.equal(await template.getAttribute('aria-invalid'), 'true');
    assert.equal(
      await page.locator('select[name="rules-version"]').inputValue(),
      'v2',
      'the rules of the version the error names',
    );
    await browser!.screenshot(page, 'dashboard-api-transform-error');
    await template.fill('{"item": "{{.name}}"}');
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.waitForURL(/#\/apis\/[0-9a-f]{24}$/);
    await page.getByRole('button', { name: 'Save' }).waitFor();
    await page.getByRole('tab', { name: 'Endpoint rules' }).click();
    await page.locator('select[name="rules-version"]').selectOption('v2');
    await template.waitFor();
    assert.equal(await template.inputValue(), '{"item": "{{.name}}"}', 'the stored template reads back as text');
    await browser!.screenshot(page, 'dashboard-api-endpoint-transforms');

    const order = (version?: string) =>
      http(`${node.gatewayUrl}/shop/orders`, {
        method: 'POST',
        headers: version ? { 'x-api-version': version } : {},
        body: { name: 'widget' },
      });
    const transformed = await eventually(async () => {
      const res = await order('v2');
      assert.equal(res.status, 200, res.text);
      return res;
    }, 5000);
    assert.deepEqual(JSON.parse(transformed.json.body), { item: 'widget' }, 'v2 sends the transformed body upstream');
    const sent = upstream.received.filter((r) => r.url === '/orders').at(-1)!;
    assert.equal(sent.headers['x-shop-version'], 'two', 'v2 adds the header');
    const plain = await order();
    assert.deepEqual(JSON.parse(plain.json.body), { name: 'widget' }, 'the default version passes the body as sent');
    assert.equal(upstream.received.filter((r) => r.url === '/orders').at(-1)!.headers['x-shop-version'], undefined);

    const limited = () => http(`${node.gatewayUrl}/shop/limited`, { headers: { 'x-api-version': 'v2' } });
    const statuses = [(await limited()).status, (await limited()).status, (await limited()).status];
    assert.deepEqual(statuses, [200, 200, 429], 'two requests per minute on v2 /limited');
    assert.equal((await http(`${node.gatewayUrl}/shop/limited`)).status, 200, 'the default version has no such limit');

    // Keyboard only: open the Versions tab, type a name, Tab to its button, Enter adds the version.
    await page.getByRole('tab', { name: 'Versions' }).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('New version name').focus();
    await page.keyboard.type('v3');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('fieldset[data-version="v3"]').waitFor();
    // A narrow window: one column, nothing wider than the screen.
    await page.setViewportSize({ width: 420, height: 800 });
    await page.getByRole('tab', { name: 'Endpoint rules' }).click();
    await page.locator('select[name="rules-version"]').selectOption('v2');
    await template.waitFor();
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    assert.ok(overflow <= 0, `no sideways scrolling at 420px (${overflow}px too wide)`);
    await browser!.screenshot(page, 'dashboard-api-endpoint-rules-narrow');
    await page.close();
  });

  it('protects an API from the authentication tab: an auth token read from a query parameter and stripped; a refused plugin path shows by its field', async () => {
    const page = await newPage();
    await signIn(page, admin.email);
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.locator('input[name="name"]').fill('Ledger');
    await page.locator('input[name="proxy.listen_path"]').fill('/ledger/');
    await page.locator('input[name="proxy.target_url"]').fill(upstream.url);
    await page.getByRole('tab', { name: 'Authentication' }).click();
    await page.getByRole('switch', { name: /^Open API \(keyless\)/ }).uncheck();
    assert.equal(
      await page.getByRole('checkbox', { name: 'Auth token' }).isChecked(),
      true,
      'protected: the auth token by default',
    );
    await page.getByRole('switch', { name: 'Also accept the key as a query parameter' }).check();
    await page.locator('input[name="auth.param_name"]').fill('api_key');
    await page.getByRole('switch', { name: 'Strip the credentials before proxying' }).check();
    await page.getByRole('checkbox', { name: 'Custom plugin (auth_check)' }).check();
    await page.locator('select[name="base_identity_provided_by"]').selectOption('auth_token');
    await page.locator('input[name="custom_middleware.auth_check.path"]').fill('../outside.js');
    await page.getByRole('button', { name: 'Create API' }).click();
    const pluginError = page.locator('[data-field="custom_middleware.auth_check.path"] .field-error');
    await pluginError.waitFor();
    assert.match((await pluginError.textContent()) ?? '', /plugin path '\.\.\/outside\.js'/);
    await browser!.screenshot(page, 'dashboard-api-authentication');
    await page.getByRole('checkbox', { name: 'Custom plugin (auth_check)' }).uncheck();
    assert.equal(
      await page.locator('select[name="base_identity_provided_by"]').count(),
      0,
      'one method: no base identity to choose',
    );
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.waitForURL(/#\/apis\/[0-9a-f]{24}$/);
    const id = /#\/apis\/([0-9a-f]{24})$/.exec(page.url())![1];
    const record = await http(`${node.dashboardUrl}/api/apis/${id}`, { headers: { authorization: admin.key } });
    const apiId = record.json.api_definition.api_id as string;
    assert.deepEqual(record.json.api_definition.auth, { param_name: 'api_key', use_param: true });
    const created = await http(`${node.dashboardUrl}/api/keys`, {
      method: 'POST',
      headers: { authorization: admin.key },
      body: { rate: 100, per: 60, quota_max: -1, access_rights: { [apiId]: { api_id: apiId, versions: ['Default'] } } },
    });
    assert.equal(created.status, 200, created.text);
    const proxied = await eventually(async () => {
      const res = await http(
        `${node.gatewayUrl}/ledger/entries?api_key=${encodeURIComponent(created.json.key_id)}&x=1`,
      );
      assert.equal(res.status, 200, res.text);
      return res;
    }, 5000);
    assert.equal(proxied.json.url, '/entries?x=1', 'the key went no further than the gateway');
    assert.equal((await http(`${node.gatewayUrl}/ledger/entries`)).status, 401);
    await page.close();
  });

  it('protects an API with JWT from the authentication tab: RSA keys from a JWKS URL, a default policy, scopes; the saved definition has the classic fields', async () => {
    const policy = await http(`${node.dashboardUrl}/api/portal/policies`, {
      method: 'POST',
      headers: { authorization: admin.key },
      body: { name: 'Token readers', rate: 100, per: 60, quota_max: -1, access_rights: {} },
    });
    assert.equal(policy.status, 200, policy.text);
    const policyId = policy.json.Meta as string;
    const jwks = 'https://idp.example.com/.well-known/jwks.json';
    const page = await newPage();
    await signIn(page, admin.email);
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.locator('input[name="name"]').fill('Tokens');
    await page.locator('input[name="proxy.listen_path"]').fill('/tokens/');
    await page.locator('input[name="proxy.target_url"]').fill(upstream.url);
    await page.getByRole('tab', { name: 'Authentication' }).click();
    await page.getByRole('switch', { name: /^Open API \(keyless\)/ }).uncheck();
    await page.getByRole('checkbox', { name: 'JSON Web Token (JWT)' }).check();
    await page.locator('select[name="base_identity_provided_by"]').selectOption('jwt_claim');
    await page.getByRole('checkbox', { name: 'Auth token' }).uncheck();
    assert.equal(
      await page.locator('select[name="base_identity_provided_by"]').count(),
      0,
      'JWT alone: no base identity to choose',
    );
    await page.locator('select[name="jwt_signing_method"]').selectOption('rsa');
    await page.locator('textarea[name="jwt_source"]').fill(jwks);
    assert.equal(await page.locator('input[name="jwt_identity_base_field"]').getAttribute('placeholder'), 'sub');
    await page.locator('input[name="jwt_policy_field_name"]').fill('pol');
    await page.locator(`input[name="jwt_default_policies:${policyId}"]`).check();
    await page.getByRole('button', { name: 'Add a scope' }).click();
    await page.locator('input[name="jwt_scope_to_policy_mapping[0].key"]').fill('orders:read');
    await page.locator('select[name="jwt_scope_to_policy_mapping[0].policy"]').selectOption({ label: 'Token readers' });
    await page.locator('input[name="jwt_allowed_issuers"]').fill('https://idp.example.com, https://other.example.com');
    await page.locator('input[name="jwt_expires_at_validation_skew"]').fill('30');
    await page.getByRole('switch', { name: 'Also accept the token as a query parameter' }).check();
    await page.locator('input[name="auth_configs.jwt.param_name"]').fill('jwt');
    await browser!.screenshot(page, 'dashboard-api-jwt');
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.waitForURL(/#\/apis\/[0-9a-f]{24}$/);
    const id = /#\/apis\/([0-9a-f]{24})$/.exec(page.url())![1];

    const record = await http(`${node.dashboardUrl}/api/apis/${id}`, { headers: { authorization: admin.key } });
    const saved = record.json.api_definition;
    assert.equal(saved.use_keyless, false);
    assert.equal(saved.enable_jwt, true);
    assert.equal(saved.use_standard_auth, false);
    assert.equal(saved.base_identity_provided_by, '');
    assert.equal(saved.jwt_signing_method, 'rsa');
    assert.equal(saved.jwt_source, Buffer.from(jwks).toString('base64'), 'the source is stored base64-encoded');
    assert.equal(saved.jwt_policy_field_name, 'pol');
    assert.deepEqual(saved.jwt_default_policies, [policyId]);
    assert.deepEqual(saved.jwt_scope_to_policy_mapping, { 'orders:read': policyId });
    assert.deepEqual(saved.jwt_allowed_issuers, ['https://idp.example.com', 'https://other.example.com']);
    assert.equal(saved.jwt_expires_at_validation_skew, 30);
    assert.deepEqual(saved.auth_configs.jwt, { use_param: true, param_name: 'jwt' });

    // Opened again, the designer shows the source as it was typed.
    await page.reload();
    await page.getByRole('tab', { name: 'Authentication' }).click();
    assert.equal(await page.locator('textarea[name="jwt_source"]').inputValue(), jwks);
    assert.equal(
      await page.locator('input[name="jwt_allowed_issuers"]').inputValue(),
      'https://idp.example.com, https://other.example.com',
    );
    await page.close();
  });

  it('sets the upstream protocol in the designer: HTTP/2 implied for h2c://, an option for https:// saved as proxy.transport.enable_http2', async () => {
    const page = await newPage();
    await signIn(page, admin.email);
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.locator('input[name="name"]').fill('Stock levels');
    await page.locator('input[name="proxy.listen_path"]').fill('/stock-h2/');
    const target = page.locator('input[name="proxy.target_url"]');
    const http2 = page.getByRole('switch', { name: 'Speak HTTP/2 to an https:// upstream' });
    await target.fill('http://stock.example.com');
    assert.equal(await http2.count(), 0, 'no HTTP/2 option for a plain http:// target');
    await target.fill('h2c://grpc.example.com:50051');
    await page.getByText('HTTP/2 is implied').waitFor();
    assert.equal(await http2.count(), 0, 'no option for h2c://: HTTP/2 is implied');
    await target.fill('https://stock.example.com');
    await http2.check();
    assert.equal(await page.getByText('HTTP/2 is implied').count(), 0);
    await browser!.screenshot(page, 'dashboard-api-upstream-http2');
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.waitForURL(/#\/apis\/[0-9a-f]{24}$/);
    const id = /#\/apis\/([0-9a-f]{24})$/.exec(page.url())![1];

    const record = await http(`${node.dashboardUrl}/api/apis/${id}`, { headers: { authorization: admin.key } });
    assert.equal(record.status, 200, record.text);
    assert.equal(record.json.api_definition.proxy.target_url, 'https://stock.example.com');
    assert.equal(record.json.api_definition.proxy.transport.enable_http2, true);

    // Opened again, the option shows as saved; unticked and saved, the definition says so.
    await page.reload();
    await http2.waitFor();
    assert.equal(await http2.isChecked(), true);
    await http2.uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('API saved.').waitFor();
    const again = await http(`${node.dashboardUrl}/api/apis/${id}`, { headers: { authorization: admin.key } });
    assert.equal(again.json.api_definition.proxy.transport.enable_http2, false);
    await page.close();
    // Later tests expect the first page of the APIs list as they left it.
    const removed = await http(`${node.dashboardUrl}/api/apis/${id}`, {
      method: 'DELETE',
      headers: { authorization: admin.key },
    });
    assert.equal(removed.status, 200, removed.text);
  });

  it('protects an API with OpenID Connect from the authentication tab: a provider whose client id is stored base64 and shown as typed', async () => {
    const policy = await http(`${node.dashboardUrl}/api/portal/policies`, {
      method: 'POST',
      headers: { authorization: admin.key },
      body: { name: 'Web app users', rate: 100, per: 60, quota_max: -1, access_rights: {} },
    });
    assert.equal(policy.status, 200, policy.text);
    const policyId = policy.json.Meta as string;
    const page = await newPage();
    await signIn(page, admin.email);
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.locator('input[name="name"]').fill('Accounts');
    await page.locator('input[name="proxy.listen_path"]').fill('/accounts/');
    await page.locator('input[name="proxy.target_url"]').fill(upstream.url);
    await page.getByRole('tab', { name: 'Authentication' }).click();
    await page.getByRole('switch', { name: /^Open API \(keyless\)/ }).uncheck();
    await page.getByRole('checkbox', { name: 'OpenID Connect' }).check();
    await page.getByRole('checkbox', { name: 'Auth token' }).uncheck();
    await page.getByRole('button', { name: 'Add a provider' }).click();
    await page.locator('input[name="openid_options.providers[0].issuer"]').fill('https://accounts.example.com');
    await page.getByRole('button', { name: 'Add a client' }).click();
    await page.locator('input[name="openid_options.providers[0].client_ids[0].key"]').fill('web-app');
    await page
      .locator('select[name="openid_options.providers[0].client_ids[0].policy"]')
      .selectOption({ label: 'Web app users' });
    await page.getByRole('switch', { name: /^Segregate sessions by client/ }).check();
    await browser!.screenshot(page, 'dashboard-api-openid');
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.waitForURL(/#\/apis\/[0-9a-f]{24}$/);
    const id = /#\/apis\/([0-9a-f]{24})$/.exec(page.url())![1];

    const record = await http(`${node.dashboardUrl}/api/apis/${id}`, { headers: { authorization: admin.key } });
    const saved = record.json.api_definition;
    assert.equal(saved.use_openid, true);
    assert.equal(saved.use_standard_auth, false);
    assert.deepEqual(saved.openid_options, {
      providers: [
        {
          issuer: 'https://accounts.example.com',
          client_ids: { [Buffer.from('web-app').toString('base64')]: policyId },
        },
      ],
      segregate_by_client: true,
    });

    await page.reload();
    await page.getByRole('tab', { name: 'Authentication' }).click();
    assert.equal(
      await page.locator('input[name="openid_options.providers[0].client_ids[0].key"]').inputValue(),
      'web-app',
    );
    await page.close();
  });

  it('creates an OAS API in the document editor, lists the JSON pointer of a bad document, and the gateway proxies it', async () => {
    const page = await newPage();
    await signIn(page, admin.email);
    await page.getByRole('button', { name: 'Create OAS API' }).click();
    const editor = page.locator('textarea[name="document"]');
    const document = (listenPath: string) =>
      [
        'openapi: 3.0.3',
        'info: {title: Catalogue, version: "1"}',
        'paths: {}',
        'x-gw-api-gateway:',
        '  info: {name: Catalogue, state: {active: true}}',
        `  server: {listenPath: {value: "${listenPath}", strip: true}}`,
        `  upstream: {url: "${upstream.url}"}`,
      ].join('\n');
    await editor.fill(document('catalogue-without-slash'));
    await page.getByRole('button', { name: 'Create' }).click();
    const problems = page.getByTestId('document-errors');
    await problems.waitFor();
    assert.match((await problems.textContent()) ?? '', /\/x-gw-api-gateway\/server\/listenPath\/value/);
    await browser!.screenshot(page, 'dashboard-oas-editor-error');
    await editor.fill(document('/catalogue/'));
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/#\/apis\/oas\/[0-9a-f]{24}$/);
    await page.getByRole('button', { name: 'Save' }).waitFor();
    assert.match(await editor.inputValue(), /"value": "\/catalogue\/"/);
    await page.getByRole('button', { name: 'YAML' }).click();
    await eventually(async () => assert.match(await editor.inputValue(), /^openapi: 3\.0\.3/m), 5000);
    await browser!.screenshot(page, 'dashboard-oas-editor');
    const proxied = await eventually(async () => {
      const res = await http(`${node.gatewayUrl}/catalogue/books?x=1`);
      assert.equal(res.status, 200);
      return res;
    }, 5000);
    assert.equal(proxied.json.url, '/books?x=1');
    await page.getByRole('link', { name: 'Back to APIs' }).click();
    await page.getByRole('link', { name: 'Catalogue' }).click();
    await page.waitForURL(/#\/apis\/oas\/[0-9a-f]{24}$/);
    await editor.waitFor();
    await page.close();
  });

  it('creates a streams API in the streams editor and shows its stats after a message is posted', async () => {
    const page = await newPage();
    await signIn(page, admin.email);
    await page.getByRole('button', { name: 'Create streams API' }).click();
    const doc = {
      openapi: '3.0.3',
      info: { title: 'Echo', version: '1' },
      paths: {},
      'x-gw-api-gateway': {
        info: { name: 'Echo', state: { active: true } },
        server: { listenPath: { value: '/echo/', strip: true } },
        upstream: { url: 'http://127.0.0.1:9' },
      },
      'x-gw-streaming': {
        streams: { echo: { input: { http_server: { path: '/in' } }, output: { http_server: { path: '/out' } } } },
      },
    };
    const editor = page.locator('textarea[name="document"]');
    await editor.fill(JSON.stringify(doc, null, 2));
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/#\/apis\/streams\/[0-9a-f]{24}$/);
    const row = page.getByTestId('stream-stats').locator('tr[data-stream="echo"]');
    await row.waitFor();
    // Nobody polls the output, so the input answers 408 once its timeout passes; the message was received all the same.
    const posted = http(`${node.gatewayUrl}/echo/in`, { method: 'POST', body: 'hello' });
    await eventually(async () => assert.equal(await row.locator('[data-counter="in"]').textContent(), '1'), 8000);
    await browser!.screenshot(page, 'dashboard-streams-editor');
    assert.notEqual((await posted).status, 404, 'the stream took the message');
    await page.close();
  });

  it('shows the save-time GraphQL schema check next to the schema, then saves a GraphQL API', async () => {
    const page = await newPage();
    await signIn(page, admin.email);
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.locator('input[name="name"]').fill('Countries');
    await page.locator('input[name="proxy.listen_path"]').fill('/countries/');
    await page.locator('input[name="proxy.target_url"]').fill(upstream.url);
    await page.getByRole('tab', { name: 'GraphQL' }).click();
    await page.getByRole('switch', { name: 'This is a GraphQL API' }).check();
    const schema = page.getByLabel('Schema (SDL)');
    await schema.fill('type Query { name: String name: String }');
    await page.getByRole('button', { name: 'Create API' }).click();
    const problem = page.locator('[role="tabpanel"] .field-error');
    await problem.waitFor();
    assert.match((await problem.textContent()) ?? '', /Invalid GraphQL schema.*name/);
    assert.equal(await schema.getAttribute('aria-invalid'), 'true');
    await browser!.screenshot(page, 'dashboard-api-graphql-schema-error');
    await schema.fill('type Query { name: String }');
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.waitForURL(/#\/apis\/[0-9a-f]{24}$/);
    await page
      .getByRole('link', { name: 'Back to APIs' })
      .or(page.getByRole('button', { name: 'Back to APIs' }))
      .click();
    await page.getByRole('row', { name: /Countries \/countries\/ Open \(keyless\) GraphQL Active/ }).waitFor();
    await page.close();
  });

  it('creates a policy and a key that uses it; the key is shown once and opens an auth-token API', async () => {
    const secured = await http(`${node.dashboardUrl}/api/apis`, {
      method: 'POST',
      headers: { authorization: admin.key },
      body: {
        api_definition: {
          name: 'Billing',
          active: true,
          use_keyless: false,
          use_standard_auth: true,
          proxy: { listen_path: '/billing/', target_url: upstream.url, strip_listen_path: true },
        },
      },
    });
    assert.equal(secured.status, 200, secured.text);
    const page = await newPage();
    await signIn(page, admin.email);
    await page.getByRole('link', { name: 'Policies' }).click();
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.locator('input[name="name"]').fill('Gold');
    await page.getByLabel('Rate (requests)').fill('50');
    await page.getByRole('checkbox', { name: /Billing/ }).check();
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.waitForURL(/#\/policies\/[^/]+$/);
    await page.getByText('Policy saved.').waitFor();
    await page.getByRole('button', { name: 'Back to policies' }).click();
    await page.getByRole('row', { name: /Gold 50 per 60s unlimited Billing Active/ }).waitFor();
    await browser!.screenshot(page, 'dashboard-policies');

    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('checkbox', { name: /Gold/ }).check();
    await page.getByLabel('Alias (optional)').fill('billing-robot');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent()) ?? '';
    assert.ok(key.length > 16, 'the new key is shown');
    keyHash = (await page.getByTestId('new-key-hash').textContent()) ?? '';
    await page.getByRole('button', { name: 'Copy key' }).waitFor();
    await browser!.screenshot(page, 'dashboard-key-created');

    const refused = await http(`${node.gatewayUrl}/billing/invoices`);
    assert.equal(refused.status, 401, 'no key: refused');
    const allowed = await eventually(async () => {
      const res = await http(`${node.gatewayUrl}/billing/invoices`, { headers: { authorization: key } });
      assert.equal(res.status, 200, res.text);
      return res;
    }, 5000);
    assert.equal(allowed.json.url, '/invoices');

    await page.getByRole('button', { name: 'Create another key' }).click();
    await page.getByLabel('Key, key hash or basic-auth username').fill(key);
    await page.getByLabel('API').selectOption({ label: 'Billing' });
    await page.getByRole('button', { name: 'Look up' }).click();
    const applied = page.getByText(/^Policies: /);
    await applied.waitFor();
    assert.equal(await applied.textContent(), 'Policies: Gold · APIs: Billing');
    await browser!.screenshot(page, 'dashboard-keys');
    await page.close();
  });

  it('gives a policy a quota of its own for one API and one of its versions, which the gateway enforces on keys of that policy', async () => {
    const api = await http(`${node.dashboardUrl}/api/apis`, {
      method: 'POST',
      headers: { authorization: admin.key },
      body: {
        api_definition: {
          name: 'Metered',
          active: true,
          use_keyless: false,
          use_standard_auth: true,
          proxy: { listen_path: '/metered/', target_url: upstream.url, strip_listen_path: true },
          definition: { location: 'header', key: 'x-api-version' },
          version_data: {
            not_versioned: false,
            default_version: 'v1',
            versions: { v1: { name: 'v1' }, beta: { name: 'beta' } },
          },
        },
      },
    });
    assert.equal(api.status, 200, api.text);
    const apiId = (
      await http(`${node.dashboardUrl}/api/apis/${api.json.Meta}`, { headers: { authorization: admin.key } })
    ).json.api_definition.api_id as string;
    const page = await newPage();
    await signIn(page, admin.email);
    await page.getByRole('link', { name: 'Policies' }).click();
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.locator('input[name="name"]').fill('Metered plan');
    await page.getByRole('checkbox', { name: /^Metered \/metered\// }).check();
    await page.getByRole('checkbox', { name: 'beta' }).uncheck();
    await page.getByRole('switch', { name: 'Limits of its own for Metered' }).check();
    await page.locator(`input[name="access_rights.${apiId}.limit.quota_max"]`).fill('2');
    await page.locator(`input[name="access_rights.${apiId}.limit.quota_renewal_rate"]`).fill('3600');
    await browser!.screenshot(page, 'dashboard-policy-per-api-limits');
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.waitForURL(/#\/policies\/[^/]+$/);
    await page.getByText('Policy saved.').waitFor();
    const policyId = /#\/policies\/([^/]+)$/.exec(page.url())![1];
    const stored = await http(`${node.dashboardUrl}/api/portal/policies/${policyId}`, {
      headers: { authorization: admin.key },
    });
    assert.equal(stored.json.quota_max, -1, 'the policy itself has no quota');
    assert.deepEqual(stored.json.access_rights[apiId].versions, ['v1']);
    assert.deepEqual(stored.json.access_rights[apiId].limit, {
      rate: 100,
      per: 60,
      quota_max: 2,
      quota_renewal_rate: 3600,
      throttle_interval: -1,
      throttle_retry_limit: -1,
      max_query_depth: -1,
    });
    await page.reload();
    assert.equal(
      await page.locator(`input[name="access_rights.${apiId}.limit.quota_max"]`).inputValue(),
      '2',
      'the per-API quota reads back',
    );
    await page.close();

    const key = await http(`${node.dashboardUrl}/api/keys`, {
      method: 'POST',
      headers: { authorization: admin.key },
      body: { apply_policies: [policyId], access_rights: { [apiId]: { api_id: apiId } } },
    });
    assert.equal(key.status, 200, key.text);
    const call = () => http(`${node.gatewayUrl}/metered/usage`, { headers: { authorization: key.json.key_id } });
    await eventually(async () => assert.equal((await call()).status, 200), 5000);
    assert.equal((await call()).status, 200);
    const refused = await call();
    assert.equal(refused.status, 403, 'the third request is over the per-API quota of 2');
    assert.match(refused.text, /Quota exceeded/);
    const beta = await http(`${node.gatewayUrl}/metered/usage`, {
      headers: { authorization: key.json.key_id, 'x-api-version': 'beta' },
    });
    assert.equal(beta.status, 403, 'the policy does not open version beta');
    assert.doesNotMatch(beta.text, /Quota exceeded/);
  });

  it('shows the refused request in the analytics chart and the error breakdown', async () => {
    const period = todayPeriod();
    await eventually(
      async () => {
        const errors = await http(`${node.dashboardUrl}/api/activity/errors/${period}`, {
          headers: { authorization: admin.key },
        });
        assert.ok(
          (errors.json.data as Array<{ id: { code: number } }>).some((r) => r.id.code === 401),
          errors.text,
        );
      },
      10_000,
      200,
    );
    const page = await newPage();
    await signIn(page, admin.email);
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByTestId('traffic-chart').locator('canvas').waitFor();
    await page.getByTestId('error-chart').locator('canvas').waitFor();
    await page
      .getByRole('table', { name: 'Errors by API and status' })
      .getByRole('row', { name: /Billing 401 1/ })
      .waitFor();
    await page.getByRole('table', { name: 'Top endpoints' }).getByText('/invoices').first().waitFor();
    await page
      .getByRole('table', { name: 'Requests by API' })
      .getByRole('row', { name: /Billing 2 1 1/ })
      .waitFor();
    // The key that made the request is in the top keys of the period; its row opens its activity.
    const topKey = page
      .getByRole('table', { name: 'Top keys' })
      .getByRole('row', { name: `billing-robot ${keyHash} 1 1 0` });
    await topKey.waitFor();
    await browser!.screenshot(page, 'dashboard-analytics');
    await topKey.getByRole('link').click();
    await page.waitForURL(new RegExp(`#/analytics/keys/${keyHash}$`));
    const activity = page.getByTestId('client-activity');
    await activity.getByRole('heading', { name: `Activity of key billing-robot ${keyHash}` }).waitFor();
    await activity.getByRole('img', { name: 'Requests, successes and errors over time' }).locator('canvas').waitFor();
    await activity
      .getByRole('table', { name: 'Endpoints called by this key' })
      .getByRole('row', { name: /\/invoices Billing 1 0/ })
      .waitFor();
    await browser!.screenshot(page, 'dashboard-analytics-key');
    await page.getByRole('button', { name: 'Tables' }).click();
    const traffic = page.getByRole('table', { name: 'Requests over time' });
    await traffic.waitFor();
    assert.match((await traffic.textContent()) ?? '', /Errors/);
    for (const [link, shot] of [
      ['Users', 'dashboard-users'],
      ['Webhooks', 'dashboard-webhooks'],
      ['Certificates', 'dashboard-certificates'],
      ['Organisation', 'dashboard-organisation'],
    ]) {
      await page.getByRole('link', { name: link }).click();
      await page.getByRole('heading', { level: 1, name: link }).waitFor();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      await browser!.screenshot(page, shot);
    }
    await page.setViewportSize({ width: 420, height: 800 });
    await page.getByRole('link', { name: 'APIs' }).first().click();
    await page.getByRole('row', { name: /Orders/ }).waitFor();
    await browser!.screenshot(page, 'dashboard-apis-narrow');
    await page.close();
  });

  it('edits a webhook (a refused URL shown at its field), keeps the change after a reload, and shows its delivery log', async () => {
    const api = (path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers: { authorization: admin.key } });
    const hook = await api('/hooks', {
      method: 'POST',
      body: { name: 'Alerts', method: 'POST', target_path: `${upstream.url}/alerts`, header_map: {}, event_timeout: 0 },
    });
    assert.equal(hook.status, 200, hook.text);
    const hookId = hook.json.Meta as string;
    const guarded = await api('/apis', {
      method: 'POST',
      body: {
        api_definition: {
          name: 'Hooked',
          active: true,
          use_keyless: false,
          use_standard_auth: true,
          proxy: { listen_path: '/hooked/', target_url: upstream.url, strip_listen_path: true },
        },
        hook_references: [{ event_name: 'AuthFailure', hook: { id: hookId, name: 'Alerts' }, event_timeout: 0 }],
      },
    });
    assert.equal(guarded.status, 200, guarded.text);
    await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/hooked/x`)).status, 401), 5000);
    assert.equal((await http(`${node.gatewayUrl}/hooked/x`, { headers: { authorization: 'not-a-key' } })).status, 403);
    await eventually(
      async () => assert.equal((await api(`/hooks/${hookId}/deliveries`)).json.deliveries.length, 1),
      5000,
    );

    const page = await newPage();
    await signIn(page, admin.email);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const row = page.getByRole('row', { name: /^Alerts POST http/ });
    await row.getByRole('button', { name: 'Show log' }).click();
    await page
      .getByRole('article', { name: 'Delivery log of Alerts' })
      .getByRole('row', { name: /AuthFailure delivered 1 200/ })
      .waitFor();

    await row.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Save webhook' });
    await form.getByLabel('Target URL').fill('not a url');
    await form.getByRole('button', { name: 'Save webhook' }).click();
    const refused = form.locator('[data-field="target_path"] .field-error');
    await refused.waitFor();
    assert.match((await refused.textContent()) ?? '', /absolute http:\/\/ or https:\/\/ URL/);
    await form.getByLabel('Name', { exact: true }).fill('Ops alerts');
    await form.getByLabel('Method').selectOption('PUT');
    await form.getByLabel('Target URL').fill(`${upstream.url}/ops`);
    await form.getByLabel('Headers').fill('X-Team: ops');
    await form.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByText('Webhook updated.').waitFor();
    await browser!.screenshot(page, 'dashboard-webhook-edited');

    await page.reload();
    const edited = page.getByRole('row', { name: `Ops alerts PUT ${upstream.url}/ops Show log Edit Delete` });
    await edited.waitFor();
    await edited.getByRole('button', { name: 'Edit' }).click();
    assert.equal(
      await page.getByRole('form', { name: 'Save webhook' }).getByLabel('Headers').inputValue(),
      'X-Team: ops',
    );
    const stored = await api(`/hooks/${hookId}`);
    assert.deepEqual(
      [stored.json.name, stored.json.method, stored.json.target_path, stored.json.header_map],
      ['Ops alerts', 'PUT', `${upstream.url}/ops`, { 'X-Team': 'ops' }],
    );
    await page.close();
  });

  it('uploads a certificate from a file (a bad one and a duplicate refused with the reason), shows its fingerprint, deletes it', async () => {
    const pki = createTestPki();
    try {
      const issued = pki.issue('api.example.test', { dns: ['api.example.test'] });
      const bundle = join(pki.dir, 'api-bundle.pem');
      writeFileSync(bundle, issued.cert + issued.key);
      const page = await newPage();
      page.on('dialog', (dialog) => void dialog.accept());
      await signIn(page, admin.email);
      await page.getByRole('link', { name: 'Certificates' }).click();
      const pem = page.getByLabel('Certificate (PEM, with its private key if it has one)');
      await pem.fill('-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----');
      await page.getByRole('button', { name: 'Add certificate' }).click();
      const refused = page.locator('[data-field="cert"] .field-error');
      await refused.waitFor();
      assert.match((await refused.textContent()) ?? '', /^Failed to (decode|parse) certificate/);

      await page.getByLabel('…or read it from a file').setInputFiles(bundle);
      await eventually(async () => assert.match(await pem.inputValue(), /BEGIN CERTIFICATE[\s\S]*PRIVATE KEY/), 5000);
      await page.getByRole('button', { name: 'Add certificate' }).click();
      await page.getByText(/^Certificate added: /).waitFor();
      const fingerprint = new X509Certificate(issued.cert).fingerprint256.replace(/:/g, '').toLowerCase();
      assert.equal(
        ((await page.getByTestId('cert-fingerprint').textContent()) ?? '').replace(/:/g, '').toLowerCase(),
        fingerprint,
      );
      const details = page.getByRole('article', { name: 'Certificate details' });
      await details.getByText('api.example.test', { exact: true }).waitFor();
      await details.getByText('CN=api.example.test', { exact: true }).waitFor();
      const row = page
        .getByRole('table', { name: 'Certificates' })
        .getByRole('row', { name: /api\.example\.test gw test CA .* yes/ });
      await row.waitFor();
      await browser!.screenshot(page, 'dashboard-certificate-details');

      await pem.fill(issued.cert);
      await page.getByRole('button', { name: 'Add certificate' }).click();
      await page
        .locator('[data-field="cert"] .field-error')
        .getByText(/already exists/)
        .waitFor();

      await row.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Certificate api.example.test deleted.').waitFor();
      await row.waitFor({ state: 'detached' });
      const listed = await http(`${node.dashboardUrl}/api/certs`, { headers: { authorization: admin.key } });
      assert.deepEqual(listed.json.certs, []);
      await page.close();
    } finally {
      pki.cleanup();
    }
  });

  it("manages a basic-auth user (new password, delete) and an OAuth client's tokens (listed by hash, revoked)", async () => {
    const api = (path: string, body: unknown) =>
      http(`${node.dashboardUrl}/api${path}`, { method: 'POST', body, headers: { authorization: admin.key } });
    const proxy = (listenPath: string) => ({
      listen_path: listenPath,
      target_url: upstream.url,
      strip_listen_path: true,
    });
    const vault = await api('/apis', {
      api_definition: {
        name: 'Vault',
        active: true,
        use_keyless: false,
        use_basic_auth: true,
        proxy: proxy('/vault/'),
      },
    });
    assert.equal(vault.status, 200, vault.text);
    const oauthMeta = {
      allowed_access_types: ['client_credentials'],
      allowed_authorize_types: ['token'],
      auth_login_redirect: 'http://login.example.test/',
    };
    const apps = await api('/apis', {
      api_definition: {
        name: 'Apps',
        active: true,
        use_keyless: false,
        use_oauth2: true,
        oauth_meta: oauthMeta,
        proxy: proxy('/apps/'),
      },
    });
    assert.equal(apps.status, 200, apps.text);
    const policy = await api('/portal/policies', {
      name: 'apps',
      rate: 1000,
      per: 60,
      quota_max: -1,
      access_rights: { [apps.json.ID]: { api_id: apps.json.ID, versions: [] } },
    });
    const client = await api(`/apis/oauth/${apps.json.ID}`, {
      redirect_uri: 'http://client.example.test/cb',
      policy_id: policy.json.Meta,
    });
    assert.equal(client.status, 200, client.text);
    const clientId = client.json.client_id as string;
    await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/apps/x`)).status, 401), 5000);
    const issued = await http(
      `${node.gatewayUrl}/apps/oauth/token`,
      form({ grant_type: 'client_credentials', client_id: clientId, client_secret: client.json.secret }),
    );
    assert.equal(issued.status, 200, issued.text);
    const token = issued.json.access_token as string;
    const withToken = { authorization: `Bearer ${token}` };
    await eventually(
      async () => assert.equal((await http(`${node.gatewayUrl}/apps/x`, { headers: withToken })).status, 200),
      5000,
    );
    const basic = (password: string) => ({
      authorization: `Basic ${Buffer.from(`carla:${password}`).toString('base64')}`,
    });
    const vaultStatus = async (password: string) =>
      (await http(`${node.gatewayUrl}/vault/x`, { headers: basic(password) })).status;

    const page = await newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await signIn(page, admin.email);
    await page.getByRole('link', { name: 'Keys' }).click();
    const create = page.getByRole('form', { name: 'Create a basic-authentication user' });
    await create.getByLabel('Username').fill('carla');
    await create.getByLabel('Password').fill('first-pass-1');
    await create.getByRole('checkbox', { name: /Vault/ }).check();
    await create.getByRole('button', { name: 'Create user' }).click();
    await page.getByText('Basic-authentication user carla created.').waitFor();
    await eventually(async () => assert.equal(await vaultStatus('first-pass-1'), 200), 5000);

    await page.getByLabel('Key, key hash or basic-auth username').fill('carla');
    await page.getByRole('button', { name: 'Look up' }).click();
    const details = page.getByRole('region', { name: 'Key details' });
    await details.getByRole('heading', { name: 'Basic-authentication user carla' }).waitFor();
    await details.getByLabel('New password (empty: unchanged)').fill('second-pass-2');
    await details.getByRole('button', { name: 'Save user' }).click();
    await page.getByText('Basic-authentication user saved, with the new password.').waitFor();
    await eventually(async () => {
      assert.equal(await vaultStatus('second-pass-2'), 200);
      assert.notEqual(await vaultStatus('first-pass-1'), 200, 'the old password no longer opens the API');
    }, 5000);
    await details.getByRole('button', { name: 'Delete user' }).click();
    await page.getByText('Basic-authentication user carla deleted.').waitFor();
    await eventually(
      async () => assert.notEqual(await vaultStatus('second-pass-2'), 200, 'a deleted user opens nothing'),
      5000,
    );

    await page
      .getByRole('row', { name: new RegExp(clientId) })
      .getByRole('button', { name: 'Tokens' })
      .click();
    const tokens = page.getByRole('region', { name: `Tokens of client ${clientId}` });
    await tokens
      .getByRole('table', { name: 'Live tokens' })
      .getByRole('row', { name: new RegExp(`^${createHash('sha256').update(token).digest('hex')} `) })
      .waitFor();
    await browser!.screenshot(page, 'dashboard-oauth-tokens');
    await tokens.getByLabel('Access or refresh token to revoke').fill(token);
    await tokens.getByRole('button', { name: 'Revoke token' }).click();
    await tokens.getByText('If the token was one of this client, it no longer works.').waitFor();
    await tokens.getByText('No live tokens for this client.').waitFor();
    await eventually(
      async () => assert.notEqual((await http(`${node.gatewayUrl}/apps/x`, { headers: withToken })).status, 200),
      5000,
    );
    await page.close();
  });

  it('adds a user group and a user with their own permissions, whose access key is shown once', async () => {
    const page = await newPage();
    await signIn(page, admin.email);
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByLabel('Group name').fill('Support');
    await page.locator('select[name="perm-analytics"]').selectOption('read');
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.getByRole('row', { name: /Support analytics: read/ }).waitFor();

    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByLabel('First name').fill('Sam');
    await page.getByLabel('Email address').fill(`sam-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('pw-sam-123456');
    await page.locator('select[name="group_id"]').selectOption({ label: 'Support' });
    await page.locator('select[name="perm-keys"]').selectOption('write');
    await page.getByRole('button', { name: 'Add user' }).click();
    const accessKey = page.locator('.secret code');
    await accessKey.waitFor();
    const key = (await accessKey.textContent()) ?? '';
    const me = await http(`${node.dashboardUrl}/api/me`, { headers: { authorization: key } });
    assert.equal(me.status, 200, 'the shown access key works');
    assert.deepEqual(
      me.json.user_permissions,
      { analytics: 'read', keys: 'write' },
      "the group's permissions and the user's own",
    );
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('row', { name: /Sam .* Support keys: write/ }).waitFor();
    await page.close();
  });

  it("saves the organisation's additional permissions", async () => {
    const page = await newPage();
    await signIn(page, admin.email);
    await page.getByRole('link', { name: 'Organisation' }).click();
    await page.getByRole('button', { name: 'Add a permission' }).click();
    await page.getByLabel('Permission id').fill('reports');
    await page.getByLabel('Label').fill('Reports');
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await page.getByText('Additional permissions saved.').waitFor();
    const saved = await http(`${node.dashboardUrl}/api/org/permissions`, { headers: { authorization: admin.key } });
    assert.equal(saved.json.additional_permissions.reports, 'Reports');
    await page.close();
  });

  it('lets a user without the users permission renew its own access key on its profile, shown once', async () => {
    const page = await newPage();
    await signIn(page, reader.email);
    await page.getByTestId('who').click();
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();
    assert.equal(
      await page.getByTestId('my-permissions').textContent(),
      'apis: read, keys: read, policies: read, analytics: read',
    );
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Renew my access key' }).click();
    const shown = page.locator('.secret code[data-testid="new-key"]');
    await shown.waitFor();
    assert.match(asked, /current key stops working/);
    await page.getByText('Your previous key no longer works.').waitFor();
    await page.getByRole('button', { name: 'Copy key' }).waitFor();
    await browser!.screenshot(page, 'dashboard-profile-new-key');
    const key = (await shown.textContent()) ?? '';
    assert.match(key, /^[0-9a-f]{32}$/);
    assert.equal(
      (await http(`${node.dashboardUrl}/api/apis`, { headers: { authorization: key } })).status,
      200,
      'the new key works',
    );
    assert.equal(
      (await http(`${node.dashboardUrl}/api/apis`, { headers: { authorization: reader.key } })).status,
      403,
      'the old key does not',
    );
    reader.key = key;
    await page.close();
  });

  it('hides the write buttons from a read-only user, whom the server refuses anyway', async () => {
    const page = await newPage();
    await signIn(page, reader.email);
    // Other tests have filled more than a page with APIs: find it by name, as a reader would.
    await page.getByPlaceholder('Search by name or listen path').fill('Orders');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('row', { name: /Orders/ }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Create API' }).count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Users' }).count(), 0, 'no users permission: no Users page');
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.locator('input[name="name"]').waitFor();
    assert.equal(await page.locator('input[name="name"]').isDisabled(), true);
    assert.equal(await page.getByRole('button', { name: 'Save' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Delete' }).count(), 0);
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('heading', { name: 'Find a key' }).waitFor();
    assert.equal(await page.getByText('Create a key').count(), 0);
    await browser!.screenshot(page, 'dashboard-read-only');
    const status = await page.evaluate(() =>
      fetch('/api/portal/policies', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"x"}',
      }).then((r) => r.status),
    );
    assert.equal(status, 403);
    await page.close();
  });
});

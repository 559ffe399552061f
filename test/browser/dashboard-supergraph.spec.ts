import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { browserAvailable, launchBrowser, type TestBrowser } from '../support/browser';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { buildUi } from '../support/ui-build';

const PASSWORD = 'correct horse battery';
const LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@override"])';
const SUBGRAPHS: Record<string, string> = {
  products: `${LINK} type Query { product(id: ID!): Product }
    type Product @key(fields: "id") { id: ID! name: String! @shareable } enum Colour { RED }`,
  inventory: `${LINK} type Product @key(fields: "id") { id: ID! name: String @shareable stock: Int }`,
  // composes with neither: `name` has another type, `Colour` another kind
  legacy: `${LINK} type Product @key(fields: "id") { id: ID! name: Int @shareable } interface Colour { id: ID! }`,
};

/** A supergraph in the API designer: its subgraphs, the hints of its composition, and a refused save's errors. */
describe('web dashboard: a Federation supergraph in a browser (headless chromium)', function () {
  this.timeout(90_000);
  let browser: TestBrowser | undefined;
  let node: TestNode;
  let uiDir = '';
  let headers: Record<string, string> = {};
  const email = `ada-${Date.now()}@example.com`;
  const pageErrors: string[] = [];
  let shopId = '';
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
    const ids: Record<string, string> = {};
    for (const [name, sdl] of Object.entries(SUBGRAPHS)) {
      const saved = await api('/apis', {
        method: 'POST',
        body: {
          api_definition: {
            name,
            use_keyless: true,
            proxy: { listen_path: `/${name}/`, target_url: `http://127.0.0.1:9/${name}`, strip_listen_path: true },
            graphql: { enabled: true, execution_mode: 'subgraph', subgraph: { sdl } },
          },
        },
      });
      assert.equal(saved.status, 200, saved.text);
      ids[name] = saved.json.ID;
    }
    const shop = await api('/apis', {
      method: 'POST',
      body: {
        api_definition: {
          name: 'shop',
          use_keyless: true,
          proxy: { listen_path: '/shop/', target_url: '', strip_listen_path: true },
          graphql: {
            enabled: true,
            execution_mode: 'supergraph',
            supergraph: {
              subgraphs: [
                { name: 'products', api_id: ids.products },
                { name: 'inventory', api_id: ids.inventory },
              ],
            },
          },
        },
      },
    });
    assert.equal(shop.status, 200, shop.text);
    shopId = shop.json.Meta;
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
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => pageErrors.push(e.stack ?? e.message));
    await page.goto(`${node.dashboardUrl}/`);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    return page;
  }

  it("shows the supergraph's subgraphs and hints, lists each error of a save that does not compose, and a good save's new hints", async () => {
    const page = await signedInPage();
    await page.goto(`${node.dashboardUrl}/#/apis/${shopId}`);
    await page.getByRole('tab', { name: 'GraphQL' }).click();
    const subgraphs = page.getByRole('group', { name: 'Subgraphs' });
    await subgraphs.getByRole('row', { name: /^products API products/ }).waitFor();
    await subgraphs.getByRole('row', { name: /^inventory API inventory/ }).waitFor();

    const hints = page.getByRole('region', { name: 'Composition hints' }).getByRole('listitem');
    await hints.first().waitFor();
    const hintTexts = await hints.allInnerTexts();
    assert.deepEqual(hintTexts, [
      'INCONSISTENT_BUT_COMPATIBLE_FIELD_TYPE Type of field "Product.name" is inconsistent but compatible across subgraphs: the supergraph uses type "String" (as in subgraph "inventory"), but subgraph "products" declares "String!"',
      'UNUSED_ENUM_TYPE Enum type "Colour" is defined in subgraph "products" but no field, argument or input field of any subgraph uses it',
    ]);
    await browser!.screenshot(page, 'dashboard-supergraph-hints');

    // Swap inventory for legacy: the save is refused and each composition error is one item.
    await subgraphs.getByRole('button', { name: 'Remove subgraph inventory' }).click();
    await subgraphs.getByLabel('Subgraph API to add').selectOption({ label: 'legacy' });
    await subgraphs.getByRole('button', { name: 'Add subgraph' }).click();
    await subgraphs.getByRole('row', { name: /^legacy API legacy/ }).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    const errors = page.getByRole('alert', { name: 'Composition errors' }).getByRole('listitem');
    await errors.first().waitFor();
    assert.deepEqual(await errors.allInnerTexts(), [
      'Type "Colour" has mismatched kind: it is defined as Interface Type in subgraph "legacy" but Enum Type in subgraph "products"',
      'Type of field "Product.name" is incompatible across subgraphs: it has type "Int" in subgraph "legacy" but type "String!" in subgraph "products"',
    ]);
    await page.getByText(/Federation failed: .* \(2 errors\)\. The errors are listed on the GraphQL tab\./).waitFor();
    await browser!.screenshot(page, 'dashboard-supergraph-errors');
    const stored = await api(`/apis/${shopId}`);
    assert.deepEqual(
      stored.json.api_definition.graphql.supergraph.subgraphs.map((entry: { name: string }) => entry.name),
      ['products', 'inventory'],
      'the refused save changed nothing',
    );

    // Products alone composes: saved, and the hint list is the new composition's.
    await subgraphs.getByRole('button', { name: 'Remove subgraph legacy' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('API saved.').waitFor();
    await page
      .getByRole('region', { name: 'Composition hints' })
      .getByText('INCONSISTENT_BUT_COMPATIBLE_FIELD_TYPE')
      .waitFor({ state: 'detached' });
    assert.deepEqual(await hints.allInnerTexts(), [
      'UNUSED_ENUM_TYPE Enum type "Colour" is defined in subgraph "products" but no field, argument or input field of any subgraph uses it',
    ]);
    assert.equal(await page.getByRole('alert', { name: 'Composition errors' }).count(), 0);
    await page.close();
    assert.deepEqual(pageErrors, [], 'no uncaught exception in the page');
  });
});

import { strict as assert } from 'node:assert';
import { createTenant, type Tenant } from '../support/bootstrap';
import { http, type HttpResult } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

/**
 * A page served from anywhere else (the gateway port of the same host included) must not make a
 * signed-in browser change anything on the dashboard: cookie-authenticated changes need a JSON
 * body and the dashboard's own origin.
 */
describe('dashboard: cross-site requests made with the login cookie', () => {
  let node: TestNode;
  let tenant: Tenant;
  let email: string;
  let cookie: string;
  let ownOrigin: string;
  let gatewayOrigin: string;
  let made = 0;

  const login = (headers: Record<string, string> = {}) =>
    http(`${node.dashboardUrl}/api/login`, {
      method: 'POST',
      headers,
      body: { email_address: email, password: 'correct horse' },
    });
  /** a new user's email each call, so a test can tell whether that one was created */
  const nextEmail = () => `made-${++made}@cross.test`;
  const createUser = (headers: Record<string, string>, body: string) =>
    http(`${node.dashboardUrl}/api/users`, { method: 'POST', headers: { cookie, ...headers }, body });
  const exists = async (address: string) => {
    const listed = await http(`${node.dashboardUrl}/api/users?p=-1`, { headers: tenant.headers });
    return (listed.json.users as Array<{ email_address: string }>).some((u) => u.email_address === address);
  };
  const refused = async (res: HttpResult, address: string) => {
    assert.equal(res.status, 403, res.text);
    assert.equal(res.json.Status, 'Error');
    assert.match(res.json.Message, /^Cross-site request refused/);
    assert.equal(await exists(address), false, 'nothing was created');
  };
  const userJson = (address: string) =>
    JSON.stringify({ email_address: address, password: 'made by a page', user_permissions: { IsAdmin: 'admin' } });

  before(async () => {
    node = await startTestNode();
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Cross');
    email = (await http(`${node.dashboardUrl}/api/users/${tenant.userId}`, { headers: tenant.headers })).json
      .email_address;
    const res = await login();
    assert.equal(res.status, 200, res.text);
    cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
    ownOrigin = node.dashboardUrl;
    gatewayOrigin = node.gatewayUrl;
  });
  after(async () => {
    await node.stop();
    removeDir(node.dataDir);
  });

  it('refuses a text/plain body (what a cross-site form or no-cors fetch can send)', async () => {
    const address = nextEmail();
    await refused(await createUser({ 'content-type': 'text/plain' }, userJson(address)), address);
  });

  it('refuses a form-encoded body', async () => {
    const address = nextEmail();
    const form = new URLSearchParams({ email_address: address }).toString();
    await refused(await createUser({ 'content-type': 'application/x-www-form-urlencoded' }, form), address);
  });

  it('refuses a JSON body from a page of another origin, the gateway port of the same host included', async () => {
    const address = nextEmail();
    await refused(
      await createUser({ 'content-type': 'application/json', origin: gatewayOrigin }, userJson(address)),
      address,
    );
    await refused(await createUser({ 'content-type': 'application/json', origin: 'null' }, userJson(address)), address);
  });

  it('refuses a request the browser marks cross-site or same-site', async () => {
    const address = nextEmail();
    await refused(
      await createUser({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }, userJson(address)),
      address,
    );
    await refused(
      await createUser({ 'content-type': 'application/json', 'sec-fetch-site': 'same-site' }, userJson(address)),
      address,
    );
  });

  it("accepts JSON from the dashboard's own pages, and from a client that names no origin", async () => {
    const sameOrigin: Array<Record<string, string>> = [{ origin: ownOrigin }, { 'sec-fetch-site': 'same-origin' }, {}];
    for (const headers of sameOrigin) {
      const address = nextEmail();
      const res = await createUser({ 'content-type': 'application/json', ...headers }, userJson(address));
      assert.equal(res.status, 200, res.text);
      assert.equal(await exists(address), true);
    }
  });

  it('accepts a change without a body from its own pages, refuses it from another origin', async () => {
    const user = await http(`${node.dashboardUrl}/api/users`, {
      method: 'POST',
      headers: tenant.headers,
      body: { email_address: nextEmail() },
    });
    const remove = (headers: Record<string, string>) =>
      http(`${node.dashboardUrl}/api/users/${user.json.Meta.id}`, {
        method: 'DELETE',
        headers: { cookie, ...headers },
      });
    assert.equal((await remove({ origin: gatewayOrigin })).status, 403);
    assert.equal((await remove({ origin: ownOrigin })).status, 200);
  });

  it('takes a YAML API definition with the cookie only from its own pages', async () => {
    const yaml = 'openapi: 3.0.3\ninfo:\n  title: Yaml\n  version: 1.0.0\npaths: {}\n';
    const send = (headers: Record<string, string>) =>
      http(`${node.dashboardUrl}/api/apis/oas`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-yaml', ...headers },
        body: yaml,
      });
    assert.equal((await send({})).status, 403, 'no origin named: only JSON');
    assert.equal((await send({ origin: gatewayOrigin })).status, 403);
    assert.notEqual((await send({ origin: ownOrigin })).status, 403);
  });

  it('leaves requests with an access key as they were', async () => {
    const address = nextEmail();
    const res = await http(`${node.dashboardUrl}/api/users`, {
      method: 'POST',
      headers: {
        ...tenant.headers,
        'content-type': 'text/plain',
        origin: gatewayOrigin,
        'sec-fetch-site': 'cross-site',
      },
      body: userJson(address),
    });
    assert.equal(res.status, 200, res.text);
  });

  it('refuses a login or logout from another origin (login cross-site request forgery)', async () => {
    const foreign = await login({ origin: gatewayOrigin });
    assert.equal(foreign.status, 403, foreign.text);
    assert.match(foreign.json.Message, /^Cross-site request refused/);
    assert.equal(foreign.headers.get('set-cookie'), null);
    assert.equal((await login({ origin: ownOrigin })).status, 200);
    const out = await http(`${node.dashboardUrl}/api/logout`, {
      method: 'POST',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
      body: {},
    });
    assert.equal(out.status, 403);
    assert.equal((await http(`${node.dashboardUrl}/api/me`, { headers: { cookie } })).status, 200, 'still signed in');
  });

  it('refuses a cookie-authenticated GraphQL request that is not JSON or comes from another origin', async () => {
    const query = JSON.stringify({ query: '{ policies { pages } }' });
    const graphql = (headers: Record<string, string>) =>
      http(`${node.dashboardUrl}/graphql`, { method: 'POST', headers: { cookie, ...headers }, body: query });
    const plain = await graphql({ 'content-type': 'text/plain' });
    assert.equal(plain.status, 403, plain.text);
    assert.match(plain.json.errors[0].message, /^Cross-site request refused/);
    assert.equal((await graphql({ 'content-type': 'application/json', origin: gatewayOrigin })).status, 403);
    assert.equal((await graphql({ 'content-type': 'application/json', origin: ownOrigin })).status, 200);
  });
});

describe('dashboard: cross-site requests when GW_DASHBOARD_URL names the origin', () => {
  let node: TestNode;
  const origin = 'https://dashboard.example.test';

  before(async () => {
    node = await startTestNode({ dashboardUrl: origin });
  });
  after(async () => {
    await node.stop();
    removeDir(node.dataDir);
  });

  it('takes cookie-authenticated changes from pages of that origin only', async () => {
    const tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Named');
    const email = (await http(`${node.dashboardUrl}/api/users/${tenant.userId}`, { headers: tenant.headers })).json
      .email_address;
    const login = await http(`${node.dashboardUrl}/api/login`, {
      method: 'POST',
      headers: { origin },
      body: { email_address: email, password: 'correct horse' },
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const create = (from: string, address: string) =>
      http(`${node.dashboardUrl}/api/users`, {
        method: 'POST',
        headers: { cookie, origin: from },
        body: { email_address: address },
      });
    assert.equal((await create('https://evil.example.test', 'one@named.test')).status, 403);
    assert.equal(
      (await create(node.dashboardUrl, 'two@named.test')).status,
      403,
      'the configured origin, not whatever Host says',
    );
    assert.equal((await create(origin, 'three@named.test')).status, 200);
  });
});

import { strict as assert } from 'node:assert';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { http } from '../support/http';
import { apiDefinition, singleVersion, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

const blackList = (path: string) => singleVersion({ use_extended_paths: true, extended_paths: { black_list: [{ path, method_actions: { GET: { action: 'no_action' } } }] } });

describe('proxy: tenant regular expressions run in linear time', function () {
  this.timeout(60_000);
  let gw: GatewayFixture;
  let tenant: Tenant;
  const dashboard = (path: string, body: unknown) => http(`${gw.node.dashboardUrl}/api${path}`, { method: 'POST', body, headers: tenant.headers });
  const gwApi = (body: unknown) => http(`${gw.node.gatewayUrl}/gw/apis`, { method: 'POST', body, headers: gw.node.gwHeaders });

  before(async () => {
    gw = await startGatewayFixture();
    tenant = await createTenant(gw.node.dashboardUrl, gw.node.adminHeaders);
    await gw.addApi(apiDefinition('redos', '/redos/', gw.upstream.url, { version_data: blackList('(a+)+$') }));
    await gw.addApi(apiDefinition('other', '/other/', gw.upstream.url));
  });
  after(() => gw.stop());

  it('answers a catastrophic black_list pattern on 30 a\'s and a ! within 200 ms, and keeps serving another API meanwhile', async () => {
    const started = Date.now();
    const [redos, other] = await Promise.all([gw.call(`/redos/${'a'.repeat(30)}!`), gw.call('/other/ping')]);
    const took = Date.now() - started;
    assert.equal(redos.status, 200, 'the path does not match: it ends in !');
    assert.equal(other.status, 200);
    assert.ok(took < 200, `took ${took} ms`);
    assert.equal((await gw.call(`/redos/${'a'.repeat(30)}`)).status, 403, 'the pattern still blocks what it matches');
  });

  for (const [where, version] of [
    ['extended_paths.black_list[0]', blackList('/(a)\\1')],
    ['extended_paths.white_list[0]', singleVersion({ use_extended_paths: true, extended_paths: { white_list: [{ path: '/(?=admin)', method_actions: { GET: { action: 'no_action' } } }] } })],
    ['extended_paths.rate_limit[0]', singleVersion({ use_extended_paths: true, extended_paths: { rate_limit: [{ path: '/(?<!x)y', method: 'GET', rate: 1, per: 1 }] } })],
    ['paths.ignored[0]', singleVersion({ paths: { ignored: ['/[unclosed'] } })],
  ] as const) {
    it(`refuses a pattern RE2 can not run in ${where}: 400 on /api and on /gw, naming it`, async () => {
      const onDashboard = await dashboard('/apis', keylessApi('bad', '/bad-pattern/', gw.upstream.url, { version_data: version }));
      assert.equal(onDashboard.status, 400, onDashboard.text);
      assert.equal(onDashboard.json.Status, 'Error');
      assert.match(onDashboard.json.Message, new RegExp(`^Version 'Default', ${where.replace(/[.[\]]/g, '\\$&')}: endpoint path '.+' is not a valid pattern: `));
      const onGateway = await gwApi(apiDefinition('bad-pattern', '/bad-pattern/', gw.upstream.url, { version_data: version }));
      assert.equal(onGateway.status, 400, onGateway.text);
      assert.equal(onGateway.json.status, 'error');
      assert.equal(onGateway.json.message, onDashboard.json.Message);
      assert.equal((await gw.call('/bad-pattern/y')).status, 404, 'nothing was stored or served');
    });
  }

  it('refuses a basic-auth body extractor RE2 can not run', async () => {
    const res = await gwApi(apiDefinition('bad-body', '/bad-body/', gw.upstream.url, {
      use_keyless: false,
      use_basic_auth: true,
      basic_auth: { extract_from_body: true, body_user_regexp: '<user>(.*)</user>(?=x)', body_password_regexp: '<pass>(.*)</pass>' },
    }));
    assert.equal(res.status, 400);
    assert.match(res.json.message, /^basic_auth\.body_user_regexp is not a valid pattern: /);
  });

  for (const listenPath of ['/x/../y/', '/x/%2e%2e/y', '/./z']) {
    it(`refuses the listen path ${listenPath} on /api and on /gw`, async () => {
      const onDashboard = await dashboard('/apis', keylessApi('dots', listenPath, gw.upstream.url));
      assert.equal(onDashboard.status, 400);
      assert.match(onDashboard.json.Message, /has a dot segment/);
      const onGateway = await gwApi(apiDefinition('dots', listenPath, gw.upstream.url));
      assert.equal(onGateway.status, 400);
      assert.match(onGateway.json.message, /has a dot segment/);
    });
  }
});

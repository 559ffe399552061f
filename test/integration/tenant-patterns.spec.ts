import { strict as assert } from 'node:assert';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { http } from '../support/http';
import { apiDefinition, singleVersion, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

const blackList = (path: string) =>
  singleVersion({
    use_extended_paths: true,
    extended_paths: { black_list: [{ path, method_actions: { GET: { action: 'no_action' } } }] },
  });

describe('proxy: tenant regular expressions run in linear time', function () {
  this.timeout(60_000);
  let gw: GatewayFixture;
  let tenant: Tenant;
  const dashboard = (path: string, body: unknown) =>
    http(`${gw.node.dashboardUrl}/api${path}`, { method: 'POST', body, headers: tenant.headers });
  const gwApi = (body: unknown) =>
    http(`${gw.node.gatewayUrl}/gw/apis`, { method: 'POST', body, headers: gw.node.gwHeaders });

  before(async () => {
    gw = await startGatewayFixture();
    tenant = await createTenant(gw.node.dashboardUrl, gw.node.adminHeaders);
    await gw.addApi(apiDefinition('redos', '/redos/', gw.upstream.url, { version_data: blackList('(a+)+$') }));
    await gw.addApi(apiDefinition('other', '/other/', gw.upstream.url));
  });
  after(() => gw.stop());

  it("answers a catastrophic black_list pattern on 30 a's and a ! within 200 ms, and keeps serving another API meanwhile", async () => {
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
    [
      'extended_paths.white_list[0]',
      singleVersion({
        use_extended_paths: true,
        extended_paths: { white_list: [{ path: '/(?=admin)', method_actions: { GET: { action: 'no_action' } } }] },
      }),
    ],
    [
      'extended_paths.rate_limit[0]',
      singleVersion({
        use_extended_paths: true,
        extended_paths: { rate_limit: [{ path: '/(?<!x)y', method: 'GET', rate: 1, per: 1 }] },
      }),
    ],
    ['paths.ignored[0]', singleVersion({ paths: { ignored: ['/[unclosed'] } })],
  ] as const) {
    it(`refuses a pattern RE2 can not run in ${where}: 400 on /api and on /gw, naming it`, async () => {
      const onDashboard = await dashboard(
        '/apis',
        keylessApi('bad', '/bad-pattern/', gw.upstream.url, { version_data: version }),
      );
      assert.equal(onDashboard.status, 400, onDashboard.text);
      assert.equal(onDashboard.json.Status, 'Error');
      assert.match(
        onDashboard.json.Message,
        new RegExp(
          `^Version 'Default', ${where.replace(/[.[\]]/g, '\\$&')}: endpoint path '.+' is not a valid pattern: `,
        ),
      );
      const onGateway = await gwApi(
        apiDefinition('bad-pattern', '/bad-pattern/', gw.upstream.url, { version_data: version }),
      );
      assert.equal(onGateway.status, 400, onGateway.text);
      assert.equal(onGateway.json.status, 'error');
      assert.equal(onGateway.json.message, onDashboard.json.Message);
      assert.equal((await gw.call('/bad-pattern/y')).status, 404, 'nothing was stored or served');
    });
  }

  it('refuses a basic-auth body extractor RE2 can not run', async () => {
    const res = await gwApi(
      apiDefinition('bad-body', '/bad-body/', gw.upstream.url, {
        use_keyless: false,
        use_basic_auth: true,
        basic_auth: {
          extract_from_body: true,
          body_user_regexp: '<user>(.*)</user>(?=x)',
          body_password_regexp: '<pass>(.*)</pass>',
        },
      }),
    );
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

  describe('allowed_urls of keys and policies', () => {
    let tenantApi: string;
    const rights = (apiId: string, url: string) => ({
      [apiId]: {
        api_id: apiId,
        versions: ['Default'],
        allowed_urls: [
          { url: '/fine', methods: ['GET'] },
          { url, methods: ['GET'] },
        ],
      },
    });
    const keyBody = (apiId: string, url: string) => ({
      rate: 10,
      per: 60,
      expires: 0,
      quota_max: -1,
      access_rights: rights(apiId, url),
    });
    const policyBody = (apiId: string, url: string) => ({
      name: 'p',
      rate: 10,
      per: 60,
      quota_max: -1,
      access_rights: rights(apiId, url),
    });
    const send = (url: string, method: string, body: unknown, headers: Record<string, string>) =>
      http(url, { method, body, headers });

    before(async () => {
      const created = await dashboard('/apis', keylessApi('urls', '/urls/', gw.upstream.url, { use_keyless: false }));
      assert.equal(created.status, 200, created.text);
      tenantApi = created.json.ID;
    });

    for (const bad of ['/users/(\\d+)/\\1', '/(?!admin)']) {
      it(`refuses ${bad} with 400 naming the field: keys and policies, on /api and on /gw`, async () => {
        const field = /^access_rights\.[^.]+\.allowed_urls\[1\]\.url is not a valid pattern: /;
        const api = gw.node.dashboardUrl + '/api';
        const onDashboard = [
          await send(`${api}/keys`, 'POST', keyBody(tenantApi, bad), tenant.headers),
          await send(`${api}/portal/policies`, 'POST', policyBody(tenantApi, bad), tenant.headers),
        ];
        for (const res of onDashboard) {
          assert.equal(res.status, 400, res.text);
          assert.equal(res.json.Status, 'Error');
          assert.match(res.json.Message, field);
        }
        const onGateway = [
          await send(`${gw.node.gatewayUrl}/gw/keys`, 'POST', keyBody('redos', bad), gw.node.gwHeaders),
          await send(
            `${gw.node.gatewayUrl}/gw/policies`,
            'POST',
            { ...policyBody('redos', bad), id: 'bad-urls' },
            gw.node.gwHeaders,
          ),
        ];
        for (const res of onGateway) {
          assert.equal(res.status, 400, res.text);
          assert.equal(res.json.status, 'error');
          assert.match(res.json.message, field);
        }
        assert.equal(
          (await send(`${gw.node.gatewayUrl}/gw/policies/bad-urls`, 'GET', undefined, gw.node.gwHeaders)).status,
          404,
          'the policy was not stored',
        );
      });
    }

    it('refuses the pattern on update too, and keeps the stored key and policy', async () => {
      const gwUrl = `${gw.node.gatewayUrl}/gw`;
      const key = await send(`${gwUrl}/keys`, 'POST', keyBody('redos', '/ok'), gw.node.gwHeaders);
      assert.equal(key.status, 200, key.text);
      const policy = await send(
        `${gwUrl}/policies`,
        'POST',
        { ...policyBody('redos', '/ok'), id: 'good-urls' },
        gw.node.gwHeaders,
      );
      assert.equal(policy.status, 200, policy.text);
      const keyUpdate = await send(
        `${gwUrl}/keys/${key.json.key}`,
        'PUT',
        keyBody('redos', '(a)\\1'),
        gw.node.gwHeaders,
      );
      assert.equal(keyUpdate.status, 400, keyUpdate.text);
      assert.match(keyUpdate.json.message, /^access_rights\.redos\.allowed_urls\[1\]\.url is not a valid pattern: /);
      const policyUpdate = await send(
        `${gwUrl}/policies/good-urls`,
        'PUT',
        policyBody('redos', '(a)\\1'),
        gw.node.gwHeaders,
      );
      assert.equal(policyUpdate.status, 400, policyUpdate.text);
      const stored = await send(`${gwUrl}/keys/${key.json.key}`, 'GET', undefined, gw.node.gwHeaders);
      assert.equal(stored.json.access_rights.redos.allowed_urls[1].url, '/ok');
      const storedPolicy = await send(`${gwUrl}/policies/good-urls`, 'GET', undefined, gw.node.gwHeaders);
      assert.equal(storedPolicy.json.access_rights.redos.allowed_urls[1].url, '/ok');
    });
  });
});

import { strict as assert } from 'node:assert';
import { http } from '../support/http';
import { apiDefinition, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

/** An API's upstream (classic target_url, OAS upstream.url) is a tenant's URL: never this node's own ports. */
describe("API upstreams never reach this node's own ports", function () {
  this.timeout(30_000);
  let gw: GatewayFixture;
  const gwApi = (path: string, body: unknown) =>
    http(`${gw.node.gatewayUrl}/gw${path}`, { method: 'POST', body, headers: gw.node.gwHeaders });

  before(async () => {
    gw = await startGatewayFixture();
  });
  after(() => gw.stop());

  it('a classic API aimed at the dashboard or at the gateway itself answers 502; another loopback upstream is proxied', async () => {
    await gw.addApi(apiDefinition('to-dashboard', '/to-dashboard', `${gw.node.dashboardUrl}/admin/organisations`));
    await gw.addApi(apiDefinition('to-self', '/to-self', `${gw.node.gatewayUrl}/gw/apis`));
    await gw.addApi(apiDefinition('to-upstream', '/to-upstream', gw.upstream.url));
    for (const path of ['/to-dashboard/', '/to-self/']) {
      const res = await gw.call(path, {
        headers: { 'admin-auth': gw.node.config.adminSecret, 'x-gw-authorization': gw.node.config.secret },
      });
      assert.equal(res.status, 502, `${path}: ${res.text}`);
    }
    const before = gw.upstream.received.length;
    assert.equal((await gw.call('/to-upstream/fine')).status, 200);
    assert.equal(gw.upstream.received.length, before + 1);
  });

  it('an OAS API whose upstream.url is the dashboard answers 502', async () => {
    const document = {
      openapi: '3.0.3',
      info: { title: 'self', version: '1' },
      paths: { '/organisations': { get: { operationId: 'orgs', responses: { '200': { description: 'ok' } } } } },
      'x-gw-api-gateway': {
        info: { name: 'oas-self', state: { active: true } },
        upstream: { url: `${gw.node.dashboardUrl}/admin` },
        server: { listenPath: { value: '/oas-self/', strip: true } },
      },
    };
    const saved = await gwApi('/apis/oas', document);
    assert.equal(saved.status, 200, saved.text);
    await http(`${gw.node.gatewayUrl}/gw/reload`, { headers: gw.node.gwHeaders });
    const res = await gw.call('/oas-self/organisations', { headers: { 'admin-auth': gw.node.config.adminSecret } });
    assert.equal(res.status, 502, res.text);
  });
});

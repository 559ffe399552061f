import { strict as assert } from 'node:assert';
import { http, type HttpOptions } from '../support/http';
import { apiDefinition, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

describe('gateway API: classic API versions (POST /gw/apis?base_api_id=…)', function () {
  this.timeout(60_000);
  let gw: GatewayFixture;
  const admin = (path: string, options: HttpOptions = {}) =>
    http(`${gw.node.gatewayUrl}/gw${path}`, { ...options, headers: gw.node.gwHeaders });
  const create = (query: string, apiId: string) =>
    admin(`/apis${query}`, {
      method: 'POST',
      body: apiDefinition(apiId, `/${apiId}/`, gw.upstream.url),
    });

  before(async () => {
    gw = await startGatewayFixture();
    assert.equal((await create('', 'orders')).status, 200);
  });
  after(() => gw.stop());

  it('adds the new API to the base as a version, named, and the default when asked', async () => {
    const res = await create(
      '?base_api_id=orders&base_api_version_name=v1&new_version_name=v2&set_default=true',
      'orders-v2',
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json, { key: 'orders-v2', status: 'ok', action: 'added' });
    const base = (await admin('/apis/orders')).json;
    assert.deepEqual(base.definition, {
      enabled: true,
      name: 'v1',
      default: 'v2',
      location: 'header',
      key: 'x-api-version',
      base_id: 'orders',
      versions: { v2: 'orders-v2' },
    });
    const listed = await admin('/apis/orders/versions');
    assert.deepEqual(
      listed.json.apis.map((api: { id: string; versionName: string; isDefaultVersion: boolean }) => [
        api.id,
        api.versionName,
        api.isDefaultVersion,
      ]),
      [
        ['orders', 'v1', false],
        ['orders-v2', 'v2', true],
      ],
    );
  });

  it('keeps the base version name once set, and the default unless asked', async () => {
    const res = await create('?base_api_id=orders&new_version_name=v3', 'orders-v3');
    assert.equal(res.status, 200, res.text);
    const { definition } = (await admin('/apis/orders')).json;
    assert.equal(definition.name, 'v1');
    assert.equal(definition.default, 'v2');
    assert.deepEqual(definition.versions, { v2: 'orders-v2', v3: 'orders-v3' });
  });

  it('refuses a version without a name (422), of an unknown base or of a base with no version name (400), storing nothing', async () => {
    const cases: Array<[string, number, string]> = [
      ['?base_api_id=orders', 422, 'The new version name is required'],
      ['?base_api_id=nowhere&new_version_name=v9', 400, 'nowhere is not a valid Base API version'],
    ];
    assert.equal((await create('', 'unversioned')).status, 200);
    cases.push([
      '?base_api_id=unversioned&new_version_name=v2',
      400,
      'you need to provide a version name for the new Base API: unversioned',
    ]);
    for (const [query, status, message] of cases) {
      const res = await create(query, 'refused-version');
      assert.equal(res.status, status, `${query}: ${res.text}`);
      assert.deepEqual(res.json, { status: 'error', message });
      assert.equal((await admin('/apis/refused-version')).status, 404, `${query} stored the API`);
    }
  });

  it('drops a deleted version from its base, the default falling back to the base version', async () => {
    assert.equal((await admin('/apis/orders-v2', { method: 'DELETE' })).status, 200);
    const { definition } = (await admin('/apis/orders')).json;
    assert.deepEqual(definition.versions, { v3: 'orders-v3' });
    assert.equal(definition.default, 'v1');
  });
});

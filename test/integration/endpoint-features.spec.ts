import { strict as assert } from 'node:assert';
import { apiDefinition, singleVersion, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

/**
 * The per-endpoint `extended_paths` lists an OAS operation compiles into, written by hand on a
 * classic definition: size_limits, transform_headers, transform_response_headers,
 * mock_response, validate_json and validate_request.
 */
describe('classic per-endpoint lists: size limits, header transforms, mocks and validation', () => {
  let gw: GatewayFixture;
  const lastReceived = () => gw.upstream.received.at(-1)!;

  before(async () => {
    gw = await startGatewayFixture();
    await gw.addApi(
      apiDefinition('features', '/features', gw.upstream.url, {
        version_data: singleVersion({
          use_extended_paths: true,
          global_size_limit: 4096,
          extended_paths: {
            size_limits: [
              { path: '/uploads/small', method: 'POST', size_limit: 10 },
              { path: '/uploads/free', method: 'POST', disabled: true, stop_matching: true },
              { path: '/uploads/skipped', method: 'POST', size_limit: 1, disabled: true },
              { path: '/uploads', method: 'POST', size_limit: 100 },
            ],
            transform_headers: [
              {
                path: '/users/{id}',
                method: 'GET',
                add_headers: { 'X-User-Read': 'yes' },
                delete_headers: ['X-Secret'],
              },
            ],
            transform_response_headers: [
              {
                path: '/users/{id}',
                method: 'GET',
                add_headers: { 'X-Cache': 'none' },
                delete_headers: ['X-Upstream'],
              },
            ],
            mock_response: [
              { path: '/ping$', method: 'GET', code: 203, body: 'pong', headers: { 'X-Mocked': 'true' } },
            ],
            validate_json: [
              {
                path: '/orders$',
                method: 'POST',
                error_response_code: 400,
                schema: {
                  type: 'object',
                  required: ['sku'],
                  properties: {
                    sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' },
                    qty: { type: 'integer', minimum: 1 },
                  },
                },
              },
            ],
            validate_request: [
              {
                path: '/search$',
                method: 'GET',
                enabled: true,
                parameters: [
                  { name: 'q', in: 'query', required: true, schema: { type: 'string', minLength: 2 } },
                  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
                ],
              },
            ],
          },
        }),
      }),
    );
  });
  after(() => gw.stop());

  it('an endpoint size limit wins over the global one; a switched-off entry is skipped unless it says stop_matching', async () => {
    assert.equal((await gw.call('/features/uploads/small', { method: 'POST', body: 'x'.repeat(11) })).status, 400);
    assert.equal((await gw.call('/features/uploads/other', { method: 'POST', body: 'x'.repeat(101) })).status, 400);
    assert.equal((await gw.call('/features/uploads/other', { method: 'POST', body: 'x'.repeat(100) })).status, 200);
    assert.equal(
      (await gw.call('/features/uploads/free', { method: 'POST', body: 'x'.repeat(1000) })).status,
      200,
      'no endpoint limit: the global 4096 applies',
    );
    assert.equal((await gw.call('/features/uploads/free', { method: 'POST', body: 'x'.repeat(5000) })).status, 400);
    assert.equal(
      (await gw.call('/features/uploads/skipped', { method: 'POST', body: 'x'.repeat(50) })).status,
      200,
      'the disabled entry is skipped: the /uploads limit of 100 applies',
    );
    assert.equal((await gw.call('/features/uploads/skipped', { method: 'POST', body: 'x'.repeat(101) })).status, 400);
  });

  it('changes the request and response headers of one endpoint only', async () => {
    const res = await gw.call('/features/users/7', { headers: { 'x-secret': 's3cret' } });
    assert.equal(res.status, 200);
    assert.equal(lastReceived().headers['x-user-read'], 'yes');
    assert.equal(lastReceived().headers['x-secret'], undefined);
    assert.equal(res.headers.get('x-cache'), 'none');
    assert.equal(res.headers.get('x-upstream'), null);
    const other = await gw.call('/features/teams/7', { headers: { 'x-secret': 's3cret' } });
    assert.equal(lastReceived().headers['x-secret'], 's3cret');
    assert.equal(other.headers.get('x-upstream'), 'yes');
  });

  it('answers a mocked endpoint without calling upstream', async () => {
    const before = gw.upstream.received.length;
    const res = await gw.call('/features/ping');
    assert.equal(res.status, 203);
    assert.equal(res.text, 'pong');
    assert.equal(res.headers.get('x-mocked'), 'true');
    assert.equal(gw.upstream.received.length, before);
    assert.equal((await gw.call('/features/ping/deeper')).status, 200, 'the path is anchored: sub-paths go upstream');
  });

  it('validate_json: refuses a body outside the schema with its error_response_code', async () => {
    const bad = await gw.call('/features/orders', { method: 'POST', body: { sku: 'abc', qty: 2 } });
    assert.equal(bad.status, 400);
    assert.match(
      bad.json.error,
      /^request validation error: request body has an error: doesn't match schema: Error at "\/sku": must match pattern/,
    );
    const good = await gw.call('/features/orders', { method: 'POST', body: { sku: 'ABC-1', qty: 2 } });
    assert.equal(good.status, 200);
    assert.deepEqual(JSON.parse(lastReceived().body), { sku: 'ABC-1', qty: 2 });
  });

  it('validate_request: checks query parameters with 422 by default', async () => {
    const missing = await gw.call('/features/search');
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.json, {
      error: 'request validation error: parameter "q" in query has an error: value is required but missing',
    });
    assert.equal((await gw.call('/features/search?q=ab&page=0')).status, 422);
    assert.equal((await gw.call('/features/search?q=ab&page=2')).status, 200);
    assert.equal(lastReceived().url, '/search?q=ab&page=2');
  });
});

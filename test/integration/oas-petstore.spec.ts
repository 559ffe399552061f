import { strict as assert } from 'node:assert';
import { createTenant, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { oasFixture, oasFixtureText } from '../support/oas-fixtures';
import { startUpstream, type Upstream } from '../support/upstream';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** The petstore fixture (test/fixtures/oas/petstore.yaml) created on the dashboard and called through the gateway. */
describe('OAS API definitions through the gateway: the petstore', () => {
  let node: TestNode;
  let upstream: Upstream;
  let tenant: Tenant;
  let apiId: string;
  let token: string;
  const dashboard = (
    path: string,
    options: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) => http(`${node.dashboardUrl}/api${path}`, { ...options, headers: { ...tenant.headers, ...options.headers } });
  const call = (path: string, options: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    http(`${node.gatewayUrl}/petstore${path}`, {
      ...options,
      headers: { 'x-api-key': token, 'x-request-source': 'web', ...options.headers },
    });
  const received = () => upstream.received.at(-1)!;
  /** A new key for the API: each group of tests starts with its own rate-limit counters. */
  const newKey = async () => {
    const key = await dashboard('/keys', { method: 'POST', body: { access_rights: { [apiId]: { api_id: apiId } } } });
    assert.equal(key.status, 200, key.text);
    return key.json.key_id as string;
  };

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Pets');
    const created = await dashboard('/apis/oas', {
      method: 'POST',
      body: oasFixtureText('petstore.yaml', upstream.url),
      headers: { 'content-type': 'application/x-yaml' },
    });
    assert.equal(created.status, 200, created.text);
    apiId = created.json.ID;
    token = await newKey();
    await eventually(async () => assert.equal((await call('/pets')).status, 200));
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  describe('authentication, headers, mocks and blocks', () => {
    it('proxies an operation with the token from the document’s apiKey header, stripped, and the global header changes', async () => {
      const res = await call('/pets?limit=10', { headers: { 'x-internal-debug': 'on' } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('x-served-by'), 'petstore');
      assert.equal(received().url, '/pets?limit=10');
      assert.equal(received().headers['x-gateway'], 'gw');
      assert.equal(received().headers['x-internal-debug'], undefined);
      assert.equal(received().headers['x-api-key'], undefined, 'stripAuthorizationData');
    });

    it('refuses a request without the token (401) and with an unknown one (403)', async () => {
      assert.equal((await http(`${node.gatewayUrl}/petstore/pets`)).status, 401);
      assert.equal((await call('/pets', { headers: { 'x-api-key': 'nobody-has-this' } })).status, 403);
    });

    it('answers the mocked health check itself, without a credential and without calling upstream', async () => {
      const before = upstream.received.length;
      const res = await http(`${node.gatewayUrl}/petstore/health`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, { status: 'pass' });
      assert.equal(res.headers.get('content-type'), 'application/json');
      assert.equal(upstream.received.length, before);
    });

    it('blocks a blocked operation (403) and leaves the other method of the path alone', async () => {
      const res = await call('/pets/7', { method: 'DELETE' });
      assert.equal(res.status, 403);
      assert.deepEqual(res.json, { error: 'Requested endpoint is forbidden' });
      assert.equal((await call('/pets/7')).status, 200);
    });
  });

  describe('validateRequest', () => {
    before(async () => {
      token = await newKey();
    });

    it('refuses a query parameter out of its schema with the operation’s errorResponseCode (400)', async () => {
      const before = upstream.received.length;
      const res = await call('/pets?limit=500');
      assert.equal(res.status, 400);
      assert.deepEqual(res.json, {
        error: 'request validation error: parameter "limit" in query has an error: Error at "": must be <= 100',
      });
      assert.equal(upstream.received.length, before);
    });

    it('refuses a missing required header and a header value outside its enum', async () => {
      const missing = await call('/pets', { headers: { 'x-request-source': '' } });
      assert.equal(missing.status, 400);
      assert.match(
        missing.json.error,
        /^request validation error: parameter "X-Request-Source" in header has an error/,
      );
      const wrong = await call('/pets', { headers: { 'x-request-source': 'fax' } });
      assert.equal(wrong.status, 400);
      assert.match(wrong.json.error, /must be equal to one of the allowed values/);
    });

    it('refuses a body that does not match the $ref schema with 422, naming the missing property', async () => {
      const res = await call('/pets', { method: 'POST', body: { name: 'Rex' } });
      assert.equal(res.status, 422);
      assert.deepEqual(res.json, {
        error:
          'request validation error: request body has an error: doesn\'t match schema: Error at "/species": property "species" is missing',
      });
    });

    it('refuses an unknown property, a missing body and a body that is not JSON', async () => {
      assert.match(
        (await call('/pets', { method: 'POST', body: { name: 'Rex', species: 'dog', colour: 'brown' } })).json.error,
        /property "colour" is unsupported/,
      );
      assert.match(
        (await call('/pets', { method: 'POST', body: '', headers: { 'content-type': 'application/json' } })).json.error,
        /request body has an error: value is required but missing/,
      );
      const garbled = await call('/pets', {
        method: 'POST',
        body: '{"name":',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(garbled.status, 422);
      assert.match(garbled.json.error, /failed to decode request body/);
    });

    it('passes a valid body on unchanged, with the operation’s own request header', async () => {
      const res = await call('/pets', {
        method: 'POST',
        body: { name: 'Rex', species: 'dog', age: 3, tags: ['good'] },
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(JSON.parse(received().body), { name: 'Rex', species: 'dog', age: 3, tags: ['good'] });
      assert.equal(received().headers['x-pet-write'], 'yes');
      assert.equal(received().method, 'POST');
    });

    it('checks path parameters against their schema (a $ref on the path item)', async () => {
      const res = await call('/pets/abc');
      assert.equal(res.status, 422);
      assert.equal(
        res.json.error,
        'request validation error: parameter "petId" in path has an error: Error at "": must be integer',
      );
    });
  });

  describe('limits and timeouts', () => {
    before(async () => {
      token = await newKey();
    });

    it('refuses a body larger than the operation’s requestSizeLimit', async () => {
      const res = await call('/pets', { method: 'POST', body: { name: 'R', species: 'dog', tags: ['x'.repeat(600)] } });
      assert.equal(res.status, 400);
      assert.deepEqual(res.json, { error: 'Request is too large' });
    });

    it('lets /pets/mine, listed first, win over /pets/{petId}: no id validation, no id rate limit, its own response header', async () => {
      for (let i = 0; i < 4; i++) {
        const res = await call('/pets/mine');
        assert.equal(res.status, 200, res.text);
        assert.equal(res.headers.get('x-mine'), 'true');
      }
      assert.equal(received().url, '/pets/mine');
    });

    it('applies the per-operation rate limit of /pets/{petId} (2 per 10s) per key', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await call('/pets/42')).status);
      statuses.push((await call('/pets/43')).status);
      // The limit is the operation's, shared by every id.
      assert.deepEqual(statuses, [200, 200, 429, 429]);
      assert.deepEqual((await call('/pets/42')).json, { error: 'Rate Limit Exceeded' });
    });

    it('applies the per-operation rate limit of listPets (3 per 10s) on its own counter', async () => {
      const key = await newKey();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await call('/pets', { headers: { 'x-api-key': key } })).status);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      assert.equal((await call('/pets/mine', { headers: { 'x-api-key': key } })).status, 200);
    });

    it('answers 504 when the operation’s enforceTimeout (1s) passes', async () => {
      const key = await newKey();
      upstream.respondWith((req, res) => {
        if (req.url === '/pets/99') setTimeout(() => res.end('late'), 1500);
        else res.end('{}');
      });
      try {
        const res = await call('/pets/99', { headers: { 'x-api-key': key } });
        assert.equal(res.status, 504);
        assert.deepEqual(res.json, { error: 'Upstream service reached hard timeout.' });
      } finally {
        upstream.respondWith((req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ url: req.url }));
        });
      }
    });
  });

  describe('event handlers', () => {
    let receiver: Upstream;
    before(async () => {
      receiver = await startUpstream();
    });
    after(() => receiver?.close());

    it('delivers a gateway event to the webhook of x-gw-api-gateway.server.eventHandlers', async () => {
      const document = oasFixture('petstore.yaml', upstream.url);
      document['x-gw-api-gateway'].server.eventHandlers = [
        {
          enabled: true,
          trigger: 'AuthFailure',
          type: 'webhook',
          url: `${receiver.url}/alerts`,
          method: 'PUT',
          headers: [{ name: 'X-Alert', value: 'pets' }],
        },
        { enabled: false, trigger: 'AuthFailure', type: 'webhook', url: `${receiver.url}/switched-off` },
      ];
      const updated = await dashboard(`/apis/oas/${apiId}`, { method: 'PUT', body: document });
      assert.equal(updated.status, 200, updated.text);
      assert.equal((await dashboard(`/apis/${apiId}`)).json.hook_references.length, 1);
      await eventually(
        async () => {
          assert.equal((await call('/pets/mine', { headers: { 'x-api-key': 'not-a-key' } })).status, 403);
          const delivered = receiver.received.find((r) => r.url === '/alerts');
          assert.ok(delivered, 'delivered');
          assert.equal(delivered.method, 'PUT');
          assert.equal(delivered.headers['x-alert'], 'pets');
          assert.equal(JSON.parse(delivered.body).event, 'AuthFailure');
        },
        5000,
        100,
      );
      assert.equal(receiver.received.filter((r) => r.url === '/switched-off').length, 0);
    });
  });

  describe('changing the document', () => {
    it('skipQuota (middleware.global) lets a key past its spent quota', async () => {
      const key = await dashboard('/keys', {
        method: 'POST',
        body: { quota_max: 1, quota_renewal_rate: 3600, access_rights: { [apiId]: { api_id: apiId } } },
      });
      assert.equal(key.status, 200, key.text);
      const withKey = { headers: { 'x-api-key': key.json.key_id } };
      assert.equal((await call('/pets/mine', withKey)).status, 200);
      const spent = await call('/pets/mine', withKey);
      assert.equal(spent.status, 403);
      assert.deepEqual(spent.json, { error: 'Quota exceeded' });
      const document = oasFixture('petstore.yaml', upstream.url);
      document['x-gw-api-gateway'].middleware.global.skipQuota = true;
      assert.equal((await dashboard(`/apis/oas/${apiId}`, { method: 'PUT', body: document })).status, 200);
      await eventually(async () => assert.equal((await call('/pets/mine', withKey)).status, 200));
    });

    it('switches the API to basic authentication with a PUT of the document (basic_auth enabled, api_key off)', async () => {
      const document = oasFixture('petstore.yaml', upstream.url);
      const schemes = document['x-gw-api-gateway'].server.authentication.securitySchemes;
      schemes.api_key.enabled = false;
      schemes.basic_auth.enabled = true;
      const updated = await dashboard(`/apis/oas/${apiId}`, { method: 'PUT', body: document });
      assert.equal(updated.status, 200, updated.text);
      const user = await dashboard('/apis/keys/basic/alice', {
        method: 'POST',
        body: { access_rights: { [apiId]: { api_id: apiId } }, basic_auth_data: { password: 'wonderland' } },
      });
      assert.equal(user.status, 200, user.text);
      await eventually(async () =>
        assert.equal(
          (await call('/pets/mine', { headers: { 'x-api-key': '', authorization: basic('alice', 'wonderland') } }))
            .status,
          200,
        ),
      );
      assert.equal(
        received().headers.authorization,
        undefined,
        'stripAuthorizationData strips the basic credentials too',
      );
      assert.equal((await call('/pets/mine', { headers: { authorization: basic('alice', 'wrong') } })).status, 403);
      const noCredentials = await call('/pets/mine');
      assert.equal(noCredentials.status, 401);
      assert.match(String(noCredentials.headers.get('www-authenticate')), /^Basic realm="Petstore"/);
    });
  });
});

import { strict as assert } from 'node:assert';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

/** A keyless OAS API with one operation, proxying to `target` with its listen path stripped. */
function oasApi(
  name: string,
  listenPath: string,
  target: string,
  versioning?: Record<string, unknown>,
  state: Record<string, unknown> = { active: true },
): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: name, version: '1' },
    paths: { '/pets/{id}': { get: { operationId: 'pet', responses: { 200: { description: 'ok' } } } } },
    'x-gw-api-gateway': {
      info: { name, state, ...(versioning ? { versioning } : {}) },
      upstream: { url: target },
      server: { listenPath: { value: listenPath, strip: true } },
    },
  };
}

describe('OAS API versioning: a base API routing to child APIs by version', () => {
  let node: TestNode;
  let base: Upstream;
  let v2: Upstream;
  let v3: Upstream;
  let acme: Tenant;
  let globex: Tenant;
  const ids: Record<string, string> = {};
  const create = async (tenant: Tenant, document: unknown, query = '') => {
    const res = await http(`${node.dashboardUrl}/api/apis/oas${query}`, {
      method: 'POST',
      body: document,
      headers: tenant.headers,
    });
    return res;
  };
  const created = async (tenant: Tenant, document: unknown) => {
    const res = await create(tenant, document);
    assert.equal(res.status, 200, res.text);
    return res.json.ID as string;
  };
  /** A request through the gateway once the API answers as something other than "not found". */
  const served = (path: string, headers: Record<string, string> = {}) =>
    eventually(async () => {
      const res = await http(`${node.gatewayUrl}${path}`, { headers });
      assert.notEqual(res.status, 404, `${path}: ${res.text}`);
      return res;
    }, 3000);
  const last = (upstream: Upstream) => upstream.received.at(-1)!;

  before(async () => {
    [base, v2, v3] = await Promise.all([startUpstream(), startUpstream(), startUpstream()]);
    node = await startTestNode();
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
    ids.v2 = await created(acme, oasApi('Pets v2', '/pets-v2/', v2.url));
    // v3 is internal: served only through its base API
    ids.v3 = await created(acme, oasApi('Pets v3', '/pets-v3/', v3.url, undefined, { active: true, internal: true }));
    const versions = [
      { name: 'v2', id: ids.v2 },
      { name: 'v3', id: ids.v3 },
    ];
    const common = { enabled: true, name: 'v1', default: 'v1', versions };
    ids.byHeader = await created(
      acme,
      oasApi('By header', '/by-header/', base.url, {
        ...common,
        location: 'header',
        key: 'x-pets-version',
        stripVersioningData: true,
      }),
    );
    ids.byParam = await created(
      acme,
      oasApi('By param', '/by-param/', base.url, { ...common, location: 'url-param', key: 'v' }),
    );
    ids.byUrl = await created(
      acme,
      oasApi('By URL', '/by-url/', base.url, {
        ...common,
        location: 'url',
        stripVersioningData: true,
        fallbackToDefault: true,
      }),
    );
    ids.byPattern = await created(
      acme,
      oasApi('By URL pattern', '/by-pattern/', base.url, {
        ...common,
        location: 'url',
        urlVersioningPattern: '^v[0-9]+$',
        stripVersioningData: true,
      }),
    );
    ids.defaultChild = await created(
      acme,
      oasApi('Default child', '/default-child/', base.url, {
        ...common,
        default: 'v3',
        location: 'header',
        key: 'x-pets-version',
      }),
    );
  });
  after(async () => {
    await node?.stop();
    await Promise.all([base, v2, v3].map((u) => u?.close()));
    if (node) removeDir(node.dataDir);
  });

  it('routes by header to the child API, stripping the version header, and serves its own version itself', async () => {
    const res = await served('/by-header/pets/1', { 'x-pets-version': 'v2' });
    assert.equal(res.status, 200, res.text);
    assert.equal(last(v2).url, '/pets/1');
    assert.equal(last(v2).headers['x-pets-version'], undefined);
    const own = await http(`${node.gatewayUrl}/by-header/pets/2`, { headers: { 'x-pets-version': 'v1' } });
    assert.equal(own.status, 200);
    assert.equal(last(base).url, '/pets/2');
  });

  it('uses the default version when the request names none', async () => {
    const before = v3.received.length;
    const own = await served('/by-header/pets/3');
    assert.equal(own.status, 200);
    assert.equal(last(base).url, '/pets/3');
    const child = await served('/default-child/pets/4');
    assert.equal(child.status, 200);
    assert.equal(v3.received.length, before + 1);
    assert.equal(last(v3).url, '/pets/4');
  });

  it('routes by query parameter, keeping the parameter when not told to strip it', async () => {
    const res = await served('/by-param/pets/5?v=v3&x=1');
    assert.equal(res.status, 200, res.text);
    assert.equal(last(v3).url, '/pets/5?v=v3&x=1');
  });

  it('routes by URL segment, stripping it, and falls back to the default for other segments', async () => {
    const res = await served('/by-url/v2/pets/6');
    assert.equal(res.status, 200, res.text);
    assert.equal(last(v2).url, '/pets/6');
    const fallback = await http(`${node.gatewayUrl}/by-url/pets/7`);
    assert.equal(fallback.status, 200);
    assert.equal(last(base).url, '/pets/7');
  });

  it('with urlVersioningPattern, reads only matching first segments as versions', async () => {
    const res = await served('/by-pattern/v2/pets/10');
    assert.equal(res.status, 200, res.text);
    assert.equal(last(v2).url, '/pets/10');
    const plain = await http(`${node.gatewayUrl}/by-pattern/pets/11`);
    assert.equal(plain.status, 200, plain.text);
    assert.equal(last(base).url, '/pets/11');
    assert.equal((await http(`${node.gatewayUrl}/by-pattern/v9/pets/12`)).status, 404);
  });

  it('serves an internal child version only through its base API', async () => {
    const through = await served('/by-header/pets/9', { 'x-pets-version': 'v3' });
    assert.equal(through.status, 200, through.text);
    assert.equal(last(v3).url, '/pets/9');
    assert.equal((await http(`${node.gatewayUrl}/pets-v3/pets/9`)).status, 404);
  });

  it('refuses a version that does not exist with the reference gateway’s error', async () => {
    await served('/by-header/pets/1');
    const res = await http(`${node.gatewayUrl}/by-header/pets/1`, { headers: { 'x-pets-version': 'v9' } });
    assert.equal(res.status, 404);
    assert.deepEqual(res.json, { error: 'This API version does not seem to exist' });
  });

  it('refuses a base API naming another organisation’s API (or an unknown one) as a version, with its pointer', async () => {
    const foreign = oasApi('Foreign', '/foreign/', base.url, {
      enabled: true,
      name: 'v1',
      default: 'v1',
      location: 'header',
      key: 'x-pets-version',
      versions: [
        { name: 'v0', id: 'no-such-api' },
        { name: 'v2', id: ids.v2 },
      ],
    });
    const res = await create(globex, foreign);
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json.Status, 'Error');
    assert.match(
      res.json.Message,
      /^Invalid OAS API definition: \/x-gw-api-gateway\/info\/versioning\/versions\/0\/id: /,
    );
    assert.match(JSON.stringify(res.json), /versions\/1\/id: no API with id/);
    assert.equal(
      (await http(`${node.gatewayUrl}/foreign/pets/1`, { headers: { 'x-pets-version': 'v2' } })).status,
      404,
    );
  });

  it('never hands a request to another organisation’s API, even when a classic definition names it as a version', async () => {
    const definition = {
      definition: {
        enabled: true,
        name: 'v1',
        default: 'v1',
        location: 'header',
        key: 'x-pets-version',
        versions: { v2: ids.v2 },
      },
    };
    const res = await http(`${node.dashboardUrl}/api/apis`, {
      method: 'POST',
      headers: globex.headers,
      body: keylessApi('Classic foreign', '/classic-foreign/', base.url, definition),
    });
    assert.equal(res.status, 200, res.text);
    await served('/classic-foreign/pets/1');
    const before = v2.received.length;
    const refused = await http(`${node.gatewayUrl}/classic-foreign/pets/1`, { headers: { 'x-pets-version': 'v2' } });
    assert.equal(refused.status, 404);
    assert.deepEqual(refused.json, { error: 'This API version does not seem to exist' });
    assert.equal(v2.received.length, before);
  });

  it('never loops between APIs that name each other as versions: a child serves the request itself', async () => {
    const res = await http(`${node.dashboardUrl}/api/apis`, {
      method: 'POST',
      headers: acme.headers,
      body: keylessApi('Loop', '/loop/', base.url),
    });
    assert.equal(res.status, 200, res.text);
    const current = (await http(`${node.dashboardUrl}/api/apis/${res.json.Meta}`, { headers: acme.headers })).json;
    current.api_definition.definition = {
      enabled: true,
      name: 'v1',
      default: 'v1',
      location: 'header',
      key: 'x-pets-version',
      versions: { again: current.api_definition.api_id },
    };
    const updated = await http(`${node.dashboardUrl}/api/apis/${res.json.Meta}`, {
      method: 'PUT',
      headers: acme.headers,
      body: current,
    });
    assert.equal(updated.status, 200, updated.text);
    const looped = await eventually(async () => {
      const r = await http(`${node.gatewayUrl}/loop/pets/13`, { headers: { 'x-pets-version': 'again' } });
      assert.equal(r.status, 200, r.text);
      return r;
    }, 3000);
    assert.equal(looped.status, 200);
    assert.equal(last(base).url, '/pets/13');
  });

  it('creates a new version from the dashboard (?base_api_id=&new_version_name=) and serves it', async () => {
    const res = await create(
      acme,
      oasApi('Pets v4', '/pets-v4/', v3.url),
      `?base_api_id=${ids.byHeader}&new_version_name=v4`,
    );
    assert.equal(res.status, 200, res.text);
    const baseDocument = await http(`${node.dashboardUrl}/api/apis/oas/${ids.byHeader}`, { headers: acme.headers });
    assert.deepEqual(baseDocument.json['x-gw-api-gateway'].info.versioning.versions.at(-1), {
      name: 'v4',
      id: res.json.ID,
    });
    const routed = await eventually(async () => {
      const r = await http(`${node.gatewayUrl}/by-header/pets/8`, { headers: { 'x-pets-version': 'v4' } });
      assert.equal(r.status, 200, r.text);
      return r;
    }, 3000);
    assert.equal(routed.status, 200);
    assert.equal(last(v3).url, '/pets/8');
  });

  it('refuses a new version of another organisation’s base API, storing nothing', async () => {
    const before = (await http(`${node.dashboardUrl}/api/apis/oas`, { headers: globex.headers })).json.apis.length;
    const res = await create(
      globex,
      oasApi('Sneaky', '/sneaky/', v3.url),
      `?base_api_id=${ids.byHeader}&new_version_name=v5`,
    );
    assert.equal(res.status, 404, res.text);
    assert.equal(res.json.Status, 'Error');
    assert.equal(
      (await http(`${node.dashboardUrl}/api/apis/oas`, { headers: globex.headers })).json.apis.length,
      before,
    );
  });

  it('forgets a deleted child in the base that named it: the default falls back, and the base saves again', async () => {
    const child = await created(acme, oasApi('Pets v6', '/pets-v6/', v2.url));
    const baseId = await created(
      acme,
      oasApi('Deletable versions', '/deletable/', base.url, {
        enabled: true,
        name: 'v1',
        default: 'v6',
        location: 'header',
        key: 'x-pets-version',
        versions: [
          { name: 'v2', id: ids.v2 },
          { name: 'v6', id: child },
        ],
      }),
    );
    await served('/deletable/pets/1', { 'x-pets-version': 'v6' });
    const deleted = await http(`${node.dashboardUrl}/api/apis/oas/${child}`, {
      method: 'DELETE',
      headers: acme.headers,
    });
    assert.equal(deleted.status, 200, deleted.text);

    const document = (await http(`${node.dashboardUrl}/api/apis/oas/${baseId}`, { headers: acme.headers })).json;
    const versioning = document['x-gw-api-gateway'].info.versioning;
    assert.deepEqual(versioning.versions, [{ name: 'v2', id: ids.v2 }]);
    assert.equal(versioning.default, 'v1');
    const classic = (await http(`${node.dashboardUrl}/api/apis/${baseId}`, { headers: acme.headers })).json;
    assert.deepEqual(classic.api_definition.definition.versions, { v2: ids.v2 });
    assert.equal(classic.api_definition.definition.default, 'v1');
    // the document as stored is a valid base again (a version naming a deleted API is refused)
    const saved = await http(`${node.dashboardUrl}/api/apis/oas/${baseId}`, {
      method: 'PUT',
      body: document,
      headers: acme.headers,
    });
    assert.equal(saved.status, 200, saved.text);

    const refused = await eventually(async () => {
      const res = await http(`${node.gatewayUrl}/deletable/pets/1`, { headers: { 'x-pets-version': 'v6' } });
      assert.equal(res.status, 404, res.text);
      return res;
    }, 3000);
    assert.deepEqual(refused.json, { error: 'This API version does not seem to exist' });
    const byDefault = await http(`${node.gatewayUrl}/deletable/pets/2`);
    assert.equal(byDefault.status, 200, byDefault.text);
    assert.equal(last(base).url, '/pets/2');
  });
});

describe('OAS operation-level security through the gateway', () => {
  let node: TestNode;
  let upstream: Upstream;
  let acme: Tenant;

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  const tokenApi = () => {
    const document = oasApi('Secured', '/secured/', upstream.url) as Record<string, any>;
    document.paths['/health'] = {
      get: { operationId: 'health', security: [], responses: { 200: { description: 'ok' } } },
    };
    document.paths['/pets/{id}'].get.security = [{ key: [] }];
    document.components = { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'Authorization' } } };
    document.security = [{ key: [] }];
    document['x-gw-api-gateway'].server.authentication = { enabled: true, securitySchemes: { key: { enabled: true } } };
    return document;
  };

  it('lets anonymous callers reach an operation with security: [] and keeps the others authenticated', async () => {
    const res = await http(`${node.dashboardUrl}/api/apis/oas`, {
      method: 'POST',
      body: tokenApi(),
      headers: acme.headers,
    });
    assert.equal(res.status, 200, res.text);
    const open = await eventually(async () => {
      const r = await http(`${node.gatewayUrl}/secured/health`);
      assert.equal(r.status, 200, r.text);
      return r;
    }, 3000);
    assert.equal(open.status, 200);
    assert.equal(upstream.received.at(-1)!.url, '/health');
    const closed = await http(`${node.gatewayUrl}/secured/pets/1`);
    assert.equal(closed.status, 401, closed.text);
  });

  it('refuses an operation asking for a scheme the API does not enforce, with a 400 naming its pointer', async () => {
    const document = tokenApi();
    document.paths['/pets/{id}'].get.security = [{ other: [] }];
    document.components.securitySchemes.other = { type: 'http', scheme: 'basic' };
    const res = await http(`${node.dashboardUrl}/api/apis/oas`, {
      method: 'POST',
      body: document,
      headers: acme.headers,
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json.Status, 'Error');
    assert.match(JSON.stringify(res.json), /\/paths\/~1pets~1\{id\}\/get\/security/);
  });
});

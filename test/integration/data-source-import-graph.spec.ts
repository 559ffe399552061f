import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { close, listen } from '../../lib/http/listen';
import { createTenant, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

const PETSTORE_YAML = readFileSync(join(__dirname, '..', 'fixtures', 'udg', 'petstore.yaml'), 'utf8');

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * The petstore of the fixture, as a REST server: it serves its own OpenAPI document (with a
 * relative server URL) at /openapi.yaml and the operations under /v1, recording every call.
 */
async function startPetstore(): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const pets = [
    { id: 1, name: 'Tom', tag: 'cat', status: 'available', owner: { id: 10, name: 'Ann' } },
    { id: 2, name: 'Rex', tag: 'dog', status: 'sold', owner: null },
  ];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://petstore');
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (url.pathname === '/openapi.yaml')
        return void res
          .writeHead(200, { 'content-type': 'application/yaml' })
          .end(PETSTORE_YAML.replace('http://petstore.example.test/v1', '/v1'));
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const pet = /^\/v1\/pets\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && url.pathname === '/v1/pets')
        return json(200, pets.slice(0, Number(url.searchParams.get('limit') || pets.length)));
      if (req.method === 'POST' && url.pathname === '/v1/pets')
        return json(201, { id: 3, ...JSON.parse(body), owner: null });
      if (req.method === 'GET' && pet)
        return json(200, { ...pets[0], id: 7, name: `pet ${decodeURIComponent(pet[1])}` });
      if (req.method === 'DELETE' && pet) return void res.writeHead(204).end();
      if (req.method === 'GET' && url.pathname === '/v1/owners/10')
        return json(200, { id: 10, 'full-name': 'Ann Smith', pets: [pets[0]] });
      json(404, { code: 404, message: 'no such resource' });
    });
  });
  const port = await listen(server, 0, '127.0.0.1');
  return { url: `http://127.0.0.1:${port}`, seen, close: () => close(server) };
}

describe('an imported OpenAPI document queried through the gateway (combined graph)', function () {
  this.timeout(20_000);
  let node: TestNode;
  let tenant: Tenant;
  let petstore: Awaited<ReturnType<typeof startPetstore>>;
  let listenPath = '';
  let token = '';
  const query = (text: string, headers: Record<string, string> = {}) =>
    http(`${node.gatewayUrl}${listenPath}`, {
      method: 'POST',
      headers: { authorization: token, ...headers },
      body: { query: text },
    });

  before(async () => {
    petstore = await startPetstore();
    node = await startTestNode();
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Pet Shop');
    const imported = await http(`${node.dashboardUrl}/api/data-graphs/data-sources/import`, {
      method: 'POST',
      headers: tenant.headers,
      body: { url: `${petstore.url}/openapi.yaml` },
    });
    assert.equal(imported.status, 200, imported.text);
    const api = (await http(`${node.dashboardUrl}/api/apis/${imported.json.Meta}`, { headers: tenant.headers })).json
      .api_definition;
    listenPath = api.proxy.listen_path;
    const key = await http(`${node.dashboardUrl}/api/keys`, {
      method: 'POST',
      headers: tenant.headers,
      body: { access_rights: { [api.api_id]: { api_id: api.api_id } } },
    });
    assert.equal(key.status, 200, key.text);
    token = key.json.key_id;
    await eventually(async () => assert.equal((await query('{ __typename }')).status, 200), 5000);
  });
  after(async () => {
    if (node) {
      await node.stop();
      removeDir(node.dataDir);
    }
    await petstore?.close();
  });

  it('is protected like any new API: no key, no data', async () => {
    const res = await http(`${node.gatewayUrl}${listenPath}`, {
      method: 'POST',
      body: { query: '{ listPets { id } }' },
    });
    assert.equal(res.status, 401);
  });

  it('answers a query from the REST operations, with arguments in the path, query string and headers', async () => {
    petstore.seen.length = 0;
    const res = await query(
      '{ listPets(limit: 1) { id name status owner { name } } showPetById(petId: "7 a/b", xRequestId: "req-42") { id name tag } }',
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json, {
      data: {
        listPets: [{ id: 1, name: 'Tom', status: 'available', owner: { name: 'Ann' } }],
        showPetById: { id: 7, name: 'pet 7 a/b', tag: 'cat' },
      },
    });
    const list = petstore.seen.find((seen) => seen.url.startsWith('/v1/pets?'));
    assert.ok(list, JSON.stringify(petstore.seen));
    assert.equal(list.method, 'GET');
    assert.equal(new URL(list.url, 'http://x').searchParams.get('limit'), '1');
    const one = petstore.seen.find((seen) => seen.url.startsWith('/v1/pets/'));
    assert.ok(one, JSON.stringify(petstore.seen));
    assert.equal(one.url, '/v1/pets/7%20a%2Fb');
    assert.equal(one.headers['x-request-id'], 'req-42');
    assert.equal(petstore.seen.length, 2);
  });

  it('runs a mutation with its input object sent as the JSON body', async () => {
    petstore.seen.length = 0;
    const res = await query(
      'mutation { createPet(newPetInput: { name: "Bella", tag: "dog", status: pending }) { id name tag status } }',
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json, { data: { createPet: { id: 3, name: 'Bella', tag: 'dog', status: 'pending' } } });
    assert.equal(petstore.seen.length, 1);
    assert.equal(petstore.seen[0].method, 'POST');
    assert.equal(petstore.seen[0].url, '/v1/pets');
    assert.match(String(petstore.seen[0].headers['content-type']), /^application\/json/);
    assert.deepEqual(JSON.parse(petstore.seen[0].body), { name: 'Bella', tag: 'dog', status: 'pending' });
  });

  it('refuses a query the generated schema does not have, without calling the upstream', async () => {
    petstore.seen.length = 0;
    const res = await query('{ listPets { colour } }');
    assert.equal(res.status, 400);
    assert.match(res.json.errors[0].message, /Cannot query field "colour" on type "Pet"/);
    assert.equal(petstore.seen.length, 0);
  });

  describe('reference-engine behaviour the import relies on', () => {
    // graphql-go-tools: disable_default_mapping false + path → the value at path.
    it('maps a response key GraphQL cannot name (full-name) through its field config', async () => {
      const res = await query('{ getOwner(ownerId: 10) { id fullName pets { name } } }');
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { data: { getOwner: { id: 10, fullName: 'Ann Smith', pets: [{ name: 'Tom' }] } } });
    });

    // graphql-go-tools: a query parameter whose value renders empty is left out.
    it('leaves out the query parameters of arguments the query does not give', async () => {
      petstore.seen.length = 0;
      const res = await query('{ listPets(limit: 1) { id } }');
      assert.equal(res.status, 200, res.text);
      assert.equal(petstore.seen[0].url, '/v1/pets?limit=1');
    });
  });
});

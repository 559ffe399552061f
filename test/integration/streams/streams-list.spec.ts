import { strict as assert } from 'node:assert';
import { createTenant, type Tenant } from '../../support/bootstrap';
import { http } from '../../support/http';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import { STREAMS_TYPE, streamsDocument } from '../../support/stream-apis';

const ECHO = { echo: { input: { http_server: { path: '/in' } }, output: { http_server: { path: '/out' } } } };
const nameOf = (document: any) => document['x-gw-api-gateway'].info.name as string;

/** `GET /api/apis/streams`: the organisation's streams APIs only, paged like `/api/apis/oas`. */
describe('Streams APIs: the list endpoint', () => {
  let node: TestNode;
  let acme: Tenant;
  let globex: Tenant;
  const api = (
    tenant: Tenant,
    path: string,
    options: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) => http(`${node.dashboardUrl}/api${path}`, { ...options, headers: { ...tenant.headers, ...options.headers } });
  async function createStreams(tenant: Tenant, name: string): Promise<void> {
    const res = await api(tenant, '/apis/streams', {
      method: 'POST',
      body: JSON.stringify(streamsDocument(name, `/${name.toLowerCase()}/`, ECHO)),
      headers: STREAMS_TYPE,
    });
    assert.equal(res.status, 200, res.text);
  }

  before(async () => {
    node = await startTestNode({ pageSize: 2, streamsDrainTimeout: 1 });
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
    await createStreams(acme, 'First');
    // An OAS API without streams is not a streams API.
    const plain = streamsDocument('Plain', '/plain/', {});
    delete plain['x-gw-streaming'];
    const created = await api(acme, '/apis/oas', {
      method: 'POST',
      body: JSON.stringify(plain),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(created.status, 200, created.text);
    await createStreams(acme, 'Second');
    await createStreams(acme, 'Third');
    await createStreams(globex, 'Theirs');
  });
  after(async () => {
    await node?.stop();
    if (node) removeDir(node.dataDir);
  });

  it("lists only the organisation's streams APIs, newest first, as {apis, pages}", async () => {
    const first = await api(acme, '/apis/streams');
    assert.equal(first.status, 200, first.text);
    assert.equal(first.json.pages, 2);
    assert.deepEqual(first.json.apis.map(nameOf), ['Third', 'Second']);
    assert.deepEqual(Object.keys(first.json.apis[0]['x-gw-streaming'].streams), ['echo']);
    const second = await api(acme, '/apis/streams?p=2');
    assert.deepEqual(second.json.apis.map(nameOf), ['First']);
    const theirs = await api(globex, '/apis/streams');
    assert.deepEqual(theirs.json.apis.map(nameOf), ['Theirs']);
    assert.equal(theirs.json.pages, 1);
  });

  it('still lists a streams API once it is updated, and drops it once deleted', async () => {
    const id = (await api(acme, '/apis/streams?p=2')).json.apis[0]['x-gw-api-gateway'].info.id as string;
    const document = streamsDocument('First again', '/first/', ECHO);
    const put = await api(acme, `/apis/streams/${id}`, {
      method: 'PUT',
      body: JSON.stringify(document),
      headers: STREAMS_TYPE,
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual((await api(acme, '/apis/streams?p=2')).json.apis.map(nameOf), ['First again']);
    assert.equal((await api(acme, `/apis/streams/${id}`, { method: 'DELETE' })).status, 200);
    const after = await api(acme, '/apis/streams');
    assert.equal(after.json.pages, 1);
    assert.deepEqual(after.json.apis.map(nameOf), ['Third', 'Second']);
  });

  it('refuses a page that is not a number with a 400 envelope', async () => {
    const res = await api(acme, '/apis/streams?p=abc');
    assert.equal(res.status, 400);
    assert.equal(res.json.Status, 'Error');
    assert.match(res.json.Message, /p must be an integer/);
  });
});

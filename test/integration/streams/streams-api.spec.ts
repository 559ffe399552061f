import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTenant, type Tenant } from '../../support/bootstrap';
import { eventually } from '../../support/eventually';
import { http } from '../../support/http';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import { STREAMS_TYPE, streamsDocument } from '../../support/stream-apis';
import { SseReader } from '../../support/stream-clients';

const ECHO = {
  in: {
    input: { http_server: { path: '/in' } },
    output: { http_server: { stream_path: '/sse', path: '/poll', ws_path: '/ws' } },
  },
};

describe('Streams APIs on the dashboard (/api/apis/streams)', () => {
  let node: TestNode;
  let acme: Tenant;
  let globex: Tenant;
  const api = (
    tenant: Tenant,
    path: string,
    options: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) => http(`${node.dashboardUrl}/api${path}`, { ...options, headers: { ...tenant.headers, ...options.headers } });
  const create = (tenant: Tenant, document: unknown, headers: Record<string, string> = STREAMS_TYPE) =>
    api(tenant, '/apis/streams', { method: 'POST', body: JSON.stringify(document), headers });
  const countApis = async (tenant: Tenant) => (await api(tenant, '/apis')).json.apis.length as number;

  before(async () => {
    node = await startTestNode({ streamsDrainTimeout: 1 });
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
  });
  after(async () => {
    await node?.stop();
    if (node) removeDir(node.dataDir);
  });

  let apiId: string;
  let internalId: string;

  it('creates a streams API: {Status, Message: API created, Meta: <record id>, ID: <api_id>}', async () => {
    const res = await create(acme, streamsDocument('Echo', '/echo/', ECHO));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.Status, 'OK');
    assert.equal(res.json.Message, 'API created');
    assert.match(res.json.Meta, /^[0-9a-f]{24}$/);
    assert.match(res.json.ID, /^[0-9a-f]{32}$/);
    internalId = res.json.Meta;
    apiId = res.json.ID;
  });

  it('serves the stream on the gateway port: a POST to the input reaches an SSE reader of the output', async () => {
    const reader = await eventually(async () => {
      const r = await SseReader.open(`${node.gatewayUrl}/echo/sse`);
      assert.equal(r.status, 200);
      return r;
    }, 5000);
    try {
      assert.match(reader.contentType, /^text\/event-stream/);
      const posted = await http(`${node.gatewayUrl}/echo/in`, { method: 'POST', body: 'line one\nline two' });
      assert.equal(posted.status, 200, posted.text);
      assert.deepEqual(await reader.waitFor(1), ['line one\nline two']);
    } finally {
      reader.close();
    }
  });

  it('answers a long poll of the output path with one message', async () => {
    const poll = http(`${node.gatewayUrl}/echo/poll`);
    // The poll must be held before the message is sent: the output waits for a consumer.
    const posted = await http(`${node.gatewayUrl}/echo/in`, { method: 'POST', body: '{"n":1}' });
    assert.equal(posted.status, 200);
    const got = await poll;
    assert.equal(got.status, 200);
    assert.equal(got.text, '{"n":1}');
  });

  it('returns the document with GET, and a GET of another organisation finds nothing', async () => {
    const res = await api(acme, `/apis/streams/${apiId}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json['x-gw-streaming'], { streams: ECHO });
    assert.equal(res.json['x-gw-api-gateway'].info.id, apiId);
    assert.equal((await api(acme, `/apis/streams/${internalId}`)).status, 200);
    assert.equal((await api(globex, `/apis/streams/${apiId}`)).status, 404);
  });

  it('refuses a wrong content type, a document without x-gw-streaming and bad streams with a 400 naming stream and field; nothing is stored', async () => {
    const before = await countApis(acme);
    const cases: Array<[unknown, Record<string, string>, RegExp]> = [
      [
        streamsDocument('X', '/x1/', ECHO),
        { 'content-type': 'application/json' },
        /Content-Type must be application\/vnd\.gw\.streams\.oas/,
      ],
      [
        { ...streamsDocument('X', '/x2/', ECHO), 'x-gw-streaming': undefined },
        STREAMS_TYPE,
        /\/x-gw-streaming: is required/,
      ],
      [
        streamsDocument('X', '/x3/', { orders: { input: { carrier_pigeon: {} }, output: { http_server: {} } } }),
        STREAMS_TYPE,
        /\/x-gw-streaming\/streams\/orders\/input\/carrier_pigeon: unknown input type/,
      ],
      [
        streamsDocument('X', '/x4/', {
          orders: { input: { http_server: { timeout: 'soon' } }, output: { http_server: {} } },
        }),
        STREAMS_TYPE,
        /\/x-gw-streaming\/streams\/orders\/input\/http_server\/timeout: must be a duration/,
      ],
      [
        streamsDocument('X', '/x5/', {
          orders: {
            input: { http_server: {} },
            pipeline: { processors: [{ teleport: {} }] },
            output: { http_server: {} },
          },
        }),
        STREAMS_TYPE,
        /\/x-gw-streaming\/streams\/orders\/pipeline\/processors\/0\/teleport: unknown processor type/,
      ],
      [
        streamsDocument('X', '/x6/', {
          orders: {
            input: { http_server: {} },
            pipeline: { processors: [{ mapping: 'root = this.(' }] },
            output: { http_server: {} },
          },
        }),
        STREAMS_TYPE,
        /\/x-gw-streaming\/streams\/orders\/pipeline\/processors\/0\/mapping: the mapping does not parse/,
      ],
      [
        streamsDocument('X', '/x7/', {
          orders: {
            input: { http_server: {} },
            output: { broker: { pattern: 'everywhere', outputs: [{ http_server: {} }] } },
          },
        }),
        STREAMS_TYPE,
        /\/x-gw-streaming\/streams\/orders\/output\/broker\/pattern: must be one of/,
      ],
      [
        streamsDocument('X', '/x8/', {
          orders: { input: { http_server: { colour: 'red' } }, output: { http_server: {} } },
        }),
        STREAMS_TYPE,
        /\/x-gw-streaming\/streams\/orders\/input\/http_server\/colour: is not a known field/,
      ],
    ];
    for (const [document, headers, message] of cases) {
      const res = await create(acme, document, headers);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.json.Status, 'Error');
      assert.equal(res.json.Meta, null);
      assert.match(res.json.Message, message);
    }
    assert.equal(await countApis(acme), before);
  });

  it('updates with PUT (the stream is replaced) and deletes with DELETE (the endpoints go away)', async () => {
    const changed = streamsDocument('Echo', '/echo/', {
      in: { ...ECHO.in, pipeline: { processors: [{ mapping: 'root = content().uppercase()' }] } },
    });
    const put = await api(acme, `/apis/streams/${apiId}`, {
      method: 'PUT',
      body: JSON.stringify(changed),
      headers: STREAMS_TYPE,
    });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.json.Message, 'API updated');
    await eventually(async () => {
      const poll = http(`${node.gatewayUrl}/echo/poll`);
      assert.equal((await http(`${node.gatewayUrl}/echo/in`, { method: 'POST', body: 'shout' })).status, 200);
      assert.equal((await poll).text, 'SHOUT');
    }, 5000);
    const removed = await api(acme, `/apis/streams/${apiId}`, { method: 'DELETE' });
    assert.equal(removed.status, 200);
    assert.equal(removed.json.Message, 'API deleted');
    await eventually(
      async () => assert.equal((await http(`${node.gatewayUrl}/echo/in`, { method: 'POST', body: 'x' })).status, 404),
      5000,
    );
  });

  it('accepts the same document on the gateway API (/gw/apis/oas)', async () => {
    const res = await http(`${node.gatewayUrl}/gw/apis/oas`, {
      method: 'POST',
      body: JSON.stringify(streamsDocument('Gw', '/gw-echo/', ECHO)),
      headers: node.gwHeaders,
    });
    assert.equal(res.status, 200, res.text);
    const poll = http(`${node.gatewayUrl}/gw-echo/poll`);
    await eventually(
      async () =>
        assert.equal((await http(`${node.gatewayUrl}/gw-echo/in`, { method: 'POST', body: 'via gw' })).status, 200),
      5000,
    );
    assert.equal((await poll).text, 'via gw');
  });

  it('serves a classic definition with a streaming field from /gw/apis and from an app file (GW_APPS_DIR)', async () => {
    const classic = (apiId: string, listenPath: string) => ({
      api_id: apiId,
      name: apiId,
      use_keyless: true,
      active: true,
      proxy: { listen_path: listenPath, target_url: 'http://127.0.0.1:9' },
      streaming: { streams: ECHO },
    });
    const bad = await http(`${node.gatewayUrl}/gw/apis`, {
      method: 'POST',
      body: {
        ...classic('bad-classic', '/bad-classic/'),
        streaming: { streams: { s: { input: { smoke_signal: {} }, output: { http_server: {} } } } },
      },
      headers: node.gwHeaders,
    });
    assert.equal(bad.status, 400);
    assert.match(bad.json.message, /\/streaming\/streams\/s\/input\/smoke_signal: unknown input type/);
    const created = await http(`${node.gatewayUrl}/gw/apis`, {
      method: 'POST',
      body: classic('classic-echo', '/classic-echo/'),
      headers: node.gwHeaders,
    });
    assert.equal(created.status, 200, created.text);
    const appsDir = join(node.dataDir, 'apps');
    mkdirSync(appsDir, { recursive: true });
    writeFileSync(join(appsDir, 'file-echo.json'), JSON.stringify(classic('file-echo', '/file-echo/')));
    assert.equal((await http(`${node.gatewayUrl}/gw/reload`, { headers: node.gwHeaders })).status, 200);
    for (const listenPath of ['/classic-echo', '/file-echo']) {
      const poll = eventually(async () => {
        const res = await http(`${node.gatewayUrl}${listenPath}/poll`);
        assert.equal(res.status, 200, res.text);
        return res;
      }, 5000);
      await eventually(
        async () =>
          assert.equal(
            (await http(`${node.gatewayUrl}${listenPath}/in`, { method: 'POST', body: listenPath })).status,
            200,
          ),
        5000,
      );
      assert.equal((await poll).text, listenPath);
    }
  });
});

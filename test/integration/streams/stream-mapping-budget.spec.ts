import { strict as assert } from 'node:assert';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createTenant, type Tenant } from '../../support/bootstrap';
import { eventually } from '../../support/eventually';
import { http } from '../../support/http';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import { STREAMS_TYPE, streamsDocument } from '../../support/stream-apis';
import { startUpstream, type Upstream } from '../../support/upstream';

const CUT_OFF = 'mapping exceeded its time budget of 50 ms';

/**
 * A tenant's mapping runs on the thread every API of the node shares: one message that maps a
 * huge generated array is cut off at the time budget, while the node keeps answering.
 */
describe('Streams: a mapping cannot stall the node', function () {
  this.timeout(30_000);
  let node: TestNode;
  let tenant: Tenant;
  let upstream: Upstream;
  type Options = { method?: string; body?: unknown; headers?: Record<string, string> };
  const api = (path: string, options: Options = {}) =>
    http(`${node.dashboardUrl}/api${path}`, {
      ...options,
      headers: { ...tenant.headers, ...options.headers },
    });
  const post = (path: string, body: string) => http(`${node.gatewayUrl}${path}`, { method: 'POST', body });
  const processorStats = async (apiId: string, stream: string) => {
    const { connectors } = (await api(`/apis/streams/${apiId}/stats`)).json.streams[stream];
    return connectors.find((c: { role: string }) => c.role === 'processor.0');
  };
  const received = (path: string) => upstream.received.filter((r) => r.url === path).map((r) => r.body);

  async function streamsApi(name: string, listenPath: string, streams: Record<string, unknown>) {
    const body = JSON.stringify(streamsDocument(name, listenPath, streams));
    const res = await api('/apis/streams', { method: 'POST', body, headers: STREAMS_TYPE });
    assert.equal(res.status, 200, res.text);
    const probe = `${node.gatewayUrl}${listenPath}no-such-stream-path`;
    await eventually(async () => assert.notEqual((await http(probe)).status, 404), 5000);
    return res.json.ID as string;
  }

  const pipeline = (mapping: string, sink: string) => ({
    input: { http_server: { path: '/in', timeout: '20s' } },
    pipeline: { processors: [{ mapping }] },
    output: { http_client: { url: `${upstream.url}${sink}` } },
  });

  before(async () => {
    node = await startTestNode();
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Mappers');
    upstream = await startUpstream();
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  it('cuts off a message mapped past its budget; other requests are answered meanwhile', async () => {
    const apiId = await streamsApi('Heavy', '/heavy/', {
      heavy: pipeline('root = range(0, 900000).map_each(x -> x * 2).sort_by(x -> 0 - x).length()', '/heavy'),
    });
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    let done = false;
    const posts = Array.from({ length: 4 }, (_, i) => post('/heavy/in', `heavy ${i}`));
    const heavy = Promise.all(posts).finally(() => (done = true));
    const latencies: number[] = [];
    try {
      // Another API of the node, asked again and again while the heavy messages are mapped.
      while (!done || latencies.length === 0) {
        const started = performance.now();
        const other = await http(`${node.gatewayUrl}/hello`);
        latencies.push(performance.now() - started);
        assert.equal(other.status, 200);
      }
      for (const res of await heavy) assert.equal(res.status, 200, res.text);
    } finally {
      delay.disable();
    }
    const shown = latencies.map((ms) => ms.toFixed(0)).join(', ');
    assert.ok(Math.max(...latencies) < 200, `other requests took ${shown} ms`);
    assert.ok(delay.max / 1e6 < 200, `the event loop stalled for ${(delay.max / 1e6).toFixed(0)} ms`);
    // Bento's model: the failed message goes on unchanged, flagged; the processor counts and names it.
    await eventually(() => assert.equal(received('/heavy').length, 4), 5000);
    assert.deepEqual(received('/heavy').sort(), ['heavy 0', 'heavy 1', 'heavy 2', 'heavy 3']);
    const stats = await processorStats(apiId, 'heavy');
    assert.equal(stats.errors, 4);
    assert.match(stats.last_error, new RegExp(`^message [1-4]: ${CUT_OFF}$`));
  });

  it('cuts off a sort of a million items the same way', async () => {
    const apiId = await streamsApi('Sorting', '/sorting/', {
      sorting: pipeline('root = range(0, 1000000).map_each(x -> 1000000 - x).sort()', '/sorting'),
    });
    const started = performance.now();
    assert.equal((await post('/sorting/in', 'sort me')).status, 200);
    assert.ok(performance.now() - started < 1000, `took ${performance.now() - started} ms`);
    await eventually(() => assert.deepEqual(received('/sorting'), ['sort me']), 5000);
    assert.equal((await processorStats(apiId, 'sorting')).last_error, `message 1: ${CUT_OFF}`);
  });

  it('leaves ordinary mappings alone', async () => {
    const light = pipeline('root = content().uppercase()', '/light');
    const apiId = await streamsApi('Light', '/light/', { light });
    assert.equal((await post('/light/in', 'quiet')).status, 200);
    await eventually(() => assert.deepEqual(received('/light'), ['QUIET']), 5000);
    const stats = await processorStats(apiId, 'light');
    assert.equal(stats.errors, 0);
    assert.equal(stats.last_error, undefined);
  });
});

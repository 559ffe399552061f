import { strict as assert } from 'node:assert';
import WebSocket from 'ws';
import type { ConnectorStats } from '../../../contracts/streams/actions';
import { createTenant, type Tenant } from '../../support/bootstrap';
import { eventually } from '../../support/eventually';
import { http } from '../../support/http';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import { STREAMS_TYPE, streamsDocument } from '../../support/stream-apis';
import { SseReader } from '../../support/stream-clients';
import { startUpstream, type Upstream } from '../../support/upstream';

/** Delivery through the gateway port with real clients: fan-out, round-robin, back-pressure, failures, replacement, auth. */
describe('Streams: delivery through the gateway port', () => {
  let node: TestNode;
  let tenant: Tenant;
  let upstream: Upstream;
  const api = (path: string, options: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: { ...tenant.headers, ...options.headers } });
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    http(`${node.gatewayUrl}${path}`, { method: 'POST', body, headers });
  const stats = async (apiId: string) => (await api(`/apis/streams/${apiId}/stats`)).json;

  /** Creates a streams API and waits until the gateway serves it. */
  async function streamsApi(
    name: string,
    listenPath: string,
    streams: Record<string, unknown>,
    options: { token?: boolean } = {},
  ): Promise<string> {
    const res = await api('/apis/streams', {
      method: 'POST',
      body: JSON.stringify(streamsDocument(name, listenPath, streams, options)),
      headers: STREAMS_TYPE,
    });
    assert.equal(res.status, 200, res.text);
    await eventually(
      async () => assert.notEqual((await http(`${node.gatewayUrl}${listenPath}no-such-stream-path`)).status, 404),
      5000,
    );
    return res.json.ID as string;
  }

  async function readers(url: string, count: number): Promise<SseReader[]> {
    return Promise.all(Array.from({ length: count }, () => SseReader.open(url)));
  }

  before(async () => {
    node = await startTestNode({ streamsDrainTimeout: 1, gatewayMetrics: true });
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Streamers');
    upstream = await startUpstream();
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  it('fans out: a broker fan_out output gives every message to each of its outputs, in order', async () => {
    await streamsApi('Fan', '/fan/', {
      fan: {
        input: { http_server: { path: '/in' } },
        output: {
          broker: {
            pattern: 'fan_out',
            outputs: [
              { http_server: { stream_path: '/a' } },
              { http_server: { stream_path: '/b', path: '/b-poll', ws_path: '/b-ws' } },
            ],
          },
        },
      },
    });
    const [a] = await readers(`${node.gatewayUrl}/fan/a`, 1);
    const [b] = await readers(`${node.gatewayUrl}/fan/b`, 1);
    try {
      const sent = Array.from({ length: 20 }, (_, i) => `m${i}`);
      for (const body of sent) assert.equal((await post('/fan/in', body)).status, 200);
      assert.deepEqual(await a.waitFor(20), sent);
      assert.deepEqual(await b.waitFor(20), sent);
    } finally {
      a.close();
      b.close();
    }
  });

  it('distributes messages round-robin between the consumers of one output', async () => {
    const apiId = await streamsApi('Robin', '/robin/', {
      rr: { input: { http_server: { path: '/in' } }, output: { http_server: { stream_path: '/sse' } } },
    });
    const consumers = await readers(`${node.gatewayUrl}/robin/sse`, 3);
    try {
      await eventually(
        async () =>
          assert.equal(
            (await stats(apiId)).streams.rr.connectors.find((c: { role: string }) => c.role === 'output')
              .connection_attempts,
            3,
          ),
        5000,
      );
      const sent = Array.from({ length: 30 }, (_, i) => `r${i}`);
      for (const body of sent) assert.equal((await post('/robin/in', body)).status, 200);
      await eventually(
        () =>
          assert.equal(
            consumers.reduce((n, c) => n + c.events.length, 0),
            30,
          ),
        5000,
      );
      for (const consumer of consumers)
        assert.equal(consumer.events.length, 10, JSON.stringify(consumers.map((c) => c.events)));
      assert.deepEqual(consumers.flatMap((c) => c.events).sort(), [...sent].sort());
    } finally {
      consumers.forEach((c) => c.close());
    }
  });

  it('holds back a slow consumer: the others take the messages while its connection is full, nothing lost or doubled', async () => {
    await streamsApi('Slow', '/slow/', {
      slow: {
        input: { http_server: { path: '/in', timeout: '30s' } },
        output: { http_server: { stream_path: '/sse' } },
      },
    });
    const [slow, fast] = await readers(`${node.gatewayUrl}/slow/sse`, 2);
    try {
      slow.pause();
      const filler = 'x'.repeat(64 * 1024);
      // More than the kernel buffers of a loopback connection hold (a few MB).
      const sent = Array.from({ length: 400 }, (_, i) => `${i}:${filler}`);
      // Not awaited one by one: a message written to the slow reader is acknowledged only once it reads.
      const posts = sent.map((body) => post('/slow/in', body));
      await eventually(
        () => assert.ok(fast.events.length > 200, `fast reader got ${fast.events.length}, slow ${slow.events.length}`),
        15_000,
      );
      slow.resume();
      for (const r of await Promise.all(posts)) assert.equal(r.status, 200);
      await eventually(() => assert.equal(slow.events.length + fast.events.length, sent.length), 10_000);
      assert.ok(slow.events.length < fast.events.length, `slow ${slow.events.length}, fast ${fast.events.length}`);
      assert.deepEqual([...slow.events, ...fast.events].sort(), [...sent].sort());
    } finally {
      slow.close();
      fast.close();
    }
  });

  it('retries a failing output with the input paused, and delivers everything once it recovers', async () => {
    let failing = true;
    let failures = 0;
    const failed = new Set<string>();
    const delivered: string[] = [];
    upstream.respondWith((req, res) => {
      if (failing) {
        failures++;
        failed.add(req.body);
        res.writeHead(503).end('down');
        return;
      }
      delivered.push(req.body);
      res.writeHead(200).end('ok');
    });
    const apiId = await streamsApi('Flaky', '/flaky/', {
      flaky: {
        input: { http_server: { path: '/in', timeout: '30s' } },
        output: { http_client: { url: `${upstream.url}/sink`, retries: 1, retry_period: '20ms' } },
      },
    });
    const sent = Array.from({ length: 10 }, (_, i) => `f${i}`);
    const posts = [post('/flaky/in', sent[0])];
    await eventually(() => assert.ok(failures >= 2, `${failures} failures`), 10_000);
    posts.push(...sent.slice(1).map((body) => post('/flaky/in', body)));
    await eventually(() => assert.ok(failures >= 6, `${failures} failures`), 10_000);
    const during = (await stats(apiId)).streams.flaky;
    assert.equal(during.output_retrying, true);
    assert.ok(during.errors > 0);
    // Paused: while the output fails, the input takes nothing new and only the first message is tried.
    assert.equal(during.in_flight, 1);
    assert.deepEqual([...failed], [sent[0]]);
    failing = false;
    for (const res of await Promise.all(posts)) assert.equal(res.status, 200);
    assert.deepEqual([...delivered].sort(), [...sent].sort());
    const after = (await stats(apiId)).streams.flaky;
    assert.equal(after.output_retrying, false);
    assert.equal(after.messages_out, 10);
    const output = after.connectors.find((c: { role: string }) => c.role === 'output');
    assert.ok(output.connection_failures >= 6);
    assert.equal(output.connection_attempts, output.connection_failures + 10);
  });

  it('replaces a stream while messages flow without losing any', async () => {
    const delivered = new Set<string>();
    upstream.respondWith((req, res) => {
      delivered.add(req.body);
      res.writeHead(200).end();
    });
    const streams = (tag: string) => ({
      flow: {
        input: { http_server: { path: '/in', timeout: '30s' } },
        pipeline: { processors: [{ mapping: `root = content().string() + "${tag}"` }] },
        output: { http_client: { url: `${upstream.url}/flow` } },
      },
    });
    const apiId = await streamsApi('Flow', '/flow/', streams(''));
    const sent: string[] = [];
    let stop = false;
    const producer = (async () => {
      for (let i = 0; !stop || i < 40; i++) {
        const body = `n${i}`;
        sent.push(body);
        // An at-least-once client sends again what was not acknowledged.
        for (let attempt = 0; (await post('/flow/in', body)).status !== 200; attempt++)
          assert.ok(attempt < 50, `message ${body} never accepted`);
        if (i > 400) break;
      }
    })();
    await eventually(() => assert.ok(delivered.size >= 10), 5000);
    const document = streamsDocument('Flow', '/flow/', streams('!'));
    const put = await api(`/apis/streams/${apiId}`, {
      method: 'PUT',
      body: JSON.stringify(document),
      headers: STREAMS_TYPE,
    });
    assert.equal(put.status, 200, put.text);
    await eventually(() => assert.ok([...delivered].some((body) => body.endsWith('!'))), 5000);
    stop = true;
    await producer;
    const seen = new Set([...delivered].map((body) => body.replace(/!$/, '')));
    for (const body of sent) assert.ok(seen.has(body), `${body} was lost`);
  });

  it('applies the API authentication to its stream endpoints', async () => {
    const apiId = await streamsApi(
      'Private',
      '/private/',
      { p: { input: { http_server: { path: '/in' } }, output: { http_server: { path: '/out' } } } },
      { token: true },
    );
    assert.equal((await post('/private/in', 'x')).status, 401);
    assert.equal((await http(`${node.gatewayUrl}/private/out`)).status, 401);
    const key = await api('/keys', { method: 'POST', body: { access_rights: { [apiId]: { api_id: apiId } } } });
    assert.equal(key.status, 200, key.text);
    const auth = { authorization: key.json.key_id as string };
    const poll = http(`${node.gatewayUrl}/private/out`, { headers: auth });
    assert.equal((await post('/private/in', 'secret', { authorization: 'wrong' })).status, 403);
    assert.equal((await post('/private/in', 'secret', auth)).status, 200);
    assert.equal((await poll).text, 'secret');
  });

  it('takes messages over a WebSocket input and pushes them to WebSocket consumers', async () => {
    await streamsApi('Sockets', '/sockets/', {
      ws: { input: { http_server: { ws_path: '/in-ws' } }, output: { http_server: { ws_path: '/out-ws' } } },
    });
    const wsUrl = node.gatewayUrl.replace('http', 'ws');
    const consumer = new WebSocket(`${wsUrl}/sockets/out-ws`);
    const got: string[] = [];
    consumer.on('message', (data) => got.push(data.toString()));
    await new Promise((resolve, reject) => consumer.once('open', resolve).once('error', reject));
    const producer = new WebSocket(`${wsUrl}/sockets/in-ws`);
    await new Promise((resolve, reject) => producer.once('open', resolve).once('error', reject));
    try {
      for (const m of ['one', 'two', 'three']) producer.send(m);
      await eventually(() => assert.deepEqual(got, ['one', 'two', 'three']), 5000);
    } finally {
      producer.close();
      consumer.close();
    }
  });

  it('counts each message an http_client output delivered once, in the stats and in /metrics', async () => {
    upstream.respondWith((_req, res) => res.writeHead(200).end('ok'));
    const apiId = await streamsApi('Once', '/once/', {
      once: { input: { http_server: { path: '/in' } }, output: { http_client: { url: `${upstream.url}/once` } } },
    });
    const series = `api_id="${apiId}",stream="once",connector="output",type="http_client"`;
    const sentCounter = new RegExp(`gw_stream_messages_sent_total\\{${series}\\} (\\d+)`);
    const scrape = async () => {
      const headers = { authorization: `Bearer ${node.config.secret}` };
      const metrics = await http(`${node.gatewayUrl}/metrics`, { headers });
      assert.equal(metrics.status, 200);
      return Number(sentCounter.exec(metrics.text)?.[1] ?? 0);
    };
    const before = await scrape();
    const messages = ['a', 'b', 'c', 'd', 'e'];
    for (const body of messages) assert.equal((await post('/once/in', body)).status, 200);
    const connectors = (await stats(apiId)).streams.once.connectors as ConnectorStats[];
    const output = connectors.find((c) => c.role === 'output')!;
    assert.equal(output.sent, messages.length);
    assert.equal(output.connection_attempts, messages.length);
    // the mean is taken over one latency sample per delivered message: never above the largest one
    assert.ok(output.latency_ms_mean > 0 && output.latency_ms_mean <= output.latency_ms_max, JSON.stringify(output));
    assert.equal((await scrape()) - before, messages.length);
  });

  it('shows the counters on /gw/health and /metrics', async () => {
    const apiId = await streamsApi('Counted', '/counted/', {
      counted: { input: { http_server: { path: '/in' } }, output: { http_server: { path: '/out' } } },
    });
    for (const body of ['1', '2', '3']) {
      const poll = http(`${node.gatewayUrl}/counted/out`);
      assert.equal((await post('/counted/in', body)).status, 200);
      assert.equal((await poll).text, body);
    }
    const health = await http(`${node.gatewayUrl}/gw/health`, { headers: node.gwHeaders });
    assert.equal(health.status, 200, health.text);
    const counted = health.json.streams[apiId].streams.counted;
    assert.equal(counted.messages_in, 3);
    assert.equal(counted.messages_out, 3);
    assert.deepEqual(
      counted.connectors.map((c: { role: string; type: string; received: number; sent: number }) => [
        c.role,
        c.type,
        c.received,
        c.sent,
      ]),
      [
        ['input', 'http_server', 3, 3],
        ['output', 'http_server', 0, 3],
      ],
    );
    const metrics = await http(`${node.gatewayUrl}/metrics`, {
      headers: { authorization: `Bearer ${node.config.secret}` },
    });
    assert.equal(metrics.status, 200);
    assert.match(
      metrics.text,
      new RegExp(
        `gw_stream_messages_received_total\\{api_id="${apiId}",stream="counted",connector="input",type="http_server"\\} 3`,
      ),
    );
    assert.match(
      metrics.text,
      new RegExp(
        `gw_stream_messages_sent_total\\{api_id="${apiId}",stream="counted",connector="output",type="http_server"\\} 3`,
      ),
    );
  });
});

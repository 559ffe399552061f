import { strict as assert } from 'node:assert';
import type { LookupAddress } from 'node:dns';
import type { Resolver } from '../../../lib/net/outbound-address';
import type { Input, Output, Sink } from '../../../services/streams/lib/components';
import type { HttpClientConfig } from '../../../services/streams/lib/http-client-settings';
import { newMessage, type StreamMessage } from '../../../services/streams/lib/message';
import type { OutboundPolicy } from '../../../services/streams/lib/outbound';
import { HttpClientOutput } from '../../../services/streams/lib/outputs/http-client';
import { HttpProcessor } from '../../../services/streams/lib/processors/processors';
import { ConnectorCounters } from '../../../services/streams/lib/stats';
import { Stream } from '../../../services/streams/lib/stream';
import { StreamLifecycle } from '../../../services/streams/lib/stream-lifecycle';
import { eventually } from '../../support/eventually';
import { startUpstream, type Upstream } from '../../support/upstream';

class ManualInput implements Input {
  sink!: Sink;
  start(sink: Sink): void {
    this.sink = sink;
  }
  async stop(): Promise<void> {}
}

class CollectingOutput implements Output {
  written: string[] = [];
  async write(message: StreamMessage): Promise<void> {
    this.written.push(message.content.toString());
  }
  async close(): Promise<void> {}
}

const anywhere: OutboundPolicy = { ownPorts: () => new Set() };

/** answers each lookup with the next address of `answers` (the last one from then on) */
function rebinding(...answers: string[]): Resolver {
  let asked = 0;
  return (_hostname, _options, callback) => {
    const address = answers[Math.min(asked++, answers.length - 1)];
    callback(null, [{ address, family: 4 } satisfies LookupAddress]);
  };
}

/** a policy whose name resolution passes the early check, then gives the connection a metadata address */
const rebound = (): OutboundPolicy => ({
  ownPorts: () => new Set(),
  resolve: rebinding('93.184.216.34', '169.254.169.254'),
});

/** The retries of the HTTP components (services/streams/lib/http-retry.ts), seen from the upstream. */
describe('streams HTTP retries', () => {
  let upstream: Upstream;
  /** when each request reached the upstream (performance.now()) */
  let arrivals: number[];

  before(async () => {
    upstream = await startUpstream();
  });
  after(() => upstream.close());
  beforeEach(() => {
    arrivals = [];
  });

  /** the upstream answers every request with `status` */
  const answering = (status: number) =>
    upstream.respondWith((_req, res) => {
      arrivals.push(performance.now());
      res.writeHead(status).end('no');
    });
  const gaps = () => arrivals.slice(1).map((at, i) => at - arrivals[i]);
  // timers may fire up to a millisecond early
  const atLeast = (gap: number, period: number) => gap >= period - 1;

  function processor(config: HttpClientConfig, policy = anywhere, lifecycle = new StreamLifecycle()) {
    const counters = new ConnectorCounters('processor.0', 'http', undefined);
    return { http: new HttpProcessor(config, new Map(), policy, counters, lifecycle.retrySignals), counters };
  }

  it('the http processor waits retry_period between attempts, then flags the message', async () => {
    answering(503);
    const { http, counters } = processor({ url: `${upstream.url}/slow`, retries: 3, retry_period: '150ms' });
    const [out] = await http.process([newMessage('m')]);
    assert.equal(out.error, 'HTTP request returned unexpected response code (503)');
    assert.equal(arrivals.length, 4);
    for (const gap of gaps()) assert.ok(atLeast(gap, 150), `attempts ${gaps().map(Math.round).join(', ')} ms apart`);
    assert.equal(counters.connectionAttempts, 4);
    assert.equal(counters.connectionFailures, 4);
  });

  it('a status in backoff_on doubles the wait from the second retry on, up to max_retry_backoff', async () => {
    answering(429);
    const url = `${upstream.url}/busy`;
    const config = { url, retries: 3, retry_period: '100ms', max_retry_backoff: '250ms' };
    const [out] = await processor(config).http.process([newMessage('m')]);
    assert.match(out.error ?? '', /\(429\)/);
    assert.equal(arrivals.length, 4);
    const [first, second, third] = gaps();
    const waited = atLeast(first, 100) && atLeast(second, 200) && atLeast(third, 250);
    assert.ok(waited, `attempts ${gaps().map(Math.round).join(', ')} ms apart`);
  });

  it('a status in drop_on is not retried', async () => {
    answering(400);
    const config = { url: `${upstream.url}/bad`, retries: 3, retry_period: '10s', drop_on: [400] };
    const [out] = await processor(config).http.process([newMessage('m')]);
    assert.match(out.error ?? '', /\(400\)/);
    assert.equal(arrivals.length, 1);
  });

  it('a stopped stream ends its http retries at once, refusing the message to its input', async () => {
    answering(503);
    const lifecycle = new StreamLifecycle();
    const config = { url: `${upstream.url}/down`, retries: 20, retry_period: '1s' };
    const { http, counters } = processor(config, anywhere, lifecycle);
    const input = new ManualInput();
    const output = new CollectingOutput();
    const outputCounters = new ConnectorCounters('output', 'test', undefined);
    const parts = { name: 's', input, processors: [http], output, outputCounters, lifecycle };
    const options = { maxInFlight: 4, backoffMs: 1, maxBackoffMs: 4, drainMs: 10_000, log: () => undefined };
    const stream = new Stream({ ...parts, counters: [counters, outputCounters] }, options);
    stream.start();
    const refused = assert.rejects(input.sink([newMessage('m')]), /stream was stopped/);
    await eventually(() => assert.equal(arrivals.length, 2), 5000);

    const stopping = performance.now();
    await stream.stop();
    const took = performance.now() - stopping;
    await refused;
    assert.ok(took < 500, `stop took ${Math.round(took)} ms`);
    // the retry loop has returned: what reached the upstream is all that ever will
    assert.equal(arrivals.length, 2);
    assert.equal(counters.connectionAttempts, 2);
    assert.deepEqual(output.written, []);
  });

  it("an address the outbound policy refuses is tried once; the refusal is the message's error", async () => {
    answering(200);
    const ownPort: OutboundPolicy = { ownPorts: () => new Set([upstream.port]) };
    const config = { url: `http://127.0.0.1:${upstream.port}/admin`, retries: 3, retry_period: '5s' };
    const { http, counters } = processor(config, ownPort);
    const [out] = await http.process([newMessage('m')]);
    assert.match(out.error ?? '', /may not call .*this node's own port/);
    assert.equal(counters.connectionAttempts, 1);
    assert.equal(arrivals.length, 0);
  });

  it('a connection the outbound policy refuses (a name rebound to metadata) is tried once', async () => {
    const config = { url: 'http://rebind.example/latest/meta-data/', retries: 3, retry_period: '5s' };
    const { http, counters } = processor(config, rebound());
    const [out] = await http.process([newMessage('m')]);
    const why = 'a link-local, cloud-metadata or multicast address';
    assert.equal(out.error, `rebind.example resolves to 169.254.169.254, which is ${why}`);
    assert.equal(counters.connectionAttempts, 1);
  });

  it('the http_client output fails at once with a refused connection, without retrying it', async () => {
    const counters = new ConnectorCounters('output', 'http_client', undefined);
    const config = { url: 'http://rebind.example/latest/meta-data/', retries: 3, retry_period: '5s' };
    const output = new HttpClientOutput(config, new Map(), rebound(), counters);
    const refused = { name: 'OutboundAddressRefused', reason: 'forbidden' };
    await assert.rejects(output.write(newMessage('m')), refused);
    assert.equal(counters.connectionAttempts, 1);
    await output.close();
  });
});

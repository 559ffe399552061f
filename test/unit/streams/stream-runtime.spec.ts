import { strict as assert } from 'node:assert';
import type { Input, Output, Sink } from '../../../services/streams/lib/components';
import { newMessage, type StreamMessage } from '../../../services/streams/lib/message';
import { isMetadataAddress, checkOutbound } from '../../../services/streams/lib/outbound';
import { ConsumerRing, type Consumer } from '../../../services/streams/lib/outputs/consumers';
import { sseEvent } from '../../../services/streams/lib/outputs/http-server';
import { ConnectorCounters } from '../../../services/streams/lib/stats';
import { Stream } from '../../../services/streams/lib/stream';
import { parseDuration } from '../../../lib/streams/duration';

class ManualInput implements Input {
  sink!: Sink;
  stopped = false;
  start(sink: Sink): void {
    this.sink = sink;
  }
  async stop(): Promise<void> {
    this.stopped = true;
  }
}

class FlakyOutput implements Output {
  written: string[] = [];
  attempts = 0;
  constructor(private failures: number) {}
  async write(message: StreamMessage): Promise<void> {
    this.attempts++;
    if (this.failures-- > 0) throw new Error('down');
    this.written.push(message.content.toString());
  }
  async close(): Promise<void> {}
}

function stream(output: Output, input = new ManualInput(), drainMs = 1000) {
  const outputCounters = new ConnectorCounters('output', 'test', undefined);
  const s = new Stream(
    {
      name: 's',
      input,
      processors: [],
      output,
      counters: [new ConnectorCounters('input', 'test', undefined), outputCounters],
      outputCounters,
    },
    { maxInFlight: 4, backoffMs: 1, maxBackoffMs: 4, drainMs, log: () => undefined },
  );
  s.start();
  return { s, input };
}

describe('streams runtime', () => {
  it('acknowledges a message only once the output accepted it, retrying a failing output', async () => {
    const output = new FlakyOutput(3);
    const { s, input } = stream(output);
    const acked = await input.sink([newMessage('a')]);
    assert.equal(acked[0].content.toString(), 'a');
    assert.deepEqual(output.written, ['a']);
    assert.equal(output.attempts, 4);
    assert.equal(s.stats().errors, 3);
    assert.equal(s.stats().output_retrying, false);
  });

  it('stopping drains the messages in flight, then refuses new ones', async () => {
    const output = new FlakyOutput(2);
    const { s, input } = stream(output);
    const pending = input.sink([newMessage('in flight')]);
    await s.stop();
    await pending;
    assert.deepEqual(output.written, ['in flight']);
    assert.equal(input.stopped, true);
    await assert.rejects(input.sink([newMessage('late')]), /stream was stopped/);
  });

  it('a message that can not be delivered within the drain time is refused to its input, not dropped silently', async () => {
    const { s, input } = stream(new FlakyOutput(Infinity), new ManualInput(), 30);
    const pending = input.sink([newMessage('stuck')]);
    await s.stop();
    await assert.rejects(pending, /stream was stopped/);
  });

  it('round-robin skips a consumer that is still writing and waits when none is ready', async () => {
    const ring = new ConsumerRing();
    const got: string[] = [];
    const consumer = (name: string, ready: () => boolean): Consumer => ({
      once: false,
      ready,
      send: async (m) => void got.push(`${name}:${m.content.toString()}`),
    });
    let bReady = true;
    ring.add(consumer('a', () => true));
    ring.add(consumer('b', () => bReady));
    for (const m of ['1', '2', '3']) await ring.deliver(newMessage(m));
    bReady = false;
    for (const m of ['4', '5']) await ring.deliver(newMessage(m));
    assert.deepEqual(got, ['a:1', 'b:2', 'a:3', 'a:4', 'a:5']);
    const empty = new ConsumerRing();
    let delivered = false;
    const waiting = empty.deliver(newMessage('x')).then(() => (delivered = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(delivered, false);
    empty.add(consumer('late', () => true));
    await waiting;
    assert.deepEqual(got.at(-1), 'late:x');
  });

  it('frames a multi-line body as one Server-Sent Event', () => {
    assert.equal(sseEvent(newMessage('one\ntwo\r\nthree')), 'data: one\ndata: two\ndata: three\n\n');
    assert.equal(sseEvent(newMessage('{"a":1}')), 'data: {"a":1}\n\n');
  });

  it('parses Bento durations', () => {
    assert.equal(parseDuration('5s'), 5000);
    assert.equal(parseDuration('1m30s'), 90_000);
    assert.equal(parseDuration('250ms'), 250);
    assert.equal(parseDuration('soon'), undefined);
    assert.equal(parseDuration('5'), undefined);
  });

  it("refuses metadata addresses and this node's own ports on local addresses", async () => {
    for (const address of ['169.254.169.254', 'fe80::1', '::ffff:169.254.1.1', 'fd00:ec2::254', '100.100.100.200'])
      assert.equal(isMetadataAddress(address), true, address);
    assert.equal(isMetadataAddress('10.0.0.1'), false);
    const policy = { ownPorts: () => new Set([3000]) };
    await assert.rejects(checkOutbound('http://169.254.169.254/latest', policy), /metadata/);
    await assert.rejects(checkOutbound('http://metadata.google.internal/', policy), /metadata/);
    await assert.rejects(checkOutbound('http://127.0.0.1:3000/admin', policy), /own port/);
    await assert.rejects(checkOutbound('http://localhost:3000/admin', policy), /own port/);
    await assert.rejects(checkOutbound('file:///etc/passwd', policy), /only http/);
    assert.equal((await checkOutbound('http://127.0.0.1:3001/x', policy)).port, '3001');
  });
});

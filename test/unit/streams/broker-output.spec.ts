import { strict as assert } from 'node:assert';
import type { Output } from '../../../services/streams/lib/components';
import { newMessage, type StreamMessage } from '../../../services/streams/lib/message';
import { BrokerOutput, type BrokerPattern } from '../../../services/streams/lib/outputs/broker';
import { ConnectorCounters } from '../../../services/streams/lib/stats';

class Recorder implements Output {
  got: string[] = [];
  release: Array<() => void> = [];
  constructor(
    private failures = 0,
    private readonly hold = false,
  ) {}
  async write(message: StreamMessage): Promise<void> {
    if (this.failures-- > 0) throw new Error('down');
    if (this.hold) await new Promise<void>((resolve) => this.release.push(resolve));
    this.got.push(message.content.toString());
  }
  async close(): Promise<void> {}
}

const broker = (children: Recorder[], pattern: BrokerPattern) =>
  new BrokerOutput(
    children.map((output, i) => ({ output, counters: new ConnectorCounters(`output.${i}`, 'test', undefined) })),
    pattern,
    1,
    2,
  );

describe('broker output', () => {
  it('fan_out retries only the child that failed: the others get each message once', async () => {
    const [a, b] = [new Recorder(), new Recorder(2)];
    await broker([a, b], 'fan_out').write(newMessage('m'));
    assert.deepEqual(a.got, ['m']);
    assert.deepEqual(b.got, ['m']);
  });

  it('greedy gives a message to the child with the fewest in flight', async () => {
    const slow = new Recorder(0, true);
    const fast = new Recorder();
    const out = broker([slow, fast], 'greedy');
    const first = out.write(newMessage('1'));
    await out.write(newMessage('2'));
    await out.write(newMessage('3'));
    assert.deepEqual(fast.got, ['2', '3']);
    slow.release.forEach((r) => r());
    await first;
    assert.deepEqual(slow.got, ['1']);
  });

  it('round_robin hands a failure back (the stream retries it)', async () => {
    const out = broker([new Recorder(1), new Recorder()], 'round_robin');
    await assert.rejects(out.write(newMessage('x')), /down/);
    await out.write(newMessage('y'));
  });
});

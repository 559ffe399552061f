import { strict as assert } from 'node:assert';
import { pushStream } from '../../../services/graphql-engine/lib/federation/federation2/push-stream';

async function readAll<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of iterable) values.push(value);
  return values;
}

describe('push stream (a subscription upstream read by the Federation 2 planner)', () => {
  it('delivers values pushed before and while they are read, in order, then ends', async () => {
    const stream = pushStream<number>();
    stream.push(1);
    const reading = readAll(stream.iterable);
    stream.push(2);
    stream.push(3);
    stream.end();
    stream.push(4);
    assert.deepEqual(await reading, [1, 2, 3]);
  });

  it('stops the upstream once when the reader stops early', async () => {
    const stream = pushStream<number>();
    let stops = 0;
    stream.onReturn(() => stops++);
    stream.push(1);
    stream.push(2);
    for await (const value of stream.iterable) if (value === 1) break;
    stream.end();
    assert.equal(stops, 1);
    assert.deepEqual(await stream.iterable.next(), { value: undefined, done: true });
  });

  it('ends a read that is waiting when the upstream ends', async () => {
    const stream = pushStream<number>();
    const waiting = stream.iterable.next();
    stream.end();
    assert.deepEqual(await waiting, { value: undefined, done: true });
  });
});

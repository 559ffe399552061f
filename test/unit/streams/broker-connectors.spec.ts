import { strict as assert } from 'node:assert';
import type { PartitionerArgs } from 'kafkajs';
import { PartitionCheckpoints } from '../../../services/streams/connectors/kafka/checkpoints';
import { partitionerOf } from '../../../services/streams/connectors/kafka/partitioners';

const partitions = (n: number) => Array.from({ length: n }, (_, i) => ({ partitionId: i, leader: 0 }));
const args = (key: string | null, n: number) =>
  ({ topic: 't', partitionMetadata: partitions(n), message: { key, value: 'v' } }) as unknown as PartitionerArgs;

describe('streams broker connectors: pieces', () => {
  describe('kafka checkpoints', () => {
    it('commits one past the highest offset below which every message was accepted', () => {
      const c = new PartitionCheckpoints(10);
      for (const o of [5n, 6n, 7n, 8n]) c.track(o);
      assert.equal(c.accept(6n), undefined, '5 is still in flight');
      assert.equal(c.accept(5n), 7n);
      assert.equal(c.accept(8n), undefined, '7 is still in flight');
      assert.equal(c.accept(7n), 9n);
      assert.equal(c.inFlight, 0);
    });

    it('never commits past a message the output did not accept', () => {
      const c = new PartitionCheckpoints(10);
      for (const o of [0n, 1n, 2n]) c.track(o);
      c.fail(0n);
      assert.equal(c.accept(1n), undefined);
      assert.equal(c.accept(2n), undefined);
    });

    it('holds the next message while checkpoint_limit messages are in flight', async () => {
      const c = new PartitionCheckpoints(2);
      const signal = new AbortController().signal;
      c.track(0n);
      c.track(1n);
      let freed = false;
      const slot = c.slot(signal).then(() => (freed = true));
      await Promise.resolve();
      assert.equal(freed, false);
      c.accept(0n);
      await slot;
      assert.equal(freed, true);
    });
  });

  describe('kafka partitioners', () => {
    it('fnv1a_hash (the default) places a key as sarama does: FNV-1a 32 as a signed int, modulo, made positive', () => {
      const fnv = partitionerOf()();
      assert.equal(fnv(args('hello', 4)), 3); // fnv1a32("hello") = 0x4f9f2cab
      assert.equal(fnv(args('order-17', 4)), 2); // 0xd43044ae is negative as an int32
      assert.equal(fnv(args('order-17', 4)), fnv(args('order-17', 4)));
    });

    it('round_robin cycles through the partitions', () => {
      const rr = partitionerOf('round_robin')();
      assert.deepEqual(
        [0, 1, 2, 3].map(() => rr(args(null, 3))),
        [0, 1, 2, 0],
      );
    });
  });
});

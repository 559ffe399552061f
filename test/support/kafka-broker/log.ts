import { EventEmitter } from 'node:events';
import { crc32c } from './crc32c';

/**
 * The broker's data: topics with their partitions' record batches and the consumer groups'
 * committed offsets. It outlives a broker restart when the test hands it to the new instance.
 */

/** Byte positions in a record batch v2 header (Kafka protocol guide, "Record Batch"). */
const BATCH = {
  length: 8,
  magic: 16,
  crc: 17,
  attributes: 21,
  lastOffsetDelta: 23,
  maxTimestamp: 35,
  overhead: 61,
} as const;

export interface StoredBatch {
  baseOffset: bigint;
  lastOffset: bigint;
  maxTimestamp: bigint;
  /** the batch as produced, its base offset rewritten to where it was appended */
  bytes: Buffer;
}

export class PartitionLog {
  readonly batches: StoredBatch[] = [];
  /** the high watermark: offset of the next record */
  next = 0n;

  append(batch: Buffer): bigint {
    const bytes = Buffer.from(batch);
    const base = this.next;
    const lastOffsetDelta = BigInt(bytes.readInt32BE(BATCH.lastOffsetDelta));
    bytes.writeBigInt64BE(base, 0);
    this.batches.push({
      baseOffset: base,
      lastOffset: base + lastOffsetDelta,
      maxTimestamp: bytes.readBigInt64BE(BATCH.maxTimestamp),
      bytes,
    });
    this.next = base + lastOffsetDelta + 1n;
    return base;
  }

  /** batches holding `offset` and after, at least one, then up to maxBytes */
  read(offset: bigint, maxBytes: number): Buffer[] {
    const out: Buffer[] = [];
    let size = 0;
    for (const batch of this.batches) {
      if (batch.lastOffset < offset) continue;
      if (out.length > 0 && size + batch.bytes.length > maxBytes) break;
      out.push(batch.bytes);
      size += batch.bytes.length;
    }
    return out;
  }

  /** the first offset of a record at or after the timestamp (ListOffsets), or the high watermark */
  offsetForTime(timestamp: bigint): bigint {
    return this.batches.find((b) => b.maxTimestamp >= timestamp)?.baseOffset ?? this.next;
  }
}

export type SplitResult = { batches: Buffer[] } | { error: 'corrupt' };

/** Splits a produced record set into its batches, checking each one's magic byte and CRC-32C. */
export function splitRecordBatches(recordSet: Buffer): SplitResult {
  const batches: Buffer[] = [];
  let pos = 0;
  while (pos < recordSet.length) {
    if (recordSet.length - pos < BATCH.overhead) return { error: 'corrupt' };
    const total = 12 + recordSet.readInt32BE(pos + BATCH.length);
    const batch = recordSet.subarray(pos, pos + total);
    if (batch.length < total || batch.readInt8(BATCH.magic) !== 2) return { error: 'corrupt' };
    if (batch.readUInt32BE(BATCH.crc) !== crc32c(batch.subarray(BATCH.attributes))) return { error: 'corrupt' };
    batches.push(batch);
    pos += total;
  }
  return { batches };
}

export interface CommittedOffset {
  offset: bigint;
  metadata: string | null;
}

export class BrokerData {
  readonly topics = new Map<string, PartitionLog[]>();
  /** group → "topic/partition" → committed offset */
  readonly committed = new Map<string, Map<string, CommittedOffset>>();
  /** fires 'append' whenever records arrive (long-polling fetches wait on it) */
  readonly appended = new EventEmitter().setMaxListeners(0);

  constructor(readonly defaultPartitions = 1) {}

  createTopic(name: string, partitions = this.defaultPartitions): boolean {
    if (this.topics.has(name)) return false;
    this.topics.set(
      name,
      Array.from({ length: Math.max(1, partitions) }, () => new PartitionLog()),
    );
    return true;
  }

  partition(topic: string, partition: number): PartitionLog | undefined {
    return this.topics.get(topic)?.[partition];
  }

  offsetsOf(group: string): Map<string, CommittedOffset> {
    let offsets = this.committed.get(group);
    if (!offsets) this.committed.set(group, (offsets = new Map()));
    return offsets;
  }
}

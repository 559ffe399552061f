import { Partitioners, type ICustomPartitioner, type PartitionerArgs } from 'kafkajs';
import type { KAFKA_PARTITIONERS } from '../../../../lib/streams/broker-catalogue';

/**
 * Bento's `partitioner` values. fnv1a_hash (Bento's default) hashes the key as sarama's hash
 * partitioner does: the FNV-1a 32-bit hash read as a signed int, modulo the partition count,
 * made positive. murmur2_hash is the Java client's partitioner (kafkajs's default).
 */
export type PartitionerName = (typeof KAFKA_PARTITIONERS)[number];

function fnv1a32(data: Buffer): number {
  let hash = 0x811c9dc5;
  for (const byte of data) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash | 0;
}

const randomPartition = ({ partitionMetadata }: PartitionerArgs) =>
  partitionMetadata[Math.floor(Math.random() * partitionMetadata.length)].partitionId;

const fnv1a: ICustomPartitioner = () => (args) => {
  const key = args.message.key;
  if (key === null || key === undefined) return randomPartition(args);
  return Math.abs(fnv1a32(Buffer.from(key)) % args.partitionMetadata.length);
};

const roundRobin: ICustomPartitioner = () => {
  let next = 0;
  return ({ partitionMetadata }) => partitionMetadata[next++ % partitionMetadata.length].partitionId;
};

/** `manual`: the message carries its partition (from the `partition` field) */
const manual: ICustomPartitioner = () => (args) => args.message.partition ?? randomPartition(args);

export function partitionerOf(name: PartitionerName = 'fnv1a_hash'): ICustomPartitioner {
  switch (name) {
    case 'murmur2_hash':
      return Partitioners.DefaultPartitioner;
    case 'random':
      return () => randomPartition;
    case 'round_robin':
      return roundRobin;
    case 'manual':
      return manual;
    default:
      return fnv1a;
  }
}

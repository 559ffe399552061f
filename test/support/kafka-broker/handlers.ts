import { once } from 'node:events';
import { type Reader, type Writer } from './codec';
import { ERR, type GroupCoordinator } from './groups';
import { splitRecordBatches, type BrokerData } from './log';

/**
 * The request handlers, one per API key, each at the single version this broker offers
 * (kafkajs picks the highest version both sides know, from ApiVersions). Versions chosen so no
 * request is "flexible" (tagged fields) and record sets are record batches v2.
 */

export const API = {
  produce: 0,
  fetch: 1,
  listOffsets: 2,
  metadata: 3,
  offsetCommit: 8,
  offsetFetch: 9,
  findCoordinator: 10,
  joinGroup: 11,
  heartbeat: 12,
  leaveGroup: 13,
  syncGroup: 14,
  apiVersions: 18,
  createTopics: 19,
} as const;

/** [min, max] version of each API key offered */
export const VERSIONS: Record<number, [number, number]> = {
  [API.produce]: [3, 3],
  [API.fetch]: [4, 4],
  [API.listOffsets]: [1, 1],
  [API.metadata]: [1, 1],
  [API.offsetCommit]: [2, 2],
  [API.offsetFetch]: [1, 1],
  [API.findCoordinator]: [0, 0],
  [API.joinGroup]: [1, 1],
  [API.heartbeat]: [0, 0],
  [API.leaveGroup]: [0, 0],
  [API.syncGroup]: [0, 0],
  [API.apiVersions]: [0, 2],
  [API.createTopics]: [0, 0],
};

const E = { corruptMessage: 2, unknownTopic: 3, offsetOutOfRange: 1, unsupportedVersion: 35, topicExists: 36 } as const;

export interface BrokerContext {
  data: BrokerData;
  groups: GroupCoordinator;
  host: string;
  port: number;
  nodeId: number;
  /** aborted when the broker stops: long polls end */
  stopping: AbortSignal;
  /** how long each fetch was held waiting for records, in ms (the tests read it) */
  fetchWaits: number[];
}

type Handler = (r: Reader, w: Writer, ctx: BrokerContext, version: number, clientId: string) => void | Promise<void>;

export const HANDLERS: Record<number, Handler> = {
  [API.apiVersions]: (_r, w, _ctx, version) => {
    w.int16(0).array(Object.entries(VERSIONS), (x, [key, [min, max]]) => x.int16(Number(key)).int16(min).int16(max));
    if (version >= 1) w.int32(0);
  },

  [API.metadata]: (r, w, ctx) => {
    const requested = r.array((x) => x.string()!);
    for (const name of requested ?? []) ctx.data.createTopic(name);
    const names = requested ?? [...ctx.data.topics.keys()];
    w.array([0], (x) => x.int32(ctx.nodeId).string(ctx.host).int32(ctx.port).string(null)).int32(ctx.nodeId);
    w.array(names, (x, name) => {
      const partitions = ctx.data.topics.get(name) ?? [];
      x.int16(partitions.length ? 0 : E.unknownTopic)
        .string(name)
        .bool(false);
      x.array([...partitions.keys()], (y, p) =>
        y
          .int16(0)
          .int32(p)
          .int32(ctx.nodeId)
          .array([ctx.nodeId], (z, n) => z.int32(n))
          .array([ctx.nodeId], (z, n) => z.int32(n)),
      );
    });
  },

  [API.createTopics]: (r, w, ctx) => {
    const topics = r.array((x) => {
      const name = x.string()!;
      const partitions = x.int32();
      x.int16();
      x.array((y) => (y.int32(), y.array((z) => z.int32())));
      x.array((y) => (y.string(), y.string()));
      return { name, partitions };
    })!;
    w.array(topics, (x, t) => x.string(t.name).int16(ctx.data.createTopic(t.name, t.partitions) ? 0 : E.topicExists));
  },

  [API.produce]: (r, w, ctx) => {
    r.string();
    r.int16();
    r.int32();
    const topics = r.array((x) => ({
      name: x.string()!,
      partitions: x.array((y) => ({ index: y.int32(), records: y.bytes() }))!,
    }))!;
    let appended = false;
    w.array(topics, (x, t) => {
      ctx.data.createTopic(t.name);
      x.string(t.name).array(t.partitions, (y, p) => {
        const log = ctx.data.partition(t.name, p.index);
        const split = splitRecordBatches(p.records ?? Buffer.alloc(0));
        if (!log || 'error' in split)
          return void y
            .int32(p.index)
            .int16(log ? E.corruptMessage : E.unknownTopic)
            .int64(-1)
            .int64(-1);
        const base = split.batches.map((b) => log.append(b))[0] ?? log.next;
        appended ||= split.batches.length > 0;
        y.int32(p.index).int16(0).int64(base).int64(-1);
      });
    });
    w.int32(0);
    if (appended) ctx.data.appended.emit('append');
  },

  [API.fetch]: async (r, w, ctx) => {
    r.int32();
    const maxWait = r.int32();
    const minBytes = r.int32();
    const maxBytes = r.int32();
    r.int8();
    const topics = r.array((x) => ({
      name: x.string()!,
      partitions: x.array((y) => ({ index: y.int32(), offset: y.int64(), maxBytes: y.int32() }))!,
    }))!;
    const collect = () => {
      let total = 0;
      const answer = topics.map((t) => ({
        name: t.name,
        partitions: t.partitions.map((p) => {
          const log = ctx.data.partition(t.name, p.index);
          if (!log) return { index: p.index, error: E.unknownTopic, watermark: -1n, records: [] as Buffer[] };
          if (p.offset > log.next || p.offset < 0n)
            return { index: p.index, error: E.offsetOutOfRange, watermark: log.next, records: [] };
          const records = total < maxBytes ? log.read(p.offset, Math.min(p.maxBytes, maxBytes - total)) : [];
          total += records.reduce((n, b) => n + b.length, 0);
          return { index: p.index, error: 0, watermark: log.next, records };
        }),
      }));
      return { answer, total };
    };
    let result = collect();
    const started = Date.now();
    const deadline = started + maxWait;
    while (result.total < Math.max(1, minBytes) && Date.now() < deadline && !ctx.stopping.aborted) {
      const signal = AbortSignal.any([ctx.stopping, AbortSignal.timeout(Math.max(1, deadline - Date.now()))]);
      await once(ctx.data.appended, 'append', { signal }).catch(() => undefined);
      result = collect();
    }
    ctx.fetchWaits.push(Date.now() - started);
    if (ctx.fetchWaits.length > 1000) ctx.fetchWaits.shift();
    w.int32(0).array(result.answer, (x, t) =>
      x.string(t.name).array(t.partitions, (y, p) => {
        y.int32(p.index)
          .int16(p.error)
          .int64(p.watermark)
          .int64(p.watermark)
          .array([], () => undefined);
        y.bytes(Buffer.concat(p.records));
      }),
    );
  },

  [API.listOffsets]: (r, w, ctx) => {
    r.int32();
    const topics = r.array((x) => ({
      name: x.string()!,
      partitions: x.array((y) => ({ index: y.int32(), timestamp: y.int64() }))!,
    }))!;
    w.array(topics, (x, t) =>
      x.string(t.name).array(t.partitions, (y, p) => {
        const log = ctx.data.partition(t.name, p.index);
        if (!log) return void y.int32(p.index).int16(E.unknownTopic).int64(-1).int64(-1);
        const offset =
          p.timestamp === -1n
            ? log.next
            : p.timestamp === -2n
              ? (log.batches[0]?.baseOffset ?? log.next)
              : log.offsetForTime(p.timestamp);
        y.int32(p.index).int16(0).int64(-1).int64(offset);
      }),
    );
  },

  [API.findCoordinator]: (r, w, ctx) => {
    r.string();
    w.int16(0).int32(ctx.nodeId).string(ctx.host).int32(ctx.port);
  },

  [API.joinGroup]: async (r, w, ctx, _version, clientId) => {
    const groupId = r.string()!;
    const sessionTimeout = r.int32();
    const rebalanceTimeout = r.int32();
    const memberId = r.string() ?? '';
    const protocolType = r.string() ?? '';
    const protocols = r.array((x) => ({ name: x.string()!, metadata: x.bytes() ?? Buffer.alloc(0) }))!;
    const result = await ctx.groups.join({
      groupId,
      memberId,
      clientId,
      sessionTimeout,
      rebalanceTimeout,
      protocolType,
      protocols,
    });
    w.int16(result.error)
      .int32(result.generation)
      .string(result.protocol)
      .string(result.leader)
      .string(result.memberId);
    w.array(result.members, (x, m) => x.string(m.memberId).bytes(m.metadata));
  },

  [API.syncGroup]: async (r, w, ctx) => {
    const groupId = r.string()!;
    const generation = r.int32();
    const memberId = r.string()!;
    const assignments = r.array((x) => ({ memberId: x.string()!, assignment: x.bytes() ?? Buffer.alloc(0) }))!;
    const result = await ctx.groups.sync(groupId, generation, memberId, assignments);
    w.int16(result.error).bytes(result.assignment);
  },

  [API.heartbeat]: (r, w, ctx) => {
    w.int16(ctx.groups.heartbeat(r.string()!, r.int32(), r.string()!));
  },

  [API.leaveGroup]: (r, w, ctx) => {
    w.int16(ctx.groups.leave(r.string()!, r.string()!));
  },

  [API.offsetCommit]: (r, w, ctx) => {
    const groupId = r.string()!;
    const generation = r.int32();
    const memberId = r.string()!;
    r.int64();
    const topics = r.array((x) => ({
      name: x.string()!,
      partitions: x.array((y) => ({ index: y.int32(), offset: y.int64(), metadata: y.string() }))!,
    }))!;
    const error = ctx.groups.commitCheck(groupId, generation, memberId);
    const offsets = ctx.data.offsetsOf(groupId);
    w.array(topics, (x, t) =>
      x.string(t.name).array(t.partitions, (y, p) => {
        if (error === ERR.none) offsets.set(`${t.name}/${p.index}`, { offset: p.offset, metadata: p.metadata });
        y.int32(p.index).int16(error);
      }),
    );
  },

  [API.offsetFetch]: (r, w, ctx) => {
    const offsets = ctx.data.offsetsOf(r.string()!);
    const topics = r.array((x) => ({ name: x.string()!, partitions: x.array((y) => y.int32())! }))!;
    w.array(topics, (x, t) =>
      x.string(t.name).array(t.partitions, (y, p) => {
        const committed = offsets.get(`${t.name}/${p}`);
        y.int32(p)
          .int64(committed?.offset ?? -1n)
          .string(committed?.metadata ?? '')
          .int16(0);
      }),
    );
  },
};

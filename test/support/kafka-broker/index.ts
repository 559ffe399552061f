import { createServer, type Server, type Socket } from 'node:net';
import { Reader, Writer } from './codec';
import { GroupCoordinator } from './groups';
import { API, HANDLERS, VERSIONS, type BrokerContext } from './handlers';
import { BrokerData } from './log';

export { BrokerData } from './log';
export { API } from './handlers';

/**
 * A one-node, in-memory Kafka broker for tests: kafkajs (or any client speaking the versions in
 * handlers.ts) connects to it over TCP. No Kafka broker can be installed on the test machines;
 * this is the smallest broker that lets the kafka connectors be tested for real: produce,
 * fetch with long polls, consumer groups with rebalancing, committed offsets.
 *
 * `stop()` then `start()` is a broker restart: the same port, the same data (topics, records,
 * committed offsets) unless the test passes a fresh BrokerData; group membership is lost, as
 * members rejoin a restarted coordinator.
 */
export class KafkaTestBroker {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private groups?: GroupCoordinator;
  private stopping = new AbortController();
  port = 0;
  /** requests answered, by API key (see API in handlers.ts) */
  readonly requests = new Map<number, number>();
  readonly fetchWaits: number[] = [];

  constructor(
    public data = new BrokerData(),
    private readonly host = '127.0.0.1',
  ) {}

  get address(): string {
    return `${this.host}:${this.port}`;
  }

  async start(): Promise<this> {
    this.stopping = new AbortController();
    this.groups = new GroupCoordinator();
    const ctx: BrokerContext = {
      data: this.data,
      groups: this.groups,
      host: this.host,
      port: this.port,
      nodeId: 0,
      stopping: this.stopping.signal,
      fetchWaits: this.fetchWaits,
    };
    const server = createServer((socket) => this.serve(socket, ctx));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, this.host, () => resolve());
    });
    this.server = server;
    this.port = ctx.port = (server.address() as { port: number }).port;
    return this;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.groups?.close();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** creates a topic with several partitions (as `kafka-topics --create` would) */
  createTopic(name: string, partitions: number): void {
    this.data.createTopic(name, partitions);
  }

  private serve(socket: Socket, ctx: BrokerContext): void {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
        const frame = pending.subarray(4, 4 + pending.readInt32BE(0));
        pending = pending.subarray(4 + frame.length);
        void this.answer(frame, socket, ctx);
      }
    });
  }

  /** Answers one request; requests on a connection are answered as they complete (kafkajs matches correlation ids). */
  private async answer(frame: Buffer, socket: Socket, ctx: BrokerContext): Promise<void> {
    const r = new Reader(frame);
    const apiKey = r.int16();
    const version = r.int16();
    const correlationId = r.int32();
    const clientId = r.string() ?? '';
    this.requests.set(apiKey, (this.requests.get(apiKey) ?? 0) + 1);
    const w = new Writer().int32(correlationId);
    const [min, max] = VERSIONS[apiKey] ?? [0, -1];
    try {
      if (version < min || version > max) {
        if (apiKey !== API.apiVersions) return void socket.destroy();
        w.int16(35).array(Object.entries(VERSIONS), (x, [key, [lo, hi]]) => x.int16(Number(key)).int16(lo).int16(hi));
      } else {
        await HANDLERS[apiKey](r, w, ctx, version, clientId);
      }
    } catch {
      return void socket.destroy();
    }
    if (socket.destroyed) return;
    const body = w.toBuffer();
    const size = Buffer.alloc(4);
    size.writeInt32BE(body.length);
    socket.write(Buffer.concat([size, body]));
  }
}

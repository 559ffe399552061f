import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay to a shared broker that a test may cut: `drop()` closes every relayed connection
 * and refuses new ones until `restore()`, which is what a client sees of a broker restart
 * without stopping the broker other tests use.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private refusing = false;
  port = 0;

  constructor(
    private readonly targetPort: number,
    private readonly targetHost = '127.0.0.1',
  ) {}

  async start(): Promise<this> {
    this.server = createServer((client) => this.relay(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  drop(): void {
    this.refusing = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  restore(): void {
    this.refusing = false;
  }

  async stop(): Promise<void> {
    this.drop();
    await new Promise((resolve) => this.server?.close(resolve) ?? resolve(undefined));
  }

  private relay(client: Socket): void {
    if (this.refusing) return void client.destroy();
    const upstream = connect(this.targetPort, this.targetHost);
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      this.sockets.add(a);
      a.pipe(b);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        this.sockets.delete(a);
        b.destroy();
      });
    }
  }
}

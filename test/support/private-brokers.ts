import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { eventually } from './eventually';

/**
 * Broker processes a test owns (never the shared ones on their usual ports), to stop and start
 * them for the resume tests: the same port and data directory across restarts.
 */
export interface PrivateBroker {
  port: number;
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** stops it and removes its data directory */
  dispose(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function portOpen(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
  });
}

function privateBroker(
  scheme: string,
  command: (port: number, dir: string) => [string, string[]],
): Promise<PrivateBroker> {
  return freePort().then((port) => {
    const dir = mkdtempSync(join(tmpdir(), `gw-${scheme}-`));
    let child: ChildProcess | undefined;
    const broker: PrivateBroker = {
      port,
      url: `${scheme}://127.0.0.1:${port}`,
      async start() {
        const [file, args] = command(port, dir);
        child = spawn(file, args, { stdio: 'ignore' });
        await eventually(
          async () => {
            if (!(await portOpen(port))) throw new Error(`${file} not listening on ${port}`);
          },
          10_000,
          50,
        );
      },
      async stop() {
        const running = child;
        child = undefined;
        if (!running || running.exitCode !== null) return;
        const exited = new Promise((resolve) => running.once('exit', resolve));
        running.kill('SIGTERM');
        await exited;
      },
      async dispose() {
        await broker.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
    return broker;
  });
}

/** nats-server with JetStream, its store in a temporary directory */
export async function privateNatsServer(): Promise<PrivateBroker> {
  const broker = await privateBroker('nats', (port, dir) => [
    '/usr/sbin/nats-server',
    ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir],
  ]);
  await broker.start();
  return broker;
}

/**
 * mosquitto with persistence (sessions and queued QoS 1 messages survive a restart); `user` is
 * the current user, or mosquitto started as root drops to `mosquitto` and cannot write its store.
 */
export async function privateMosquitto(): Promise<PrivateBroker> {
  const broker = await privateBroker('mqtt', (port, dir) => {
    const config = join(dir, 'mosquitto.conf');
    writeFileSync(
      config,
      [
        `listener ${port} 127.0.0.1`,
        'allow_anonymous true',
        'persistence true',
        `persistence_location ${dir}/`,
        'autosave_interval 1',
        'autosave_on_changes true',
        `user ${userInfo().username}`,
        '',
      ].join('\n'),
    );
    return ['/usr/sbin/mosquitto', ['-c', config]];
  });
  await broker.start();
  return broker;
}

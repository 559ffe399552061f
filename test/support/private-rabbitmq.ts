import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connect } from 'amqplib';
import { freePort, type PrivateBroker } from './private-brokers';

/**
 * The real start script, not /usr/sbin/rabbitmq-server: run as root, that Debian wrapper switches
 * to the `rabbitmq` user with its own HOME, which can read neither our temporary directory nor
 * our Erlang cookie (the node then never opens a port and writes no log).
 */
const SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';
const CTL = '/usr/lib/rabbitmq/bin/rabbitmqctl';
const STARTUP_MS = 60_000;
const SHUTDOWN_MS = 30_000;

export const rabbitmqInstalled = (): boolean => existsSync(SERVER);

export interface QueueCounts {
  ready: number;
  unacknowledged: number;
}

/**
 * A RabbitMQ node a test owns, never the shared `rabbit@localhost` on 5672: its own node name,
 * AMQP and distribution ports, data and log directories, Erlang cookie (HOME) and no plugins.
 * Stopping and starting it again keeps ports and data, so durable queues and their persistent
 * messages (acknowledged or not) survive, as they would on a production broker restart.
 * epmd is the machine's, shared with the other nodes; the test never stops it.
 */
export class PrivateRabbitMq implements PrivateBroker {
  readonly node = `gwtest-${randomBytes(6).toString('hex')}@localhost`;
  readonly dir = mkdtempSync(join(tmpdir(), 'gw-rabbitmq-'));
  private child?: ChildProcess;
  private readonly killOnExit = () => this.kill('SIGKILL');

  private constructor(
    readonly port: number,
    private readonly distPort: number,
  ) {
    mkdirSync(this.home, { recursive: true });
    writeFileSync(join(this.dir, 'enabled_plugins'), '[].\n');
    // an empty rabbitmq-env.conf of its own, or /etc/rabbitmq's (the shared node's) would apply
    writeFileSync(join(this.dir, 'rabbitmq-env.conf'), '');
    writeFileSync(join(this.dir, 'rabbitmq.conf'), `listeners.tcp.1 = 127.0.0.1:${port}\n`);
  }

  static async create(): Promise<PrivateRabbitMq> {
    const port = await freePort();
    let distPort = await freePort();
    while (distPort === port) distPort = await freePort();
    return new PrivateRabbitMq(port, distPort);
  }

  get url(): string {
    return `amqp://guest:guest@127.0.0.1:${this.port}`;
  }

  private get home(): string {
    return join(this.dir, 'home');
  }

  private get logFile(): string {
    return join(this.dir, 'server.out');
  }

  private env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    // nothing of the caller's RabbitMQ/Erlang settings leaks in (RABBITMQ_ALLOW_INPUT, ERL_FLAGS...)
    for (const [name, value] of Object.entries(process.env)) if (!/^(RABBITMQ_|ERL_)/.test(name)) env[name] = value;
    return {
      ...env,
      HOME: this.home,
      ERL_EPMD_ADDRESS: '127.0.0.1',
      RABBITMQ_NODENAME: this.node,
      RABBITMQ_NODE_PORT: String(this.port),
      RABBITMQ_DIST_PORT: String(this.distPort),
      RABBITMQ_CONF_ENV_FILE: join(this.dir, 'rabbitmq-env.conf'),
      RABBITMQ_CONFIG_FILE: join(this.dir, 'rabbitmq.conf'),
      RABBITMQ_ADVANCED_CONFIG_FILE: join(this.dir, 'advanced.config'),
      RABBITMQ_ENABLED_PLUGINS_FILE: join(this.dir, 'enabled_plugins'),
      RABBITMQ_MNESIA_BASE: join(this.dir, 'mnesia'),
      RABBITMQ_LOG_BASE: join(this.dir, 'log'),
      RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
    };
  }

  /** starts the node and returns once it accepts an AMQP connection */
  async start(): Promise<void> {
    if (this.child) throw new Error(`${this.node} is already running`);
    const out = openSync(this.logFile, 'a');
    // its own process group, so stopping it reaches the shell script, the VM and the VM's helpers
    const child = spawn(SERVER, [], { cwd: this.dir, env: this.env(), detached: true, stdio: ['ignore', out, out] });
    closeSync(out);
    this.child = child;
    process.once('exit', this.killOnExit);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const deadline = Date.now() + STARTUP_MS;
    for (;;) {
      try {
        await (await connect(this.url)).close();
        return;
      } catch {
        // not accepting yet
      }
      const early = await Promise.race([
        exited,
        new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 100)),
      ]);
      if (early !== 'running' || Date.now() > deadline) {
        await this.stop();
        throw new Error(
          `${this.node} did not accept AMQP on ${this.port} (${early === 'running' ? `none within ${STARTUP_MS} ms` : `exited with ${early}`}):\n${this.logTail()}`,
        );
      }
    }
  }

  /** stops the node gracefully (SIGTERM, as a service manager does), killing it if it hangs */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.kill('SIGTERM');
    let deadline = Date.now() + SHUTDOWN_MS;
    let killed = false;
    while (this.groupAlive(child)) {
      if (Date.now() > deadline) {
        if (killed) break; // what is left cannot be killed (an unreaped zombie): nothing more to wait for
        this.kill('SIGKILL');
        killed = true;
        deadline = Date.now() + 5000;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    this.child = undefined;
    process.removeListener('exit', this.killOnExit);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async dispose(): Promise<void> {
    await this.stop().catch(() => this.kill('SIGKILL'));
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** ready and unacknowledged messages of a queue, as the broker counts them */
  async queue(name: string): Promise<QueueCounts> {
    const { stdout } = await promisify(execFile)(
      CTL,
      [
        '-n',
        this.node,
        '-q',
        'list_queues',
        'name',
        'messages_ready',
        'messages_unacknowledged',
        '--formatter',
        'json',
      ],
      { env: this.env() },
    );
    const row = (
      JSON.parse(stdout) as Array<{ name: string; messages_ready: number; messages_unacknowledged: number }>
    ).find((q) => q.name === name);
    if (!row) throw new Error(`${this.node} has no queue ${name}`);
    return { ready: row.messages_ready, unacknowledged: row.messages_unacknowledged };
  }

  private groupAlive(child: ChildProcess): boolean {
    try {
      process.kill(-child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  }

  private kill(signal: NodeJS.Signals): void {
    try {
      if (this.child?.pid) process.kill(-this.child.pid, signal);
    } catch {
      // the group is gone already
    }
  }

  private logTail(): string {
    try {
      return readFileSync(this.logFile, 'utf8').split('\n').slice(-30).join('\n');
    } catch {
      return '(no output)';
    }
  }
}

export const privateRabbitMq = async (): Promise<PrivateRabbitMq> => {
  const broker = await PrivateRabbitMq.create();
  try {
    await broker.start();
  } catch (err) {
    await broker.dispose();
    throw err;
  }
  return broker;
};

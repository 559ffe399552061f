import { connect } from 'node:net';
import { StartupError, type SystemError } from '../startup-error';

/** What Moleculer takes as a transporter: a name, or a URL of one of these schemes. */
const NAMES = ['fake', 'nats', 'mqtt', 'redis', 'amqp', 'amqp10', 'kafka', 'stan', 'tcp'];
const SCHEMES = ['nats', 'mqtt', 'mqtts', 'redis', 'rediss', 'amqp', 'amqps', 'amqp10', 'kafka', 'stan', 'tcp'];
const KNOWN = '(a URL such as nats://127.0.0.1:4222, redis://, amqp://, mqtt://, kafka://, or a name such as TCP)';

/** The server behind each scheme checked here, and the port it listens on when the URL names none. */
const SERVERS: Record<string, { name: string; port: number }> = {
  nats: { name: 'NATS', port: 4222 },
  redis: { name: 'Redis', port: 6379 },
  rediss: { name: 'Redis', port: 6379 },
  amqp: { name: 'AMQP', port: 5672 },
  amqps: { name: 'AMQP', port: 5671 },
  mqtt: { name: 'MQTT', port: 1883 },
  mqtts: { name: 'MQTT', port: 8883 },
  kafka: { name: 'Kafka', port: 9092 },
};

/**
 * Before the broker starts: does Moleculer know GW_TRANSPORTER (it exits the process, with a
 * stack, on one it does not), and does a server answer at the address it names? Moleculer
 * retries a transporter it can not reach every 5 s, for ever, and the node never starts; this
 * fails the start instead, with a line saying which address refused. A transporter named
 * without a URL (`NATS`, `TCP`, a test's `Fake`) is left to Moleculer, as are the servers of
 * schemes not checked here (amqp10, stan, tcp).
 */
export async function checkTransporter(transporter: string | undefined, timeoutMs = 5000): Promise<void> {
  if (transporter === undefined) return;
  const scheme = /^([a-z0-9+.-]+):\/\//i.exec(transporter)?.[1].toLowerCase();
  if (scheme === undefined ? !NAMES.includes(transporter.toLowerCase()) : !SCHEMES.includes(scheme)) {
    const what = scheme === undefined ? `'${transporter}'` : `scheme ${scheme}://`;
    throw new StartupError(`GW_TRANSPORTER: unknown transporter ${what} ${KNOWN}`);
  }
  if (scheme === undefined) return;
  // A cluster's servers may be listed with commas: the start goes on when any of them answers.
  const refusals: StartupError[] = [];
  for (const entry of transporter.split(',')) {
    const refusal = await serverRefusal(entry.trim(), scheme, timeoutMs);
    if (refusal === undefined) return;
    refusals.push(refusal);
  }
  throw refusals[0];
}

/** Why the server a transporter URL names does not answer, or undefined when it does (or is not checked). */
async function serverRefusal(entry: string, scheme: string, timeoutMs: number): Promise<StartupError | undefined> {
  let url: URL;
  try {
    url = new URL(entry.includes('://') ? entry : `${scheme}://${entry}`);
  } catch {
    return new StartupError('GW_TRANSPORTER is not a valid URL (such as nats://127.0.0.1:4222)');
  }
  const server = SERVERS[scheme];
  if (server === undefined || url.hostname === '') return undefined;
  const port = Number(url.port) || server.port;
  const where = `${url.hostname}:${port}`;
  const hint = `(is the ${server.name} server running? check the host and port)`;
  return new Promise<StartupError | undefined>((resolve) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(new StartupError(`GW_TRANSPORTER: no answer from ${where} within ${timeoutMs / 1000} s ${hint}`));
    });
    socket.once('error', (err: SystemError) => {
      const what =
        err.code === 'ECONNREFUSED'
          ? `nothing answers at ${where}`
          : err.code === 'ENOTFOUND'
            ? `unknown host ${url.hostname}`
            : `cannot reach ${where} (${err.code ?? err.message})`;
      resolve(new StartupError(`GW_TRANSPORTER: ${what} ${hint}`, err));
    });
  });
}

import { connect } from 'node:net';
import { StartupError, type SystemError } from '../startup-error';

/** What Moleculer takes as a transporter: a name, or a URL of one of these schemes. */
const NAMES = ['fake', 'nats', 'mqtt', 'redis', 'amqp', 'amqp10', 'kafka', 'stan', 'tcp'];
const SCHEMES = ['nats', 'mqtt', 'mqtts', 'redis', 'rediss', 'amqp', 'amqps', 'amqp10', 'kafka', 'stan', 'tcp'];

/** The port each transporter's server listens on when its URL names none. */
const DEFAULT_PORTS: Record<string, number> = { nats: 4222, redis: 6379, rediss: 6379, amqp: 5672, amqps: 5671, mqtt: 1883, mqtts: 8883, kafka: 9092 };
const SERVERS: Record<string, string> = { nats: 'NATS', redis: 'Redis', rediss: 'Redis', amqp: 'AMQP', amqps: 'AMQP', mqtt: 'MQTT', mqtts: 'MQTT', kafka: 'Kafka' };

/**
 * Before the broker starts: does Moleculer know the transporter (it exits the process, with a
 * stack, on one it does not), and does a server answer at the address GW_TRANSPORTER names? Moleculer
 * itself retries a transporter it can not reach every 5 s, for ever, and the node never starts;
 * this fails the start instead, with a line saying which address refused. A transporter named
 * without a URL (`NATS`, `TCP`, a test's `Fake`), or with a scheme not known here, is left to
 * Moleculer.
 */
export async function checkTransporter(transporter: string | undefined, timeoutMs = 5000): Promise<void> {
  if (transporter === undefined) return;
  const scheme = /^([a-z0-9+.-]+):\/\//i.exec(transporter)?.[1].toLowerCase();
  if (scheme === undefined ? !NAMES.includes(transporter.toLowerCase()) : !SCHEMES.includes(scheme)) {
    throw new StartupError(
      `GW_TRANSPORTER: unknown transporter ${scheme === undefined ? `'${transporter}'` : `scheme ${scheme}://`} ` +
        '(a URL such as nats://127.0.0.1:4222, redis://, amqp://, mqtt://, kafka://, or a name such as TCP)',
    );
  }
  if (scheme === undefined) return;
  const first = transporter.split(',')[0].trim();
  let url: URL;
  try {
    url = new URL(first);
  } catch {
    throw new StartupError('GW_TRANSPORTER is not a valid URL (such as nats://127.0.0.1:4222)');
  }
  if (!(scheme in DEFAULT_PORTS) || url.hostname === '') return;
  const port = Number(url.port) || DEFAULT_PORTS[scheme];
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const server = SERVERS[scheme];
  const where = `${url.hostname}:${port}`;
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new StartupError(`GW_TRANSPORTER: no answer from ${where} within ${timeoutMs / 1000} s (is the ${server} server running? check the host and port)`));
    });
    socket.once('error', (err: SystemError) => {
      const what =
        err.code === 'ECONNREFUSED' ? `nothing answers at ${where}` : err.code === 'ENOTFOUND' ? `unknown host ${url.hostname}` : `cannot reach ${where} (${err.code ?? err.message})`;
      reject(new StartupError(`GW_TRANSPORTER: ${what} (is the ${server} server running? check the host and port)`, err));
    });
  });
}

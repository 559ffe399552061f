import { connect, type NatsConnection } from 'nats';
import { pinnedBrokerUrl } from '../broker-address';
import type { ConnectorEnv } from '../contract';

/** Bento's `urls`: a list whose items may be comma-separated. */
export function natsServers(urls: readonly string[]): string[] {
  return urls
    .flatMap((u) => u.split(','))
    .map((u) => u.trim())
    .filter(Boolean);
}

/**
 * A connection that reconnects forever (a stream outlives a NATS restart) to the configured
 * servers only: the servers a cluster gossips are ignored, as they were not checked against
 * the outbound policy. Each plain server is dialled at the address its check judged (nats.js
 * resolves names itself and takes no guarded lookup).
 */
export async function natsConnection(
  urls: readonly string[],
  name: string,
  env: ConnectorEnv,
): Promise<NatsConnection> {
  const pin = (url: string) => pinnedBrokerUrl(url, 4222, ['nats:', 'tcp:'], env);
  const servers = await Promise.all(natsServers(urls).map(pin));
  const nc = await connect({
    servers,
    name,
    reconnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    ignoreClusterUpdates: true,
    waitOnFirstConnect: false,
  });
  void (async () => {
    for await (const status of nc.status())
      if (status.type === 'disconnect' || status.type === 'error')
        env.log('warn', `nats ${name}: ${status.type} ${String(status.data)}`);
  })().catch(() => undefined);
  return nc;
}

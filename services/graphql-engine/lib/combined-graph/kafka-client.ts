import { isIP, Socket } from 'node:net';
import { Kafka, logLevel, type ISocketFactory } from 'kafkajs';
import type { KafkaSourceConfig } from '../../../../lib/graphql/combined-graph-config';
import { guardedLookup, refusedAddressError } from '../../../../lib/net/outbound-address';
import { connectedRefusal } from '../../../../lib/net/tenant-agent';

/**
 * Every connection kafkajs opens (the seed brokers and the brokers the cluster's metadata
 * advertises) follows the gateway's outbound policy: an IP literal is judged as is, a name
 * through the guarded lookup, so the address checked is the address connected to; this
 * node's own ports are refused on the connected socket. (The
 * reference's Kafka data source has no TLS setting, so the client never asks for TLS sockets.)
 */
const guardedSockets: ISocketFactory = ({ host, port, onConnect }) => {
  const bare = host.replace(/^\[|\]$/g, '');
  const socket = new Socket();
  const refusal = isIP(bare) ? refusedAddressError(bare, bare) : undefined;
  if (refusal) process.nextTick(() => socket.destroy(refusal));
  else
    socket.connect({ host: bare, port, lookup: guardedLookup() }, () => {
      const refusal = connectedRefusal(socket, bare);
      if (refusal) socket.destroy(refusal);
      else onConnect();
    });
  return socket;
};

/**
 * The kafkajs client of one subscription. Retries are few and short: a broker that cannot be
 * reached must end the client's subscription with an error soon, not after minutes.
 */
export function kafkaClient(config: KafkaSourceConfig): Kafka {
  return new Kafka({
    clientId: config.clientId || 'gw',
    brokers: config.brokerAddresses,
    socketFactory: guardedSockets,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 3000,
    retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 1000 },
    ...(config.sasl.enable
      ? { sasl: { mechanism: 'plain' as const, username: config.sasl.user, password: config.sasl.password } }
      : {}),
  });
}

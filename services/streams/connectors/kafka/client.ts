import { isIP, Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Kafka, logLevel, type ISocketFactory } from 'kafkajs';
import { literalRefusal, tenantLookup } from '../../../../lib/net/tenant-agent';
import { checkBrokerAddress } from '../broker-address';
import type { ConnectorEnv } from '../contract';

/** Bento's `addresses`: a list whose items may themselves be comma-separated. */
export function splitAddresses(addresses: readonly string[]): string[] {
  return addresses
    .flatMap((a) => a.split(','))
    .map((a) => a.trim())
    .filter(Boolean);
}

/**
 * Every connection kafkajs opens (the seed addresses and the brokers the cluster's metadata
 * advertises) is checked against the outbound policy first; kafkajs takes a socket at once,
 * so it gets one that connects after the check, or fails with the refusal.
 */
function checkedSockets(env: ConnectorEnv): ISocketFactory {
  return ({ host, port, ssl, onConnect }) => {
    if (ssl) {
      // the socket resolves the name through the guarded lookup, and a literal is judged first:
      // no TLS handshake starts towards a refused address
      const bare = host.replace(/^\[|\]$/g, '');
      const refusal = literalRefusal(bare, port, env.ownPorts());
      if (refusal) {
        const refused = new Socket();
        process.nextTick(() => refused.destroy(refusal));
        return refused;
      }
      const lookup = tenantLookup(port, () => env.ownPorts());
      const servername = isIP(bare) ? undefined : bare;
      const options = { host: bare, port, servername, ...(typeof ssl === 'object' ? ssl : {}), lookup };
      return tlsConnect(options, onConnect);
    }
    const socket = new Socket();
    checkBrokerAddress(host, port, env).then(
      ([address]) => !socket.destroyed && socket.connect(port, address, onConnect),
      (err: Error) => socket.destroy(err),
    );
    return socket;
  };
}

export function kafkaClient(addresses: readonly string[], clientId: string, env: ConnectorEnv): Kafka {
  return new Kafka({
    clientId,
    brokers: splitAddresses(addresses),
    socketFactory: checkedSockets(env),
    logLevel: logLevel.NOTHING,
    // a write fails within seconds so the stream's own retry (with backoff, counted) takes over;
    // a consumer that ran out of retries is restarted by kafkajs (restartOnFailure)
    retry: { retries: 6, initialRetryTime: 100, maxRetryTime: 2000 },
  });
}

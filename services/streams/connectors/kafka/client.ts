import { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Kafka, logLevel, type ISocketFactory } from 'kafkajs';
import { checkBrokerAddress } from '../broker-address';
import type { ConnectorEnv } from '../contract';

/** Bento's `addresses`: a list whose items may themselves be comma-separated. */
export function splitAddresses(addresses: readonly string[]): string[] {
  return addresses.flatMap((a) => a.split(',')).map((a) => a.trim()).filter(Boolean);
}

/**
 * Every connection kafkajs opens (the seed addresses and the brokers the cluster's metadata
 * advertises) is checked against the outbound policy first; kafkajs takes a socket at once,
 * so it gets one that connects after the check, or fails with the refusal.
 */
function checkedSockets(env: ConnectorEnv): ISocketFactory {
  return ({ host, port, ssl, onConnect }) => {
    if (ssl) {
      const socket = tlsConnect({ host, port, servername: host, ...(typeof ssl === 'object' ? ssl : {}) }, onConnect);
      checkBrokerAddress(host, port, env).catch((err: Error) => socket.destroy(err));
      return socket;
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

import { hostname } from 'node:os';
import type { BrokerOptions, Transporter } from 'moleculer';
import type { NodeConfig } from './lib/runtime';
import { StoreErrorRedaction } from './lib/store/store-errors';

/**
 * Broker options for one gw node, derived from its configuration. Without a transporter the
 * services of the node talk in-process; with GW_TRANSPORTER they find each other over it. The
 * threads of a node with gateway workers and no GW_TRANSPORTER pass the one between them.
 */
export function brokerOptions(config: NodeConfig, threadsTransporter?: Transporter): BrokerOptions {
  return {
    namespace: config.namespace,
    nodeID: config.nodeId ?? defaultNodeId(),
    transporter: config.transporter ?? threadsTransporter ?? null,
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            type: 'Console',
            options: { level: config.logLevel, colors: process.stdout.isTTY, moduleColors: false, formatter: 'short' },
          },
    logLevel: config.logLevel === 'silent' ? undefined : config.logLevel,
    serializer: 'JSON',
    // Management calls are short; a node that vanished must not hang an HTTP request forever.
    requestTimeout: 10_000,
    retryPolicy: { enabled: false },
    registry: { strategy: 'RoundRobin', preferLocal: true },
    heartbeatInterval: config.heartbeatInterval,
    heartbeatTimeout: config.heartbeatTimeout,
    validator: true,
    errorHandler: undefined,
    // Store errors leave every handler without the values of the failed query (logs, NATS).
    middlewares: [StoreErrorRedaction],
    // app/main.ts owns SIGTERM/SIGINT: it drains the ports before stopping the services. Moleculer's
    // own handlers would stop the broker at once, mid-drain, and a second time after it.
    skipProcessEventRegistration: true,
  };
}

/** GW_NODE_ID's default: the host name, the process id and a random suffix. */
export function defaultNodeId(): string {
  return `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}

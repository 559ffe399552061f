import { availableParallelism } from 'node:os';
import { ROLES } from '../../services';

/**
 * How many gateway workers a node runs (GW_WORKERS). `auto` gives a node that runs only gateway
 * services one per core: that is all it does. A node that also runs the management services
 * (`npm start`'s embedded default) keeps one, since its main thread has work of its own; set a
 * number to change either.
 */
export function workerCount(setting: string, services: readonly string[], cores = availableParallelism()): number {
  if (setting !== 'auto') return Number(setting);
  return services.every((name) => GATEWAY_SERVICES.includes(name)) ? cores : 1;
}

/** The services a gateway worker runs: those of the gateway role that the node was asked for. */
export function gatewayServicesOf(services: readonly string[]): string[] {
  return services.filter((name) => GATEWAY_SERVICES.includes(name));
}

/** What stays on the main thread of a node with workers. */
export function mainThreadServicesOf(services: readonly string[]): string[] {
  return services.filter((name) => !GATEWAY_SERVICES.includes(name));
}

const GATEWAY_SERVICES: readonly string[] = ROLES.gateway;

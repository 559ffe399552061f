import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { GatewayEventName } from '../../../../contracts/events';
import type { Step } from '../compose';
import { upstreamTargetStep } from '../steps/upstream-target';
import { BREAKER_RESET, BREAKER_TRIPPED, type BreakerListener, type CircuitBreaker } from './circuit-breaker';
import { HostHealth } from './host-health';
import { compileUpstreamTargets } from './upstream-targets';
import { readUptimeChecks, UptimeChecker, type HostReport } from './uptime-checks';

/** how long a host that refused a connection is skipped before it is tried again */
const REFUSED_HOST_PAUSE_MS = 2000;

export type PublishApiEvent = (
  event: GatewayEventName,
  definition: ApiDefinition,
  message: string,
  meta: Record<string, unknown>,
) => void;

/**
 * The per-node health state of one compiled API: which hosts are down, its uptime tests, its
 * circuit breakers, and the step that chooses the upstream. Created when the API is compiled
 * and disposed when it is removed or replaced, so no timer outlives its definition.
 */
export class ApiHealth {
  readonly health = new HostHealth(REFUSED_HOST_PAUSE_MS);
  /** every breaker of every version, for dispose */
  readonly breakers: CircuitBreaker[] = [];
  readonly breakerListener: BreakerListener;
  readonly targetStep: Step | undefined;
  private readonly uptime: UptimeChecker | undefined;

  constructor(definition: ApiDefinition, publish: PublishApiEvent) {
    const checks = readUptimeChecks(definition.uptime_tests);
    const targets = compileUpstreamTargets(definition, this.health);
    this.targetStep = upstreamTargetStep(
      targets,
      this.health,
      definition.proxy.check_host_against_uptime_tests === true,
    );
    this.breakerListener = breakerEvents(definition, publish);
    if (checks.length > 0) {
      const hostEvent = (event: 'HostDown' | 'HostUp', message: string) => (report: HostReport) =>
        publish(event, definition, message, { ...report, api_id: definition.api_id });
      const takeOut = definition.proxy.check_host_against_uptime_tests === true ? this.health : undefined;
      this.uptime = new UptimeChecker(checks, takeOut, {
        down: hostEvent('HostDown', 'Uptime test failed for host'),
        up: hostEvent('HostUp', 'Uptime test succeeded for host'),
      });
    }
  }

  /** starts the uptime tests (once the API's chain compiled) */
  start(): void {
    this.uptime?.start();
  }

  dispose(): void {
    this.uptime?.stop();
    for (const breaker of this.breakers) breaker.dispose();
  }
}

/** BreakerTriggered with the reason (the reference's CircuitEvent), and BreakerTripped or BreakerReset. */
function breakerEvents(definition: ApiDefinition, publish: PublishApiEvent): BreakerListener {
  return {
    tripped(settings, failureRate) {
      const meta = {
        path: settings.path,
        method: settings.method,
        api_id: definition.api_id,
        CircuitEvent: BREAKER_TRIPPED,
        reason: 'tripped',
        failure_rate: failureRate,
      };
      publish('BreakerTriggered', definition, 'Circuit breaker tripped', meta);
      publish('BreakerTripped', definition, 'Circuit breaker tripped', meta);
    },
    reset(settings) {
      const meta = {
        path: settings.path,
        method: settings.method,
        api_id: definition.api_id,
        CircuitEvent: BREAKER_RESET,
        reason: 'reset',
      };
      publish('BreakerTriggered', definition, 'Circuit breaker reset', meta);
      publish('BreakerReset', definition, 'Circuit breaker reset', meta);
    },
  };
}

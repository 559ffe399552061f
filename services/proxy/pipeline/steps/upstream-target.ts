import { DONE, type Step } from '../compose';
import { sendGatewayError } from '../gateway-errors';
import type { RequestContext } from '../request-context';
import type { HostHealth } from '../upstream-health/host-health';
import type { UpstreamTargets } from '../upstream-health/upstream-targets';

/** the reference gateway's answer when no host of the API is up */
const ALL_HOSTS_DOWN = 'all hosts are down';

/**
 * Chooses the upstream of a request of an API with several (round robin, skipping hosts that
 * are down); with `check_host_against_uptime_tests`, refuses a request whose only target an
 * uptime test found down. Absent for an API with one target and no such check. Runs once per
 * request: a second run keeps the target the first chose.
 */
export function upstreamTargetStep(
  targets: UpstreamTargets | undefined,
  health: HostHealth,
  checkUptime: boolean,
): Step | undefined {
  if (targets) {
    return (ctx) => {
      // already chosen earlier in the chain (a GraphQL subscription or persisted query)
      if (ctx.target && ctx.upstreamTargets === targets) return;
      const next = targets.next(new Set());
      if (!(next instanceof Promise)) return choose(ctx, targets, next);
      return next.then(
        (target) => choose(ctx, targets, target),
        (err: Error) => {
          sendGatewayError(ctx.res, 503, `${ALL_HOSTS_DOWN}: service discovery failed (${err.message})`);
          return DONE;
        },
      );
    };
  }
  if (!checkUptime) return undefined;
  return (ctx) => {
    if (!health.isDown(ctx.version!.target.origin)) return;
    sendGatewayError(ctx.res, 503, ALL_HOSTS_DOWN);
    return DONE;
  };
}

function choose(
  ctx: RequestContext,
  targets: UpstreamTargets,
  target: RequestContext['target'],
): typeof DONE | undefined {
  if (!target) {
    sendGatewayError(ctx.res, 503, ALL_HOSTS_DOWN);
    return DONE;
  }
  ctx.target = target;
  ctx.upstreamTargets = targets;
  return undefined;
}

import type { LoggerInstance } from 'moleculer';
import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { OrgSessionRecord } from '../../../../contracts/keys/org-sessions';
import {
  orgQuotaCounter,
  orgRateCounter,
  type LimiterCheckParams,
  type LimiterCheckResult,
} from '../../../../contracts/limiter/actions';
import type { HotCall } from '../../../../lib/bus/hot-call';
import type { EmitRequestEvent } from '../request-events';
import type { DONE, Step } from '../compose';
import { GatewayMessages } from '../gateway-errors';
import { checkLimits, reportRefusal } from './limiter-check';
import { refuse } from '../refuse';
import type { RequestContext } from '../request-context';

/** The organisation sessions this gateway node holds (services/proxy/lib/org-session-table.ts). */
export interface OrgSessionLookup {
  /** the organisation's session, the same object until it changes; undefined when it has none */
  get(orgId: string): OrgSessionRecord | undefined;
}

export interface OrgLimitsStepDeps {
  /** `limiter.check`, in process when this node runs the limiter */
  check: HotCall;
  orgSessions: OrgSessionLookup;
  logger: LoggerInstance;
  emitEvent: EmitRequestEvent;
}

/**
 * The organisation monitor (GW_ENFORCE_ORG_QUOTAS): before authentication, a request to an API
 * of an organisation with a session is refused when the organisation is inactive, over its rate
 * limit or past its quota, whatever key it carries. The limiter counts in the organisation's
 * own counters, so every key of the organisation and every gateway node share them. An
 * organisation without a session costs one map lookup.
 */
export function orgLimitsStep(definition: ApiDefinition, deps: OrgLimitsStepDeps): Step {
  const orgId = definition.org_id;
  /** what the limiter is asked, per session object (a changed session is a new object) */
  const checks = new WeakMap<OrgSessionRecord, LimiterCheckParams | null>();
  return (ctx) => {
    // A loop into another API of this node was counted when the client's request came in.
    if (ctx.loopLevel > 0) return;
    const record = deps.orgSessions.get(orgId);
    if (!record) return;
    if (record.session.is_inactive === true) {
      deps.logger.debug(`organisation ${orgId}: access is disabled`);
      return refuse(ctx, 403, GatewayMessages.orgInactive);
    }
    let params = checks.get(record);
    if (params === undefined) checks.set(record, (params = checkOf(definition, record)));
    if (!params) return;
    const result = checkLimits(deps.check, params);
    return result instanceof Promise ? result.then((settled) => answer(ctx, deps, settled)) : answer(ctx, deps, result);
  };
}

/** The rate limit applies when rate and per are both above 0, the quota when quota_max is (as the reference's). */
function checkOf(definition: ApiDefinition, record: OrgSessionRecord): LimiterCheckParams | null {
  const { rate, per, quota_max: max, quota_renewal_rate: renewal } = record.session;
  const limited = typeof rate === 'number' && rate > 0 && typeof per === 'number' && per > 0;
  const quota = typeof max === 'number' && max > 0;
  if (!limited && !quota) return null;
  return {
    api_id: definition.api_id,
    org_id: record.org_id,
    scope: 'org',
    events: 'returned',
    key_limit: limited ? { counter: orgRateCounter(record.org_id, record.quota_epoch), rate, per } : undefined,
    quota: quota
      ? {
          counter: orgQuotaCounter(record.org_id, record.quota_epoch),
          max,
          renewal_rate: typeof renewal === 'number' ? renewal : -1,
        }
      : undefined,
  };
}

function answer(ctx: RequestContext, deps: OrgLimitsStepDeps, result: LimiterCheckResult): typeof DONE | void {
  if (result.ok) return;
  // an organisation's event is about the organisation, as the reference gateway's
  reportRefusal(ctx, deps, result, ctx.api.definition.org_id);
  switch (result.reason) {
    case 'key_rate':
    case 'api_rate':
      deps.logger.debug(`organisation ${ctx.api.definition.org_id}: rate limit exceeded`);
      return refuse(ctx, 403, GatewayMessages.orgRateLimited);
    case 'quota':
      deps.logger.debug(`organisation ${ctx.api.definition.org_id}: quota exceeded`);
      return refuse(ctx, 403, GatewayMessages.orgQuotaExceeded);
    default:
      deps.logger.error(`rate limiter store not reachable: ${result.message}`);
      return refuse(ctx, 503, GatewayMessages.limiterUnavailable);
  }
}

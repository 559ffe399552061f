import type { AccessDefinition } from '../../../../contracts/keys/session';
import type { McpCallOutcome } from '../../../../lib/observability/gateway-metrics';
import type { HotCall } from '../../../../lib/bus/hot-call';
import type { RequestContext } from '../request-context';
import type { ApiPrimitiveRules } from './access-rules';
import { keyAllows } from './access-rules';
import {
  JsonRpcCodes,
  errorResponse,
  isRequestMessage,
  isResponseMessage,
  type JsonRpcId,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './jsonrpc';
import type { MayUse } from './list-filter';
import { checkPrimitiveLimits } from './primitive-limits';
import { emitLimiterEvent, type EmitRequestEvent } from '../request-events';
import { classify, primitiveLabel, type PrimitiveUse } from './primitive';

export interface PolicyDeps {
  check: HotCall;
  emitEvent: EmitRequestEvent;
  /** counts a primitive call by outcome (gw_mcp_calls_total) */
  countCall?(apiId: string, primitive: string, outcome: CallOutcome): void;
}

export type CallOutcome = McpCallOutcome;

/** The messages that go on, the answers the gateway gives itself, and the primitives used. */
export interface Decisions {
  forwarded: unknown[];
  refusals: JsonRpcResponse[];
  primitives: string[];
}

/** The caller's rights on this API: the API's rules and the key's access definition. */
export function accessOf(ctx: RequestContext): AccessDefinition | undefined {
  const rights = (ctx.session as { access_rights?: Record<string, AccessDefinition> } | undefined)?.access_rights;
  return rights?.[ctx.api.definition.api_id];
}

export function mayUseOf(rules: ApiPrimitiveRules, access: AccessDefinition | undefined): MayUse {
  return (kind, name) => rules(kind, name).allowed && keyAllows(access?.mcp_access_rights, kind, name);
}

/**
 * Decides each message of a body in order: requests for a primitive the API or the key does not
 * allow, or over a limit for it, are answered with a JSON-RPC error carrying their id (a
 * notification is dropped); the rest go on.
 */
export async function decideMessages(
  messages: unknown[],
  ctx: RequestContext,
  rules: ApiPrimitiveRules,
  deps: PolicyDeps,
): Promise<Decisions> {
  const decisions: Decisions = { forwarded: [], refusals: [], primitives: [] };
  const access = accessOf(ctx);
  for (const message of messages) {
    if (isResponseMessage(message)) {
      decisions.forwarded.push(message);
      continue;
    }
    if (!isRequestMessage(message)) {
      const id = (message as { id?: unknown } | null)?.id;
      const validId = typeof id === 'string' || typeof id === 'number' ? id : null;
      decisions.refusals.push(errorResponse(validId, JsonRpcCodes.invalidRequest, 'Invalid Request'));
      continue;
    }
    const refusal = await decideOne(message, ctx, rules, access, deps, decisions);
    if (!refusal) decisions.forwarded.push(message);
    else if (message.id !== undefined) decisions.refusals.push(refusal);
  }
  return decisions;
}

async function decideOne(
  message: JsonRpcRequest,
  ctx: RequestContext,
  rules: ApiPrimitiveRules,
  access: AccessDefinition | undefined,
  deps: PolicyDeps,
  decisions: Decisions,
): Promise<JsonRpcResponse | undefined> {
  const use = classify(message);
  if (use === undefined) return undefined;
  const id = message.id ?? null;
  if (use === 'invalid')
    return errorResponse(id, JsonRpcCodes.invalidParams, `${message.method} needs a ${paramOf(message.method)}`);
  const label = primitiveLabel(use);
  decisions.primitives.push(label);
  const apiId = ctx.api.definition.api_id;
  const apiRule = rules(use.kind, use.name);
  if (!apiRule.allowed || !keyAllows(access?.mcp_access_rights, use.kind, use.name)) {
    deps.countCall?.(apiId, label, 'denied');
    deps.emitEvent('MCPPrimitiveDenied', ctx, `${use.kind} '${use.name}' is not available`);
    return errorResponse(id, JsonRpcCodes.accessDenied, `${use.kind} '${use.name}' is not available`);
  }
  const outcome = await checkPrimitiveLimits(deps.check, scopeOf(ctx, access), use, apiRule.rule, (event) =>
    emitLimiterEvent(deps.emitEvent, ctx, event),
  );
  return refusalFor(outcome, id, use, label, ctx, deps);
}

function refusalFor(
  outcome: Awaited<ReturnType<typeof checkPrimitiveLimits>>,
  id: JsonRpcId,
  use: PrimitiveUse,
  label: string,
  ctx: RequestContext,
  deps: PolicyDeps,
): JsonRpcResponse | undefined {
  const apiId = ctx.api.definition.api_id;
  switch (outcome) {
    case 'ok':
      deps.countCall?.(apiId, label, 'allowed');
      return undefined;
    case 'api_rate':
    case 'key_rate':
      deps.countCall?.(apiId, label, 'rate_limited');
      // a key over its limit was announced with the limiter's event above; the API's own limit is announced here
      if (outcome === 'api_rate') deps.emitEvent('RatelimitExceeded', ctx, `API Rate Limit Exceeded for ${label}`);
      return errorResponse(id, JsonRpcCodes.rateLimited, `Rate limit exceeded for ${use.kind} '${use.name}'`);
    case 'quota':
      deps.countCall?.(apiId, label, 'quota_exceeded');
      return errorResponse(id, JsonRpcCodes.quotaExceeded, `Quota exceeded for ${use.kind} '${use.name}'`);
    default:
      deps.countCall?.(apiId, label, 'error');
      return errorResponse(
        id,
        JsonRpcCodes.internalError,
        'The rate limiter store is not reachable, please try again later',
      );
  }
}

function scopeOf(ctx: RequestContext, access: AccessDefinition | undefined) {
  const definition = ctx.api.definition;
  return {
    apiId: definition.api_id,
    orgId: definition.org_id,
    keyHash: ctx.keyHash,
    keyLimits: access?.mcp_primitives,
  };
}

function paramOf(method: string): string {
  return method.startsWith('resources/') ? 'uri' : 'name';
}

import type { Step } from '../compose';
import { DONE } from '../compose';
import type { CompiledApi } from '../compiled-api';
import { GatewayMessages } from '../gateway-errors';
import { refuse } from '../refuse';
import type { RequestContext } from '../request-context';
import { SELF_VERSION, type VersionRouting } from '../version-routing';

/** The served API with this api_id in this organisation, at the time of the request. */
export type ServedApiLookup = (apiId: string, orgId: string) => CompiledApi | undefined;

/**
 * A versioned base API (the reference gateway's OAS versioning): picks the version the request
 * names (or the default), and when another API serves it, runs that API's own chain for the
 * request, below the base API's listen path; the base API's version continues with its chain.
 * Children are looked up in the base API's organisation only.
 */
export function versionRoutingStep(
  routing: VersionRouting | undefined,
  orgId: string | undefined,
  servedApi: ServedApiLookup | undefined,
): Step | undefined {
  if (!routing || !servedApi) return undefined;
  return (ctx) => {
    if (ctx.handedToVersion) return undefined;
    const requested = requestedVersion(ctx, routing);
    let name = requested?.name ?? routing.defaultVersion;
    if (!isSelf(name, routing) && !routing.children.has(name)) {
      if (!routing.fallbackToDefault) return refuse(ctx, 404, GatewayMessages.versionUnknown);
      name = routing.defaultVersion;
    }
    if (requested?.segmentLength && name === requested.name) ctx.versionSegmentLength = requested.segmentLength;
    if (routing.stripVersioningData) stripVersioningData(ctx, routing);
    if (isSelf(name, routing)) return undefined;
    const child = servedApi(routing.children.get(name)!, orgId ?? '');
    if (!child) return refuse(ctx, 404, GatewayMessages.versionUnknown);
    ctx.api = child;
    ctx.handedToVersion = true;
    const pending = child.handle(ctx);
    return pending ? pending.then(() => DONE) : DONE;
  };
}

function isSelf(name: string, routing: VersionRouting): boolean {
  return name === routing.selfName || name === SELF_VERSION;
}

function requestedVersion(
  ctx: RequestContext,
  routing: VersionRouting,
): { name: string; segmentLength?: number } | undefined {
  if (routing.location === 'header') {
    const value = ctx.req.headers[routing.key.toLowerCase()];
    return typeof value === 'string' && value !== '' ? { name: value } : undefined;
  }
  if (routing.location === 'url-param') {
    const value = new URLSearchParams(ctx.search).get(routing.key);
    return value === null || value === '' ? undefined : { name: value };
  }
  // url: the first segment below the listen path
  const rest = ctx.path.slice(ctx.prefixLength);
  const end = rest.indexOf('/', 1);
  const segment = (end === -1 ? rest : rest.slice(0, end)).slice(1);
  if (segment === '' || (routing.urlPattern && !routing.urlPattern.test(segment))) return undefined;
  return { name: segment, segmentLength: segment.length + 1 };
}

/** `stripVersioningData`: the upstream does not see the version header, query parameter or URL segment. */
function stripVersioningData(ctx: RequestContext, routing: VersionRouting): void {
  if (routing.location === 'header') {
    delete ctx.req.headers[routing.key.toLowerCase()];
  } else if (routing.location === 'url-param') {
    const params = new URLSearchParams(ctx.search);
    params.delete(routing.key);
    const rest = params.toString();
    ctx.search = rest === '' ? '' : `?${rest}`;
  } else {
    ctx.stripVersionSegment = true;
  }
}

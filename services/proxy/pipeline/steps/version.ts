import type { Step } from '../compose';
import type { CompiledVersion } from '../compiled-api';
import { GatewayMessages } from '../gateway-errors';
import { refuse } from '../refuse';
import type { RequestContext } from '../request-context';
import type { VersionLocation, VersionSettings } from '../versions';

/**
 * Picks the request's version (docs/gateway.md#versions), refuses expired ones, and applies the
 * version's allow and block lists, which the reference gateway checks here, before
 * authentication. An `ignored` endpoint is recorded for the steps after it.
 */
export function versionStep(
  settings: VersionSettings,
  versions: Map<string, CompiledVersion>,
  emitEvent: (event: 'VersionExpired', ctx: RequestContext, message: string) => void,
): Step {
  const fixed = settings.notVersioned
    ? (versions.get(settings.defaultVersion ?? '') ?? versions.values().next().value)
    : undefined;
  return (ctx) => {
    let version = fixed;
    if (!version) {
      const requested = requestedVersion(ctx, settings.location, versions);
      const name = requested ?? settings.defaultVersion;
      if (name === undefined) return refuse(ctx, 403, GatewayMessages.versionMissing);
      version = versions.get(name);
      if (!version) return refuse(ctx, 404, GatewayMessages.versionUnknown);
    }
    if (version.expiresAt !== undefined && Date.now() >= version.expiresAt) {
      emitEvent('VersionExpired', ctx, `Version ${version.name} of the API has expired`);
      return refuse(ctx, 403, GatewayMessages.versionExpired);
    }
    ctx.version = version;
    if (version.rules.empty) return;
    const decision = version.rules.decide(ctx.req.method ?? 'GET', ctx.relativePath);
    if (decision.kind === 'blocked' || decision.kind === 'not-allowed')
      return refuse(ctx, 403, GatewayMessages.endpointForbidden);
    ctx.endpoint = decision;
  };
}

function requestedVersion(
  ctx: RequestContext,
  location: VersionLocation,
  versions: Map<string, CompiledVersion>,
): string | undefined {
  if (location.location === 'header') {
    const value = ctx.req.headers[location.key.toLowerCase()];
    return typeof value === 'string' && value !== '' ? value : undefined;
  }
  if (location.location === 'url-param') {
    const value = new URLSearchParams(ctx.search).get(location.key);
    return value === null || value === '' ? undefined : value;
  }
  // url: the first segment below the listen path
  const rest = ctx.path.slice(ctx.prefixLength);
  const end = rest.indexOf('/', 1);
  const segment = (end === -1 ? rest : rest.slice(0, end)).slice(1);
  if (segment === '') return undefined;
  if (versions.has(segment)) ctx.versionSegmentLength = segment.length + 1;
  return segment;
}

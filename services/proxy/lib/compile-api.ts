import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { GatewayMessages, sendGatewayError } from './gateway-errors';
import { parseTarget, upstreamPath } from './target';
import { forward, type UpstreamPools } from './upstream';

/** One request on its way through an API. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  search: string;
  /** characters of `path` covered by the listen path */
  prefixLength: number;
}

/** An API definition turned, once, into the function that serves its requests. */
export interface CompiledApi {
  definition: ApiDefinition;
  handle(exchange: Exchange): void;
}

export interface CompileDeps {
  pools: UpstreamPools;
  onUpstreamError(api: ApiDefinition, err: Error): void;
}

export function compileApi(definition: ApiDefinition, deps: CompileDeps): CompiledApi {
  const target = parseTarget(definition.proxy.target_url);
  const pool = deps.pools.get(target.origin);
  const strip = definition.proxy.strip_listen_path === true;
  const refuse = definition.use_keyless ? undefined : refuseUntilKeysExist(definition);
  const onError = (err: Error) => deps.onUpstreamError(definition, err);
  return {
    definition,
    handle(exchange) {
      if (refuse?.(exchange)) return;
      const path = upstreamPath(target, exchange.path, exchange.search, strip ? exchange.prefixLength : 0);
      forward(exchange.req, exchange.res, { pool, path }, { onError });
    },
  };
}

/**
 * Protected APIs: until access keys exist (the keys and auth services), no credential can be
 * valid, so the gateway answers as the reference does for a missing (401) or unknown (403) one.
 * Secure by default: a protected API is never proxied open.
 */
function refuseUntilKeysExist(definition: ApiDefinition): (exchange: Exchange) => boolean {
  const auth = definition.auth as { auth_header_name?: string } | undefined;
  const headerName = (auth?.auth_header_name || 'Authorization').toLowerCase();
  return ({ req, res }) => {
    if (req.headers[headerName] === undefined) sendGatewayError(res, 401, GatewayMessages.authFieldMissing);
    else sendGatewayError(res, 403, GatewayMessages.accessDisallowed);
    return true;
  };
}

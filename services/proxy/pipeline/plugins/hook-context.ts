import type { LoggerInstance } from 'moleculer';
import type { GwPlugin } from '../../../../plugins/sdk/define-plugin';
import type { HookName } from '../../../../plugins/sdk/hooks';
import type {
  AuthCheckContext,
  HeaderValue,
  HookContext,
  PluginReply,
  PluginRequest,
} from '../../../../plugins/sdk/types';
import type { RequestContext } from '../request-context';

/** Thrown when a plugin hook throws: the client gets a 500, the log gets the plugin and cause. */
export class PluginFailure extends Error {
  constructor(
    readonly plugin: string,
    readonly hook: HookName,
    override readonly cause: unknown,
  ) {
    super(`plugin ${plugin} failed in hook ${hook}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'PluginFailure';
  }
}

export function apiInfo(ctx: RequestContext): HookContext['api'] {
  const { definition } = ctx.api;
  const config = (definition.config_data ?? {}) as Record<string, unknown>;
  return {
    api_id: definition.api_id,
    name: definition.name,
    org_id: definition.org_id,
    listen_path: definition.proxy.listen_path,
    config,
  };
}

export function pluginLogger(logger: LoggerInstance, plugin: GwPlugin): HookContext['log'] {
  return {
    info: (message, ...details) => logger.info(`[plugin ${plugin.name}] ${message}`, ...details),
    warn: (message, ...details) => logger.warn(`[plugin ${plugin.name}] ${message}`, ...details),
    error: (message, ...details) => logger.error(`[plugin ${plugin.name}] ${message}`, ...details),
  };
}

/** The hook payload of `pre`, `auth_check`, `post_key_auth` and `post`. */
export function requestHookContext(
  ctx: RequestContext,
  hook: HookName,
  plugin: GwPlugin,
  logger: LoggerInstance,
): AuthCheckContext {
  return {
    hook,
    api: apiInfo(ctx),
    request: pluginRequest(ctx),
    session: ctx.session,
    state: ctx.state,
    log: pluginLogger(logger, plugin),
    respond: (reply) => answer(ctx, reply),
    allow(session) {
      ctx.session = session ?? ctx.session ?? {};
      ctx.sessionFromPlugin = true;
      ctx.authorised = true;
    },
  };
}

function pluginRequest(ctx: RequestContext): PluginRequest {
  return {
    method: ctx.req.method ?? 'GET',
    path: ctx.path,
    query: new URLSearchParams(ctx.search),
    remoteAddress: ctx.clientIp,
    header: (name) => headerText(ctx.upstreamHeaders()[name.toLowerCase()]),
    headers: () => ({ ...ctx.upstreamHeaders() }),
    setHeader: (name, value) => {
      ctx.upstreamHeaders()[name.toLowerCase()] = value;
    },
    removeHeader: (name) => {
      delete ctx.upstreamHeaders()[name.toLowerCase()];
    },
    setUrl: (pathAndQuery) => {
      if (!pathAndQuery.startsWith('/'))
        throw new Error(`setUrl needs a path starting with '/', got '${pathAndQuery}'`);
      ctx.rewrittenUrl = pathAndQuery;
    },
    readBody: () => ctx.readBody(),
    setBody: (body) => {
      ctx.replacedBody = typeof body === 'string' ? Buffer.from(body) : body;
    },
  };
}

export function headerText(value: HeaderValue | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Sends a plugin's early answer; objects become JSON. */
export function answer(ctx: RequestContext, reply: PluginReply): void {
  if (ctx.answered) throw new Error('respond() was already called for this request');
  const isJson = typeof reply.body === 'object' && reply.body !== null && !Buffer.isBuffer(reply.body);
  const body = reply.body === undefined ? '' : isJson ? JSON.stringify(reply.body) : (reply.body as string | Buffer);
  const headers: Record<string, string | number> = {
    ...(reply.headers ?? {}),
    'content-length': Buffer.byteLength(body),
  };
  if (isJson && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
  ctx.answered = true;
  ctx.res.writeHead(reply.status, headers);
  ctx.res.end(body);
}

import type { RequestContext } from '../pipeline/request-context';
import { answeredStatus } from '../pipeline/grpc/grpc-status';
import { ACCESS_LOG_FIELDS } from '../../../lib/config/options';

export type AccessLogField = (typeof ACCESS_LOG_FIELDS)[number];

/**
 * One line per request an API answered, in logfmt (`prefix=access-log api_id=… status=200 …`),
 * as the reference gateway's access log writes them. The key is its hash, never the key; the
 * query string is left out (keys may travel in it). `trace_id` is there when the request was traced.
 */
export function accessLogLine(ctx: RequestContext, template: ReadonlySet<AccessLogField> | undefined): string {
  const { req } = ctx;
  const { definition } = ctx.api;
  const target = ctx.target ?? ctx.version?.target;
  const values: Record<AccessLogField, string | number | undefined> = {
    api_id: definition.api_id,
    api_key: ctx.keyHash,
    api_name: definition.name,
    client_ip: ctx.clientIp,
    host: req.headers.host,
    latency_total: Math.round(performance.now() - ctx.startedAt),
    method: req.method,
    org_id: definition.org_id || undefined,
    path: ctx.path,
    protocol: `HTTP/${req.httpVersion}`,
    remote_addr: req.socket?.remoteAddress,
    status: answeredStatus(ctx.res),
    trace_id: ctx.trace?.traceId,
    upstream_addr: ctx.upstreamMs === undefined || !target ? undefined : target.origin,
    upstream_latency: ctx.upstreamMs === undefined ? undefined : Math.round(ctx.upstreamMs),
    user_agent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined,
  };
  let line = 'prefix=access-log';
  for (const field of ACCESS_LOG_FIELDS) {
    const value = values[field];
    if (value === undefined || value === '' || (template && !template.has(field))) continue;
    line += ` ${field}=${logfmtValue(value)}`;
  }
  return line;
}

/** A value quoted when it holds a space, a quote, an `=` or a control character. */
function logfmtValue(value: string | number): string {
  if (typeof value === 'number') return String(value);
  return /^[^\s"=\\\u0000-\u001f]+$/.test(value) ? value : JSON.stringify(value);
}

import { request } from 'undici';
import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import type { Step } from '../compose';
import { answerJson } from '../refuse';
import { decodeBatchRequest, type BatchItem } from './batch-request';

interface BatchReply {
  relative_url: string;
  code: number;
  /** as Go's `http.Header` encodes: canonical names, each with its list of values */
  headers: Record<string, string[]>;
  body: string;
}

const BATCH_PATHS = new Set(['/gw/batch', '/gw/batch/']);

/**
 * `enable_batch_request_support`: `POST {listen_path}/gw/batch/` with
 * `{requests: [{method, headers, body, relative_url}], suppress_parallel_execution}` runs each
 * request through this API (its whole chain, credentials included) and answers the list of
 * `{relative_url, code, headers, body}` (headers as `{Name: [values]}`), as the reference gateway does.
 */
export function batchStep(definition: ApiDefinition, selfOrigin: () => string): Step | undefined {
  if (definition.enable_batch_request_support !== true) return undefined;
  const base = definition.proxy.listen_path.endsWith('/')
    ? definition.proxy.listen_path
    : `${definition.proxy.listen_path}/`;
  return async (ctx) => {
    if (ctx.req.method !== 'POST' || !BATCH_PATHS.has(ctx.path.slice(ctx.prefixLength))) return;
    const batch = decodeBatchRequest(await ctx.readBody());
    // gateway/batch_requests.go answers an undecodable body with its API error shape
    if (!batch) return answerJson(ctx, 400, { status: 'error', message: 'Batch request malformed' });
    const run = (item: BatchItem) => runOne(selfOrigin(), base, item, ctx.req.headers.host);
    const replies: BatchReply[] = [];
    if (batch.suppress_parallel_execution) for (const item of batch.requests) replies.push(await run(item));
    else replies.push(...(await Promise.all(batch.requests.map(run))));
    return answerJson(ctx, 200, replies);
  };
}

async function runOne(origin: string, base: string, item: BatchItem, host: string | undefined): Promise<BatchReply> {
  const relativeUrl = item.relative_url;
  const path = base + relativeUrl.replace(/^\/+/, '');
  const response = await request(origin + path, {
    method: (item.method || 'GET').toUpperCase() as 'GET',
    headers: { ...(host ? { host } : {}), ...item.headers },
    body: item.body === '' ? undefined : item.body,
  });
  const headers: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    const canonical = canonicalHeaderName(name);
    headers[canonical] = [...(headers[canonical] ?? []), ...(Array.isArray(value) ? value : [value])];
  }
  return { relative_url: relativeUrl, code: response.statusCode, headers, body: await response.body.text() };
}

/** `content-type` -> `Content-Type`, the form Go's textproto gives header names. */
function canonicalHeaderName(name: string): string {
  return name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
    .join('-');
}

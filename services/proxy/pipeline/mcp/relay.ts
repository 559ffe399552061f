import { performance } from 'node:perf_hooks';
import { sendGatewayError, sendJson, GatewayMessages } from '../gateway-errors';
import { MAX_BUFFERED_BODY, type RequestContext } from '../request-context';
import { JsonRpcCodes, errorResponse, type JsonRpcId, type JsonRpcResponse } from './jsonrpc';
import { filterAnswerBody, type MayUse } from './list-filter';
import { SseEventSplitter, formatSseEvent, parseSseEvent } from './sse-events';
import { endpointForClient, headersForClient } from './upstream-exchange';
import { fetchFromMcpServer } from './mcp-fetch';
import type { Response } from 'undici';

/** One exchange with the remote MCP server, and what the gateway does with its answer. */
export interface RelayPlan {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** the request ids still waiting for an answer: each gets a -32004 error when the upstream fails */
  pending: Set<JsonRpcId>;
  /** the ids of the tool calls among them: their upstream time is bounded */
  toolCalls: Set<JsonRpcId>;
  /** list requests by id, whose answers are filtered (shared with a legacy stream's POSTs) */
  lists: Map<JsonRpcId, string>;
  mayUse: MayUse;
  /** the gateway's own answers (refused messages of the body), sent with the upstream's */
  refusals: JsonRpcResponse[];
  batch: boolean;
  target: URL;
  /** the listen path as the client used it, for the older transport's `endpoint` event */
  listenPrefix: string;
  /** set once the answer to the client is an event stream (errors can still be sent on it) */
  streaming?: boolean;
  /** told the client-facing endpoint of an older-transport stream, while that stream is open */
  onEndpoint?(endpoint: string): void;
  /** told the upstream's answer as it arrives, before its body (the session it opened) */
  onResponse?(response: Response): void;
}

export interface RelayOptions {
  toolCallTimeoutMs: number;
}

/**
 * Sends the plan's request to the remote MCP server and streams its answer to the client:
 * JSON answers are read whole (list answers filtered, refusals merged in), event streams pass
 * event by event as they arrive, anything else passes as bytes. A client that goes away aborts
 * the upstream request; an upstream that fails, or whose tool calls outlast the bound, leaves
 * every request still waiting with a -32004 error (on the stream when it had begun).
 */
export async function relay(ctx: RequestContext, plan: RelayPlan, options: RelayOptions): Promise<void> {
  const controller = new AbortController();
  const onClose = () => {
    if (!ctx.res.writableFinished) controller.abort();
  };
  ctx.res.once('close', onClose);
  let timedOut = false;
  const timer =
    plan.toolCalls.size > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, options.toolCallTimeoutMs)
      : undefined;
  const answered = (id: JsonRpcId) => {
    plan.lists.delete(id);
    plan.pending.delete(id);
    plan.toolCalls.delete(id);
    if (plan.toolCalls.size === 0) clearTimeout(timer);
  };
  try {
    ctx.upstreamSentAt = performance.now();
    const response = await fetchFromMcpServer(plan.url, {
      method: plan.method,
      headers: plan.headers,
      body: plan.body,
      signal: controller.signal,
      redirect: 'manual',
    });
    ctx.upstreamMs = performance.now() - ctx.upstreamSentAt;
    ctx.upstreamOutcome?.(response.status);
    plan.onResponse?.(response);
    if (response.status >= 500 && plan.pending.size > 0) {
      await response.body?.cancel();
      return failPending(ctx, plan, `The MCP server answered ${response.status}`, false);
    }
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream')) await relayEvents(ctx, plan, response, answered);
    else if (type.includes('application/json') && plan.method === 'POST')
      await relayJson(ctx, plan, response, answered);
    else await relayBytes(ctx, plan, response);
  } catch {
    if (ctx.res.destroyed || (controller.signal.aborted && !timedOut)) return;
    failPending(ctx, plan, timedOut ? 'The tool call timed out upstream' : 'The MCP server failed to answer', timedOut);
  } finally {
    clearTimeout(timer);
    ctx.res.off('close', onClose);
  }
}

async function relayJson(
  ctx: RequestContext,
  plan: RelayPlan,
  response: Response,
  answered: (id: JsonRpcId) => void,
): Promise<void> {
  const text = await boundedText(response, MAX_BUFFERED_BODY);
  if (text === undefined) return failPending(ctx, plan, 'The MCP server answered with too large a body', false);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return sendRaw(ctx, response, text);
  }
  filterAnswerBody(body, plan.lists, plan.mayUse);
  for (const id of answerIds(body)) answered(id);
  if (plan.refusals.length > 0) body = [...(Array.isArray(body) ? body : [body]), ...plan.refusals];
  sendJson(ctx.res, response.status, body, plainHeaders(headersForClient(response, ctx)));
}

async function relayEvents(
  ctx: RequestContext,
  plan: RelayPlan,
  response: Response,
  answered: (id: JsonRpcId) => void,
): Promise<void> {
  ctx.res.writeHead(response.status, headersForClient(response, ctx));
  ctx.res.flushHeaders();
  plan.streaming = true;
  for (const refusal of plan.refusals.splice(0)) await write(ctx, eventOf(refusal));
  if (!response.body) return void ctx.res.end();
  const splitter = new SseEventSplitter();
  for await (const chunk of response.body) {
    for (const text of splitter.push(chunk)) {
      const out = passEvent(text, plan, answered);
      if (out !== undefined) await write(ctx, out);
    }
  }
  const rest = splitter.rest();
  if (rest !== '') await write(ctx, rest);
  // a stream that ends with requests unanswered has failed them: the client is not left waiting
  if (plan.pending.size > 0) return failPending(ctx, plan, 'The MCP server ended the stream without answering', false);
  ctx.res.end();
}

/** One event as the client gets it: list answers filtered, the older transport's endpoint rewritten. */
function passEvent(text: string, plan: RelayPlan, answered: (id: JsonRpcId) => void): string | undefined {
  const event = parseSseEvent(text);
  if (event.event === 'endpoint') {
    const endpoint = endpointForClient(event.data, plan.target, plan.listenPrefix);
    if (endpoint === undefined) return undefined;
    plan.onEndpoint?.(endpoint);
    return formatSseEvent({ ...event, data: endpoint });
  }
  if (event.event !== 'message' || !/^\s*[[{]/.test(event.data)) return text;
  let body: unknown;
  try {
    body = JSON.parse(event.data);
  } catch {
    return text;
  }
  const filtered = filterAnswerBody(body, plan.lists, plan.mayUse);
  for (const id of answerIds(body)) answered(id);
  return filtered ? formatSseEvent({ ...event, data: JSON.stringify(body) }) : text;
}

/** The ids of the responses in an answer body (a message or a batch); requests and notifications have none here. */
function answerIds(body: unknown): JsonRpcId[] {
  const ids: JsonRpcId[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    const { id, result, error } = (message ?? {}) as { id?: JsonRpcId; result?: unknown; error?: unknown };
    if (id !== undefined && (result !== undefined || error !== undefined)) ids.push(id);
  }
  return ids;
}

async function relayBytes(ctx: RequestContext, plan: RelayPlan, response: Response): Promise<void> {
  if (plan.refusals.length > 0 && (response.status === 202 || !response.body)) {
    await response.body?.cancel();
    return answerOwn(ctx, plan, plan.refusals);
  }
  ctx.res.writeHead(response.status, headersForClient(response, ctx));
  if (response.body) for await (const chunk of response.body) await write(ctx, chunk);
  ctx.res.end();
}

/**
 * A JSON answer is held to be filtered: read up to `max` bytes, undefined past that (the rest
 * is not read; the upstream request is cancelled).
 */
async function boundedText(response: Response, max: number): Promise<string | undefined> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > max) {
      await response.body.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The upstream failed: every request still waiting gets an error, on the stream when it had begun. */
function failPending(ctx: RequestContext, plan: RelayPlan, message: string, timedOut: boolean): void {
  const errors = [...plan.pending].map((id) => errorResponse(id, JsonRpcCodes.upstreamError, message));
  plan.pending.clear();
  const all = [...plan.refusals.splice(0), ...errors];
  if (!ctx.res.headersSent) {
    if (all.length === 0) {
      sendGatewayError(
        ctx.res,
        timedOut ? 504 : 502,
        timedOut ? GatewayMessages.upstreamTimeout : GatewayMessages.upstreamFailed,
      );
      return;
    }
    return answerOwn(ctx, plan, all);
  }
  if (ctx.res.writableEnded) return;
  if (!plan.streaming) return void ctx.res.destroy();
  for (const error of all) ctx.res.write(eventOf(error));
  ctx.res.end();
}

/** Answers only with the gateway's own JSON-RPC messages, on 200 (as one message unless the body was a batch). */
export function answerOwn(ctx: RequestContext, plan: { batch: boolean }, answers: JsonRpcResponse[]): void {
  const body = !plan.batch && answers.length === 1 ? answers[0] : answers;
  sendJson(ctx.res, 200, body, plainHeaders(ctx.responseHeaders ?? {}));
}

/** Writes one of the gateway's own answers on a client's open event stream. */
export function sendEvent(ctx: RequestContext, message: JsonRpcResponse): void {
  if (!ctx.res.writableEnded && !ctx.res.destroyed) ctx.res.write(eventOf(message));
}

function eventOf(message: JsonRpcResponse): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

function sendRaw(ctx: RequestContext, response: Response, text: string): void {
  ctx.res.writeHead(response.status, headersForClient(response, ctx));
  ctx.res.end(text);
}

/** Writes with backpressure; throws when the client went away meanwhile. */
async function write(ctx: RequestContext, data: string | Uint8Array): Promise<void> {
  const res = ctx.res;
  if (res.destroyed) throw new Error('client gone');
  if (res.write(data)) return;
  await new Promise<void>((resolve, reject) => {
    const drained = () => {
      res.off('close', gone);
      resolve();
    };
    const gone = () => {
      res.off('drain', drained);
      reject(new Error('client gone'));
    };
    res.once('drain', drained);
    res.once('close', gone);
  });
}

/** sendJson takes single-valued headers; content type and length are its own. */
function plainHeaders(headers: Record<string, string | string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (name !== 'content-type' && typeof value === 'string') out[name] = value;
  return out;
}

import type { ApiDefinition, McpDefinition } from '../../../../contracts/apis/api-definition';
import { DONE, type Step } from '../compose';
import { GatewayMessages, sendJson } from '../gateway-errors';
import type { RequestContext } from '../request-context';
import { compileApiRules, type ApiPrimitiveRules } from './access-rules';
import { JsonRpcCodes, errorResponse, parseBody, type JsonRpcId, type JsonRpcRequest } from './jsonrpc';
import { listRequests } from './list-filter';
import { readBoundedBody } from './message-body';
import { accessOf, decideMessages, mayUseOf, type PolicyDeps } from './message-policy';
import { legacyStreams, type LegacyStreams } from './legacy-streams';
import { answerOwn, relay, sendEvent } from './relay';
import type { RestTool } from '../../../../lib/mcp/rest-tools';
import type { InternalExchange, RestAsMcpResponder } from './rest-dispatch';
import { headersForUpstream, upstreamUrl } from './upstream-exchange';
import type { McpSessionTable, SessionReservation } from './session-table';

/** List requests awaiting their answer on one older-transport stream, past which new messages are refused. */
const MAX_PENDING_LISTS = 1000;
const TOO_MANY_LISTS = 'Too many list requests are waiting for their answers on this stream';

export interface McpStepDeps extends PolicyDeps {
  /** GW_MCP_MAX_MESSAGE_BYTES: the largest POST body (one message or a batch) */
  maxMessageBytes: number;
  /** GW_MCP_TOOL_CALL_TIMEOUT, in ms: how long a tool call may take upstream */
  toolCallTimeoutMs: number;
  /** answers a REST-as-MCP API's messages (`mcp.rest_source`) */
  restAsMcp: RestAsMcpResponder;
  /** runs a request through an API of this node: how a REST-as-MCP tool call runs the REST API's chain */
  exchange: InternalExchange;
  /** the sessions keys hold on remote MCP servers (GW_MCP_MAX_SESSIONS_PER_KEY, GW_MCP_SESSION_IDLE_TIMEOUT) */
  sessions?: McpSessionTable;
}

/**
 * The MCP side of an API with an `mcp` block, after its authentication and its own limits: POST
 * bodies are JSON-RPC, each message checked against the API's primitive rules and the key's
 * MCP rights and limits; what passes goes to the remote MCP server (or to the REST-as-MCP
 * responder), and the answers come back streamed, with list answers filtered. GET (a server
 * stream) and DELETE (the end of a session) go through as they are.
 */
export function mcpStep(definition: ApiDefinition, deps: McpStepDeps): Step | undefined {
  const settings = definition.mcp;
  if (!settings) return undefined;
  const rules = compileApiRules(settings);
  const target = settings.rest_source ? undefined : new URL(definition.proxy.target_url);
  // only a remote server's sessions are the gateway's to count
  const sessions = target ? deps.sessions : undefined;
  sessions?.compiled(definition.api_id, JSON.stringify(definition));
  return async (ctx): Promise<typeof DONE> => {
    const method = ctx.req.method ?? 'GET';
    const sessionId = sessionIdOf(ctx);
    if (sessions && sessionId !== undefined && sessions.use(definition.api_id, sessionId) === 'forgotten') {
      // as an MCP server answers a session it no longer knows: the client opens a new one
      sendJson(ctx.res, 404, errorResponse(null, JsonRpcCodes.invalidRequest, SESSION_FORGOTTEN));
      return DONE;
    }
    if (method === 'POST') await handlePost(ctx, settings, rules, target, legacyStreams, deps, sessions);
    else if (target && (method === 'GET' || method === 'DELETE')) {
      await relayStream(ctx, rules, target, legacyStreams, deps);
      // the session ended (or the server never knew it); a 405 says the server keeps it
      if (method === 'DELETE' && sessionId !== undefined && ctx.res.statusCode !== 405)
        sessions?.end(definition.api_id, sessionId);
    } else
      sendJson(ctx.res, 405, errorResponse(null, JsonRpcCodes.invalidRequest, 'Method not allowed'), { allow: 'POST' });
    return DONE;
  };
}

async function handlePost(
  ctx: RequestContext,
  settings: McpDefinition,
  rules: ApiPrimitiveRules,
  target: URL | undefined,
  legacy: LegacyStreams,
  deps: McpStepDeps,
  sessions: McpSessionTable | undefined,
): Promise<void> {
  const raw = await readBoundedBody(ctx.req, deps.maxMessageBytes);
  if (!raw) {
    const error = errorResponse(null, JsonRpcCodes.invalidRequest, GatewayMessages.requestTooLarge);
    return sendJson(ctx.res, 413, error);
  }
  const parsed = parseBody(raw);
  if (!parsed.ok) return sendJson(ctx.res, 400, parsed.error);
  const decisions = await decideMessages(parsed.messages, ctx, rules, deps);
  ctx.mcpPrimitive = decisions.primitives[0];
  const forwarded = decisions.forwarded as JsonRpcRequest[];
  // the older transport answers on the client's stream, never on the POST
  const stream = legacy.streamFor(streamKey(ctx, ctx.relativePath + ctx.search));
  if (stream) for (const refusal of decisions.refusals.splice(0)) stream.send(refusal);
  if (forwarded.length === 0) {
    if (decisions.refusals.length > 0) return answerOwn(ctx, parsed, decisions.refusals);
    ctx.res.writeHead(202, ctx.responseHeaders).end();
    return;
  }
  const mayUse = mayUseOf(rules, accessOf(ctx));
  if (!target) return answerFromRest(ctx, settings, forwarded, decisions.refusals, parsed.batch, deps);
  const withIds = forwarded.filter((message) => typeof message.method === 'string' && message.id !== undefined);
  const url = upstreamUrl(target, ctx.relativePath, ctx.search);
  let reservation: SessionReservation | undefined;
  const opening = sessions && sessionIdOf(ctx) === undefined && withIds.find((m) => m.method === 'initialize');
  if (opening) {
    reservation = sessions.reserve(ctx.api.definition.api_id, ctx.keyHash);
    if (!reservation) {
      const refusal = errorResponse(opening.id!, JsonRpcCodes.rateLimited, TOO_MANY_SESSIONS);
      return answerOwn(ctx, parsed, [...decisions.refusals, refusal]);
    }
  }
  const lists = stream?.lists ?? new Map<JsonRpcId, string>();
  const listed = listRequests(withIds);
  // An older-transport stream outlives its POSTs: a client piling up list requests must not grow
  // its table without end, nor may an entry be dropped (its answer would then pass unfiltered).
  if (stream && stream.lists.size + listed.size > MAX_PENDING_LISTS) {
    for (const message of withIds) stream.send(errorResponse(message.id!, JsonRpcCodes.rateLimited, TOO_MANY_LISTS));
    return void ctx.res.writeHead(202, ctx.responseHeaders).end();
  }
  for (const [id, listMethod] of listed) lists.set(id, listMethod);
  const body =
    forwarded.length === parsed.messages.length
      ? raw
      : Buffer.from(JSON.stringify(parsed.batch ? forwarded : forwarded[0]));
  try {
    await relay(
      ctx,
      {
        method: 'POST',
        url,
        headers: { ...headersForUpstream(ctx), 'content-type': 'application/json' },
        body,
        pending: new Set(withIds.map((message) => message.id!)),
        toolCalls: new Set(withIds.filter((message) => message.method === 'tools/call').map((message) => message.id!)),
        lists,
        mayUse,
        refusals: decisions.refusals,
        batch: parsed.batch,
        target,
        listenPrefix: listenPrefixOf(ctx),
        onResponse: (response) => {
          const opened = response.headers.get('mcp-session-id');
          if (opened && response.status < 300) reservation?.confirm(opened, url);
        },
      },
      deps,
    );
  } finally {
    // an initialize the upstream answered without a session (or that failed) holds no place
    reservation?.release();
  }
}

/** A server stream (GET) or the end of a session (DELETE); an older-transport stream registers its endpoint. */
async function relayStream(
  ctx: RequestContext,
  rules: ApiPrimitiveRules,
  target: URL,
  legacy: LegacyStreams,
  deps: McpStepDeps,
): Promise<void> {
  const lists = new Map<JsonRpcId, string>();
  let endpoint: string | undefined;
  try {
    await relay(
      ctx,
      {
        method: ctx.req.method ?? 'GET',
        url: upstreamUrl(target, ctx.relativePath, ctx.search),
        headers: headersForUpstream(ctx),
        pending: new Set(),
        toolCalls: new Set(),
        lists,
        mayUse: mayUseOf(rules, accessOf(ctx)),
        refusals: [],
        batch: false,
        target,
        listenPrefix: listenPrefixOf(ctx),
        onEndpoint: (path) => {
          endpoint = streamKey(ctx, path.slice(listenPrefixOf(ctx).replace(/\/$/, '').length));
          legacy.open(endpoint, { lists, send: (message) => sendEvent(ctx, message) });
        },
      },
      deps,
    );
  } finally {
    if (endpoint !== undefined) legacy.close(endpoint);
  }
}

async function answerFromRest(
  ctx: RequestContext,
  settings: McpDefinition,
  messages: JsonRpcRequest[],
  refusals: ReturnType<typeof errorResponse>[],
  batch: boolean,
  deps: McpStepDeps,
): Promise<void> {
  const request = {
    ctx,
    sourceApiId: settings.rest_source!,
    // data kept by the apis service when the MCP API was saved (services/apis/lib/mcp-rest-view.ts)
    tools: (settings.rest_tools ?? []) as RestTool[],
    exchange: deps.exchange,
  };
  const answers = [...refusals];
  for (const message of messages) {
    const answer = await deps.restAsMcp(message, request);
    if (answer) answers.push(answer);
  }
  if (answers.length === 0) return void ctx.res.writeHead(202, ctx.responseHeaders).end();
  answerOwn(ctx, { batch }, answers);
}

const SESSION_FORGOTTEN = 'Session not found: it was idle past GW_MCP_SESSION_IDLE_TIMEOUT; initialize a new one';
const TOO_MANY_SESSIONS =
  'Too many MCP sessions for this key on this API (GW_MCP_MAX_SESSIONS_PER_KEY): end one (DELETE) or wait for one to go idle';

/** The Streamable HTTP session a request belongs to, if any. */
function sessionIdOf(ctx: RequestContext): string | undefined {
  const value = ctx.req.headers['mcp-session-id'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** An older-transport stream's key: its API and its endpoint below the listen path. */
function streamKey(ctx: RequestContext, endpoint: string): string {
  return `${ctx.api.definition.api_id} ${endpoint}`;
}

/** The part of the path the listen path covered, as the client sent it. */
function listenPrefixOf(ctx: RequestContext): string {
  return ctx.path.slice(0, ctx.prefixLength);
}

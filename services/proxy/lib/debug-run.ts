import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import type { LoggerInstance } from 'moleculer';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { MemoryResponseCache } from '../pipeline/cache/response-cache';
import type { CompileDeps } from '../pipeline/compile-api';
import { DONE, type Step, type StepResult } from '../pipeline/compose';
import { exchangeInProcess } from '../pipeline/mcp/rest-as-mcp/in-process-exchange';
import type { RestAnswer } from '../pipeline/mcp/rest-as-mcp/rest-call';
import type { RequestContext } from '../pipeline/request-context';
import type { Gateway } from './gateway';

/** The request `POST /gw/debug` runs, as the reference's TraceHttpRequest. */
export interface DebugRequest {
  method: string;
  /** below the listen path, with an optional query */
  path: string;
  headers: Record<string, string[]>;
  body: string;
}

/** What a run gives: the request and answer as HTTP text, and the chain's log as JSON lines. */
export type DebugOutcome = { compiled: true; response: string; logs: string } | { compiled: false; logs: string };

export interface DebugLimits {
  /** the whole run, upstream included, in ms */
  timeoutMs: number;
  /** the most log lines and bytes kept; past them one line says the log was cut */
  maxLogLines: number;
  maxLogBytes: number;
  /** the response cache a cached API fills during the run (its own, dropped after) */
  cacheBytes: number;
}

export const DEBUG_LIMITS: DebugLimits = {
  timeoutMs: 30_000,
  maxLogLines: 1000,
  maxLogBytes: 256 * 1024,
  cacheBytes: 1024 * 1024,
};

/** A run that did not finish in time: the caller answers 500 "Unexpected failure". */
export class DebugTimeout extends Error {
  constructor(ms: number) {
    super(`the request did not finish within ${ms / 1000}s`);
    this.name = 'DebugTimeout';
  }
}

/**
 * Runs `request` through `definition`'s chain, compiled as the gateway compiles a served API
 * but registered nowhere, in process (an in-memory HTTP exchange; no port). Upstream calls go
 * through the gateway's own pools, so the outbound policy guards them as any tenant upstream.
 * What the chain would publish (events) and log goes to the trace instead; a cached API caches
 * into a store of the run's own; uptime checks are not started; stream APIs are refused.
 */
export async function runDebug(
  gateway: Pick<Gateway, 'compileDetached'>,
  definition: ApiDefinition,
  request: DebugRequest,
  limits: DebugLimits = DEBUG_LIMITS,
): Promise<DebugOutcome> {
  const trace = new TraceLog(definition, limits);
  const { uptime_tests: _uptime, ...runnable } = definition;
  // A stream API's streams run in the background, past any one request: a run would leave them behind.
  if (definition.streaming !== undefined) {
    trace.add(
      'error',
      'the definition can not be served: a stream API can not be debugged, its streams outlive the run',
    );
    return { compiled: false, logs: trace.text() };
  }
  let detached: ReturnType<Gateway['compileDetached']>;
  try {
    detached = gateway.compileDetached(runnable, detachedDeps(trace, limits));
  } catch (err) {
    trace.add('error', `the definition can not be served: ${(err as Error).message}`);
    return { compiled: false, logs: trace.text() };
  }
  const url = requestUrl(definition.proxy.listen_path, request.path);
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, values]) => [name, values]));
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  trace.add('debug', 'Started', { type: 'request' });
  try {
    const answer = await exchangeInProcess(detached.handle, {
      method: request.method,
      url,
      headers,
      body: request.body,
      signal: controller.signal,
    });
    trace.add('debug', 'Finished', { type: 'response', code: answer.status });
    return { compiled: true, response: traceDump(request.method, url, request, answer), logs: trace.text() };
  } catch (err) {
    if (controller.signal.aborted) throw new DebugTimeout(limits.timeoutMs);
    throw err;
  } finally {
    clearTimeout(timer);
    detached.dispose();
  }
}

function detachedDeps(trace: TraceLog, limits: DebugLimits): Partial<CompileDeps> {
  return {
    logger: trace.logger,
    emitEvent: (event, _ctx, message) => trace.add('info', `event ${event}: ${message}`),
    publishEvent: (event, _definition, message) => trace.add('info', `event ${event}: ${message}`),
    responseCache: new MemoryResponseCache(limits.cacheBytes),
    watchStep: (name, step) => loggedStep(trace, name, step),
  };
}

/** A step of the run's chain, logged as it starts and, when it answers the request, with the status. */
function loggedStep(trace: TraceLog, name: string, step: Step): Step {
  const settled = (ctx: RequestContext, result: StepResult): StepResult => {
    if (result === DONE) trace.add('debug', 'Answered', { mw: name, code: ctx.res.statusCode });
    return result;
  };
  return (ctx) => {
    trace.add('debug', 'Started', { mw: name });
    const result = step(ctx);
    return result instanceof Promise ? result.then((done) => settled(ctx, done)) : settled(ctx, result);
  };
}

/** The listen path and the request's path joined by one slash, the query kept. */
export function requestUrl(listenPath: string, path: string): string {
  const queryStart = path.indexOf('?');
  const rest = queryStart === -1 ? path : path.slice(0, queryStart);
  const query = queryStart === -1 ? '' : path.slice(queryStart);
  const base = listenPath.replace(/\/+$/, '');
  const joined = rest === '' ? `${base}/` : `${base}/${rest.replace(/^\/+/, '')}`;
  return (joined.startsWith('/') ? joined : `/${joined}`) + query;
}

/** The reference's trace text: the request and the answer as HTTP/1.1 messages, under two headings. */
function traceDump(method: string, url: string, request: DebugRequest, answer: RestAnswer): string {
  const requestLines = [`${method} ${url} HTTP/1.1`];
  for (const [name, values] of Object.entries(request.headers))
    for (const value of values) requestLines.push(`${canonical(name)}: ${value}`);
  const responseLines = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`.trimEnd()];
  for (const [name, value] of Object.entries(answer.headers as IncomingHttpHeaders)) {
    for (const one of Array.isArray(value) ? value : [value ?? '']) responseLines.push(`${canonical(name)}: ${one}`);
  }
  const message = (lines: string[], body: string) => `${lines.join('\r\n')}\r\n\r\n${body}`;
  return (
    `====== Request ======\n${message(requestLines, request.body)}\n` +
    `====== Response ======\n${message(responseLines, answer.body)}`
  );
}

/** `content-type` → `Content-Type`, as Go writes header names. */
function canonical(name: string): string {
  return name
    .toLowerCase()
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('-');
}

type Level = 'debug' | 'info' | 'warning' | 'error' | 'fatal';

/** The chain's log during one run, as JSON lines in the reference's trace shape; bounded. */
class TraceLog {
  private readonly lines: string[] = [];
  private bytes = 0;
  private cut = false;
  readonly logger: LoggerInstance;

  constructor(
    private readonly definition: ApiDefinition,
    private readonly limits: DebugLimits,
  ) {
    const at =
      (level: Level) =>
      (...args: unknown[]) =>
        this.add(level, args.map(describe).join(' '));
    this.logger = {
      fatal: at('fatal'),
      error: at('error'),
      warn: at('warning'),
      info: at('info'),
      debug: at('debug'),
      trace: at('debug'),
    };
  }

  add(level: Level, msg: string, extra: { type?: 'request' | 'response'; code?: number; mw?: string } = {}): void {
    if (this.cut) return;
    const { api_id, name, org_id } = this.definition;
    const line = JSON.stringify({
      api_id,
      api_name: name,
      level,
      msg,
      ...(extra.mw !== undefined ? { mw: extra.mw } : {}),
      org_id,
      time: new Date().toISOString(),
      ...(extra.code !== undefined ? { code: extra.code } : {}),
      type: extra.type ?? '',
    });
    if (this.lines.length >= this.limits.maxLogLines || this.bytes + line.length > this.limits.maxLogBytes) {
      this.cut = true;
      this.lines.push(JSON.stringify({ level: 'warning', msg: 'the log was cut here: too many lines', type: '' }));
      return;
    }
    this.lines.push(line);
    this.bytes += line.length + 1;
  }

  text(): string {
    return this.lines.map((line) => `${line}\n`).join('');
  }
}

function describe(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

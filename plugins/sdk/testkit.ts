import type { GwPlugin } from './define-plugin';
import type { HookName } from './hooks';
import type {
  ApiInfo,
  AuthCheckContext,
  HeaderValue,
  PluginReply,
  PluginRequest,
  PluginResponse,
  ResponseHookContext,
} from './types';

/** A request as a test describes it. */
export interface TestRequest {
  method?: string;
  path?: string;
  query?: Record<string, string>;
  headers?: Record<string, HeaderValue>;
  body?: string | Buffer;
  remoteAddress?: string;
}

/** The upstream answer a `response` hook sees. */
export interface TestResponse {
  status?: number;
  headers?: Record<string, HeaderValue>;
  body?: string | Buffer;
}

export interface RunHookOptions {
  request?: TestRequest;
  response?: TestResponse;
  session?: Record<string, unknown>;
  api?: Partial<ApiInfo>;
  state?: Record<string, unknown>;
}

/** What the hook did, as the gateway would act on it. */
export interface HookOutcome {
  /** set when the hook answered the client itself */
  reply: PluginReply | undefined;
  /** `auth_check`: whether it let the request through, and as whom */
  allowed: boolean;
  session: Record<string, unknown> | undefined;
  /** the request as it would go upstream */
  request: { url: string; headers: Record<string, HeaderValue>; body: Buffer };
  /** `response`: the answer as it would go to the client */
  response: { status: number; headers: Record<string, HeaderValue>; body: Buffer } | undefined;
  state: Record<string, unknown>;
  logs: Array<{ level: 'info' | 'warn' | 'error'; message: string }>;
}

/**
 * Runs one hook of a plugin the way the gateway runs it, without a gateway: build the request
 * (and for `response` the upstream answer), call `runHook`, assert on the outcome.
 */
export async function runHook(plugin: GwPlugin, hook: HookName, options: RunHookOptions = {}): Promise<HookOutcome> {
  const implementation = plugin.hooks[hook] as ((ctx: never) => unknown) | undefined;
  if (!implementation) throw new Error(`plugin ${plugin.name} does not implement hook '${hook}'`);
  const given = options.request ?? {};
  const query = new URLSearchParams(given.query ?? {});
  const path = given.path ?? '/';
  const headers = lowerCased(given.headers ?? {});
  let url = query.size > 0 ? `${path}?${query}` : path;
  let body = toBuffer(given.body);
  const outcome: HookOutcome = {
    reply: undefined,
    allowed: false,
    session: options.session,
    request: { url, headers, body },
    response: undefined,
    state: options.state ?? {},
    logs: [],
  };
  const log = (level: 'info' | 'warn' | 'error') => (message: string) => outcome.logs.push({ level, message });
  const api: ApiInfo = {
    api_id: 'test-api',
    name: 'Test API',
    org_id: 'test-org',
    listen_path: '/test/',
    config: {},
    ...options.api,
  };
  const request: PluginRequest = {
    method: (given.method ?? 'GET').toUpperCase(),
    path,
    query,
    remoteAddress: given.remoteAddress ?? '127.0.0.1',
    header: (name) => text(headers[name.toLowerCase()]),
    headers: () => ({ ...headers }),
    setHeader: (name, value) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: (name) => {
      delete headers[name.toLowerCase()];
    },
    setUrl: (next) => {
      url = next;
      outcome.request.url = next;
    },
    readBody: async () => body,
    setBody: (next) => {
      body = toBuffer(next);
      outcome.request.body = body;
    },
  };
  const base = {
    hook,
    api,
    request,
    session: options.session,
    state: outcome.state,
    log: { info: log('info'), warn: log('warn'), error: log('error') },
  };
  if (hook === 'response') {
    const given = options.response ?? {};
    const answer = {
      status: given.status ?? 200,
      headers: lowerCased(given.headers ?? {}),
      body: toBuffer(given.body),
    };
    const response: PluginResponse = {
      get status() {
        return answer.status;
      },
      setStatus: (status) => {
        answer.status = status;
      },
      header: (name) => text(answer.headers[name.toLowerCase()]),
      headers: () => ({ ...answer.headers }),
      setHeader: (name, value) => {
        answer.headers[name.toLowerCase()] = value;
      },
      removeHeader: (name) => {
        delete answer.headers[name.toLowerCase()];
      },
      readBody: async () => answer.body,
      setBody: (next) => {
        answer.body = toBuffer(next);
      },
    };
    outcome.response = answer;
    await implementation({ ...base, response } satisfies ResponseHookContext as never);
    return outcome;
  }
  const ctx: AuthCheckContext = {
    ...base,
    respond: (reply) => {
      if (outcome.reply) throw new Error('respond() was already called for this request');
      outcome.reply = reply;
    },
    allow: (session) => {
      outcome.allowed = true;
      outcome.session = session ?? outcome.session ?? {};
    },
  };
  await implementation(ctx as never);
  return outcome;
}

function lowerCased(headers: Record<string, HeaderValue>): Record<string, HeaderValue> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function text(value: HeaderValue | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function toBuffer(body: string | Buffer | undefined): Buffer {
  return body === undefined ? Buffer.alloc(0) : typeof body === 'string' ? Buffer.from(body) : body;
}

import type { HookName } from './hooks';

export type HeaderValue = string | string[];

/** An early answer: the chain stops and the client gets this. */
export interface PluginReply {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer | object;
}

export interface PluginLogger {
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

/** The API the request is for. */
export interface ApiInfo {
  api_id: string;
  name: string;
  org_id: string;
  listen_path: string;
  /** the API definition's `config_data`: settings for its plugins */
  config: Readonly<Record<string, unknown>>;
}

/** The request as it will go upstream; every change is explicit. */
export interface PluginRequest {
  readonly method: string;
  /** the path the client requested (percent-encoded) */
  readonly path: string;
  /** the client's query parameters */
  readonly query: URLSearchParams;
  /** the client's address (X-Real-IP, X-Forwarded-For, then the connection) */
  readonly remoteAddress: string;
  /** a request header as it will go upstream (names are case-insensitive) */
  header(name: string): string | undefined;
  /** a copy of the headers as they will go upstream */
  headers(): Record<string, HeaderValue>;
  setHeader(name: string, value: HeaderValue): void;
  removeHeader(name: string): void;
  /** replaces the path and query string sent upstream, e.g. `/v2/users?active=1` */
  setUrl(pathAndQuery: string): void;
  /** reads the whole request body (once read, it is buffered for the upstream too) */
  readBody(): Promise<Buffer>;
  /** replaces the request body sent upstream */
  setBody(body: string | Buffer): void;
}

/** What every hook receives. */
export interface HookContext {
  readonly hook: HookName;
  readonly api: ApiInfo;
  readonly request: PluginRequest;
  /** the authenticated key's session (from `post_key_auth` on), if any */
  readonly session: Readonly<Record<string, unknown>> | undefined;
  /** state shared by the plugins of one request */
  readonly state: Record<string, unknown>;
  readonly log: PluginLogger;
  /** answers the client now; nothing after this hook runs and upstream is not called */
  respond(reply: PluginReply): void;
}

/** `auth_check` replaces the built-in credential check: it must `allow` or `respond`. */
export interface AuthCheckContext extends HookContext {
  /** lets the request through, with the session it authenticated as */
  allow(session?: Record<string, unknown>): void;
}

/** The upstream's answer, before it reaches the client. */
export interface PluginResponse {
  readonly status: number;
  setStatus(status: number): void;
  header(name: string): string | undefined;
  headers(): Record<string, HeaderValue>;
  setHeader(name: string, value: HeaderValue): void;
  removeHeader(name: string): void;
  /** reads the whole response body (the response is then buffered instead of streamed) */
  readBody(): Promise<Buffer>;
  setBody(body: string | Buffer): void;
}

export interface ResponseHookContext extends Omit<HookContext, 'respond'> {
  readonly response: PluginResponse;
}

export type Awaitable<T> = T | Promise<T>;

export interface PluginHooks {
  pre?(ctx: HookContext): Awaitable<void>;
  auth_check?(ctx: AuthCheckContext): Awaitable<void>;
  post_key_auth?(ctx: HookContext): Awaitable<void>;
  post?(ctx: HookContext): Awaitable<void>;
  response?(ctx: ResponseHookContext): Awaitable<void>;
}

export interface PluginDefinition {
  /** the name API definitions use in `custom_middleware` entries */
  name: string;
  /** the SDK versions the plugin works with, as a semver range, e.g. `^1.0.0` */
  sdk: string;
  hooks: PluginHooks;
}

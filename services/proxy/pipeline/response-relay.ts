import type { LoggerInstance } from 'moleculer';
import type { GwPlugin } from '../../../plugins/sdk/define-plugin';
import type { PluginResponse, ResponseHookContext } from '../../../plugins/sdk/types';
import type { HeaderMap } from './forward-headers';
import { PluginFailure, apiInfo, headerText, pluginLogger } from './plugins/hook-context';
import type { RequestContext } from './request-context';

export interface RelayLimits {
  /** the most body bytes held for the plugins */
  maxBody: number;
  /** a plugin read a body larger than `maxBody`: stop the upstream and answer 502 */
  onOverflow(): void;
}

/**
 * Holds the upstream's answer while an API's `response` plugins run. The body keeps arriving
 * meanwhile and is kept, up to `maxBody` bytes (then the upstream is paused until the plugins
 * are done); once the plugins are done it is streamed on, unless a plugin read or replaced it,
 * in which case the whole (possibly new) body is sent with its length. A body a plugin reads
 * is never held beyond `maxBody`: past it the relay gives up (`onOverflow`) and drops what it
 * held, rather than hand the plugin a truncated body or skip the plugin.
 */
export class ResponseRelay {
  private readonly chunks: Buffer[] = [];
  private held = 0;
  private overflowed = false;
  /** the answer is decided (plugin failure, overflow): the rest of the body is read and dropped */
  private discarding = false;
  private readonly resumeWaiters: Array<() => void> = [];
  private ended = false;
  private pluginsDone = false;
  private buffered = false;
  private replacement: Buffer | undefined;
  private readonly endWaiters: Array<() => void> = [];

  constructor(
    private readonly ctx: RequestContext,
    private status: number,
    private readonly headers: HeaderMap,
    private readonly onFailure: (err: unknown) => void,
    private readonly limits: RelayLimits,
  ) {}

  run(plugins: GwPlugin[], logger: LoggerInstance): void {
    void (async () => {
      for (const plugin of plugins) {
        try {
          await plugin.hooks.response!(this.hookContext(plugin, logger));
        } catch (err) {
          if (this.overflowed) return;
          this.discard();
          this.onFailure(new PluginFailure(plugin.name, 'response', err));
          return;
        }
      }
      if (this.overflowed) return;
      this.pluginsDone = true;
      this.flush();
      this.wakeResumers();
    })();
  }

  /** One chunk of the upstream body. Returns false when the caller should pause until `whenWritable`. */
  data(chunk: Buffer): boolean {
    if (this.discarding || this.replacement !== undefined) return true;
    if (!this.pluginsDone || this.buffered) {
      this.chunks.push(chunk);
      this.held += chunk.length;
      if (this.held <= this.limits.maxBody) return true;
      if (!this.buffered) return false;
      this.overflow();
      return true;
    }
    return this.ctx.res.write(chunk);
  }

  /** Calls `resume` once the upstream may send more (after `data` returned false). */
  whenWritable(resume: () => void): void {
    if (this.pluginsDone && !this.buffered) this.ctx.res.once('drain', resume);
    else this.resumeWaiters.push(resume);
  }

  end(): void {
    this.ended = true;
    for (const wake of this.endWaiters.splice(0)) wake();
    if (this.pluginsDone) this.flush();
  }

  private overflow(): void {
    this.overflowed = true;
    this.discard();
    this.endWaiters.splice(0).forEach((wake) => wake());
    this.limits.onOverflow();
  }

  private discard(): void {
    this.discarding = true;
    this.chunks.length = 0;
    this.held = 0;
    this.wakeResumers();
  }

  private wakeResumers(): void {
    for (const resume of this.resumeWaiters.splice(0)) resume();
  }

  private flush(): void {
    const { res } = this.ctx;
    if (res.headersSent) {
      if (this.ended && !this.buffered) res.end();
      return;
    }
    if (this.buffered) {
      if (!this.ended) return;
      const body = this.replacement ?? Buffer.concat(this.chunks);
      this.headers['content-length'] = String(body.length);
      res.writeHead(this.status, this.headers);
      res.end(body);
      return;
    }
    res.writeHead(this.status, this.headers);
    for (const chunk of this.chunks.splice(0)) res.write(chunk);
    if (this.ended) res.end();
  }

  private async whenEnded(): Promise<void> {
    if (!this.ended && !this.overflowed) await new Promise<void>((resolve) => this.endWaiters.push(resolve));
    if (this.overflowed) throw new Error(`the upstream response body is larger than ${this.limits.maxBody} bytes`);
  }

  private hookContext(plugin: GwPlugin, logger: LoggerInstance): ResponseHookContext {
    const relay = this;
    const response: PluginResponse = {
      get status() {
        return relay.status;
      },
      setStatus: (status) => {
        this.status = status;
      },
      header: (name) => headerText(this.headers[name.toLowerCase()]),
      headers: () => ({ ...this.headers }),
      setHeader: (name, value) => {
        this.headers[name.toLowerCase()] = value;
      },
      removeHeader: (name) => {
        delete this.headers[name.toLowerCase()];
      },
      readBody: async () => {
        this.buffered = true;
        if (this.held > this.limits.maxBody) this.overflow();
        this.wakeResumers();
        await this.whenEnded();
        return this.replacement ?? Buffer.concat(this.chunks);
      },
      setBody: (body) => {
        this.buffered = true;
        this.wakeResumers();
        this.replacement = typeof body === 'string' ? Buffer.from(body) : body;
        // The upstream's body will not be sent: stop holding it.
        this.chunks.length = 0;
        this.held = 0;
      },
    };
    return {
      hook: 'response',
      api: apiInfo(this.ctx),
      request: requestView(this.ctx),
      session: this.ctx.session,
      state: this.ctx.state,
      log: pluginLogger(logger, plugin),
      response,
    };
  }
}

/** In the response hook the request has gone: it can be read but not changed. */
function requestView(ctx: RequestContext): ResponseHookContext['request'] {
  const readOnly = () => {
    throw new Error('the request can not be changed in the response hook');
  };
  const headers = () => ctx.upstreamHeaders();
  return {
    method: ctx.req.method ?? 'GET',
    path: ctx.path,
    query: new URLSearchParams(ctx.search),
    remoteAddress: ctx.clientIp,
    header: (name) => headerText(headers()[name.toLowerCase()]),
    headers: () => ({ ...headers() }),
    setHeader: readOnly,
    removeHeader: readOnly,
    setUrl: readOnly,
    readBody: async () => ctx.replacedBody ?? Buffer.alloc(0),
    setBody: readOnly,
  };
}

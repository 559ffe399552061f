/**
 * Node's own HTTP/1.1 parser (llhttp, native) in response mode, the one `http.request` uses.
 * It is not a documented API (`_http_common`), so this file is the only one that touches it:
 * a Node upgrade that changes it breaks here, and the upstream-client tests say so at once.
 */
const { HTTPParser } = require('_http_common') as { HTTPParser: NativeParserClass };

interface NativeParser {
  initialize(type: number, resource: object, maxHeaderSize: number, lenient: number): void;
  execute(data: Buffer): number | Error;
  finish(): void | Error;
  close(): void;
  [callback: number]: unknown;
}

interface NativeParserClass {
  new (): NativeParser;
  RESPONSE: number;
  kOnHeaders: number;
  kOnHeadersComplete: number;
  kOnBody: number;
  kOnMessageComplete: number;
  kLenientNone: number;
}

/** What the parser reports about one response. */
export interface ResponseEvents {
  /**
   * The status line and headers ([name, value, …], names as the upstream wrote them). Returns
   * true when the response has no body to read (the answer to a HEAD, or a 1xx).
   */
  onResponseHead(statusCode: number, rawHeaders: string[], upgrade: boolean, keepAlive: boolean): boolean;
  onResponseBody(chunk: Buffer): void;
  onResponseEnd(): void;
}

/** 0: Node's default (--max-http-header-size, 16 KB), as for every other HTTP message the node reads. */
const DEFAULT_MAX_HEADER_SIZE = 0;

export class ResponseParser {
  private readonly native = new HTTPParser();
  /** headers flushed before the head was complete (more than llhttp's 32 fields at once) */
  private flushed: string[] | undefined;

  constructor(events: ResponseEvents) {
    const native = this.native;
    native.initialize(HTTPParser.RESPONSE, {}, DEFAULT_MAX_HEADER_SIZE, HTTPParser.kLenientNone);
    native[HTTPParser.kOnHeaders] = (headers: string[]) => {
      this.flushed = this.flushed ? this.flushed.concat(headers) : headers;
    };
    native[HTTPParser.kOnHeadersComplete] = (
      _major: number,
      _minor: number,
      headers: string[] | undefined,
      _method: unknown,
      _url: unknown,
      statusCode: number,
      _statusMessage: string,
      upgrade: boolean,
      keepAlive: boolean,
    ): number => {
      let raw = headers ?? [];
      if (this.flushed) {
        raw = headers ? this.flushed.concat(headers) : this.flushed;
        this.flushed = undefined;
      }
      // 1: llhttp reads no body for this message
      return events.onResponseHead(statusCode, raw, upgrade, keepAlive) ? 1 : 0;
    };
    native[HTTPParser.kOnBody] = (chunk: Buffer) => events.onResponseBody(chunk);
    native[HTTPParser.kOnMessageComplete] = () => events.onResponseEnd();
  }

  /** Parses bytes read from the upstream; an Error when they are not a valid response. */
  execute(data: Buffer): Error | undefined {
    const result = this.native.execute(data);
    return result instanceof Error ? result : undefined;
  }

  /** The upstream closed its side: ends a body delimited by the close; an Error when a response was cut short. */
  finish(): Error | undefined {
    const result = this.native.finish();
    return result instanceof Error ? result : undefined;
  }

  /** Frees the native parser (never from inside one of its own callbacks). */
  close(): void {
    const native = this.native;
    setImmediate(() => native.close());
  }
}

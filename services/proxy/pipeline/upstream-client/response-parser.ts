import type { Socket } from 'node:net';
import { nativeParserDetection, type NativeParser, type NativeParserClass, type NativeStream } from './native-parser';

/** What the parser reports about one response. */
export interface ResponseEvents {
  /** the first byte of a response (of any response: one that nobody asked for too) */
  onResponseBegin(): void;
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

/**
 * Node's own HTTP/1.1 parser in response mode, fed by one socket. Only a process where
 * native-parser.ts found the parser usable creates one (upstream-pools.ts chooses).
 */
export class ResponseParser {
  private readonly native: NativeParser;
  /** header fields flushed before the head was complete (llhttp hands them over 32 at a time) */
  private flushed: string[] | undefined;
  private socket: Socket | undefined;
  /** the socket's native stream, when its bytes go straight to the parser */
  private consumed: NativeStream | undefined;

  constructor(events: ResponseEvents) {
    const HTTPParser = usableParser();
    const native = (this.native = new HTTPParser());
    native.initialize(HTTPParser.RESPONSE, {}, DEFAULT_MAX_HEADER_SIZE, HTTPParser.kLenientNone);
    native[HTTPParser.kOnMessageBegin] = () => events.onResponseBegin();
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
    native[HTTPParser.kOnMessageComplete] = () => {
      // Fields flushed after the head are a chunked body's trailers: dropped (`Trailer` is
      // hop-by-hop), never kept for the next response on the connection.
      this.flushed = undefined;
      events.onResponseEnd();
    };
  }

  /**
   * Parses what the socket reads from now on; `parsed` is called after each read, with an Error
   * when the bytes are not a valid response. A plain TCP socket's bytes go from libuv straight
   * to the parser, as in Node's own HTTP server: no Buffer and no stream events per read, so less
   * CPU and garbage per request. Other sockets (TLS), and a handle not of the shape this reads,
   * are read through their events.
   */
  attach(socket: Socket, parsed: (error: Error | undefined) => void): void {
    this.socket = socket;
    const { _handle: handle, encrypted } = socket as unknown as { _handle?: NativeStream; encrypted?: boolean };
    if (!encrypted && consumable(handle)) {
      this.consumed = handle;
      this.native[usableParser().kOnExecute] = (result: number | Error) =>
        parsed(result instanceof Error ? result : undefined);
      this.native.consume(handle);
      return;
    }
    socket.on('data', (data: Buffer) => {
      const result = this.native.execute(data);
      parsed(result instanceof Error ? result : undefined);
    });
  }

  /** Stops reading from the socket (the client is slow to take the body). */
  pause(): void {
    const handle = this.consumed;
    if (!handle) return void this.socket?.pause();
    // A consumed stream's reads never reach the socket's own stream state: stopped at the source.
    if (!handle.reading || this.socket?.destroyed) return;
    handle.reading = false;
    handle.readStop();
  }

  resume(): void {
    const handle = this.consumed;
    if (!handle) return void this.socket?.resume();
    if (handle.reading || this.socket?.destroyed) return;
    handle.reading = true;
    handle.readStart();
  }

  /** The upstream closed its side: ends a body delimited by the close; an Error when a response was cut short. */
  finish(): Error | undefined {
    const result = this.native.finish();
    return result instanceof Error ? result : undefined;
  }

  /** Frees the native parser (never from inside one of its own callbacks). */
  close(): void {
    const native = this.native;
    if (this.consumed) native.unconsume();
    this.consumed = undefined;
    setImmediate(() => native.close());
  }
}

/** A libuv stream the parser can read from directly, with the read switch this file flips. */
function consumable(handle: NativeStream | undefined): handle is NativeStream {
  if (handle?.isStreamBase !== true || typeof handle.reading !== 'boolean') return false;
  return typeof handle.readStart === 'function' && typeof handle.readStop === 'function';
}

let usable: NativeParserClass | undefined;

/** The native parser class (a pool of this client is only made where it was found usable). */
function usableParser(): NativeParserClass {
  if (usable) return usable;
  const detection = nativeParserDetection();
  if ('unusable' in detection) throw new Error(`Node's HTTP parser is not usable: ${detection.unusable}`);
  usable = detection.parser;
  return usable;
}

/**
 * Node's own HTTP/1.1 parser (llhttp, native), the one `http.request` uses. It is not a documented
 * API (`_http_common`), so it is looked up and tried once before use: a Node line that lacks it or
 * changed its shape makes the gateway use undici's Pool instead (upstream-pools.ts).
 */

export interface NativeParser {
  initialize(type: number, resource: object, maxHeaderSize: number, lenient: number): void;
  execute(data: Buffer): number | Error;
  finish(): void | Error;
  consume(handle: NativeStream): void;
  unconsume(): void;
  close(): void;
  [callback: number]: unknown;
}

/** A socket's libuv stream, as Node's HTTP server drives it for a parser that consumes it. */
export interface NativeStream {
  isStreamBase?: boolean;
  reading: boolean;
  readStart(): number;
  readStop(): number;
}

export interface NativeParserClass {
  new (): NativeParser;
  RESPONSE: number;
  kOnMessageBegin: number;
  kOnHeaders: number;
  kOnHeadersComplete: number;
  kOnBody: number;
  kOnMessageComplete: number;
  kOnExecute: number;
  kLenientNone: number;
}

/** The parser, or why it can not be used. */
export type NativeParserDetection = { parser: NativeParserClass } | { unusable: string };

const CONSTANTS = [
  'RESPONSE',
  'kOnMessageBegin',
  'kOnHeaders',
  'kOnHeadersComplete',
  'kOnBody',
  'kOnMessageComplete',
  'kOnExecute',
  'kLenientNone',
] as const;
const METHODS = ['initialize', 'execute', 'finish', 'consume', 'unconsume', 'close'] as const;

/** More fields than llhttp hands over at once (32), so the probe sees them flushed in pieces too. */
const PROBE_FIELDS = Array.from({ length: 40 }, (_, i) => [`x-field-${i}`, String(i)]).flat();
const PROBE = Buffer.from(
  `HTTP/1.1 203 Probe\r\n${pairs(PROBE_FIELDS)}transfer-encoding: chunked\r\n\r\n` +
    '2\r\nok\r\n0\r\nx-trailer: t\r\n\r\n',
  'latin1',
);

/**
 * Looks the parser up and parses a known response with it, checking each callback's arguments as
 * the response parser reads them. `load` stands for `require('_http_common')` (tests pass others).
 */
export function detectNativeParser(load: () => unknown = () => require('_http_common')): NativeParserDetection {
  let parser: unknown;
  try {
    parser = (load() as { HTTPParser?: unknown } | undefined)?.HTTPParser;
  } catch (err) {
    return { unusable: `_http_common can not be loaded (${(err as Error).message})` };
  }
  if (typeof parser !== 'function') return { unusable: '_http_common.HTTPParser is missing' };
  const candidate = parser as NativeParserClass & { prototype: Record<string, unknown> };
  const constant = CONSTANTS.find((name) => typeof candidate[name] !== 'number');
  if (constant) return { unusable: `HTTPParser.${constant} is missing` };
  const method = METHODS.find((name) => typeof candidate.prototype[name] !== 'function');
  if (method) return { unusable: `HTTPParser.prototype.${method} is missing` };
  try {
    const wrong = probe(candidate);
    if (wrong) return { unusable: `HTTPParser reports a response differently (${wrong})` };
    return { parser: candidate };
  } catch (err) {
    return { unusable: `HTTPParser failed on a known response (${(err as Error).message})` };
  }
}

let detected: NativeParserDetection | undefined;

/** The detection, done once per process. */
export function nativeParserDetection(): NativeParserDetection {
  detected ??= detectNativeParser();
  return detected;
}

/** What is wrong with how the parser reports PROBE, or undefined when it is as expected. */
function probe(HTTPParser: NativeParserClass): string | undefined {
  const native = new HTTPParser();
  const seen = { begun: 0, status: 0, head: [] as unknown[], trailers: [] as unknown[], body: '', ended: 0 };
  let flushed: unknown[] = [];
  native.initialize(HTTPParser.RESPONSE, {}, 0, HTTPParser.kLenientNone);
  native[HTTPParser.kOnMessageBegin] = () => (seen.begun += 1);
  native[HTTPParser.kOnHeaders] = (headers: unknown) => {
    if (Array.isArray(headers)) flushed = flushed.concat(headers);
  };
  native[HTTPParser.kOnHeadersComplete] = (...args: unknown[]) => {
    seen.status = args[5] as number;
    seen.head = flushed.concat(Array.isArray(args[2]) ? args[2] : []);
    flushed = [];
    return 0;
  };
  native[HTTPParser.kOnBody] = (chunk: unknown) => {
    seen.body += Buffer.isBuffer(chunk) ? chunk.toString('latin1') : '?';
  };
  native[HTTPParser.kOnMessageComplete] = () => {
    seen.trailers = flushed;
    seen.ended += 1;
  };
  try {
    const parsed = native.execute(PROBE);
    if (parsed instanceof Error) return `error ${(parsed as { code?: string }).code ?? parsed.message}`;
    if (parsed !== PROBE.length) return `${String(parsed)} of ${PROBE.length} bytes parsed`;
  } finally {
    native.close();
  }
  const expectedHead = [...PROBE_FIELDS, 'transfer-encoding', 'chunked'];
  if (seen.begun !== 1 || seen.ended !== 1) return `${seen.begun} begun, ${seen.ended} ended`;
  if (seen.status !== 203) return `status ${String(seen.status)}`;
  if (!sameList(seen.head, expectedHead)) return `headers ${JSON.stringify(seen.head.slice(0, 4))}…`;
  if (seen.body !== 'ok') return `body ${JSON.stringify(seen.body)}`;
  if (!sameList(seen.trailers, ['x-trailer', 't'])) return `trailers ${JSON.stringify(seen.trailers)}`;
  return undefined;
}

function sameList(actual: unknown[], expected: string[]): boolean {
  return actual.length === expected.length && expected.every((value, i) => actual[i] === value);
}

function pairs(fields: string[]): string {
  let text = '';
  for (let i = 0; i < fields.length; i += 2) text += `${fields[i]}: ${fields[i + 1]}\r\n`;
  return text;
}

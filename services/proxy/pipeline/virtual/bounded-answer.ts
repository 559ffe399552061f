/** How much of a virtual endpoint's answer may cross back from its isolate to the gateway's thread. */
export interface AnswerLimits {
  /** response headers @default 100 */
  maxHeaders: number;
  /** characters of all header names and values together @default 16384 */
  maxHeaderBytes: number;
  /** bytes of the response body @default 10485760 */
  maxBodyBytes: number;
  /** characters of the session metadata as JSON; more is not saved (the answer is still sent) */
  maxSessionMetaChars: number;
}

/** What the gateway gets of `TykJsResponse(response, sessionMeta)`: checked, small, primitive. */
export interface VirtualAnswer {
  code: number;
  body: string;
  /** name, value, name, value, … */
  headers: string[];
  /** the session metadata as JSON; null when over the limit; undefined when not asked for or not an object */
  sessionMeta: string | null | undefined;
}

/** An answer over a limit: the client gets a 500 naming it. */
export class VirtualAnswerTooLarge extends Error {
  constructor(what: string, limit: number) {
    super(`Virtual endpoint response exceeds the limit of ${limit} ${what}`);
    this.name = 'VirtualAnswerTooLarge';
  }
}

/**
 * Runs inside the isolate, on its thread and under its time limit, after the tenant's function
 * returned `answer`: it measures the answer and builds the only value copied out, of strings
 * and numbers bounded by `$2` (AnswerLimits plus `withSession`). A huge answer costs the
 * isolate, never the gateway's thread. Whatever the tenant's code changed in its context
 * (String, JSON, prototypes), what leaves is checked by type and length here and again outside.
 */
export const MEASURE_ANSWER = `
  const limits = $2;
  const response = answer !== null && typeof answer === 'object' ? answer.Response : undefined;
  if (response === null || typeof response !== 'object') return { fault: 'shape' };
  let body = response.Body === undefined ? '' : response.Body;
  if (typeof body !== 'string') body = JSON.stringify(body);
  if (typeof body !== 'string') body = '';
  if (body.length > limits.maxBodyBytes) return { fault: 'body' };
  const headers = [];
  const given = response.Headers;
  if (given !== null && typeof given === 'object') {
    let count = 0;
    let size = 0;
    for (const name in given) {
      if (!Object.prototype.hasOwnProperty.call(given, name)) continue;
      if (++count > limits.maxHeaders) return { fault: 'headers' };
      const value = String(given[name]);
      if (typeof value !== 'string') continue;
      size += name.length + value.length;
      if (size > limits.maxHeaderBytes) return { fault: 'headerBytes' };
      headers[headers.length] = name;
      headers[headers.length] = value;
    }
  }
  let sessionMeta;
  const meta = answer.SessionMeta;
  if (limits.withSession && meta !== null && typeof meta === 'object' && !Array.isArray(meta)) {
    const json = JSON.stringify(meta);
    if (typeof json === 'string') sessionMeta = json.length > limits.maxSessionMetaChars ? null : json;
  }
  const code = Number(response.Code);
  return { code: typeof code === 'number' ? code : 0, body, headers, sessionMeta };
`;

const HEADER_NAME = /^[!#$%&'*+.^`|~\w-]+$/;

/**
 * The copied-out value, checked again on this side (its size in bytes now, its types, header
 * names); a fault found inside the isolate becomes its error here.
 */
export function readAnswer(raw: unknown, limits: AnswerLimits): VirtualAnswer {
  const out = (raw ?? {}) as Partial<VirtualAnswer> & { fault?: string };
  if (out.fault === 'shape') throw new Error('the function did not return TykJsResponse(...)');
  if (out.fault === 'body') throw new VirtualAnswerTooLarge('body bytes', limits.maxBodyBytes);
  if (out.fault === 'headers') throw new VirtualAnswerTooLarge('headers', limits.maxHeaders);
  if (out.fault === 'headerBytes') throw new VirtualAnswerTooLarge('header bytes', limits.maxHeaderBytes);
  const body = typeof out.body === 'string' ? out.body : '';
  if (Buffer.byteLength(body) > limits.maxBodyBytes) {
    throw new VirtualAnswerTooLarge('body bytes', limits.maxBodyBytes);
  }
  const given = Array.isArray(out.headers) ? out.headers.slice(0, 2 * limits.maxHeaders) : [];
  const headers: string[] = [];
  let size = 0;
  for (let i = 0; i + 1 < given.length; i += 2) {
    const [name, value] = [given[i], given[i + 1]];
    if (typeof name !== 'string' || typeof value !== 'string' || !HEADER_NAME.test(name)) continue;
    size += Buffer.byteLength(name) + Buffer.byteLength(value);
    if (size > limits.maxHeaderBytes) throw new VirtualAnswerTooLarge('header bytes', limits.maxHeaderBytes);
    headers.push(name, value.replace(/[\r\n]/g, ' '));
  }
  const meta = out.sessionMeta;
  const fits = typeof meta === 'string' && meta.length <= limits.maxSessionMetaChars;
  const sessionMeta = fits ? meta : meta === null ? null : undefined;
  return { code: typeof out.code === 'number' ? out.code : 0, body, headers, sessionMeta };
}

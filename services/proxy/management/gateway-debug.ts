import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { HttpProblem } from '../../../lib/http/problem';
import type { Route } from '../../../lib/http/surface';
import { DebugTimeout, type DebugRequest } from '../lib/debug-run';
import type { GatewayView } from './gateway';

/** The most request body a debug run sends through the chain. */
const MAX_DEBUG_BODY = 1024 * 1024;
const MALFORMED = 'Request malformed';
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection']);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `POST /gw/debug` (the reference's debugApiDefinition): `{request: {method, path, headers,
 * body}, spec | oas}` runs the request through the definition without saving or serving it,
 * and answers `{message: "ok", response, logs}`: the request and the answer as HTTP text and
 * the chain's log as JSON lines. A definition that can not be served is a 400 `{message:
 * "error", logs}`; a run past its time limit a 500.
 */
export function gatewayDebugRoutes(view: GatewayView): Array<Route<'gateway-admin'>> {
  return [
    {
      method: 'post',
      path: '/debug',
      handle: async ({ rawBody, call }) => {
        const input = traceInput(rawBody());
        let spec = input.spec as Json | null | undefined;
        if (input.oas !== undefined && input.oas !== null) {
          const text = JSON.stringify(input.oas);
          spec = (await call('apis.compileOas', { document_text: text })).api_definition;
        }
        if (spec === undefined || spec === null) throw new HttpProblem(400, 'Spec field is missing');
        if (input.request === undefined || input.request === null)
          throw new HttpProblem(400, 'Request field is missing');
        const request = debugRequest(input.request);
        try {
          const outcome = await view.debug(runnableDefinition(spec), request);
          if (!outcome.compiled) return { status: 400, body: { message: 'error', response: '', logs: outcome.logs } };
          return { body: { message: 'ok', response: outcome.response, logs: outcome.logs } };
        } catch (err) {
          if (err instanceof DebugTimeout) throw new HttpProblem(500, `Unexpected failure: ${err.message}`);
          throw err;
        }
      },
    },
  ];
}

function traceInput(text: string): { request?: unknown; spec?: unknown; oas?: unknown } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpProblem(400, MALFORMED);
  }
  if (!isObject(parsed)) throw new HttpProblem(400, MALFORMED);
  if (parsed.spec !== undefined && parsed.spec !== null && !isObject(parsed.spec))
    throw new HttpProblem(400, MALFORMED);
  if (parsed.oas !== undefined && parsed.oas !== null && !isObject(parsed.oas)) throw new HttpProblem(400, MALFORMED);
  return parsed;
}

/** The request to run, checked as an HTTP client would refuse it (a bad method, header name or value). */
function debugRequest(raw: unknown): DebugRequest {
  if (!isObject(raw)) throw new HttpProblem(400, MALFORMED);
  const text = (value: unknown) => {
    if (value === undefined || value === null) return '';
    if (typeof value !== 'string') throw new HttpProblem(400, MALFORMED);
    return value;
  };
  const method = text(raw.method).toUpperCase() || 'GET';
  if (!TOKEN.test(method)) throw new HttpProblem(400, `${MALFORMED}: request.method is not an HTTP method`);
  const body = text(raw.body);
  if (Buffer.byteLength(body) > MAX_DEBUG_BODY)
    throw new HttpProblem(400, `${MALFORMED}: request.body is larger than ${MAX_DEBUG_BODY} bytes`);
  return { method, path: text(raw.path), headers: debugHeaders(raw.headers), body };
}

function debugHeaders(raw: unknown): Record<string, string[]> {
  if (raw === undefined || raw === null) return {};
  if (!isObject(raw)) throw new HttpProblem(400, MALFORMED);
  const headers: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(raw)) {
    const values = Array.isArray(value) ? value : [value];
    if (!TOKEN.test(name) || !values.every((one) => typeof one === 'string' && !/[\r\n\0]/.test(one)))
      throw new HttpProblem(400, `${MALFORMED}: request.headers.${name} is not a valid header`);
    // the exchange frames the body itself: a stated length that is not the body's would stall the run
    if (FRAMING.has(name.toLowerCase())) continue;
    headers[name] = values as string[];
  }
  return headers;
}

/** The fields the chain reads, given the defaults a stored definition would have. */
function runnableDefinition(spec: Json): ApiDefinition {
  const proxy = isObject(spec.proxy) ? spec.proxy : {};
  const apiId = typeof spec.api_id === 'string' && spec.api_id !== '' ? spec.api_id : 'debug';
  return {
    ...spec,
    id: typeof spec.id === 'string' && spec.id !== '' ? spec.id : apiId,
    api_id: apiId,
    name: typeof spec.name === 'string' ? spec.name : '',
    org_id: typeof spec.org_id === 'string' ? spec.org_id : '',
    active: true,
    proxy: {
      ...proxy,
      listen_path: typeof proxy.listen_path === 'string' && proxy.listen_path !== '' ? proxy.listen_path : '/',
      target_url: typeof proxy.target_url === 'string' ? proxy.target_url : '',
    },
  };
}

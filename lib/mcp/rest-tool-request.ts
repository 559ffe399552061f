import type { RestTool } from './rest-tools';
import { defaultStyle, type ToolArgument } from './rest-tool-params';

/** The REST request a tool call stands for, below the REST API's listen path. */
export interface RestRequest {
  method: string;
  /** the path with its parameters filled in, percent-encoded */
  path: string;
  /** the query string with its `?`, or '' */
  search: string;
  headers: Record<string, string>;
  body?: string;
}

/** Arguments that do not make a request of the tool (JSON-RPC -32602 for the caller). */
export class InvalidToolArguments extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidToolArguments';
  }
}

const FORM = 'application/x-www-form-urlencoded';
const QUERY_DELIMITERS: Record<string, string> = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

/**
 * The request for a call of `tool` with `args`: path parameters substituted (encoded), query
 * parameters in the operation's order (arrays as their style says), header parameters, and the
 * body as JSON (or a form when that is what the operation takes). An argument the tool does not
 * have, or a whole body mixed with body fields, is refused.
 */
export function buildRestRequest(tool: RestTool, args: Record<string, unknown>): RestRequest {
  for (const name of Object.keys(args))
    if (!(name in tool.arguments)) throw new InvalidToolArguments(`unknown argument "${name}"`);
  const given = Object.keys(args).filter((name) => args[name] !== undefined);
  const wholeBody = given.some((name) => tool.arguments[name].location === 'body');
  const field = given.find((name) => tool.arguments[name].location === 'body-field');
  if (wholeBody && field)
    throw new InvalidToolArguments(`argument "${field}" cannot be combined with whole-body argument`);

  let path = tool.pathTemplate;
  const query: Array<[string, string]> = [];
  const headers: Record<string, string> = {};
  let body: unknown;
  for (const name of ordered(tool, given)) {
    const argument = tool.arguments[name];
    const value = args[name];
    switch (argument.location) {
      case 'path':
        path = path.split(`{${argument.sourceName}}`).join(encodeURIComponent(joined(name, value, argument)));
        break;
      case 'query':
        query.push(...queryPairs(name, value, argument));
        break;
      case 'header':
        headers[argument.sourceName.toLowerCase()] = joined(name, value, argument);
        break;
      case 'body':
        body = value;
        break;
      case 'body-field':
        body = { ...(body as Record<string, unknown> | undefined), [argument.sourceName]: value };
        break;
    }
  }
  if (/\{[^}]*\}/.test(path))
    throw new InvalidToolArguments(`missing required path parameter in "${tool.pathTemplate}"`);
  const search = query.length === 0 ? '' : `?${query.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join('&')}`;
  const request: RestRequest = { method: tool.method, path, search, headers };
  if (body !== undefined) {
    const form = tool.bodyContentType === FORM;
    request.headers['content-type'] = form ? FORM : (tool.bodyContentType ?? 'application/json');
    request.body = form ? formBody(body) : JSON.stringify(body);
  }
  return request;
}

/** The tool's arguments in the operation's order, then any others by name. */
function ordered(tool: RestTool, given: string[]): string[] {
  const known = tool.argumentOrder.filter((name) => given.includes(name));
  return [...known, ...given.filter((name) => !known.includes(name)).sort()];
}

function queryPairs(name: string, value: unknown, argument: ToolArgument): Array<[string, string]> {
  const { sourceName } = argument;
  if (!Array.isArray(value)) return [[sourceName, scalar(name, value)]];
  const items = value.map((item, i) => scalar(`${name}[${i}]`, item));
  if (items.length === 0) return [];
  const style = argument.style ?? defaultStyle('query');
  if (style === 'form' && (argument.explode ?? true)) return items.map((item) => [sourceName, item]);
  const delimiter = QUERY_DELIMITERS[style];
  if (delimiter === undefined)
    throw new InvalidToolArguments(`cannot serialize argument "${name}" with query style "${style}"`);
  return [[sourceName, items.join(delimiter)]];
}

/** A path or header value: arrays joined with commas (the `simple` style). */
function joined(name: string, value: unknown, argument: ToolArgument): string {
  if (!Array.isArray(value)) return scalar(name, value);
  if (argument.location === 'path' && argument.style !== 'simple')
    throw new InvalidToolArguments(`cannot serialize argument "${name}" with path style "${argument.style}"`);
  return value.map((item, i) => scalar(`${name}[${i}]`, item)).join(',');
}

function scalar(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new InvalidToolArguments(`cannot serialize argument "${name}" as a path, query or header parameter`);
}

function formEncode(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, '+');
}

function formBody(body: unknown): string {
  const values = new URLSearchParams();
  if (typeof body === 'object' && body !== null && !Array.isArray(body))
    for (const key of Object.keys(body).sort()) values.set(key, String((body as Record<string, unknown>)[key]));
  else values.set('body', String(body));
  return values.toString();
}

import type { RestSourceConfig } from '../../../../lib/graphql/combined-graph-config';
import type { DataSourceRequest } from './fetcher';
import { compileTemplate, encoders, type Template, type TemplateScope } from './templates';

/**
 * A REST data source, compiled once: its URL, query parameters, headers and body are templates
 * filled per field with the arguments, the parent object and the client request's headers.
 * Values are percent-encoded in the URL, encoded by URLSearchParams in `query`, JSON-escaped in
 * the body and stripped of line breaks in headers.
 */
export function compileRestSource(config: RestSourceConfig): (scope: TemplateScope) => DataSourceRequest {
  const url = compileTemplate(config.url);
  const query = config.query.map((entry) => ({ name: entry.name, value: compileTemplate(entry.value) }));
  const headers = Object.entries(config.headers).map(([name, value]) => [name, compileTemplate(value)] as const);
  const body = config.body === '' ? undefined : compileTemplate(config.body);
  const method = config.method;
  return (scope) => {
    let target = url.render(scope, encoders.url);
    const params = queryParameters(query, scope);
    if (params) target += `${target.includes('?') ? '&' : '?'}${params}`;
    const rendered: Record<string, string> = { accept: 'application/json' };
    for (const [name, value] of headers) rendered[name.toLowerCase()] = value.render(scope, encoders.header);
    if (body) rendered['content-type'] ??= 'application/json';
    return { method, url: target, headers: rendered, body: body?.render(scope, encoders.json) };
  };
}

/**
 * `query` entries: a templated value that comes out empty (an optional argument not given) is
 * left out, and a list becomes one parameter per element (`?tag=a&tag=b`).
 */
function queryParameters(entries: Array<{ name: string; value: Template }>, scope: TemplateScope): string {
  if (entries.length === 0) return '';
  const params = new URLSearchParams();
  for (const entry of entries) {
    const raw = entry.value.value(scope);
    if (Array.isArray(raw)) {
      for (const item of raw) params.append(entry.name, encoders.plain(item));
      continue;
    }
    const rendered = entry.value.render(scope, encoders.plain);
    if (rendered === '' && entry.value.dynamic) continue;
    params.append(entry.name, rendered);
  }
  return params.toString();
}

/** The first step of every `{{.object.x}}` a set of templates reads: what a parent must carry for them. */
export function objectFieldsOf(texts: string[]): string[] {
  const names = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(/\{\{\s*\.object\.([A-Za-z_]\w*)/g)) names.add(match[1]);
  return [...names];
}

export type { Template };

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
    if (query.length > 0) {
      const params = new URLSearchParams();
      for (const entry of query) params.append(entry.name, entry.value.render(scope, encoders.plain));
      target += `${target.includes('?') ? '&' : '?'}${params.toString()}`;
    }
    const rendered: Record<string, string> = { accept: 'application/json' };
    for (const [name, value] of headers) rendered[name.toLowerCase()] = value.render(scope, encoders.header);
    if (body) rendered['content-type'] ??= 'application/json';
    return { method, url: target, headers: rendered, body: body?.render(scope, encoders.json) };
  };
}

/** The first step of every `{{.object.x}}` a set of templates reads: what a parent must carry for them. */
export function objectFieldsOf(texts: string[]): string[] {
  const names = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(/\{\{\s*\.object\.([A-Za-z_]\w*)/g)) names.add(match[1]!);
  return [...names];
}

export type { Template };

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { realPathWithin, relativePathProblem } from '../../../../lib/safe-path';
import { contextVariable } from '../context-vars';
import type { RequestContext } from '../request-context';
import { compileTemplate, type BodyTemplate } from '../../../../lib/go-template/template';
import { parseXml } from '../../../../lib/go-template/xml';

/**
 * A `transform` / `transform_response` entry: `{path, method, template_data: {input_type:
 * "json"|"xml", template_mode: "blob"|"file", template_source, enable_session}}`. A blob's
 * source is base64 (as the reference gateway stores it; plain text is taken as it is); a file
 * is named relative to the templates folder (GW_TEMPLATE_PATH) and read once, when the API is
 * compiled. The template sees the body's fields, `.array` for a JSON list, `._gw_context` (the
 * context variables, when the API enables them) and `._gw_meta` (the key's metadata, with
 * `enable_session`).
 */
export interface BodyTransform {
  apply(body: Buffer, ctx: RequestContext): string;
}

export class BodyUnreadable extends Error {}

export function compileBodyTransform(
  entry: Record<string, unknown>,
  templatesDir: string,
  contextVars: boolean,
): BodyTransform | undefined {
  const data = entry.template_data as Record<string, unknown> | undefined;
  if (!data || typeof data.template_source !== 'string') return undefined;
  const template = compileTemplate(
    data.template_mode === 'file'
      ? readTemplateFile(templatesDir, data.template_source)
      : blobText(data.template_source),
  );
  const xml = data.input_type === 'xml';
  const session = data.enable_session === true;
  return {
    apply(body, ctx) {
      const input = parseBody(body.toString('utf8'), xml);
      if (contextVars) input._gw_context = contextMap(ctx);
      if (session) input._gw_meta = ctx.session?.meta_data ?? {};
      return renderWith(template, input);
    },
  };
}

function renderWith(template: BodyTemplate, input: Record<string, unknown>): string {
  return template.render(input);
}

function parseBody(text: string, xml: boolean): Record<string, unknown> {
  try {
    if (xml) return text.trim() === '' ? {} : parseXml(text);
    const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { array: parsed };
  } catch (err) {
    throw new BodyUnreadable(`the body is not valid ${xml ? 'XML' : 'JSON'}: ${(err as Error).message}`);
  }
}

function blobText(source: string): string {
  const compact = source.replace(/\s+/g, '');
  if (compact !== '' && /^[A-Za-z0-9+/]+={0,2}$/.test(compact) && compact.length % 4 === 0) {
    const decoded = Buffer.from(compact, 'base64');
    if (decoded.toString('base64') === compact) return decoded.toString('utf8');
  }
  return source;
}

function readTemplateFile(folder: string, path: string): string {
  const problem = relativePathProblem(path);
  if (problem) throw new Error(`template file '${path}' ${problem}`);
  const real = realPathWithin(folder, resolve(folder, path));
  if (!real) throw new Error(`template file '${path}' is outside the templates folder`);
  return readFileSync(real, 'utf8');
}

/** The context variables as a map, the reference gateway's names (`headers_X_Api_Key`, `path`, …). */
function contextMap(ctx: RequestContext): Record<string, unknown> {
  const map: Record<string, unknown> = {};
  for (const name of ['path', 'path_parts', 'remote_addr', 'request_id', 'request_data', 'api_id', 'org_id', 'version'])
    map[name] = contextVariable(ctx, name);
  for (const header of Object.keys(ctx.req.headers)) {
    const canonical = header
      .split('-')
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('_');
    map[`headers_${canonical}`] = contextVariable(ctx, `headers_${canonical}`);
  }
  return map;
}

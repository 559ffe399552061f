import { compileTemplate } from '../../../lib/go-template/template';
import { compileTenantPattern } from '../../../lib/patterns/tenant-pattern';
import { relativePathProblem } from '../../../lib/safe-path';

type Fields = Record<string, unknown>;

/**
 * What a gateway would refuse to load in a version's `url_rewrites`, `advance_cache_config`,
 * `transform` / `transform_response` and `virtual` entries, found at save time: patterns that
 * RE2 does not compile, inline templates outside the supported Go template subset, file names
 * that leave their folder, function names that are not JavaScript names.
 */
export function middlewareProblem(extended: Fields): string | undefined {
  const checks: Array<[string, (entry: Fields) => string | undefined]> = [
    ['url_rewrites', rewriteProblem],
    ['advance_cache_config', (entry) => patternProblem(entry.cache_key_regex, 'cache_key_regex')],
    ['transform', templateProblem],
    ['transform_response', templateProblem],
    ['virtual', virtualProblem],
  ];
  for (const [list, check] of checks) {
    const entries = extended[list];
    if (!Array.isArray(entries)) continue;
    for (const [i, entry] of entries.entries()) {
      const problem = check(asFields(entry));
      if (problem) return `extended_paths.${list}[${i}]: ${problem}`;
    }
  }
  return undefined;
}

function rewriteProblem(entry: Fields): string | undefined {
  const own = patternProblem(entry.match_pattern, 'match_pattern');
  if (own) return own;
  const triggers = Array.isArray(entry.triggers) ? entry.triggers : [];
  for (const [t, trigger] of triggers.entries()) {
    const options = asFields(asFields(trigger).options);
    for (const [kind, value] of Object.entries(options)) {
      const specs = kind === 'payload_matches' ? { payload: value } : asFields(value);
      for (const [name, spec] of Object.entries(specs)) {
        const problem = patternProblem(asFields(spec).match_rx, `triggers[${t}].options.${kind}.${name}.match_rx`);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}

function patternProblem(source: unknown, field: string): string | undefined {
  if (typeof source !== 'string' || source === '') return undefined;
  try {
    compileTenantPattern(source);
    return undefined;
  } catch (err) {
    return `${field} is not a valid pattern: ${(err as Error).message}`;
  }
}

function templateProblem(entry: Fields): string | undefined {
  const data = asFields(entry.template_data);
  if (typeof data.template_source !== 'string') return undefined;
  if (data.template_mode === 'file') {
    const problem = relativePathProblem(data.template_source);
    return problem ? `template_data.template_source ${problem}` : undefined;
  }
  const compact = data.template_source.replace(/\s+/g, '');
  const decoded = Buffer.from(compact, 'base64');
  const text =
    compact !== '' && decoded.toString('base64') === compact ? decoded.toString('utf8') : data.template_source;
  try {
    compileTemplate(text);
    return undefined;
  } catch (err) {
    return `template_data.template_source is not a template gw can run: ${(err as Error).message}`;
  }
}

function virtualProblem(entry: Fields): string | undefined {
  if (typeof entry.response_function_name === 'string' && !/^[A-Za-z_$][\w$]*$/.test(entry.response_function_name)) {
    return `response_function_name '${entry.response_function_name}' is not a JavaScript function name`;
  }
  if (entry.function_source_type === 'file' && typeof entry.function_source_uri === 'string') {
    const problem = relativePathProblem(entry.function_source_uri);
    if (problem) return `function_source_uri ${problem}`;
  }
  return undefined;
}

function asFields(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
}

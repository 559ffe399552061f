import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { compileEndpointPattern } from '../../../lib/patterns/endpoint-pattern';
import { compileTenantPattern } from '../../../lib/patterns/tenant-pattern';
import { middlewareProblem } from './middleware-rules';

type Fields = Record<string, unknown>;

/**
 * Every regular expression of a definition must compile the way the gateway compiles it (RE2:
 * no backreferences, no lookarounds), so a definition is refused at save time rather than
 * answering 503 once loaded. Returns the first problem, naming where it is.
 */
export function patternProblem(definition: ApiDefinition): string | undefined {
  const versions = asFields(asFields(definition.version_data).versions);
  for (const [name, raw] of Object.entries(versions)) {
    const version = asFields(raw);
    const problem = versionProblem(version, version.ignore_endpoint_case === true);
    if (problem) return `Version '${name}', ${problem}`;
  }
  return basicAuthProblem(asFields(definition.basic_auth));
}

function versionProblem(version: Fields, ignoreCase: boolean): string | undefined {
  for (const [section, lists] of [
    ['paths', asFields(version.paths)],
    ['extended_paths', asFields(version.extended_paths)],
  ] as const) {
    for (const [list, entries] of Object.entries(lists)) {
      // persist_graphql paths are escaped: only their {name} segments are patterns.
      if (!Array.isArray(entries) || list === 'persist_graphql') continue;
      for (const [i, entry] of entries.entries()) {
        const path = typeof entry === 'string' ? entry : asFields(entry).path;
        if (typeof path !== 'string') continue;
        try {
          compileEndpointPattern(path, ignoreCase);
        } catch (err) {
          return `${section}.${list}[${i}]: ${(err as Error).message}`;
        }
      }
    }
  }
  return middlewareProblem(asFields(version.extended_paths));
}

function basicAuthProblem(settings: Fields): string | undefined {
  if (settings.extract_from_body !== true) return undefined;
  for (const field of ['body_user_regexp', 'body_password_regexp']) {
    const source = settings[field];
    // A missing expression or a wrong group count is reported by the gateway when it loads the API.
    if (typeof source !== 'string' || source === '') continue;
    try {
      compileTenantPattern(source);
    } catch (err) {
      return `basic_auth.${field} is not a valid pattern: ${(err as Error).message}`;
    }
  }
  return undefined;
}

function asFields(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
}

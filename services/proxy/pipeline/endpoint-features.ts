import type { CompiledVersion } from './compiled-api';
import { compileEndpointEntries } from './endpoint-entries';
import { compileHeaderTransform } from './header-transform';
import { compileRequestValidator, compileJsonBodyValidator } from './request-validation';

type EndpointFeatures = Pick<
  CompiledVersion,
  'sizeLimits' | 'endpointRequestHeaders' | 'endpointResponseHeaders' | 'mockResponses' | 'validators'
>;

/**
 * The per-endpoint lists of a version's `extended_paths` that act on one request each, with the
 * reference gateway's entry shapes: `size_limits` `{path, method, size_limit}`,
 * `transform_headers` and `transform_response_headers` `{path, method, add_headers,
 * delete_headers}`, `mock_response` `{path, method, code, body, headers}`, `validate_json`
 * `{path, method, schema, error_response_code}` and `validate_request` `{path, method,
 * enabled, error_response_code, parameters, request_body}` (the operation's OpenAPI parameters
 * and request body, written there when an OAS definition is compiled). Lists nobody uses are
 * undefined, so their steps stay out of the chain.
 */
export function compileEndpointFeatures(
  extended: Record<string, unknown> | undefined,
  ignoreCase: boolean,
  contextVars: boolean,
): EndpointFeatures {
  const headers = (entry: Record<string, unknown>) =>
    compileHeaderTransform(entry.add_headers, entry.delete_headers, contextVars);
  const validateRequest = compileEndpointEntries(extended?.validate_request, ignoreCase, (entry) =>
    compileRequestValidator(entry),
  );
  const validateJson = compileEndpointEntries(extended?.validate_json, ignoreCase, (entry) =>
    compileJsonBodyValidator(entry),
  );
  return {
    sizeLimits: compileEndpointEntries(extended?.size_limits, ignoreCase, (entry) =>
      Number(entry.size_limit) > 0 ? Number(entry.size_limit) : undefined,
    ),
    endpointRequestHeaders: compileEndpointEntries(extended?.transform_headers, ignoreCase, headers),
    endpointResponseHeaders: compileEndpointEntries(extended?.transform_response_headers, ignoreCase, headers),
    mockResponses: compileEndpointEntries(extended?.mock_response, ignoreCase, (entry) => ({
      code: Number(entry.code) || 200,
      body: typeof entry.body === 'string' ? entry.body : entry.body === undefined ? '' : JSON.stringify(entry.body),
      headers: stringMap(entry.headers),
    })),
    validators:
      validateRequest || validateJson
        ? {
            find: (method, relativePath) => {
              const found = [
                validateJson?.find(method, relativePath),
                validateRequest?.find(method, relativePath),
              ].filter((v) => v !== undefined);
              return found.length === 0 ? undefined : found;
            },
          }
        : undefined,
  };
}

function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value && typeof value === 'object') for (const [name, v] of Object.entries(value)) out[name] = String(v);
  return out;
}

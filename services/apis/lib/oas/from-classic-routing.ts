import type { BodyTransformSettings, OperationSettings, UrlRewriteRule } from './gateway-extension';

type Entry = Record<string, unknown>;
type Reader = [list: string, read: (entry: Entry, settings: OperationSettings) => void];

/** Classic trigger `options` keys and the OAS rule location each comes from. */
const OPTION_RULES: Array<[option: string, at: Exclude<UrlRewriteRule['in'], 'requestBody'>]> = [
  ['header_matches', 'header'],
  ['query_val_matches', 'query'],
  ['path_part_matches', 'path'],
  ['session_meta_matches', 'sessionMetadata'],
  ['request_context_matches', 'requestContext'],
];

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function rulesOf(options: Entry): UrlRewriteRule[] {
  const rules: UrlRewriteRule[] = [];
  for (const [option, at] of OPTION_RULES) {
    for (const [name, match] of Object.entries((options[option] ?? {}) as Record<string, Entry>)) {
      rules.push({
        in: at,
        name,
        pattern: text(match?.match_rx),
        ...(match?.reverse === true ? { negate: true } : {}),
      });
    }
  }
  const payload = options.payload_matches as Entry | undefined;
  if (payload && text(payload.match_rx) !== '')
    rules.push({
      in: 'requestBody',
      pattern: text(payload.match_rx),
      ...(payload.reverse === true ? { negate: true } : {}),
    });
  return rules;
}

function urlRewrite(entry: Entry): OperationSettings['urlRewrite'] {
  const triggers = Array.isArray(entry.triggers) ? (entry.triggers as Entry[]) : [];
  return {
    enabled: true,
    pattern: text(entry.match_pattern),
    rewriteTo: text(entry.rewrite_to),
    ...(triggers.length
      ? {
          triggers: triggers.map((t) => ({
            condition: t.on === 'all' ? ('all' as const) : ('any' as const),
            rules: rulesOf((t.options ?? {}) as Entry),
            rewriteTo: text(t.rewrite_to),
          })),
        }
      : {}),
  };
}

function bodyTransform(entry: Entry): BodyTransformSettings {
  const data = (entry.template_data ?? {}) as Entry;
  const format = data.input_type === 'xml' ? 'xml' : 'json';
  return data.template_mode === 'file'
    ? { enabled: true, format, path: text(data.template_source) }
    : { enabled: true, format, body: text(data.template_source) };
}

function virtualEndpoint(entry: Entry): OperationSettings['virtualEndpoint'] {
  const source =
    entry.function_source_type === 'file'
      ? { path: text(entry.function_source_uri) }
      : { body: text(entry.function_source_uri) };
  return {
    enabled: true,
    functionName: text(entry.response_function_name),
    ...source,
    requireSession: entry.use_session === true,
    proxyOnError: entry.proxy_on_error === true,
  };
}

function cache(entry: Entry): OperationSettings['cache'] {
  const codes = Array.isArray(entry.cache_response_codes)
    ? entry.cache_response_codes.filter((c): c is number => Number.isInteger(c))
    : [];
  return {
    enabled: true,
    ...(codes.length ? { cacheResponseCodes: codes } : {}),
    ...(text(entry.cache_key_regex) ? { cacheByRegex: text(entry.cache_key_regex) } : {}),
    ...(Number(entry.timeout) > 0 ? { timeout: Math.floor(Number(entry.timeout)) } : {}),
  };
}

/**
 * The classic lists that change where a request goes or what its body is, read back into an
 * operation's settings (the reverse of ROUTING_FEATURES in to-classic-routing.ts). The plain
 * `cache` list (paths without a method) has no operation to become and is left out.
 */
export const ROUTING_READERS: Reader[] = [
  ['url_rewrites', (e, s) => (s.urlRewrite = urlRewrite(e))],
  ['transform', (e, s) => (s.transformRequestBody = bodyTransform(e))],
  ['transform_response', (e, s) => (s.transformResponseBody = bodyTransform(e))],
  [
    'method_transforms',
    (e, s) => (s.transformRequestMethod = { enabled: true, toMethod: text(e.to_method).toUpperCase() }),
  ],
  ['advance_cache_config', (e, s) => (s.cache = cache(e))],
  ['internal', (_e, s) => (s.internal = { enabled: true })],
  ['virtual', (e, s) => (s.virtualEndpoint = virtualEndpoint(e))],
];

import { on, type BodyTransformSettings, type OperationSettings, type UrlRewriteRule } from './gateway-extension';
import type { Feature } from './to-classic-operations';

type Entry = Record<string, unknown>;

/** Where each trigger rule of an OAS `urlRewrite` goes in a classic trigger's `options`. */
const RULE_OPTIONS: Record<Exclude<UrlRewriteRule['in'], 'requestBody'>, string> = {
  header: 'header_matches',
  query: 'query_val_matches',
  path: 'path_part_matches',
  sessionMetadata: 'session_meta_matches',
  requestContext: 'request_context_matches',
};

function triggerOptions(rules: UrlRewriteRule[]): Entry {
  const options: Record<string, Entry> = {};
  for (const rule of rules) {
    const match = { match_rx: rule.pattern, reverse: rule.negate === true };
    if (rule.in === 'requestBody') options.payload_matches = match;
    else (options[RULE_OPTIONS[rule.in]] ??= {})[rule.name ?? ''] = match;
  }
  return options;
}

function urlRewriteEntry(settings: OperationSettings): Entry {
  const rewrite = settings.urlRewrite!;
  return {
    match_pattern: rewrite.pattern,
    rewrite_to: rewrite.rewriteTo,
    triggers: (rewrite.triggers ?? []).map((trigger) => ({
      on: trigger.condition,
      options: triggerOptions(trigger.rules),
      rewrite_to: trigger.rewriteTo,
    })),
  };
}

/** `{format, path | body}`: a file of the templates folder, else the base64 template itself. */
function bodyTransformEntry(settings: BodyTransformSettings): Entry {
  const file = settings.path !== undefined && settings.path !== '';
  return {
    template_data: {
      input_type: settings.format,
      template_mode: file ? 'file' : 'blob',
      template_source: file ? settings.path : (settings.body ?? ''),
      enable_session: true,
    },
  };
}

function virtualEntry(settings: OperationSettings): Entry {
  const virtual = settings.virtualEndpoint!;
  const file = virtual.path !== undefined && virtual.path !== '';
  return {
    response_function_name: virtual.functionName ?? virtual.name ?? '',
    function_source_type: file ? 'file' : 'blob',
    function_source_uri: file ? virtual.path : (virtual.body ?? ''),
    use_session: virtual.requireSession === true,
    proxy_on_error: virtual.proxyOnError === true,
  };
}

/**
 * The OAS operation settings that change where a request goes or what its body is, as the
 * classic lists the gateway reads: `urlRewrite` → `url_rewrites`, `transformRequestBody` /
 * `transformResponseBody` → `transform` / `transform_response`, `transformRequestMethod` →
 * `method_transforms`, `cache` → `advance_cache_config`, `internal` → `internal`,
 * `virtualEndpoint` → `virtual`.
 */
export const ROUTING_FEATURES: Feature[] = [
  { list: 'url_rewrites', isOn: (s) => on(s.urlRewrite), entry: (s) => urlRewriteEntry(s) },
  {
    list: 'transform',
    isOn: (s) => on(s.transformRequestBody),
    entry: (s) => bodyTransformEntry(s.transformRequestBody!),
  },
  {
    list: 'transform_response',
    isOn: (s) => on(s.transformResponseBody),
    entry: (s) => bodyTransformEntry(s.transformResponseBody!),
  },
  {
    list: 'method_transforms',
    isOn: (s) => on(s.transformRequestMethod),
    entry: (s) => ({ to_method: s.transformRequestMethod!.toMethod }),
  },
  {
    list: 'advance_cache_config',
    isOn: (s) => on(s.cache),
    entry: (s) => ({
      cache_response_codes: s.cache!.cacheResponseCodes ?? [],
      cache_key_regex: s.cache!.cacheByRegex ?? '',
      timeout: s.cache!.timeout ?? 0,
    }),
  },
  { list: 'internal', isOn: (s) => on(s.internal), entry: () => ({}) },
  { list: 'virtual', isOn: (s) => on(s.virtualEndpoint), entry: (s) => virtualEntry(s) },
];

/**
 * The per-endpoint lists of a version's `extended_paths` the designer edits beside allow, block
 * and ignore, with the reference gateway's entry shapes (what services/proxy reads):
 * `transform` / `transform_response` `{path, method, template_data}`, `transform_headers` /
 * `transform_response_headers` `{path, method, add_headers, delete_headers}`, `url_rewrites`
 * `{path, method, match_pattern, rewrite_to, triggers}`, `method_transforms` `{path, method,
 * to_method}` and `rate_limit` `{path, method, enabled, rate, per}` (docs/limits.md#order-of-the-checks).
 */
export type Entry = Record<string, any>;

export type FieldKind = 'text' | 'number' | 'method' | 'toggle' | 'template' | 'headers' | 'names' | 'select';

export interface EntryField {
  /** dotted path inside the entry */
  key: string;
  label: string;
  kind: FieldKind;
  hint?: string;
  options?: Array<[string, string]>;
}

export interface ListSpec {
  list: string;
  title: string;
  /** what the list does, shown under its title */
  about: string;
  /** the button that adds an entry */
  add: string;
  fields: EntryField[];
  fresh(): Entry;
}

export const METHODS: Array<[string, string]> = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'].map(
  (m) => [m, m],
);

const where: EntryField[] = [
  { key: 'path', label: 'Path', kind: 'text', hint: 'e.g. /orders/{id}' },
  { key: 'method', label: 'Method', kind: 'method' },
];

const bodyTransform = (list: string, title: string, about: string, add: string): ListSpec => ({
  list,
  title,
  about,
  add,
  fields: [
    ...where,
    {
      key: 'template_data.input_type',
      label: 'Body format',
      kind: 'select',
      options: [
        ['json', 'JSON'],
        ['xml', 'XML'],
      ],
    },
    {
      key: 'template_data.template_source',
      label: 'Template',
      kind: 'template',
      hint: 'Go template over the body’s fields, e.g. {"id": "{{.order_id}}"}',
    },
    { key: 'template_data.enable_session', label: "Template sees the key's metadata (._gw_meta)", kind: 'toggle' },
  ],
  fresh: () => ({
    path: '/',
    method: 'POST',
    template_data: { input_type: 'json', template_mode: 'blob', template_source: '', enable_session: false },
  }),
});

const headerTransform = (list: string, title: string, about: string, add: string): ListSpec => ({
  list,
  title,
  about,
  add,
  fields: [
    ...where,
    { key: 'add_headers', label: 'Add headers', kind: 'headers', hint: 'One per line: Name: value' },
    { key: 'delete_headers', label: 'Remove headers', kind: 'names', hint: 'Names, separated by commas' },
  ],
  fresh: () => ({ path: '/', method: 'GET', add_headers: {}, delete_headers: [], act_on: false }),
});

export const ENDPOINT_LISTS: ListSpec[] = [
  bodyTransform(
    'transform',
    'Request body transforms',
    'Rewrite the request body with a template before it goes upstream.',
    'Add a request body transform',
  ),
  bodyTransform(
    'transform_response',
    'Response body transforms',
    "Rewrite the upstream's answer with a template.",
    'Add a response body transform',
  ),
  headerTransform(
    'transform_headers',
    'Request headers',
    'Add or remove headers on the request sent upstream.',
    'Add request headers',
  ),
  headerTransform(
    'transform_response_headers',
    'Response headers',
    "Add or remove headers on the upstream's answer.",
    'Add response headers',
  ),
  {
    list: 'url_rewrites',
    title: 'URL rewrites',
    about: 'Send matching requests to another path (or another API, gw://<api_id>/…).',
    add: 'Add a URL rewrite',
    fields: [
      ...where,
      {
        key: 'match_pattern',
        label: 'Match pattern',
        kind: 'text',
        hint: 'A regular expression over the path, e.g. /old/(.*)',
      },
      { key: 'rewrite_to', label: 'Rewrite to', kind: 'text', hint: 'e.g. /new/$1' },
    ],
    fresh: () => ({ path: '/', method: 'GET', match_pattern: '', rewrite_to: '', triggers: [] }),
  },
  {
    list: 'method_transforms',
    title: 'Method transforms',
    about: 'Change the HTTP method of matching requests.',
    add: 'Add a method transform',
    fields: [...where, { key: 'to_method', label: 'Send upstream as', kind: 'method' }],
    fresh: () => ({ path: '/', method: 'GET', to_method: 'POST' }),
  },
  {
    list: 'rate_limit',
    title: 'Per-endpoint rate limits',
    about:
      'A rate limit of its own for a path and method; other endpoints keep the key’s or the API’s limit. Listed first wins.',
    add: 'Add an endpoint rate limit',
    fields: [
      ...where,
      { key: 'rate', label: 'Requests', kind: 'number' },
      { key: 'per', label: 'Per seconds', kind: 'number' },
      { key: 'enabled', label: 'Enabled', kind: 'toggle' },
    ],
    fresh: () => ({ path: '/', method: 'GET', enabled: true, rate: 10, per: 60 }),
  },
];

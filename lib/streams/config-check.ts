import { literalHostRefusal, refusalReason } from '../net/outbound-address';
import { parseDuration } from './duration';
import {
  INPUTS,
  OUTPUTS,
  PROCESSORS,
  RATE_LIMIT_RESOURCE,
  SWITCH_CASE,
  type ComponentSpec,
  type FieldSpec,
} from './catalogue';

/** A mapping's syntax error, as the Bloblang checker reports it (injected: lib depends on no service). */
/** a mapping's syntax problem, or (kind `interpolation`) an interpolated string's; undefined when it parses */
export type MappingCheck = (text: string, kind?: 'mapping' | 'interpolation') => string | undefined;

type Problems = string[];

const seg = (s: string) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks `x-gw-streaming` against the catalogue: every stream has one known input and output,
 * known processors, known fields of the right kind. Each problem is led by its JSON pointer
 * (which names the stream and the field), so a bad definition is refused whole when saved.
 */
export function streamingProblems(streaming: unknown, at: string, mapping: MappingCheck | undefined): Problems {
  const problems: Problems = [];
  if (!isObject(streaming)) return [`${at}: must be an object with streams`];
  for (const key of Object.keys(streaming))
    if (key !== 'streams') problems.push(`${at}${seg(key)}: is not a known field here`);
  const streams = streaming.streams;
  if (!isObject(streams) || Object.keys(streams).length === 0)
    return [...problems, `${at}/streams: must be an object naming at least one stream`];
  for (const [name, stream] of Object.entries(streams))
    checkStream(stream, `${at}/streams${seg(name)}`, problems, mapping);
  return problems;
}

function checkStream(stream: unknown, at: string, problems: Problems, mapping: MappingCheck | undefined): void {
  if (!isObject(stream)) return void problems.push(`${at}: must be an object with input and output`);
  const limits = new Set<string>();
  if (stream.rate_limit_resources !== undefined) {
    if (!Array.isArray(stream.rate_limit_resources)) problems.push(`${at}/rate_limit_resources: must be an array`);
    else
      stream.rate_limit_resources.forEach((r, i) => {
        checkFields(r, RATE_LIMIT_RESOURCE, `${at}/rate_limit_resources/${i}`, problems, mapping);
        if (isObject(r) && typeof r.label === 'string') limits.add(r.label);
      });
  }
  for (const key of Object.keys(stream))
    if (!['input', 'output', 'pipeline', 'rate_limit_resources'].includes(key))
      problems.push(`${at}${seg(key)}: is not a known field here`);
  const context = { mapping, limits };
  checkComponent(stream.input, INPUTS, `${at}/input`, 'input', problems, context);
  checkComponent(stream.output, OUTPUTS, `${at}/output`, 'output', problems, context);
  if (stream.pipeline !== undefined) {
    if (!isObject(stream.pipeline)) return void problems.push(`${at}/pipeline: must be an object with processors`);
    for (const key of Object.keys(stream.pipeline))
      if (key !== 'processors' && key !== 'threads')
        problems.push(`${at}/pipeline${seg(key)}: is not a known field here`);
    checkProcessors(stream.pipeline.processors, `${at}/pipeline/processors`, problems, context);
  }
}

interface Context {
  mapping: MappingCheck | undefined;
  limits: Set<string>;
}

function checkComponent(
  value: unknown,
  kinds: Record<string, ComponentSpec>,
  at: string,
  what: string,
  problems: Problems,
  context: Context,
): void {
  if (!isObject(value))
    return void problems.push(
      `${at}: is required: an object keyed by the ${what} type (${Object.keys(kinds).join(', ')})`,
    );
  const types = Object.keys(value).filter((k) => k !== 'label');
  if (types.length !== 1)
    return void problems.push(
      `${at}: must name exactly one ${what} type (${Object.keys(kinds).join(', ')}), found ${types.length}`,
    );
  if (value.label !== undefined && typeof value.label !== 'string') problems.push(`${at}/label: must be a string`);
  const type = types[0];
  const spec = kinds[type];
  if (!spec)
    return void problems.push(
      `${at}${seg(type)}: unknown ${what} type "${type}"; known: ${Object.keys(kinds).join(', ')}`,
    );
  checkFields(value[type] ?? {}, spec, `${at}${seg(type)}`, problems, context.mapping, context);
}

function checkProcessors(list: unknown, at: string, problems: Problems, context: Context): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) return void problems.push(`${at}: must be an array of processors`);
  list.forEach((processor, i) => {
    const here = `${at}/${i}`;
    if (!isObject(processor)) return void problems.push(`${here}: must be an object keyed by the processor type`);
    const types = Object.keys(processor).filter((k) => k !== 'label');
    if (types.length !== 1)
      return void problems.push(
        `${here}: must name exactly one processor type (${Object.keys(PROCESSORS).join(', ')})`,
      );
    const type = types[0];
    const spec = PROCESSORS[type];
    const body = processor[type];
    if (!spec)
      return void problems.push(
        `${here}${seg(type)}: unknown processor type "${type}"; known: ${Object.keys(PROCESSORS).join(', ')}`,
      );
    if (spec === 'mapping')
      return checkValue(body, { kind: 'mapping', required: true }, `${here}${seg(type)}`, problems, context);
    if (spec === 'switch') {
      const cases = isObject(body) ? body.cases : body;
      const casesAt = isObject(body) ? `${here}/switch/cases` : `${here}/switch`;
      if (!Array.isArray(cases)) return void problems.push(`${casesAt}: must be an array of cases`);
      return cases.forEach((c, j) =>
        checkFields(c, SWITCH_CASE, `${casesAt}/${j}`, problems, context.mapping, context),
      );
    }
    checkFields(body ?? {}, spec, `${here}${seg(type)}`, problems, context.mapping, context);
  });
}

function checkFields(
  value: unknown,
  spec: ComponentSpec,
  at: string,
  problems: Problems,
  mapping: MappingCheck | undefined,
  context: Context = { mapping, limits: new Set() },
): void {
  if (!isObject(value)) return void problems.push(`${at}: must be an object`);
  for (const [field, v] of Object.entries(value)) {
    if (!spec[field])
      problems.push(`${at}${seg(field)}: is not a known field here (known: ${Object.keys(spec).join(', ')})`);
    else checkValue(v, spec[field], `${at}${seg(field)}`, problems, context);
  }
  for (const [field, s] of Object.entries(spec))
    if (s.required && value[field] === undefined) problems.push(`${at}${seg(field)}: is required`);
}

function checkValue(v: unknown, spec: FieldSpec, at: string, problems: Problems, context: Context): void {
  const bad = (message: string) => void problems.push(`${at}: ${message}`);
  switch (spec.kind) {
    case 'string':
      if (typeof v !== 'string') return bad('must be a string');
      if (spec.oneOf && !spec.oneOf.includes(v.toUpperCase()) && !spec.oneOf.includes(v))
        return bad(`must be one of ${spec.oneOf.join(', ')}`);
      if (at.endsWith('/rate_limit') && !context.limits.has(v))
        return bad(`names no rate_limit_resources entry of this stream ("${v}")`);
      if (at.endsWith('path') && !v.startsWith('/')) return bad(`a path must start with '/'`);
      if (spec.interpolated && v.includes('${!')) {
        const error = context.mapping?.(v, 'interpolation');
        if (error) return bad(error);
      }
      // an interpolated url is checked with its `${! … }` parts as placeholders, again once resolved
      if (/\/(url|portal_url)$/.test(at)) return urlProblem(v.replace(/\$\{!.*?\}/g, 'x'), bad);
      return;
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : bad('must be a non-negative number');
    case 'boolean':
      return typeof v === 'boolean' ? undefined : bad('must be true or false');
    case 'duration': {
      const ms = parseDuration(v);
      if (ms === undefined) return bad('must be a duration such as "500ms", "5s" or "1m"');
      // every duration setting is a timeout, a period or an interval
      return ms < 0 ? bad(`must not be negative (got "${String(v)}")`) : undefined;
    }
    case 'strings':
      return Array.isArray(v) && v.every((s) => typeof s === 'string') ? undefined : bad('must be an array of strings');
    case 'numbers':
      return Array.isArray(v) && v.every((s) => Number.isInteger(s))
        ? undefined
        : bad('must be an array of status codes');
    case 'string-map':
      if (!isObject(v) || !Object.values(v).every((s) => typeof s === 'string'))
        return bad('must be an object of strings');
      if (spec.interpolated)
        for (const [name, text] of Object.entries(v))
          checkValue(text, { kind: 'string', interpolated: true }, `${at}${seg(name)}`, problems, context);
      return;
    case 'object':
      return checkFields(v, spec.fields ?? {}, at, problems, context.mapping, context);
    case 'mapping': {
      if (typeof v !== 'string') return bad('must be a mapping (a string)');
      const error = context.mapping?.(v);
      return error ? bad(error) : undefined;
    }
    case 'processors':
      return checkProcessors(v, at, problems, context);
    case 'inputs':
    case 'outputs': {
      if (!Array.isArray(v) || v.length === 0) return bad(`must be a non-empty array of ${spec.kind}`);
      const kinds = spec.kind === 'inputs' ? INPUTS : OUTPUTS;
      return v.forEach((item, i) =>
        checkComponent(item, kinds, `${at}/${i}`, spec.kind.slice(0, -1), problems, context),
      );
    }
    default:
      return;
  }
}

/**
 * Outbound URLs of a stream: http(s) only, never an address the outbound policy refuses (checked
 * again at run time, after DNS).
 */
function urlProblem(text: string, bad: (message: string) => void): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return bad('must be an http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return bad('must be an http:// or https:// URL');
  const refusal = literalHostRefusal(url);
  const metadataHost = url.hostname.toLowerCase() === 'metadata.google.internal';
  if (refusal?.reason === 'forbidden' || metadataHost) return bad('may not point at a cloud metadata address');
  if (refusal) return bad(`may not point at ${refusalReason(refusal)}`);
}

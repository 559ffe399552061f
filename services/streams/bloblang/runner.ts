import { hostname } from 'node:os';
import { defaultTimeBudget, withTimeBudget } from './budget';
import { LimitError, MappingError, MappingSyntaxError, QueryError } from './errors';
import { compileMapping, type CompiledMapping } from './parse-mapping';
import { parseJson } from './parse-json';
import { Context, DEFAULT_LIMITS, type Execution, type Query, type RuntimeOptions } from './query';
import { runStatements } from './statements';
import { Timestamp } from './timestamp';
import { DELETE, NOTHING, cloneValue, fromPlain, toJson, toPlain, toText, type Result, type Value } from './values';

/*
 * Bloblang, the mapping language of the reference gateway's streams (Bento's language), as a
 * library: parse a mapping once, execute it per message. No Moleculer, no I/O.
 */

/** A message as a stream holds it. A content that is neither bytes nor a string is a parsed JSON document. */
export interface MappingMessage {
  content: Buffer | Uint8Array | string | unknown;
  metadata?: Record<string, unknown>;
  /** the error an earlier processor flagged, read by `error()` */
  error?: string | null;
}

export interface MappedMessage {
  /** the new content as bytes (a structured root is serialised as JSON, keys sorted) */
  content: Buffer;
  /** the new content as a document when the mapping produced a structured root, else undefined
   *  (integers beyond 2^53 stay bigints there; `content` is always exact) */
  structured: unknown;
  metadata: Record<string, unknown>;
}

export type MappingOutcome =
  { kind: 'message'; message: MappedMessage } | { kind: 'deleted' } | { kind: 'error'; error: MappingError };

export interface Mapping {
  readonly source: string;
  /** @internal the compiled program */
  readonly compiled: CompiledMapping;
}

export type MappingOptions = Partial<Omit<RuntimeOptions, 'limits'>> & { limits?: Partial<RuntimeOptions['limits']> };

/** Environment variables a mapping may read with env("NAME") are named GW_STREAMS_ENV_NAME. */
export const DEFAULT_ENV_PREFIX = 'GW_STREAMS_ENV_';

export function parseMapping(text: string): Mapping | MappingSyntaxError {
  try {
    const compiled = compileMapping(text);
    if (compiled instanceof MappingSyntaxError) return compiled;
    return { source: text, compiled };
  } catch (err) {
    if (err instanceof RangeError) return new MappingSyntaxError(1, 1, 'mapping is nested too deeply');
    return new MappingSyntaxError(1, 1, `mapping could not be parsed: ${(err as Error)?.message ?? String(err)}`);
  }
}

function runtimeOptions(options: MappingOptions = {}): RuntimeOptions {
  return {
    envPrefix: options.envPrefix ?? DEFAULT_ENV_PREFIX,
    env: options.env ?? {},
    now: options.now ?? (() => Timestamp.fromMillis(Date.now())),
    hostname: options.hostname ?? hostname,
    limits: { ...DEFAULT_LIMITS, maxMillis: defaultTimeBudget(), ...options.limits },
  };
}

interface Prepared {
  run: Execution;
  original: { bytes: Uint8Array; value: Value | undefined };
}

function prepare(mapping: Mapping, message: MappingMessage, options?: MappingOptions): Prepared {
  const raw = message.content;
  let bytes: Uint8Array;
  let value: Value | undefined;
  let parseError: Error | undefined;
  if (raw instanceof Uint8Array) bytes = raw;
  else if (typeof raw === 'string') bytes = Buffer.from(raw);
  else {
    value = fromPlain(raw);
    bytes = Buffer.from(toJson(value));
  }
  const inputMeta = new Map<string, Value>();
  for (const [k, v] of Object.entries(message.metadata ?? {})) inputMeta.set(k, fromPlain(v));
  const run: Execution = {
    content: () => bytes,
    structured() {
      if (value !== undefined) return value;
      if (parseError) throw parseError;
      try {
        value = parseJson(Buffer.from(bytes).toString('utf8'));
        return value;
      } catch (err) {
        if (err instanceof LimitError) throw err;
        parseError = new Error(bytes.length === 0 ? 'message is empty' : `parse as json: ${(err as Error).message}`);
        throw parseError;
      }
    },
    inputMeta,
    meta: new Map(inputMeta),
    error: message.error ?? null,
    vars: new Map(),
    maps: mapping.compiled.maps,
    counters: mapping.compiled.counters,
    options: runtimeOptions(options),
    depth: 0,
    steps: 0,
  };
  return {
    run,
    original: {
      bytes,
      get value() {
        return value;
      },
    },
  };
}

function failure(err: unknown): MappingError {
  if (err instanceof LimitError) return new MappingError(err.message, true);
  if (err instanceof QueryError) return new MappingError(err.message);
  if (err instanceof RangeError) {
    return new MappingError('mapping exceeded the maximum call depth, this could be due to unbounded recursion', true);
  }
  return new MappingError(`mapping failed: ${(err as Error)?.message ?? String(err)}`);
}

/** Runs a mapping on one message. Never throws: a failure is returned as a MappingError. */
export function execute(mapping: Mapping, message: MappingMessage, options?: MappingOptions): MappingOutcome {
  try {
    return withTimeBudget(timeBudgetOf(options), () => {
      const { run, original } = prepare(mapping, message, options);
      return finish(mapping, run, { value: NOTHING }, original);
    });
  } catch (err) {
    return { kind: 'error', error: failure(err) };
  }
}

function timeBudgetOf(options: MappingOptions | undefined): number {
  return options?.limits?.maxMillis ?? defaultTimeBudget();
}

/**
 * Bento's MapOnto (a branch's `result_map`): queries read `source` (the branch result: `this`,
 * content(), meta()), while `root` starts as `onto`'s document and `meta` assignments and `@`
 * act on `onto`'s metadata. An `onto` that is not JSON starts from an empty root and keeps its
 * content unless the mapping assigns one.
 */
export function executeOnto(
  mapping: Mapping,
  source: MappingMessage,
  onto: MappingMessage,
  options?: MappingOptions,
): MappingOutcome {
  try {
    return withTimeBudget(timeBudgetOf(options), () => {
      const { run } = prepare(mapping, source, options);
      const target = prepare(mapping, onto, options);
      run.meta = new Map(target.run.inputMeta);
      let start: Result = NOTHING;
      try {
        start = cloneValue(target.run.structured());
      } catch (err) {
        if (err instanceof LimitError) throw err;
        // not structured: the root starts empty, as in Bento
      }
      return finish(mapping, run, { value: start }, target.original);
    });
  } catch (err) {
    return { kind: 'error', error: failure(err) };
  }
}

function finish(
  mapping: Mapping,
  run: Execution,
  root: { value: Result },
  original: Prepared['original'],
): MappingOutcome {
  runStatements(mapping.compiled.statements, Context.start(run, root), true);
  if (root.value === DELETE) return { kind: 'deleted' };
  const metadata: Record<string, unknown> = {};
  for (const [k, v] of run.meta)
    Object.defineProperty(metadata, k, { value: toPlain(v), enumerable: true, writable: true, configurable: true });
  return { kind: 'message', message: { ...contentOf(root.value, original, run), metadata } };
}

function contentOf(
  root: Result,
  original: Prepared['original'],
  run: Execution,
): { content: Buffer; structured: unknown } {
  if (root === NOTHING)
    return {
      content: Buffer.from(original.bytes),
      structured: original.value === undefined ? undefined : toPlain(original.value),
    };
  const v = root as Value;
  if (typeof v === 'string') return { content: Buffer.from(v), structured: undefined };
  if (v instanceof Uint8Array) return { content: Buffer.from(v), structured: undefined };
  const json = toJson(v);
  if (json.length > run.options.limits.maxValueBytes)
    throw new QueryError(
      `mapped document of ${json.length} bytes exceeds the limit of ${run.options.limits.maxValueBytes} bytes`,
    );
  return { content: Buffer.from(json), structured: toPlain(v) };
}

/** A `check` (switch cases, Bento's QueryPart): the mapping must produce a boolean. */
export function check(mapping: Mapping, message: MappingMessage, options?: MappingOptions): boolean | MappingError {
  const outcome = execute(mapping, message, options);
  if (outcome.kind === 'error') return outcome.error;
  if (outcome.kind === 'deleted')
    return new MappingError('query mapping resulted in deleted message, expected a boolean value');
  const value = outcome.message.structured;
  if (typeof value === 'boolean') return value;
  const text = outcome.message.content.toString('utf8');
  if (text === 'true' || text === 'false') return text === 'true';
  return new MappingError(
    `expected bool value, got ${value === undefined ? 'string' : value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value === 'number' ? 'number' : 'string'} from mapping`,
  );
}

/** Evaluates one query (of an interpolation) against a message, as text. */
export function execValueForText(
  q: Query,
  message: MappingMessage,
  options: MappingOptions | undefined,
  counters: Map<string, bigint>,
): string | MappingError {
  try {
    return withTimeBudget(timeBudgetOf(options), () => {
      const query = { source: '', compiled: { source: '', statements: [], maps: new Map(), counters } };
      const { run } = prepare(query, message, options);
      const v = q.exec(Context.start(run, { value: NOTHING }));
      return typeof v === 'symbol' ? 'null' : toText(v);
    });
  } catch (err) {
    return failure(err);
  }
}

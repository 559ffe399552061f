import { parse as parseYamlText, stringify as stringifyYaml } from 'yaml';
import { pace } from './budget';
import { LimitError } from './errors';
import { textMethod, valueMethod } from './method-kit';
import { param } from './params';
import { checkSize, fail } from './query';
import type { MethodSpec } from './registry';
import { fromPlain, isObject, newObject, toPlain, type Value } from './values';

/**
 * The YAML library's work can not be interrupted by the time budget and grows faster than its
 * input (a mapping's keys are checked against each other): what it reads and writes is bounded.
 */
const MAX_YAML_TEXT = 8 * 1024;
const MAX_YAML_NODES = 2048;

/** elements of a value, counted up to just past `max` */
function countNodes(v: Value, max: number): number {
  let count = 0;
  const within = (x: Value): boolean => {
    if (++count > max) return false;
    if (Array.isArray(x)) return x.every(within);
    if (isObject(x)) return Object.keys(x).every((k) => within(x[k]));
    return true;
  };
  within(v);
  return count;
}

/** Go's encoding/csv reading: quoted fields with "" escapes, every record as wide as the first */
function parseCsv(text: string, delimiter: string, lazyQuotes: boolean): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    if (!(record.length === 1 && record[0] === '')) {
      if (records.length > 0 && record.length !== records[0].length)
        fail(`record on line ${line}: wrong number of fields`);
      records.push(record);
    }
    record = [];
  };
  for (let i = 0; i < text.length; i++) {
    pace();
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') field += text[i++];
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === '"' && !lazyQuotes) fail(`parse error on line ${line}, column ${i + 1}: bare " in non-quoted-field`);
    else if (text.startsWith(delimiter, i)) {
      endField();
      i += delimiter.length - 1;
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      if (c === '\r') i++;
      endRecord();
      line++;
    } else field += c;
    if (c === '\n' && quoted) line++;
  }
  if (quoted && !lazyQuotes) fail(`parse error on line ${line}: extraneous or missing " in quoted-field`);
  if (field !== '' || record.length > 0) endRecord();
  return records;
}

export const FORMAT_METHODS: Record<string, MethodSpec> = {
  parse_csv: textMethod(
    [
      param('parse_header_row', 'bool', { default: true }),
      param('delimiter', 'string', { default: ',' }),
      param('lazy_quotes', 'bool', { default: false }),
    ],
    (s, args, ctx) => {
      const delimiter = args.string('delimiter', ctx);
      if ([...delimiter].length !== 1) fail('delimiter value must be exactly one character');
      const records = parseCsv(s, delimiter, args.bool('lazy_quotes', ctx));
      if (!args.bool('parse_header_row', ctx)) return records;
      const [header, ...rows] = records;
      return rows.map((row) => {
        const out = newObject();
        (header ?? []).forEach((name, i) => (out[name] = row[i]));
        return out;
      });
    },
  ),
  parse_yaml: textMethod([], (s) => {
    if (s.length > MAX_YAML_TEXT) {
      throw new LimitError(`YAML of ${s.length} characters exceeds the limit of ${MAX_YAML_TEXT}`);
    }
    try {
      return fromPlain(parseYamlText(s, { maxAliasCount: 100 }));
    } catch (err) {
      if (err instanceof LimitError) throw err;
      return fail(`failed to parse value as YAML: ${(err as Error).message.split('\n')[0]}`);
    }
  }),
  format_yaml: valueMethod([], (v: Value, _args, ctx) => {
    if (countNodes(v, MAX_YAML_NODES) > MAX_YAML_NODES) {
      throw new LimitError(`a value of more than ${MAX_YAML_NODES} elements can not be written as YAML`);
    }
    const text = stringifyYaml(toPlain(v), { indent: 4, sortMapEntries: true });
    checkSize(text.length, ctx);
    return new Uint8Array(Buffer.from(text));
  }),
};

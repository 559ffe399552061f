import { parse as parseYamlText, stringify as stringifyYaml } from 'yaml';
import { textMethod, valueMethod } from './method-kit';
import { param } from './params';
import { checkSize, fail } from './query';
import type { MethodSpec } from './registry';
import { fromPlain, newObject, toPlain, type Value } from './values';

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
      if (records.length > 0 && record.length !== records[0].length) fail(`record on line ${line}: wrong number of fields`);
      records.push(record);
    }
    record = [];
  };
  for (let i = 0; i < text.length; i++) {
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
    [param('parse_header_row', 'bool', { default: true }), param('delimiter', 'string', { default: ',' }), param('lazy_quotes', 'bool', { default: false })],
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
    try {
      return fromPlain(parseYamlText(s, { maxAliasCount: 100 }));
    } catch (err) {
      return fail(`failed to parse value as YAML: ${(err as Error).message.split('\n')[0]}`);
    }
  }),
  format_yaml: valueMethod([], (v: Value, _args, ctx) => {
    const text = stringifyYaml(toPlain(v), { indent: 4, sortMapEntries: true });
    checkSize(text.length, ctx);
    return new Uint8Array(Buffer.from(text));
  }),
};

import { QueryError } from './errors';
import { parseQuery, type Scope } from './parse-query';
import { literal } from './paths';
import type { Query } from './query';
import type { Cursor } from './scanner';
import { DELETE, NOTHING, newObject, type Value } from './values';

export function parseNumber(c: Cursor): Query {
  const m = /^[0-9]+(\.[0-9]+)?/.exec(c.text.slice(c.pos));
  c.pos += m![0].length;
  if (m![1]) return literal(Number(m![0]));
  const big = BigInt(m![0]);
  if (BigInt.asIntN(64, big) !== big) throw c.fatal(`number ${m![0]} overflows int64`);
  return literal(big);
}

export function parseArray(c: Cursor, scope: Scope): Query {
  c.pos++;
  const items = delimited(c, ']', () => parseQuery(c, scope));
  if (items.every((i) => i.literal)) return literal(items.map((i) => i.literal!.value));
  return {
    annotation: 'array literal',
    exec(ctx) {
      const out: Value[] = [];
      for (const item of items) {
        const v = item.exec(ctx);
        if (v === DELETE || v === NOTHING) continue;
        out.push(v);
      }
      return out;
    },
  };
}

export function parseObject(c: Cursor, scope: Scope): Query {
  c.pos++;
  const entries = delimited(c, '}', () => {
    const key: string | Query = c.char() === '"' && !c.peek('"""') ? c.quoted()! : parseQuery(c, scope);
    c.spaces();
    c.expect(':', 'colon');
    c.gap();
    return { key, value: parseQuery(c, scope) };
  });
  if (entries.every((e) => typeof e.key === 'string' && e.value.literal)) {
    const obj = newObject();
    for (const e of entries) obj[e.key as string] = e.value.literal!.value;
    return literal(obj);
  }
  return {
    annotation: 'object literal',
    exec(ctx) {
      const out = newObject();
      for (const { key, value } of entries) {
        let k: string;
        if (typeof key === 'string') k = key;
        else {
          const kv = key.exec(ctx);
          if (typeof kv !== 'string')
            throw new QueryError(
              `mapping returned invalid key type: ${typeof kv === 'symbol' ? String(kv) : kv === null ? 'null' : typeof kv}`,
            );
          k = kv;
        }
        const v = value.exec(ctx);
        if (v === DELETE || v === NOTHING) continue;
        out[k] = v;
      }
      return out;
    },
  };
}

/** items separated by commas (newlines allowed around them), up to `close` */
export function delimited<T>(c: Cursor, close: string, item: () => T, separators = [',']): T[] {
  const out: T[] = [];
  c.gap();
  if (c.eat(close)) return out;
  for (;;) {
    out.push(item());
    c.spaces();
    if (separators.some((s) => c.eat(s))) {
      c.gap();
      if (c.eat(close)) return out;
      continue;
    }
    if (separators.includes('\n') || c.char() === '#') {
      const save = c.pos;
      if (c.endOfLine() && c.pos > save) {
        c.gap();
        if (c.eat(close)) return out;
        continue;
      }
    }
    c.gap();
    if (c.eat(close)) return out;
    throw c.failure(
      ...separators.map((s) => (s === ',' ? 'comma' : 'line break')),
      `closing ${close === ']' ? 'square bracket' : close === '}' ? 'curly brace' : 'bracket'}`,
    );
  }
}

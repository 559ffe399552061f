import { pace } from './budget';
import { int64, newObject, type Value } from './values';

/** deeper documents are refused (Go allows 10,000; a JavaScript stack is smaller) */
const MAX_DEPTH = 512;

/**
 * JSON text → Value, keeping what JSON.parse loses: a number written without fraction or
 * exponent is an integer (Go's json.Number then ISanitize), and `__proto__` is an ordinary key.
 * Errors read like Go's encoding/json.
 */
export function parseJson(text: string): Value {
  const reader = new JsonReader(text);
  const result = reader.value(0);
  reader.skip();
  if (!reader.done) reader.fail('after top-level value');
  return result;
}

class JsonReader {
  private at = 0;
  constructor(private readonly text: string) {}

  get done(): boolean {
    return this.at >= this.text.length;
  }

  fail(what: string): never {
    if (this.done) throw new SyntaxError('unexpected end of JSON input');
    const c = this.text[this.at];
    throw new SyntaxError(`invalid character ${c === "'" ? `'\\''` : `'${c}'`} ${what}`);
  }

  skip(): void {
    while (!this.done && ' \t\n\r'.includes(this.text[this.at])) this.at++;
  }

  value(depth: number): Value {
    pace();
    if (depth > MAX_DEPTH) throw new SyntaxError('exceeded max depth');
    this.skip();
    const c = this.text[this.at];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const [word, result] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return result;
      }
    }
    return this.fail('looking for beginning of value');
  }

  /** the items of an object or array up to `close`, each read by `item` */
  private items(close: string, after: string, item: () => void): void {
    this.at++;
    this.skip();
    if (this.text[this.at] === close) {
      this.at++;
      return;
    }
    for (;;) {
      item();
      this.skip();
      if (this.text[this.at] === ',') this.at++;
      else if (this.text[this.at] === close) {
        this.at++;
        return;
      } else this.fail(after);
    }
  }

  private object(depth: number): Value {
    const out = newObject();
    this.items('}', 'after object key:value pair', () => {
      this.skip();
      if (this.text[this.at] !== '"') this.fail('looking for beginning of object key string');
      const key = this.string();
      this.skip();
      if (this.text[this.at] !== ':') this.fail('after object key');
      this.at++;
      out[key] = this.value(depth + 1);
    });
    return out;
  }

  private array(depth: number): Value {
    const out: Value[] = [];
    this.items(']', 'after array element', () => out.push(this.value(depth + 1)));
    return out;
  }

  private string(): string {
    const start = this.at;
    this.at++;
    while (!this.done && this.text[this.at] !== '"') {
      if (this.text[this.at] === '\\') this.at++;
      else if (this.text.charCodeAt(this.at) < 0x20) this.fail('in string literal');
      this.at++;
    }
    if (this.done) this.fail('');
    this.at++;
    try {
      return JSON.parse(this.text.slice(start, this.at)) as string;
    } catch {
      this.at = start;
      return this.fail('in string escape code');
    }
  }

  private number(): Value {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.at, this.at + 400));
    if (!m) return this.fail('in numeric literal');
    this.at += m[0].length;
    if (m[2] || m[3]) return Number(m[0]);
    const big = BigInt(m[0]);
    return int64(big) === big ? big : Number(m[0]);
  }
}

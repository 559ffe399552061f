/**
 * The character cursor under the parser. Bloblang is line-oriented (a newline ends a statement,
 * a binary operator must stay on its operand's line), so whitespace is skipped explicitly:
 * `spaces()` within a line, `gap()` across lines and `#` comments.
 */
export class ParseFailure {
  constructor(
    readonly pos: number,
    readonly expected: string[],
    /** a definite error (bad escape, unknown function): alternatives are not tried */
    readonly fatal?: string,
  ) {}
}

const WORD = /[A-Za-z0-9_]/;

export class Cursor {
  pos = 0;
  private lineStarts: number[] | null = null;
  constructor(readonly text: string) {}

  /** 1-based line of a position (statements carry it for their error messages) */
  lineOf(pos: number): number {
    if (!this.lineStarts) {
      this.lineStarts = [0];
      for (let i = 0; i < this.text.length; i++) if (this.text[i] === '\n') this.lineStarts.push(i + 1);
    }
    let [low, high] = [0, this.lineStarts.length - 1];
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid] <= pos) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  }

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  peek(s: string, at = this.pos): boolean {
    return this.text.startsWith(s, at);
  }

  char(offset = 0): string {
    return this.text[this.pos + offset] ?? '';
  }

  eat(s: string): boolean {
    if (!this.peek(s)) return false;
    this.pos += s.length;
    return true;
  }

  /** a keyword: `s` not followed by a word character */
  eatWord(s: string): boolean {
    if (!this.peek(s) || WORD.test(this.text[this.pos + s.length] ?? '')) return false;
    this.pos += s.length;
    return true;
  }

  expect(s: string, what = s): void {
    if (!this.eat(s)) throw this.failure(what);
  }

  spaces(): void {
    while (this.char() === ' ' || this.char() === '\t') this.pos++;
  }

  /** whitespace, newlines and comments */
  gap(): void {
    for (;;) {
      const c = this.char();
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.pos++;
      else if (c === '#') while (!this.done && this.char() !== '\n') this.pos++;
      else return;
    }
  }

  /** the end of a statement: spaces, an optional comment, then a newline or the end */
  endOfLine(): boolean {
    this.spaces();
    if (this.char() === '#') while (!this.done && this.char() !== '\n') this.pos++;
    if (this.char() === '\r') this.pos++;
    if (this.done) return true;
    return this.eat('\n');
  }

  word(): string | null {
    const start = this.pos;
    while (WORD.test(this.char())) this.pos++;
    return this.pos > start ? this.text.slice(start, this.pos) : null;
  }

  lookWord(): string | null {
    const start = this.pos;
    const w = this.word();
    this.pos = start;
    return w;
  }

  failure(...expected: string[]): ParseFailure {
    return new ParseFailure(this.pos, expected);
  }

  fatal(message: string, at = this.pos): ParseFailure {
    return new ParseFailure(at, [], message);
  }

  /** a double-quoted string with Go escapes, or a triple-quoted raw string */
  quoted(): string | null {
    if (this.peek('"""')) {
      const end = this.text.indexOf('"""', this.pos + 3);
      if (end < 0) throw new ParseFailure(this.text.length, ['end triple-quote'], 'required');
      const body = this.text.slice(this.pos + 3, end);
      this.pos = end + 3;
      return body;
    }
    if (this.char() !== '"') return null;
    const start = this.pos;
    let out = '';
    this.pos++;
    for (;;) {
      if (this.done || this.char() === '\n') throw new ParseFailure(this.pos, ['end quote'], 'required');
      const c = this.char();
      if (c === '"') {
        this.pos++;
        return out;
      }
      if (c !== '\\') {
        out += c;
        this.pos++;
        continue;
      }
      out += this.escape(start);
    }
  }

  private escape(start: number): string {
    const c = this.char(1);
    const simple: Record<string, string> = {
      a: '\x07',
      b: '\b',
      f: '\f',
      n: '\n',
      r: '\r',
      t: '\t',
      v: '\v',
      '\\': '\\',
      '"': '"',
    };
    if (c in simple) {
      this.pos += 2;
      return simple[c];
    }
    const hex = (len: number) => {
      const digits = this.text.slice(this.pos + 2, this.pos + 2 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(digits))
        throw this.fatal('failed to unescape quoted string contents: invalid syntax', start);
      this.pos += 2 + len;
      return parseInt(digits, 16);
    };
    if (c === 'x') return String.fromCharCode(hex(2));
    if (c === 'u') return String.fromCodePoint(hex(4));
    if (c === 'U') {
      const cp = hex(8);
      if (cp > 0x10ffff) throw this.fatal('failed to unescape quoted string contents: invalid syntax', start);
      return String.fromCodePoint(cp);
    }
    if (/[0-7]/.test(c)) {
      const digits = this.text.slice(this.pos + 1, this.pos + 4);
      if (!/^[0-7]{3}$/.test(digits))
        throw this.fatal('failed to unescape quoted string contents: invalid syntax', start);
      this.pos += 4;
      return String.fromCharCode(parseInt(digits, 8));
    }
    throw this.fatal('failed to unescape quoted string contents: invalid syntax', start);
  }
}

/** 1-based line and column of a character offset */
export function lineAndColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < pos && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: pos - lineStart + 1 };
}

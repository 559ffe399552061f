import { RegoError, type Location } from './errors';
import type { Token } from './lexer';

/**
 * Walks the tokens. Inside brackets, parentheses and braces of a term, newlines mean nothing
 * and are skipped; in a rule body they end an expression, so the body switches that off.
 */
export class TokenCursor {
  private at = 0;
  private readonly modes: Array<'term' | 'body'> = ['body'];

  constructor(private readonly tokens: Token[]) {}

  /** skips newlines while inside a term's brackets */
  peek(): Token {
    if (this.modes[this.modes.length - 1] === 'term') this.skipNewlines();
    return this.tokens[this.at];
  }

  /** the token after the next one (newlines skipped as `peek` does) */
  peekSecond(): Token {
    const first = this.peek();
    let i = this.tokens.indexOf(first, this.at) + 1;
    if (this.modes[this.modes.length - 1] === 'term') while (this.tokens[i]?.kind === 'newline') i++;
    return this.tokens[Math.min(i, this.tokens.length - 1)];
  }

  next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.at++;
    return token;
  }

  skipNewlines(): void {
    while (this.tokens[this.at].kind === 'newline') this.at++;
  }

  isPunct(text: string): boolean {
    const token = this.peek();
    return token.kind === 'punct' && token.text === text;
  }

  isWord(text: string): boolean {
    const token = this.peek();
    return token.kind === 'ident' && token.text === text;
  }

  eat(text: string): boolean {
    if (!this.isPunct(text) && !this.isWord(text)) return false;
    this.next();
    return true;
  }

  expect(text: string): Token {
    const token = this.peek();
    if ((token.kind === 'punct' || token.kind === 'ident') && token.text === text) return this.next();
    throw this.error(`expected '${text}' but found ${describe(token)}`, token);
  }

  expectIdent(what: string): Token {
    const token = this.peek();
    if (token.kind !== 'ident') throw this.error(`expected ${what} but found ${describe(token)}`, token);
    return this.next();
  }

  /** runs `parse` with newlines skipped (inside a term) or significant (inside a body) */
  within<T>(mode: 'term' | 'body', parse: () => T): T {
    this.modes.push(mode);
    try {
      return parse();
    } finally {
      this.modes.pop();
    }
  }

  error(message: string, at: Location = this.peek()): RegoError {
    return new RegoError('syntax', message, { line: at.line, column: at.column });
  }
}

export function describe(token: Token): string {
  if (token.kind === 'eof') return 'the end of the file';
  if (token.kind === 'newline') return 'the end of the line';
  if (token.kind === 'string') return `the string ${JSON.stringify(token.text)}`;
  return `'${token.text}'`;
}

export function locOf(token: Token): Location {
  return { line: token.line, column: token.column };
}

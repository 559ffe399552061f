/**
 * The part of Go's text/template that the reference gateway's body transforms use, parsed
 * once: text, `{{pipeline}}`, `{{if}}`/`{{else if}}`/`{{else}}`, `{{range}}` (with `$i, $v :=`
 * and `{{else}}`), `{{with}}`, `{{$x := pipeline}}`, `{{$x = pipeline}}`, comments, the
 * `{{-`/`-}}` trim markers, and `{{break}}`/`{{continue}}` in a range. A pipeline is commands
 * joined by `|`; a command is an operand (`.`, `.a.b`, `$`, `$x.a`, a string, character or
 * number constant, `true`/`false`/`nil`, a parenthesised pipeline) or a function with
 * arguments. An integer constant is a Go int (`bigint`), any other number a float64.
 */
export type Operand =
  | { kind: 'field'; base: 'dot' | 'root' | string; path: string[] }
  | { kind: 'literal'; value: unknown }
  | { kind: 'call'; name: string; args: Operand[] }
  | { kind: 'pipe'; pipe: Pipeline };

export interface Pipeline {
  commands: Operand[];
  /** `$x := …` / `$i, $v := …`, or with `assign` `$x = …` */
  declare: string[];
  assign?: boolean;
}

export type Node =
  | { kind: 'text'; text: string }
  | { kind: 'print'; pipe: Pipeline }
  | { kind: 'if'; pipe: Pipeline; then: Node[]; otherwise: Node[] }
  | { kind: 'with'; pipe: Pipeline; then: Node[]; otherwise: Node[] }
  | { kind: 'range'; pipe: Pipeline; then: Node[]; otherwise: Node[] }
  | { kind: 'break' }
  | { kind: 'continue' };

export class TemplateError extends Error {}

interface Action {
  text: string;
}

/** The white space Go's trim markers remove. */
const SPACE = ' \t\r\n';

/** Splits the source into text and actions, applying the trim markers. */
function lex(source: string): Array<string | Action> {
  const parts: Array<string | Action> = [];
  let at = 0;
  while (at < source.length) {
    const open = source.indexOf('{{', at);
    if (open === -1) {
      parts.push(source.slice(at));
      break;
    }
    let text = source.slice(at, open);
    let inner = open + 2;
    if (source[inner] === '-' && SPACE.includes(source[inner + 1])) {
      text = text.replace(/[ \t\r\n]+$/, '');
      inner += 1;
    }
    const close = source.indexOf('}}', inner);
    if (close === -1) throw new TemplateError('unclosed action');
    let body = source.slice(inner, close);
    at = close + 2;
    if (body.endsWith('-') && SPACE.includes(body[body.length - 2])) {
      body = body.slice(0, -1);
      while (SPACE.includes(source[at])) at++;
    }
    if (text !== '') parts.push(text);
    parts.push({ text: body.trim() });
  }
  return parts;
}

const TOKEN = new RegExp(
  `\\s*(?:${[
    /("(?:[^"\\]|\\.)*")/, // interpreted string
    /(`[^`]*`)/, // raw string
    /('(?:[^'\\]|\\.)+')/, // character constant
    /(-?0[xX][0-9a-fA-F_]+|[-+]?(?:\d[\d_]*)?\.?\d+(?:[eE][+-]?\d+)?)/, // number
    /(\$[A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)*)/, // variable with fields
    /(\.(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)?)/, // dot with fields
    /([A-Za-z_][A-Za-z0-9_]*)/, // function or keyword
    /(:=|[()|,=])/,
  ]
    .map((part) => part.source)
    .join('|')})`,
  'y',
);

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) {
      if (text.slice(start).trim() === '') break;
      throw new TemplateError(`unexpected '${text.slice(start).trim()}' in action`);
    }
    tokens.push(match[0].trim());
  }
  return tokens;
}

class PipelineParser {
  private at = 0;
  constructor(private readonly tokens: string[]) {}

  parse(): Pipeline {
    const pipe = this.pipeline();
    if (this.at < this.tokens.length) throw new TemplateError(`unexpected '${this.tokens[this.at]}'`);
    return pipe;
  }

  private pipeline(): Pipeline {
    const declare: string[] = [];
    const marker = this.tokens.findIndex((t, i) => i >= this.at && (t === ':=' || t === '='));
    const names = marker === -1 ? [] : this.tokens.slice(this.at, marker);
    const assign = marker !== -1 && this.tokens[marker] === '=';
    if (marker !== -1 && names.every((t) => /^\$\w*$/.test(t) || t === ',')) {
      for (const token of names) if (token !== ',') declare.push(token);
      this.at = marker + 1;
    }
    const commands = [this.command()];
    while (this.tokens[this.at] === '|') {
      this.at++;
      commands.push(this.command());
    }
    return assign ? { commands, declare, assign } : { commands, declare };
  }

  private command(): Operand {
    const first = this.tokens[this.at];
    if (first !== undefined && /^[A-Za-z_]/.test(first) && !['true', 'false', 'nil'].includes(first)) {
      this.at++;
      const args: Operand[] = [];
      while (this.at < this.tokens.length && this.tokens[this.at] !== '|' && this.tokens[this.at] !== ')')
        args.push(this.operand());
      return { kind: 'call', name: first, args };
    }
    return this.operand();
  }

  private operand(): Operand {
    const token = this.tokens[this.at++];
    if (token === undefined) throw new TemplateError('missing operand');
    if (token === '(') {
      const pipe = this.pipeline();
      if (this.tokens[this.at++] !== ')') throw new TemplateError("missing ')'");
      return { kind: 'pipe', pipe };
    }
    if (token.startsWith('"')) return { kind: 'literal', value: unquote(token.slice(1, -1)) };
    if (token.startsWith('`')) return { kind: 'literal', value: token.slice(1, -1) };
    if (token.startsWith("'")) return { kind: 'literal', value: characterConstant(token) };
    if (/^[-+]?\.?\d/.test(token)) return { kind: 'literal', value: numberConstant(token) };
    if (token === 'true' || token === 'false') return { kind: 'literal', value: token === 'true' };
    if (token === 'nil') return { kind: 'literal', value: null };
    if (token.startsWith('.')) return { kind: 'field', base: 'dot', path: token.slice(1).split('.').filter(Boolean) };
    if (token.startsWith('$')) {
      const [name, ...path] = token.split('.');
      return { kind: 'field', base: name === '$' ? 'root' : name, path };
    }
    if (/^[A-Za-z_]/.test(token)) return { kind: 'call', name: token, args: [] };
    throw new TemplateError(`unexpected '${token}'`);
  }
}

/** A Go string literal's escapes: \a \b \f \n \r \t \v \\ \" \' \xHH \ooo \uHHHH \UHHHHHHHH. */
function unquote(body: string): string {
  const simple: Record<string, string> = {
    a: '\x07',
    b: '\b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
  };
  const bytes: number[] = [];
  const text = (value: string) => bytes.push(...Buffer.from(value, 'utf8'));
  const escape = /\\(?:([abfnrtv\\"'])|x([0-9a-fA-F]{2})|([0-7]{3})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8}))/y;
  let at = 0;
  while (at < body.length) {
    if (body[at] !== '\\') {
      const next = body.indexOf('\\', at);
      const end = next === -1 ? body.length : next;
      text(body.slice(at, end));
      at = end;
      continue;
    }
    escape.lastIndex = at;
    const match = escape.exec(body);
    if (!match) throw new TemplateError(`invalid escape in "${body}"`);
    at = escape.lastIndex;
    const [, plain, hex, octal, u4, u8] = match;
    if (plain !== undefined) text(simple[plain] ?? plain);
    else if (hex !== undefined || octal !== undefined) bytes.push(parseInt(hex ?? octal, hex ? 16 : 8));
    else text(String.fromCodePoint(parseInt(u4 ?? u8, 16)));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** `'a'` is the int of its code point, as in Go. */
function characterConstant(token: string): bigint {
  const text = token.length === 3 ? token[1] : unquote(token.slice(1, -1));
  if ([...text].length !== 1) throw new TemplateError(`malformed character constant: ${token}`);
  return BigInt(text.codePointAt(0) as number);
}

/** An integer constant is an int; one with a `.` or an exponent is a float64. */
function numberConstant(token: string): number | bigint {
  const text = token.replace(/_/g, '');
  const hex = /^([-+]?)0[xX](.+)$/.exec(text);
  if (hex) return (hex[1] === '-' ? -1n : 1n) * BigInt(`0x${hex[2]}`);
  if (/[.eE]/.test(text)) return Number(text);
  return BigInt(text.replace('+', ''));
}

function pipelineOf(text: string): Pipeline {
  return new PipelineParser(tokenize(text)).parse();
}

/** Parses a template into its tree; throws TemplateError on a syntax it does not know. */
export function parseTemplate(source: string): Node[] {
  const parts = lex(source);
  let at = 0;
  // {{break}} and {{continue}} belong inside a {{range}}
  let ranges = 0;
  const block = (): { nodes: Node[]; ended: string } => {
    const nodes: Node[] = [];
    while (at < parts.length) {
      const part = parts[at++];
      if (typeof part === 'string') {
        nodes.push({ kind: 'text', text: part });
        continue;
      }
      const text = part.text;
      if (text.startsWith('/*')) continue;
      const keyword = /^(if|range|with|else|end|break|continue)\b\s*(.*)$/s.exec(text);
      if (!keyword) {
        nodes.push({ kind: 'print', pipe: pipelineOf(text) });
        continue;
      }
      const [, word, rest] = keyword;
      if (word === 'end' || word === 'else') return { nodes, ended: text };
      if (word === 'break' || word === 'continue') {
        if (ranges === 0) throw new TemplateError(`{{${word}}} outside {{range}}`);
        if (rest.trim() !== '') throw new TemplateError(`unexpected '${rest.trim()}' in {{${word}}}`);
        nodes.push(word === 'break' ? { kind: 'break' } : { kind: 'continue' });
        continue;
      }
      nodes.push(control(word as 'if' | 'range' | 'with', rest));
    }
    return { nodes, ended: '' };
  };
  const control = (kind: 'if' | 'range' | 'with', rest: string): Node => {
    if (kind === 'range') ranges++;
    try {
      return controlBody(kind, rest);
    } finally {
      if (kind === 'range') ranges--;
    }
  };
  const controlBody = (kind: 'if' | 'range' | 'with', rest: string): Node => {
    const body = block();
    let otherwise: Node[] = [];
    if (body.ended.startsWith('else')) {
      const chained = /^else\s+(if|with)\b\s*(.*)$/s.exec(body.ended);
      if (chained) otherwise = [control(chained[1] as 'if' | 'with', chained[2])];
      else {
        const tail = block();
        if (tail.ended !== 'end') throw new TemplateError(`missing {{end}} of {{${kind}}}`);
        otherwise = tail.nodes;
      }
    } else if (body.ended !== 'end') throw new TemplateError(`missing {{end}} of {{${kind}}}`);
    return { kind, pipe: pipelineOf(rest), then: body.nodes, otherwise };
  };
  const top = block();
  if (top.ended !== '') throw new TemplateError(`unexpected {{${top.ended}}}`);
  return top.nodes;
}

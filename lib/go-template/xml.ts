/**
 * XML bodies read into the shape the reference gateway's transforms see (its mxj library's
 * map): `{root: …}`; an element with only text is its text; attributes are `-name` keys, an
 * element's text beside attributes or children is `#text`; a repeated child is a list. Values
 * stay strings. No DTDs or entities beyond the five predefined and numeric ones.
 */
export class XmlError extends Error {}

type XmlValue = string | XmlMap | XmlValue[];
interface XmlMap {
  [name: string]: XmlValue;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (_all, name: string) => {
    if (name[0] === '#')
      return String.fromCodePoint(
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)),
      );
    return ENTITIES[name.toLowerCase()];
  });
}

export function parseXml(source: string): XmlMap {
  let at = 0;
  const skipMisc = () => {
    for (;;) {
      const rest = source.slice(at).match(/^\s*(<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)?/);
      if (!rest || rest[0] === '') return;
      at += rest[0].length;
      if (!rest[1]) return;
    }
  };
  const element = (): [string, XmlValue] => {
    const open = /^<([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(source.slice(at));
    if (!open) throw new XmlError(`malformed XML at character ${at}`);
    at += open[0].length;
    const [, name, attributes, selfClosing] = open;
    const map: XmlMap = {};
    for (const attr of attributes.matchAll(/([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
      map[`-${attr[1]}`] = decode(attr[2] ?? attr[3]);
    if (selfClosing) return [name, Object.keys(map).length > 0 ? map : ''];
    let text = '';
    for (;;) {
      const close = source.startsWith(`</${name}`, at) ? /^<\/[\w.:-]+\s*>/.exec(source.slice(at)) : null;
      if (close) {
        at += close[0].length;
        break;
      }
      if (at >= source.length) throw new XmlError(`unclosed element <${name}>`);
      if (source.startsWith('<![CDATA[', at)) {
        const end = source.indexOf(']]>', at);
        if (end === -1) throw new XmlError('unclosed CDATA section');
        text += source.slice(at + 9, end);
        at = end + 3;
      } else if (source.startsWith('<!--', at)) {
        const end = source.indexOf('-->', at);
        if (end === -1) throw new XmlError('unclosed comment');
        at = end + 3;
      } else if (source[at] === '<') {
        const [child, value] = element();
        const existing = map[child];
        // repeated children become a list, grown in place (copying it would be quadratic)
        if (existing === undefined) map[child] = value;
        else if (Array.isArray(existing)) existing.push(value);
        else map[child] = [existing, value];
      } else {
        const next = source.indexOf('<', at);
        text += decode(source.slice(at, next === -1 ? source.length : next));
        at = next === -1 ? source.length : next;
      }
    }
    const trimmed = text.trim();
    if (Object.keys(map).length === 0) return [name, trimmed];
    if (trimmed !== '') map['#text'] = trimmed;
    return [name, map];
  };
  skipMisc();
  const [root, value] = element();
  skipMisc();
  if (at < source.length) throw new XmlError('content after the root element');
  return { [root]: value };
}

function escape(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&${Object.keys(ENTITIES).find((k) => ENTITIES[k] === c)};`);
}

/**
 * The inverse, for the `xmlMarshal` template helper: a map in the shape above becomes XML
 * again (keys in order, `-name` as attributes, `#text` as text); anything else is its text.
 */
export function toXml(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return escape(String(value));
  if (Array.isArray(value)) return value.map(toXml).join('');
  return Object.entries(value as Record<string, unknown>)
    .filter(([key]) => !key.startsWith('-') && key !== '#text')
    .map(([key, child]) =>
      Array.isArray(child) ? child.map((item) => elementXml(key, item)).join('') : elementXml(key, child),
    )
    .join('');
}

function elementXml(name: string, value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `<${name}>${toXml(value)}</${name}>`;
  const map = value as Record<string, unknown>;
  const attributes = Object.entries(map)
    .filter(([key]) => key.startsWith('-'))
    .map(([key, v]) => ` ${key.slice(1)}="${escape(String(v))}"`)
    .join('');
  const text = map['#text'] === undefined ? '' : escape(String(map['#text']));
  return `<${name}${attributes}>${text}${toXml(map)}</${name}>`;
}

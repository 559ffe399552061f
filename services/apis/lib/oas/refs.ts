import { ApisErrors } from '../../errors';

const MAX_DEPTH = 64;
/**
 * References that point twice at the same schema at every level expand exponentially: the
 * copies of one document, all its operations together, are bounded (a budget per schema would
 * let many schemas just under it multiply it).
 */
const MAX_NODES = 100_000;

/** What one document's copies have used of MAX_NODES: one per document compile, shared by every resolveLocalRefs of it. */
export interface RefBudget {
  nodes: number;
}

export function newRefBudget(): RefBudget {
  return { nodes: 0 };
}

/**
 * A copy of `value` with every local `$ref` (`#/components/...`) replaced by what it points to,
 * so the schemas can go to a gateway without the document. A reference that points nowhere, one
 * outside the document, or a cycle is refused with the pointer of the `$ref`.
 */
export function resolveLocalRefs(
  value: unknown,
  document: Record<string, unknown>,
  at: string,
  budget: RefBudget,
  seen: string[] = [],
): unknown {
  if (++budget.nodes > MAX_NODES)
    throw ApisErrors.invalidOas([
      `${at}: the document's schemas expand to more than ${MAX_NODES} nodes once their references are followed (all operations together)`,
    ]);
  if (seen.length > MAX_DEPTH)
    throw ApisErrors.invalidOas([`${at}: references nest more than ${MAX_DEPTH} levels deep`]);
  if (Array.isArray(value)) return value.map((item, i) => resolveLocalRefs(item, document, `${at}/${i}`, budget, seen));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (typeof record.$ref === 'string') {
    const ref = record.$ref;
    if (!ref.startsWith('#/'))
      throw ApisErrors.invalidOas([
        `${at}/$ref: only references inside the document (#/...) are supported, not ${ref}`,
      ]);
    if (seen.includes(ref))
      throw ApisErrors.invalidOas([
        `${at}/$ref: ${ref} refers to itself (recursive schemas are not supported for validation)`,
      ]);
    const target = follow(document, ref);
    if (target === undefined) throw ApisErrors.invalidOas([`${at}/$ref: ${ref} points to nothing in the document`]);
    return resolveLocalRefs(target, document, at, budget, [...seen, ref]);
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record))
    out[key] = resolveLocalRefs(item, document, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, budget, seen);
  return out;
}

function follow(document: Record<string, unknown>, ref: string): unknown {
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return undefined; // a malformed %-escape points to nothing
    }
    const key = decoded.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

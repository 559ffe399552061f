/** A JSON object of an OAS document, as parsed. */
export type OasNode = Record<string, unknown>;

const MAX_REF_CHAIN = 32;

export function isNode(value: unknown): value is OasNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What `value` stands for once its local `$ref`s (`#/components/...`) are followed; undefined
 * when a reference points outside the document, at nothing, or round in a circle. The stored
 * documents keep their references, so each reader follows them where it needs a value.
 */
export function followRef(value: unknown, document: OasNode): OasNode | undefined {
  let node = value;
  for (let hops = 0; isNode(node) && typeof node.$ref === 'string'; hops++) {
    if (hops >= MAX_REF_CHAIN || !node.$ref.startsWith('#/')) return undefined;
    node = pointer(document, node.$ref);
  }
  return isNode(node) ? node : undefined;
}

function pointer(document: OasNode, ref: string): unknown {
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isNode(node)) return undefined;
    node = node[key];
  }
  return node;
}

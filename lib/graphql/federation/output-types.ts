import { Kind, parseType, type TypeNode } from 'graphql';

/**
 * Whether output type `sub` (as written, `String!`) can stand where `sup` is expected: the same
 * named type and lists, with non-null wherever `sup` has it and possibly more. Several subgraphs
 * resolving one field may differ this way; the supergraph gives the field the more general type.
 */
export function isOutputSubtype(sub: string, sup: string): boolean {
  return subtype(parseType(sub), parseType(sup));
}

function subtype(sub: TypeNode, sup: TypeNode): boolean {
  if (sup.kind === Kind.NON_NULL_TYPE) return sub.kind === Kind.NON_NULL_TYPE && subtype(sub.type, sup.type);
  if (sub.kind === Kind.NON_NULL_TYPE) return subtype(sub.type, sup);
  if (sup.kind === Kind.LIST_TYPE) return sub.kind === Kind.LIST_TYPE && subtype(sub.type, sup.type);
  return sub.kind === Kind.NAMED_TYPE && sup.kind === Kind.NAMED_TYPE && sub.name.value === sup.name.value;
}

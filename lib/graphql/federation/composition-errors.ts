/**
 * The rules of federation v1 composition (docs/federation.md#composition-rules, and Apollo
 * Federation v1 where those are silent). Each composition error names one, so a caller can branch
 * on it; the message says the same in words a schema author understands.
 */
export type CompositionRule =
  /** a subgraph's SDL does not parse or is not a valid schema on its own */
  | 'INVALID_SUBGRAPH_SDL'
  /** the same type name is an object type in one subgraph and, say, an enum in another */
  | 'TYPE_KIND_MISMATCH'
  /** a `@key(fields:)` selects a field the type does not have, or does not parse */
  | 'KEY_FIELDS_INVALID'
  /** an extension of an entity without `@key`, or with `@key` of a non-entity, or of a non-object type */
  | 'INVALID_EXTENSION'
  /** an extension's key field that is not marked `@external` */
  | 'KEY_FIELD_NOT_EXTERNAL'
  /** an entity stub that does not repeat exactly one key of the base entity */
  | 'INVALID_ENTITY_STUB'
  /** an entity defined (not extended) in more than one subgraph */
  | 'ENTITY_DEFINED_TWICE'
  /** a type defined in several subgraphs that is not identical in all of them after normalisation */
  | 'SHARED_TYPE_MISMATCH'
  /** an extension whose base type is defined in no subgraph, or in more than one */
  | 'EXTENSION_ORPHAN'
  /** an `@external` field the base definition does not have, or has with another type */
  | 'EXTERNAL_FIELD_MISMATCH'
  /** an extension keyed only on fields no other subgraph resolves, so its fields can never be fetched */
  | 'UNREACHABLE_EXTENSION'
  /** `@external` on a field of a base definition */
  | 'EXTERNAL_ON_BASE'
  /** a field of an entity resolved by two subgraphs */
  | 'FIELD_DEFINED_TWICE'
  /** a Query, Mutation or Subscription field defined in two subgraphs */
  | 'ROOT_FIELD_DEFINED_TWICE'
  /** `@requires(fields:)` naming fields not marked `@external`, or used on a base definition */
  | 'INVALID_REQUIRES'
  /** `@provides(fields:)` on a field that does not return an entity, or naming fields not marked `@external` */
  | 'INVALID_PROVIDES'
  /** the merged schema is not a valid GraphQL schema (for example no Query field at all) */
  | 'INVALID_SUPERGRAPH';

/**
 * A Federation 2 composition error is named by the composition library's code, Apollo's
 * composition error codes (`INVALID_FIELD_SHARING`, `EXTERNAL_MISSING_ON_BASE`, …).
 */
export type Federation2Rule = string & { readonly federation2?: never };

export interface CompositionError {
  rule: CompositionRule | Federation2Rule;
  /** the whole explanation, naming the subgraphs, the type and the field */
  message: string;
  /** the subgraphs involved, by their name in the supergraph */
  subgraphs: string[];
  type?: string;
  field?: string;
}

export function compositionError(
  rule: CompositionRule | Federation2Rule,
  message: string,
  where: { subgraphs: string[]; type?: string; field?: string },
): CompositionError {
  return { rule, message, ...where };
}

/** `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'` */
export function quotedList(names: readonly string[]): string {
  const quoted = names.map((name) => `'${name}'`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}

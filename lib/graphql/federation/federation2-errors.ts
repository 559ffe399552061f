import { Kind, type DocumentNode, type GraphQLError } from 'graphql';
import { compositionError, type CompositionError, type Federation2Rule } from './composition-errors';
import type { SubgraphSource } from './compose-supergraph';

const FIELD_COORDINATE = /"([A-Za-z_]\w*)\.([A-Za-z_]\w*)(?:\(|")/;
const TYPE_NAME = /\b(?:[Tt]ype|[Ii]nterface|[Uu]nion|[Ee]num(?: type)?) "([A-Za-z_]\w*)"/;

/**
 * The library's error as gw's: its code is the rule, and the subgraphs, type and field it is about
 * are read from its message, which names them ("[b] On type \"P\"…", "…field \"P.name\"… in
 * subgraphs \"a\" and \"b\""). The few messages that name no subgraph (a type whose fields are all
 * `@inaccessible`, say) get the subgraphs declaring the type they name appended.
 */
export function asCompositionError(
  error: GraphQLError,
  subgraphs: readonly SubgraphSource[],
  documents: ReadonlyMap<string, DocumentNode> = new Map(),
): CompositionError {
  const code: Federation2Rule =
    typeof error.extensions?.code === 'string' ? error.extensions.code : 'INVALID_SUPERGRAPH';
  const field = FIELD_COORDINATE.exec(error.message);
  const type = field?.[1] ?? TYPE_NAME.exec(error.message)?.[1];
  let message = error.message;
  let named = subgraphs
    .map((source) => source.name)
    .filter((name) => message.includes(`"${name}"`) || message.startsWith(`[${name}]`));
  if (named.length === 0 && type) {
    named = [...documents].filter(([, document]) => declaresType(document, type)).map(([name]) => name);
    if (named.length > 0)
      message = `${message.replace(/\.$/, '')} ("${type}" is declared in subgraph${named.length === 1 ? '' : 's'} ${named.map((name) => `"${name}"`).join(', ')})`;
  }
  return compositionError(code, message, { subgraphs: named, type, field: field?.[2] });
}

function declaresType(document: DocumentNode, type: string): boolean {
  return document.definitions.some(
    (definition) =>
      definition.kind !== Kind.SCHEMA_DEFINITION &&
      definition.kind !== Kind.SCHEMA_EXTENSION &&
      'name' in definition &&
      definition.name?.value === type,
  );
}

import { buildASTSchema, Kind, parse, type GraphQLSchema } from 'graphql';
import { federationDefinitions } from './federation-sdl';
import { asStandalone, parseSubgraph, withoutFederationSupport } from './subgraph-sdl';

/**
 * The schema a subgraph serves: its own types (extensions standing for their types), the
 * federation definitions, `_service`, and `_entities` over its entities. A subgraph API exposed on
 * its listen path (`internal: false`) validates requests against it. Throws when the SDL is not a
 * valid subgraph on its own.
 */
export function subgraphServiceSchema(name: string, sdl: string): GraphQLSchema {
  const parsed = parseSubgraph(name, sdl);
  if (parsed.errors) throw new Error(parsed.errors.map((error) => error.message).join('; '));
  const entities = [...parsed.subgraph.types.values()].filter((type) => type.keys.length > 0).map((type) => type.name);
  const support = parse(
    `type _Service { sdl: String }
    ${entities.length > 0 ? `union _Entity = ${entities.join(' | ')}` : ''}
    extend type Query { _service: _Service! ${entities.length > 0 ? '_entities(representations: [_Any!]!): [_Entity]!' : ''} }`,
    { noLocation: true },
  );
  const own = asStandalone(withoutFederationSupport(parse(sdl, { noLocation: true }).definitions));
  const hasQuery = own.some((node) => node.kind === Kind.OBJECT_TYPE_DEFINITION && node.name.value === 'Query');
  const query = hasQuery ? [] : parse('type Query', { noLocation: true }).definitions;
  return buildASTSchema(
    { kind: Kind.DOCUMENT, definitions: [...own, ...query, ...federationDefinitions(), ...support.definitions] },
    { assumeValidSDL: true },
  );
}

import { strict as assert } from 'node:assert';
import { asyncApiGraph } from '../../../services/apis/lib/data-source-import/asyncapi-graph';
import { openApiGraph } from '../../../services/apis/lib/data-source-import/openapi-graph';
import {
  camelCase,
  fieldNameFromEndpoint,
  pascalCase,
  slug,
} from '../../../services/apis/lib/data-source-import/graphql-names';

const document = (paths: Record<string, unknown>, schemas: Record<string, unknown> = {}) => ({
  openapi: '3.0.0',
  info: { title: 'T', version: '1' },
  paths,
  components: { schemas },
});
const ok = (schema: unknown) => ({ '200': { description: 'ok', content: { 'application/json': { schema } } } });
const typeBlock = (sdl: string, name: string) =>
  new RegExp(`(type|input|enum|scalar) ${name}\\b[^}]*}?`).exec(sdl)?.[0];

describe('data-source import: names of the generated graph', () => {
  it('follows the reference converters (PascalCase types, camelCase fields)', () => {
    assert.equal(camelCase('find_pet-by ID'), 'findPetById');
    assert.equal(camelCase('listPets'), 'listPets');
    assert.equal(pascalCase('lightMeasuredPayload'), 'LightMeasuredPayload');
    assert.equal(fieldNameFromEndpoint('DELETE', '/pets/{petId}'), 'deletePetsPetId');
    assert.equal(camelCase('2fa code'), '_2faCode');
    assert.equal(slug('  Swagger Petstore — v2! '), 'swagger-petstore-v2');
    assert.equal(slug('★'), 'data-graph');
  });
});

describe('data-source import: OpenAPI schemas as GraphQL types', () => {
  it('keeps a self-referencing component as one type', () => {
    const graph = openApiGraph(
      document(
        { '/nodes': { get: { operationId: 'tree', responses: ok({ $ref: '#/components/schemas/Node' }) } } },
        {
          Node: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
            },
          },
        },
      ),
      'http://up.test',
    );
    assert.match(graph.sdl, /type Node {\n {2}name: String\n {2}children: \[Node\]\n}/);
  });

  it('describes free-form objects and oneOf/anyOf with a JSON scalar', () => {
    const graph = openApiGraph(
      document({
        '/things': {
          get: {
            operationId: 'things',
            responses: ok({
              type: 'object',
              properties: { meta: { type: 'object' }, either: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
            }),
          },
        },
      }),
      'http://up.test',
    );
    assert.match(graph.sdl, /type Things {\n {2}meta: JSON\n {2}either: JSON\n}/);
    assert.match(graph.sdl, /scalar JSON/);
  });

  it('keeps enum values the upstream sends; values that are not GraphQL names make the field a String', () => {
    const graph = openApiGraph(
      document({
        '/pet': {
          get: {
            operationId: 'pet',
            responses: ok({
              type: 'object',
              properties: {
                stock: { type: 'string', enum: ['in-stock', 'gone'] },
                kind: { type: 'string', enum: ['cat', 'DOG'] },
              },
            }),
          },
        },
      }),
      'http://up.test',
    );
    assert.match(graph.sdl, /type Pet {\n {2}stock: String\n {2}kind: PetKind\n}/);
    assert.equal(typeBlock(graph.sdl, 'PetKind'), 'enum PetKind {\n  cat\n  DOG\n}');
  });

  it('gives two different schemas that want one name two names', () => {
    const graph = openApiGraph(
      document(
        {
          '/a/item': {
            get: { operationId: 'a', responses: ok({ type: 'object', properties: { x: { type: 'string' } } }) },
          },
          '/b/item': {
            get: { operationId: 'b', responses: ok({ type: 'object', properties: { y: { type: 'string' } } }) },
          },
        },
        {},
      ),
      'http://up.test',
    );
    assert.match(graph.sdl, /a: Item\n/);
    assert.match(graph.sdl, /b: Item2\n/);
  });

  it('gives no operationId a field from method and path, and an operation without a JSON body a String result', () => {
    const graph = openApiGraph(
      document({
        '/pets/{id}/photo': {
          put: {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
            responses: { '204': { description: 'stored' } },
          },
        },
      }),
      'http://up.test',
    );
    assert.match(graph.sdl, /type Mutation {\n {2}putPetsIdPhoto\(id: Int!\): String\n}/);
    assert.equal(graph.dataSources[0].config.url, 'http://up.test/pets/{{.arguments.id}}/photo');
  });
});

describe('data-source import: AsyncAPI channels as subscription fields', () => {
  const parsed = {
    asyncapi: '2.4.0',
    info: { title: 'Orders', version: '1' },
    servers: {
      secure: { url: 'kafka://broker.test:9093', protocol: 'kafka-secure' },
      ws: { url: 'ws://edge.test', protocol: 'ws' },
    },
    channels: {
      'orders.{region}.created': {
        parameters: { region: { schema: { type: 'string' } } },
        subscribe: {
          message: {
            oneOf: [
              {
                name: 'orderCreated',
                payload: { type: 'object', properties: { id: { type: 'string' }, 'total-cents': { type: 'integer' } } },
              },
              { name: 'orderImported', payload: { type: 'object', properties: { source: { type: 'string' } } } },
            ],
          },
        },
      },
      'orders.audit': { publish: { operationId: 'audit', message: { payload: { type: 'string' } } } },
    },
  };

  it('names a field after its channel without an operationId, types it by the first message, maps keys GraphQL cannot name', () => {
    const graph = asyncApiGraph(parsed);
    assert.match(graph.sdl, /type Subscription {\n {2}ordersRegionCreated\(region: String!\): OrderCreated\n}/);
    assert.match(graph.sdl, /type OrderCreated {\n {2}id: String\n {2}totalCents: Int\n}/);
    assert.deepEqual(graph.fieldConfigs, [
      { type_name: 'Subscription', field_name: 'ordersRegionCreated', disable_default_mapping: true, path: [''] },
      { type_name: 'OrderCreated', field_name: 'totalCents', disable_default_mapping: false, path: ['total-cents'] },
    ]);
  });

  it('reads the topic from the channel and the brokers from the Kafka servers only, without their scheme', () => {
    const [source] = asyncApiGraph(parsed).dataSources;
    assert.deepEqual(source.config, {
      broker_addresses: ['broker.test:9093'],
      topics: ['orders.{{.arguments.region}}.created'],
      group_id: 'orders-ordersRegionCreated',
      client_id: '',
      kafka_version: '',
      start_consuming_latest: false,
      balance_strategy: 'BalanceStrategyRange',
      isolation_level: 'ReadUncommitted',
      sasl: { enable: false, user: '', password: '' },
    });
  });

  it('refuses a document with nothing to subscribe to', () => {
    assert.throws(() => asyncApiGraph({ ...parsed, channels: { 'orders.audit': parsed.channels['orders.audit'] } }), {
      type: 'GW_ERR_APIS_IMPORT_INVALID',
      message: 'The AsyncAPI document has no channel with a subscribe operation: there is nothing to subscribe to',
    });
  });
});

describe('data-source import: schemas that nest themselves without a name', () => {
  it('stops at a bounded depth instead of overflowing the stack', () => {
    const nested: Record<string, unknown> = { type: 'array' };
    nested.items = nested;
    const looping: Record<string, unknown> = {};
    looping.allOf = [looping];
    const graph = openApiGraph(
      document({
        '/a': { get: { operationId: 'a', responses: ok(nested) } },
        '/b': { get: { operationId: 'b', responses: ok(looping) } },
      }),
      'http://up.test',
    );
    assert.match(graph.sdl, /a: \[\[\[/);
    assert.match(graph.sdl, /b: JSON/);
  });
});

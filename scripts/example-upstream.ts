/**
 * The upstream the documentation's examples call (`npm run example:upstream`), on 127.0.0.1:9000
 * unless PORT says otherwise:
 * - any path: a JSON echo of the request (method, url, headers, body);
 * - /petstore/openapi.yaml and /petstore/pets[/{id}]: a tiny pet store and its OpenAPI document,
 *   whose server is this process, for the GraphQL import example;
 * - POST /graphql/accounts and /graphql/reviews: two Federation v1 subgraphs for the federation
 *   example.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { graphql, parse, type GraphQLSchema } from 'graphql';

const users = [
  { id: '1', name: 'Ada Lovelace' },
  { id: '2', name: 'Alan Turing' },
];
const reviews = [
  { authorId: '1', body: 'Love it!' },
  { authorId: '1', body: 'Too expensive.' },
  { authorId: '2', body: 'Could be better.' },
];
const pets = [
  { id: 1, name: 'Rex', tag: 'dog' },
  { id: 2, name: 'Tom', tag: 'cat' },
];

// The same SDL the federation page registers as subgraph APIs. Modules go in a list:
// @apollo/subgraph 2.15 reads a lone argument as a parsed document.
const subgraphs: Record<string, GraphQLSchema> = {
  accounts: buildSubgraphSchema([
    {
      typeDefs: parse('extend type Query { me: User } type User @key(fields: "id") { id: ID! name: String }'),
      resolvers: {
        Query: { me: () => users[0] },
        User: { __resolveReference: (ref: { id: string }) => users.find((u) => u.id === ref.id) },
      },
    },
  ]),
  reviews: buildSubgraphSchema([
    {
      typeDefs: parse(
        'type Review { body: String author: User } extend type User @key(fields: "id") { id: ID! @external reviews: [Review] }',
      ),
      resolvers: {
        Review: { author: (review: { authorId: string }) => ({ __typename: 'User', id: review.authorId }) },
        User: { reviews: (user: { id: string }) => reviews.filter((r) => r.authorId === user.id) },
      },
    },
  ]),
};

function petstoreDocument(origin: string): string {
  return `openapi: 3.0.3
info:
  title: Example Pet Store
  version: 1.0.0
servers:
  - url: ${origin}/petstore
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: every pet
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Pet' } }
  /pets/{petId}:
    get:
      operationId: showPetById
      parameters:
        - { name: petId, in: path, required: true, schema: { type: integer } }
      responses:
        '200':
          description: one pet
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
components:
  schemas:
    Pet:
      type: object
      properties:
        id: { type: integer }
        name: { type: string }
        tag: { type: string }
`;
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) }).end(text);
}

async function answer(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  const path = (req.url ?? '/').split('?')[0];

  const subgraph = /^\/graphql\/(\w+)$/.exec(path)?.[1];
  if (subgraph && subgraphs[subgraph] && req.method === 'POST') {
    const { query, variables, operationName } = JSON.parse(body || '{}');
    send(
      res,
      200,
      await graphql({ schema: subgraphs[subgraph], source: query, variableValues: variables, operationName }),
    );
    return;
  }
  if (path === '/petstore/openapi.yaml') return send(res, 200, petstoreDocument(origin), 'application/yaml');
  if (path === '/petstore/pets') return send(res, 200, pets);
  const petId = /^\/petstore\/pets\/(\d+)$/.exec(path)?.[1];
  if (petId) {
    const pet = pets.find((p) => p.id === Number(petId));
    return pet ? send(res, 200, pet) : send(res, 404, { error: 'no such pet' });
  }
  send(res, 200, { method: req.method, url: req.url, headers: req.headers, body });
}

const port = Number(process.env.PORT ?? 9000);
const host = process.env.HOST ?? '127.0.0.1';
const server = createServer((req, res) => {
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  answer(req, res, origin).catch((err: Error) => send(res, 500, { error: err.message }));
});
server.listen(port, host, () => {
  const { port: actual } = server.address() as AddressInfo;
  // A test reads this line to learn the port when it asked for PORT=0.
  process.stdout.write(`example upstream listening on http://${host}:${actual}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));

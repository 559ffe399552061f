import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { close, listen } from '../../lib/http/listen';
import { createTenant, type Tenant } from '../support/bootstrap';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

const FIXTURES = join(__dirname, '..', 'fixtures', 'udg');
const PETSTORE_YAML = readFileSync(join(FIXTURES, 'petstore.yaml'), 'utf8');
const STREETLIGHTS_YAML = readFileSync(join(FIXTURES, 'streetlights-kafka.yaml'), 'utf8');
const OPENAPI = 'application/vnd.gw.udg.v2.openapi';
const ASYNCAPI = 'application/vnd.gw.udg.v2.asyncapi';

const PETSTORE_SDL = `type Query {
  """List all pets"""
  listPets(limit: Int, status: PetStatus): [Pet]

  """Info for a specific pet"""
  showPetById(petId: String!, xRequestId: String): Pet
  getOwner(ownerId: Int!): Owners
}

type Mutation {
  """Create a pet"""
  createPet(newPetInput: NewPetInput!): Pet

  """Remove a pet"""
  deletePetsPetId(petId: String!): String
}

"""Where the pet is in the shop"""
enum PetStatus {
  available
  pending
  sold
}

type Owner {
  id: Int
  name: String
}

"""A pet of the store"""
type Pet {
  name: String
  tag: String

  """Where the pet is in the shop"""
  status: PetStatus
  id: Int
  owner: Owner
}

input NewPetInput {
  name: String!
  tag: String
  status: PetStatus
}

type Owners {
  id: Int
  fullName: String
  pets: [Pet]
}`;

const STREETLIGHTS_SDL = `type Query {
  """Placeholder: the imported document describes no queries."""
  _empty: String
}

type Subscription {
  """
  Light measured
  Receive information about environmental lighting conditions of a particular streetlight.
  """
  receiveLightMeasurement(streetlightId: String!): LightMeasured

  """
  Turn on/off
  Command a particular streetlight to turn the lights on or off.
  """
  turnOn(streetlightId: String!): TurnOnOff
}

type LightMeasuredLocation {
  lat: Float
  lon: Float
}

type LightMeasured {
  """Light intensity measured in lumens."""
  lumens: Int

  """Date and time when the message was sent."""
  sentAt: String
  location: LightMeasuredLocation
}

"""Whether to turn on or off the light."""
enum TurnOnOffCommand {
  on
  off
}

type TurnOnOff {
  """Whether to turn on or off the light."""
  command: TurnOnOffCommand

  """Date and time when the message was sent."""
  sentAt: String
}`;

const rest = (
  name: string,
  type: string,
  url: string,
  method: string,
  extra: { headers?: Record<string, string>; query?: Array<{ name: string; value: string }>; body?: string } = {},
) => ({
  kind: 'REST',
  name,
  internal: false,
  root_fields: [{ type, fields: [name] }],
  config: { url, method, headers: extra.headers ?? {}, query: extra.query ?? [], body: extra.body ?? '' },
});
const wholeResponse = (type_name: string, field_name: string) => ({
  type_name,
  field_name,
  disable_default_mapping: true,
  path: [''],
});

/** A server answering every path with one fixed body and status: the document the import fetches. */
async function startDocumentServer(): Promise<{
  url: string;
  serve(path: string, status: number, body: string): void;
  hits: string[];
  close(): Promise<void>;
}> {
  const documents = new Map<string, { status: number; body: string }>();
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const document = documents.get(req.url ?? '');
    if (!document) return void res.writeHead(404).end();
    if (document.status >= 300 && document.status < 400)
      return void res.writeHead(document.status, { location: document.body }).end();
    res.writeHead(document.status, { 'content-type': 'text/plain' }).end(document.body);
  });
  const port = await listen(server, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}`,
    serve: (path, status, body) => documents.set(path, { status, body }),
    hits,
    close: () => close(server),
  };
}

describe('dashboard REST API: data-source import (/api/data-graphs/data-sources/import)', () => {
  let node: TestNode;
  let acme: Tenant;
  let globex: Tenant;
  let documents: Awaited<ReturnType<typeof startDocumentServer>>;
  const importAs = (tenant: Tenant, contentType: string, body: string) =>
    http(`${node.dashboardUrl}/api/data-graphs/data-sources/import`, {
      method: 'POST',
      headers: { ...tenant.headers, 'content-type': contentType },
      body,
    });
  const importDocument = (contentType: string, body: string) => importAs(acme, contentType, body);
  const importUrl = (url: string) => importDocument('application/json', JSON.stringify({ url }));
  const apiCount = async () =>
    (await http(`${node.dashboardUrl}/api/apis?p=0`, { headers: acme.headers })).json.apis.length as number;
  const definitionOf = async (id: string) => {
    const res = await http(`${node.dashboardUrl}/api/apis/${id}`, { headers: acme.headers });
    assert.equal(res.status, 200, res.text);
    return res.json.api_definition;
  };

  before(async () => {
    node = await startTestNode();
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
    documents = await startDocumentServer();
  });
  after(async () => {
    await documents?.close();
    if (!node) return;
    await node.stop();
    removeDir(node.dataDir);
  });

  describe('an OpenAPI 3.0 document', () => {
    let importedId: string;

    it('is imported from a YAML body (Message "Data source imported", Meta = the new API id)', async () => {
      const res = await importDocument(
        OPENAPI,
        PETSTORE_YAML.replace('http://petstore.example.test/v1', 'http://127.0.0.1:9/v1'),
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.Status, 'OK');
      assert.equal(res.json.Message, 'Data source imported');
      assert.match(res.json.Meta, /^[0-9a-f]{24}$/);
      importedId = res.json.Meta;
    });

    it("becomes a combined graph of the caller's organisation: schema, REST data sources and field configs", async () => {
      const definition = await definitionOf(importedId);
      assert.equal(definition.name, 'Swagger Petstore');
      assert.equal(definition.org_id, acme.orgId);
      assert.equal(definition.active, true);
      assert.equal(definition.use_keyless, false);
      assert.deepEqual(definition.proxy, {
        listen_path: '/swagger-petstore/',
        target_url: '',
        strip_listen_path: true,
      });
      const { schema, engine, ...graphql } = definition.graphql;
      assert.deepEqual(graphql, {
        enabled: true,
        execution_mode: 'executionEngine',
        version: '2',
        type_field_configurations: [],
        playground: { enabled: false, path: '' },
      });
      assert.equal(schema, PETSTORE_SDL);
      const base = 'http://127.0.0.1:9/v1';
      assert.deepEqual(engine.data_sources, [
        rest('listPets', 'Query', `${base}/pets`, 'GET', {
          query: [
            { name: 'limit', value: '{{.arguments.limit}}' },
            { name: 'status', value: '{{.arguments.status}}' },
          ],
        }),
        rest('createPet', 'Mutation', `${base}/pets`, 'POST', {
          headers: { 'Content-Type': 'application/json' },
          body: '{{.arguments.newPetInput}}',
        }),
        rest('showPetById', 'Query', `${base}/pets/{{.arguments.petId}}`, 'GET', {
          headers: { 'X-Request-Id': '{{.arguments.xRequestId}}' },
        }),
        rest('deletePetsPetId', 'Mutation', `${base}/pets/{{.arguments.petId}}`, 'DELETE'),
        rest('getOwner', 'Query', `${base}/owners/{{.arguments.ownerId}}`, 'GET'),
      ]);
      assert.deepEqual(engine.field_configs, [
        wholeResponse('Query', 'listPets'),
        wholeResponse('Mutation', 'createPet'),
        wholeResponse('Query', 'showPetById'),
        wholeResponse('Mutation', 'deletePetsPetId'),
        wholeResponse('Query', 'getOwner'),
        { type_name: 'Owners', field_name: 'fullName', disable_default_mapping: false, path: ['full-name'] },
      ]);
    });

    it('is visible to its organisation only', async () => {
      const res = await http(`${node.dashboardUrl}/api/apis/${importedId}`, { headers: globex.headers });
      assert.equal(res.status, 404);
      assert.equal(res.json.Meta, null);
    });

    it("is imported from a JSON body too, under a listen path of its own when the title's is taken", async () => {
      const document = parseYaml(PETSTORE_YAML);
      document.servers = [
        {
          url: 'https://{host}/v{version}',
          variables: { host: { default: 'pets.example.test' }, version: { default: '2' } },
        },
      ];
      const res = await importDocument(`${OPENAPI}; charset=utf-8`, JSON.stringify(document));
      assert.equal(res.status, 200, res.text);
      const definition = await definitionOf(res.json.Meta);
      assert.equal(definition.proxy.listen_path, `/swagger-petstore-${definition.api_id.slice(0, 8)}/`);
      assert.equal(definition.graphql.schema, PETSTORE_SDL);
      assert.equal(definition.graphql.engine.data_sources[0].config.url, 'https://pets.example.test/v2/pets');
    });
  });

  describe('an AsyncAPI 2.4 document', () => {
    it("becomes subscription fields with Kafka data sources on the document's Kafka servers", async () => {
      const res = await importDocument(ASYNCAPI, STREETLIGHTS_YAML);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.Message, 'Data source imported');
      const definition = await definitionOf(res.json.Meta);
      assert.equal(definition.name, 'Streetlights Kafka API');
      assert.deepEqual(definition.proxy, {
        listen_path: '/streetlights-kafka-api/',
        target_url: '',
        strip_listen_path: true,
      });
      assert.equal(definition.graphql.execution_mode, 'executionEngine');
      assert.equal(definition.graphql.schema, STREETLIGHTS_SDL);
      const kafka = (name: string, topic: string, groupId: string, clientId: string) => ({
        kind: 'Kafka',
        name,
        internal: false,
        root_fields: [{ type: 'Subscription', fields: [name] }],
        config: {
          broker_addresses: ['kafka.example.test:9092'],
          topics: [topic],
          group_id: groupId,
          client_id: clientId,
          kafka_version: 'V2_8_0_0',
          start_consuming_latest: false,
          balance_strategy: 'BalanceStrategyRange',
          isolation_level: 'ReadUncommitted',
          sasl: { enable: false, user: '', password: '' },
        },
      });
      assert.deepEqual(definition.graphql.engine.data_sources, [
        kafka(
          'receiveLightMeasurement',
          'smartylighting.streetlights.1.0.event.{{.arguments.streetlightId}}.lighting.measured',
          'streetlights-kafka-api-receiveLightMeasurement',
          'my-app-id',
        ),
        kafka(
          'turnOn',
          'smartylighting.streetlights.1.0.action.{{.arguments.streetlightId}}.turn.on',
          'streetlights-turn-on',
          '',
        ),
      ]);
      assert.deepEqual(definition.graphql.engine.field_configs, [
        wholeResponse('Subscription', 'receiveLightMeasurement'),
        wholeResponse('Subscription', 'turnOn'),
      ]);
    });

    for (const version of ['2.0.0', '2.1.0', '2.2.0', '2.3.0']) {
      it(`accepts AsyncAPI ${version}`, async () => {
        const document = parseYaml(STREETLIGHTS_YAML);
        document.asyncapi = version;
        document.info.title = `Streetlights ${version}`;
        // channels name their servers since 2.2.0
        for (const channel of Object.values<Record<string, unknown>>(document.channels)) delete channel.servers;
        const res = await importDocument(ASYNCAPI, JSON.stringify(document));
        assert.equal(res.status, 200, res.text);
      });
    }
  });

  describe('a document named by URL', () => {
    it('is fetched whatever the status it is served with, detected as OpenAPI, and its relative server URL resolved against it', async () => {
      documents.serve(
        '/specs/petstore.yaml',
        404,
        PETSTORE_YAML.replace('http://petstore.example.test/v1', '/api/v1').replace(
          'Swagger Petstore',
          'Fetched Petstore',
        ),
      );
      const res = await importUrl(`${documents.url}/specs/petstore.yaml`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.Message, 'Data source imported');
      const definition = await definitionOf(res.json.Meta);
      assert.equal(definition.name, 'Fetched Petstore');
      assert.equal(definition.graphql.schema, PETSTORE_SDL);
      assert.equal(definition.graphql.engine.data_sources[0].config.url, `${documents.url}/api/v1/pets`);
    });

    it('is detected as AsyncAPI, and redirects are followed', async () => {
      documents.serve(
        '/specs/lights.json',
        200,
        JSON.stringify({ ...parseYaml(STREETLIGHTS_YAML), info: { title: 'Fetched Lights', version: '1' } }),
      );
      documents.serve('/latest', 302, '/specs/lights.json');
      const res = await importUrl(`${documents.url}/latest`);
      assert.equal(res.status, 200, res.text);
      const definition = await definitionOf(res.json.Meta);
      assert.equal(definition.name, 'Fetched Lights');
      assert.equal(definition.graphql.schema, STREETLIGHTS_SDL);
    });
  });

  describe('refused requests (an error envelope with Meta null, nothing stored)', () => {
    let before: number;
    beforeEach(async () => {
      before = await apiCount();
    });
    afterEach(async () => {
      assert.equal(await apiCount(), before, 'nothing is stored');
    });
    const error = (Message: string) => ({ Status: 'Error', Message, Meta: null });

    it('a fetched body that is not JSON nor YAML: 400', async () => {
      documents.serve('/broken.json', 200, '{"openapi": "3.0.0", "info": ');
      const res = await importUrl(`${documents.url}/broken.json`);
      assert.equal(res.status, 400);
      assert.deepEqual(Object.keys(res.json), ['Status', 'Message', 'Meta']);
      assert.equal(res.json.Status, 'Error');
      assert.equal(res.json.Meta, null);
      assert.match(res.json.Message, /^The document is malformed: not valid JSON \(/);
    });

    it('a fetched body that is malformed YAML: 400', async () => {
      documents.serve('/broken.yaml', 200, 'openapi: 3.0.0\ninfo: [unclosed\n  title: x');
      const res = await importUrl(`${documents.url}/broken.yaml`);
      assert.equal(res.status, 400);
      assert.equal(res.json.Meta, null);
      assert.match(res.json.Message, /^The document is malformed: neither JSON nor valid YAML \(/);
    });

    const undetectable = error(
      'Could not detect the document format: expected an OpenAPI 3.0 document (an "openapi" field) or an AsyncAPI 2.0.0–2.4.0 document (an "asyncapi" field)',
    );
    for (const [what, body] of [
      ['an HTML page', '<html><body>Not an API description</body></html>'],
      ['a JSON object of another kind', '{"name": "not an API description"}'],
      ['a JSON array', '[1, 2, 3]'],
    ]) {
      it(`a fetched document whose format cannot be detected (${what}): error envelope, Meta null`, async () => {
        documents.serve('/unknown', 200, body);
        const res = await importUrl(`${documents.url}/unknown`);
        assert.equal(res.status, 400);
        assert.deepEqual(res.json, undetectable);
      });
    }

    it('a URL nothing answers on (a network error): 500', async () => {
      const closed = await startDocumentServer();
      await closed.close();
      const url = `${closed.url}/spec.yaml`;
      const res = await importUrl(url);
      assert.equal(res.status, 500);
      assert.deepEqual(res.json, error(`Could not fetch the document at ${url}: ECONNREFUSED`));
    });

    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/spec.yaml',
      'http://[::ffff:169.254.169.254]/spec.yaml',
    ]) {
      it(`a link-local or cloud-metadata address (${url}): 400, never fetched`, async () => {
        const res = await importUrl(url);
        assert.equal(res.status, 400);
        assert.equal(res.json.Meta, null);
        assert.match(
          res.json.Message,
          /^The document URL .* is refused: .* is a link-local, cloud-metadata or multicast address; the management server does not fetch from such addresses$/,
        );
      });
    }

    it('a redirect to a cloud-metadata address: 400', async () => {
      documents.serve('/to-metadata', 302, 'http://169.254.169.254/latest/meta-data/');
      const res = await importUrl(`${documents.url}/to-metadata`);
      assert.equal(res.status, 400);
      assert.deepEqual(
        res.json,
        error(
          `The document URL ${documents.url}/to-metadata is refused: 169.254.169.254 is a link-local, cloud-metadata or multicast address; the management server does not fetch from such addresses`,
        ),
      );
    });

    for (const [what, body, message] of [
      ['no url', '{}', 'The request body needs a "url" naming the OpenAPI or AsyncAPI document to import'],
      [
        'a url of another scheme',
        '{"url": "file:///etc/passwd"}',
        "'url' must be an http:// or https:// URL, not file:",
      ],
      [
        'a body that is not JSON',
        'url=http://example.test',
        'The document is malformed: the request body is not JSON: send {"url": "<where the document is>"}',
      ],
    ]) {
      it(`an application/json request with ${what}: 400`, async () => {
        const res = await importDocument('application/json', body);
        assert.equal(res.status, 400);
        assert.deepEqual(res.json, error(message));
      });
    }

    it('another Content-Type: 415', async () => {
      const res = await importDocument('text/plain', PETSTORE_YAML);
      assert.equal(res.status, 415);
      assert.deepEqual(
        res.json,
        error(
          'Unsupported Content-Type \'text/plain\': send application/json with {"url": ...}, application/vnd.gw.udg.v2.openapi or application/vnd.gw.udg.v2.asyncapi',
        ),
      );
    });

    it('an AsyncAPI document sent as OpenAPI: 400', async () => {
      const res = await importDocument(OPENAPI, STREETLIGHTS_YAML);
      assert.equal(res.status, 400);
      assert.deepEqual(
        res.json,
        error('The Content-Type announces an OpenAPI document but the body is an AsyncAPI document'),
      );
    });

    for (const [what, edit, message] of [
      [
        'OpenAPI 3.1',
        (doc: any) => (doc.openapi = '3.1.0'),
        'OpenAPI version 3.1.0 is not supported: use OpenAPI 3.0.0',
      ],
      ['an operation without responses', (doc: any) => delete doc.paths['/pets'].get.responses, undefined],
      [
        'a reference to another file',
        (doc: any) =>
          (doc.paths['/pets'].post.requestBody.content['application/json'].schema = {
            $ref: 'http://169.254.169.254/schema.json',
          }),
        "Only references inside the document are supported; 'http://169.254.169.254/schema.json' points outside it",
      ],
      [
        'no absolute server URL',
        (doc: any) => delete doc.servers,
        "The OpenAPI document names no absolute http(s) server URL (servers[0].url is '/'): the generated data sources need to know where to call",
      ],
    ] as const) {
      it(`an OpenAPI document with ${what}: 400`, async () => {
        const document = parseYaml(PETSTORE_YAML);
        edit(document);
        const res = await importDocument(OPENAPI, JSON.stringify(document));
        assert.equal(res.status, 400);
        if (message) assert.deepEqual(res.json, error(message));
        else {
          assert.equal(res.json.Meta, null);
          assert.match(res.json.Message, /^Invalid OpenAPI document: /);
        }
      });
    }

    it('a swagger 2.0 document: 400', async () => {
      const res = await importDocument(
        OPENAPI,
        '{"swagger": "2.0", "info": {"title": "Old", "version": "1"}, "paths": {}}',
      );
      assert.equal(res.status, 400);
      assert.deepEqual(res.json, error('OpenAPI 2.0 (swagger) documents are not supported: convert it to OpenAPI 3.0'));
    });

    it('AsyncAPI 2.5 and 3.0: 400', async () => {
      for (const version of ['2.5.0', '3.0.0']) {
        const res = await importDocument(
          ASYNCAPI,
          STREETLIGHTS_YAML.replace('asyncapi: 2.4.0', `asyncapi: ${version}`),
        );
        assert.equal(res.status, 400);
        assert.deepEqual(
          res.json,
          error(`AsyncAPI version ${version} is not supported: use AsyncAPI 2.0.0, 2.1.0, 2.2.0, 2.3.0 or 2.4.0`),
        );
      }
    });

    it('an invalid AsyncAPI document: 400 listing the problems', async () => {
      const res = await importDocument(ASYNCAPI, 'asyncapi: 2.4.0\ninfo:\n  title: No version\nchannels: {}\n');
      assert.equal(res.status, 400);
      assert.equal(res.json.Status, 'Error');
      assert.equal(res.json.Meta, null);
      assert.equal(res.json.Message, `Invalid AsyncAPI document: ${res.json.Errors[0]}`);
      assert.ok(
        res.json.Errors.some((problem: string) => /version/.test(problem)),
        res.text,
      );
    });

    it('an AsyncAPI document without Kafka servers: 400', async () => {
      const document = parseYaml(STREETLIGHTS_YAML);
      delete document.servers.production;
      for (const channel of Object.values<Record<string, unknown>>(document.channels)) delete channel.servers;
      const res = await importDocument(ASYNCAPI, JSON.stringify(document));
      assert.equal(res.status, 400);
      assert.deepEqual(
        res.json,
        error(
          "Channel 'smartylighting.streetlights.1.0.event.{streetlightId}.lighting.measured' has no Kafka server (protocol kafka or kafka-secure): combined graphs subscribe to Kafka topics only",
        ),
      );
    });
  });

  describe('permissions', () => {
    it('needs the permission to create APIs', async () => {
      const created = await http(`${node.dashboardUrl}/api/users`, {
        method: 'POST',
        headers: acme.headers,
        body: {
          email_address: 'reader@import.test',
          first_name: 'R',
          last_name: 'Eader',
          user_permissions: { apis: 'read' },
        },
      });
      assert.equal(created.status, 200, created.text);
      const reader = { ...acme, headers: { authorization: created.json.Meta.access_key as string } };
      const res = await importAs(reader, OPENAPI, PETSTORE_YAML);
      assert.equal(res.status, 403);
      assert.deepEqual(res.json, {
        Status: 'Error',
        Message: "Access denied: this needs the 'apis' permission at level 'write'",
        Meta: null,
      });
    });
  });
});

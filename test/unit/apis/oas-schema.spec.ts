import { strict as assert } from 'node:assert';
import Ajv from 'ajv-draft-04';
import { isGwError } from '../../../lib/errors';
import { oasSchemaFor } from '../../../services/apis/lib/oas/oas-schema';

describe('apis: the OAS definition schema by version (GET /gw/schema)', () => {
  const found: Array<string | undefined> = [undefined, '', '3', '3.0', '3.0.3', 'v3.0.1', '3.0.3-rc1', '3.0.0+build.7'];
  for (const version of found) {
    it(`gives the OpenAPI 3.0 schema with x-gw-api-gateway for ${JSON.stringify(version)}`, () => {
      const schema = oasSchemaFor(version) as { properties: Record<string, { required?: string[] }> };
      assert.deepEqual(schema.properties['x-gw-api-gateway'].required, ['info', 'upstream', 'server']);
    });
  }

  const refused: Array<[string, string]> = [
    ['3.1', 'Schema not found for version "3.1"'],
    ['3.1.0', 'Schema not found for version "3.1.0"'],
    ['4', 'Schema not found for version "4"'],
    ['2.0', 'Schema not found for version "2.0"'],
    ['latest', 'Malformed version: latest'],
    ['3..0', 'Malformed version: 3..0'],
  ];
  for (const [version, message] of refused) {
    it(`refuses ${JSON.stringify(version)} with a 404 naming it`, () => {
      assert.throws(
        () => oasSchemaFor(version),
        (err: unknown) =>
          isGwError(err, 'GW_ERR_APIS_SCHEMA_NOT_FOUND') &&
          (err as Error).message === message &&
          (err as { code: number }).code === 404,
      );
    });
  }

  it('is a draft-04 schema a validator takes, which accepts a definition and names what is wrong with a bad one', () => {
    // the OpenAPI 3.0 schema is draft-04, as the reference serves it
    const validate = new Ajv({ strict: false, allErrors: true }).compile(oasSchemaFor(undefined));
    const definition = {
      openapi: '3.0.3',
      info: { title: 'Pets', version: '1' },
      paths: {},
      'x-gw-api-gateway': {
        info: { name: 'Pets', state: { active: true } },
        upstream: { url: 'http://example.com' },
        server: { listenPath: { value: '/pets/', strip: true } },
      },
    };
    assert.equal(validate(definition), true, JSON.stringify(validate.errors));
    const bad = structuredClone(definition) as Record<string, any>;
    bad['x-gw-api-gateway'].server.listenPath.strip = 'yes';
    assert.equal(validate(bad), false);
    assert.ok(validate.errors!.some((error) => error.instancePath === '/x-gw-api-gateway/server/listenPath/strip'));
    const withBreaker = (threshold: number) => {
      const document = structuredClone(definition) as Record<string, any>;
      const circuitBreaker = { enabled: true, threshold, sampleSize: 1, coolDownPeriod: 1 };
      document['x-gw-api-gateway'].middleware = { operations: { getPet: { circuitBreaker } } };
      return document;
    };
    assert.equal(validate(withBreaker(0.5)), true, JSON.stringify(validate.errors));
    assert.equal(validate(withBreaker(0)), false, 'a bound the extension gives as exclusive stays exclusive');
  });
});

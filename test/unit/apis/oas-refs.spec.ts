import { strict as assert } from 'node:assert';
import { resolveLocalRefs } from '../../../services/apis/lib/oas/refs';

describe('OAS local references', () => {
  it('refuses schemas that point twice at the next one on every level (exponential copies) quickly, with a 400', () => {
    // s30 → {a: s29, b: s29} → … : 2^30 nodes once followed, from a document of a few KB
    const schemas: Record<string, unknown> = { s0: { type: 'string' } };
    for (let i = 1; i <= 30; i++) schemas[`s${i}`] = { type: 'object', properties: { a: { $ref: `#/components/schemas/s${i - 1}` }, b: { $ref: `#/components/schemas/s${i - 1}` } } };
    const document = { components: { schemas } };
    const started = Date.now();
    assert.throws(
      () => resolveLocalRefs({ $ref: '#/components/schemas/s30' }, document, '/paths/~1x/post/requestBody'),
      (err: { message: string }) => /^Invalid OAS API definition: .*expand to more than 100000 nodes/.test(err.message),
    );
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  });

  it('a reference with a malformed %-escape points to nothing (400, not a crash)', () => {
    assert.throws(
      () => resolveLocalRefs({ $ref: '#/components/a%zz' }, { components: {} }, '/x'),
      (err: { message: string }) => /^Invalid OAS API definition: .*points to nothing/.test(err.message),
    );
  });
});

import { strict as assert } from 'node:assert';
import { newRefBudget, resolveLocalRefs } from '../../../services/apis/lib/oas/refs';

describe('OAS local references', () => {
  it('refuses schemas that point twice at the next one on every level (exponential copies) quickly, with a 400', () => {
    // s30 → {a: s29, b: s29} → … : 2^30 nodes once followed, from a document of a few KB
    const schemas: Record<string, unknown> = { s0: { type: 'string' } };
    for (let i = 1; i <= 30; i++)
      schemas[`s${i}`] = {
        type: 'object',
        properties: { a: { $ref: `#/components/schemas/s${i - 1}` }, b: { $ref: `#/components/schemas/s${i - 1}` } },
      };
    const document = { components: { schemas } };
    const started = Date.now();
    assert.throws(
      () =>
        resolveLocalRefs({ $ref: '#/components/schemas/s30' }, document, '/paths/~1x/post/requestBody', newRefBudget()),
      (err: { message: string }) => /^Invalid OAS API definition: .*expand to more than 100000 nodes/.test(err.message),
    );
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  });

  it("the budget is the document's: a schema of ~57,000 nodes passes once, and a second copy in the same document does not", () => {
    const schemas: Record<string, unknown> = { s0: { type: 'string' } };
    for (let i = 1; i <= 13; i++)
      schemas[`s${i}`] = {
        type: 'object',
        properties: { a: { $ref: `#/components/schemas/s${i - 1}` }, b: { $ref: `#/components/schemas/s${i - 1}` } },
      };
    const document = { components: { schemas } };
    const budget = newRefBudget();
    resolveLocalRefs({ $ref: '#/components/schemas/s13' }, document, '/paths/~1a/post/requestBody', budget);
    assert.throws(
      () => resolveLocalRefs({ $ref: '#/components/schemas/s13' }, document, '/paths/~1b/post/requestBody', budget),
      (err: { message: string }) =>
        /^Invalid OAS API definition: \/paths\/~1b\/post\/requestBody.*: the document's schemas expand to more than 100000 nodes/.test(
          err.message,
        ),
    );
  });

  it('a reference with a malformed %-escape points to nothing (400, not a crash)', () => {
    assert.throws(
      () => resolveLocalRefs({ $ref: '#/components/a%zz' }, { components: {} }, '/x', newRefBudget()),
      (err: { message: string }) => /^Invalid OAS API definition: .*points to nothing/.test(err.message),
    );
  });
});

import { strict as assert } from 'node:assert';
import { execute, parseMapping, MappingSyntaxError, type MappingOptions } from '../../../../services/streams/bloblang';
import { Timestamp } from '../../../../services/streams/bloblang/timestamp';
import type { MappingCase } from './case-types';
import { DOCUMENTED_CASES, LANGUAGE_CASES, SYNTAX_CASES } from './cases';

const options: MappingOptions = {
  env: { GW_STREAMS_ENV_REGION: 'eu-1', GW_SECRET: 'must never be readable' },
  now: () => new Timestamp(1_714_979_289_123_000_000n),
};

function runCase(c: MappingCase): void {
  const mapping = parseMapping(c.mapping);
  if (mapping instanceof MappingSyntaxError) assert.fail(`refused: ${mapping.message}`);
  for (const step of [c, ...(c.then ?? [])]) {
    const outcome = execute(mapping, { content: step.input, metadata: step.metadata ?? c.metadata }, options);
    if (step.error !== undefined) {
      assert.equal(outcome.kind, 'error', `expected the error "${step.error}"`);
      if (outcome.kind === 'error') assert.equal(outcome.error.message, step.error);
      continue;
    }
    if (step.deleted) {
      assert.deepEqual(outcome, { kind: 'deleted' });
      continue;
    }
    if (outcome.kind !== 'message')
      assert.fail(outcome.kind === 'error' ? `failed: ${outcome.error.message}` : 'deleted');
    const content = outcome.message.content.toString('utf8');
    if (step.output !== undefined) assert.equal(content, step.output);
    if (step.json !== undefined) assert.deepEqual(JSON.parse(content), step.json);
    if (step.outputMetadata !== undefined) assert.deepEqual(outcome.message.metadata, step.outputMetadata);
  }
}

describe('streams: Bloblang mappings', () => {
  it('the table holds at least 150 documented examples', () => {
    assert.ok(DOCUMENTED_CASES.length >= 150, `${DOCUMENTED_CASES.length} documented cases`);
  });

  describe('documented examples', () => {
    for (const c of DOCUMENTED_CASES) it(c.name, () => runCase(c));
  });

  describe('language features', () => {
    for (const c of LANGUAGE_CASES) it(c.name, () => runCase(c));
  });

  describe('mappings refused when saved, with line and column', () => {
    for (const c of SYNTAX_CASES) {
      it(c.name, () => {
        const result = parseMapping(c.mapping);
        assert.ok(result instanceof MappingSyntaxError, 'expected a syntax error');
        assert.deepEqual(
          { line: result.line, column: result.column, detail: result.detail },
          { line: c.line, column: c.column, detail: c.detail },
        );
        assert.equal(result.message, `line ${c.line} char ${c.column}: ${c.detail}`);
        assert.equal(result.code, 'GW_ERR_STREAMS_MAPPING_SYNTAX');
      });
    }
  });
});

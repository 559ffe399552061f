import { strict as assert } from 'node:assert';
import {
  check,
  execute,
  executeOnto,
  findMappingErrors,
  interpolate,
  parseInterpolation,
  parseMapping,
  MappingError,
  MappingSyntaxError,
  type Mapping,
  type MappingMessage,
  type MappingOptions,
} from '../../../../services/streams/bloblang';

function compile(text: string): Mapping {
  const mapping = parseMapping(text);
  if (mapping instanceof MappingSyntaxError) assert.fail(mapping.message);
  return mapping;
}

function errorOf(text: string, message: MappingMessage, options?: MappingOptions): string {
  const outcome = execute(compile(text), message, options);
  assert.equal(outcome.kind, 'error');
  return outcome.kind === 'error' ? outcome.error.message : '';
}

describe('streams: Bloblang runtime', () => {
  describe('messages in and out', () => {
    it('takes a parsed document as content and returns it structured', () => {
      const outcome = execute(compile('root = this\nroot.n = this.n + 1'), { content: { n: 1, s: 'x' } });
      assert.equal(outcome.kind, 'message');
      if (outcome.kind !== 'message') return;
      assert.equal(outcome.message.content.toString(), '{"n":2,"s":"x"}');
      assert.deepEqual(outcome.message.structured, { n: 2, s: 'x' });
    });

    it('takes bytes and keeps a raw root raw', () => {
      const outcome = execute(compile('root = content().uppercase()'), { content: Buffer.from('abc') });
      assert.ok(outcome.kind === 'message');
      assert.equal(outcome.message.content.toString(), 'ABC');
      assert.equal(outcome.message.structured, undefined);
    });

    it('reads the error an earlier processor flagged', () => {
      const outcome = execute(compile('root.e = error()\nroot.failed = errored()'), {
        content: '{}',
        error: 'upstream said no',
      });
      assert.ok(outcome.kind === 'message');
      assert.equal(outcome.message.content.toString(), '{"e":"upstream said no","failed":true}');
    });

    it('a key named __proto__ is data, not a prototype', () => {
      const outcome = execute(compile('root = this\nroot.__proto__.polluted = true'), {
        content: '{"__proto__":{"a":1}}',
      });
      assert.ok(outcome.kind === 'message');
      assert.equal(outcome.message.content.toString(), '{"__proto__":{"a":1,"polluted":true}}');
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });

    it('executeOnto maps a branch result onto the original message', () => {
      const outcome = executeOnto(
        compile('root.user = this.name\nmeta from_branch = meta("status")\nroot.seen = @original'),
        { content: '{"name":"Ann"}', metadata: { status: '200' } },
        { content: '{"id":7}', metadata: { original: 'yes' } },
      );
      assert.ok(outcome.kind === 'message');
      assert.equal(outcome.message.content.toString(), '{"id":7,"seen":"yes","user":"Ann"}');
      assert.deepEqual(outcome.message.metadata, { original: 'yes', from_branch: '200' });
    });

    it('check() gives the boolean of a condition mapping', () => {
      const mapping = compile('this.type == "order"');
      assert.equal(check(mapping, { content: '{"type":"order"}' }), true);
      assert.equal(check(mapping, { content: '{"type":"refund"}' }), false);
      const failed = check(compile('this.n > 1'), { content: 'not json' });
      assert.ok(failed instanceof MappingError);
      assert.ok(check(compile('root = "yes"'), { content: '{}' }) instanceof MappingError);
    });
  });

  describe('tenant safety', () => {
    it('env() reads only variables with the streams prefix', () => {
      const env = { GW_STREAMS_ENV_TOPIC: 'orders', GW_SECRET: 'node secret', PATH: '/bin' };
      const outcome = execute(
        compile('root = [env("TOPIC"), env("GW_SECRET"), env("PATH")]'),
        { content: '{}' },
        { env },
      );
      assert.ok(outcome.kind === 'message');
      assert.equal(outcome.message.content.toString(), '["orders",null,null]');
    });

    it('the prefix is configurable', () => {
      const outcome = execute(
        compile('root = env("X")'),
        { content: '{}' },
        { env: { TENANT_A_X: 'a' }, envPrefix: 'TENANT_A_' },
      );
      assert.ok(outcome.kind === 'message');
      assert.equal(outcome.message.content.toString(), 'a');
    });

    it('a mapping that doubles a string past the limit fails the message, not the process', () => {
      const doubling = [
        'let s = "0123456789"',
        ...Array.from({ length: 40 }, () => 'let s = $s + $s'),
        'root = $s.length()',
      ].join('\n');
      const message = errorOf(doubling, { content: '{}' }, { limits: { maxValueBytes: 1 << 20 } });
      assert.match(message, /exceeds the limit of 1048576 bytes/);
    });

    it('a mapping that nests copies past the element limit fails the message', () => {
      const nesting = [
        'let a = [1, 2, 3, 4]',
        ...Array.from({ length: 30 }, () => 'let a = [$a, $a]'),
        'root = $a',
      ].join('\n');
      assert.match(
        errorOf(nesting, { content: '{}' }, { limits: { maxValueNodes: 10_000 } }),
        /exceeds the limit of 10000 elements/,
      );
    });

    // the time budget is lifted here: these check the step budget, which a slow machine must reach too
    const noTimeBudget = { maxMillis: 60_000 };

    it('nested loops over generated arrays stop at the step budget', () => {
      const nested = 'root = range(0, 100000).map_each(i -> range(0, 100000).length())';
      const message = errorOf(nested, { content: '{}' }, { limits: noTimeBudget });
      assert.equal(message, 'mapping exceeded its budget of 10000000 steps');
    });

    it('fan-out recursion (each call applying twice) stops at the step budget', () => {
      const mapping =
        'map twice {\n  root = if this > 0 { [(this - 1).apply("twice"), (this - 1).apply("twice")] } else { 0 }\n}\nroot = this.n.apply("twice")';
      const limits = { maxSteps: 100_000, ...noTimeBudget };
      assert.equal(
        errorOf(mapping, { content: '{"n":60}' }, { limits }),
        'mapping exceeded its budget of 100000 steps',
      );
      const small = execute(compile(mapping), { content: '{"n":2}' });
      assert.ok(small.kind === 'message');
      assert.equal(small.message.content.toString(), '[[0,0],[0,0]]');
    });

    describe('the time budget: no message holds the thread the node shares for long', () => {
      const timed = (text: string, message: MappingMessage, options?: MappingOptions) => {
        const started = performance.now();
        const outcome = execute(compile(text), message, options);
        return { outcome, ms: performance.now() - started };
      };
      const cutOff = (outcome: ReturnType<typeof execute>, millis: number) => {
        assert.equal(outcome.kind, 'error');
        if (outcome.kind !== 'error') return;
        assert.equal(outcome.error.message, `mapping exceeded its time budget of ${millis} ms`);
        assert.equal(outcome.error.limit, true);
      };
      const reversed = Array.from({ length: 1_000_000 }, (_, i) => 1_000_000 - i);

      it('cuts off a map_each over a generated array of 900,000 items at 50 ms by default', () => {
        const { outcome, ms } = timed('root = range(0, 900000).map_each(x -> x * 2)', { content: '{}' });
        cutOff(outcome, 50);
        assert.ok(ms < 250, `took ${ms} ms`);
      });

      it('cuts off a sort of a million items, with or without a comparison', () => {
        const sorts = ['root = this.sort()', 'root = this.sort(left > right)', 'root = this.sort_by(x -> 0 - x)'];
        for (const mapping of sorts) {
          const { outcome, ms } = timed(mapping, { content: reversed }, { limits: { maxMillis: 20 } });
          cutOff(outcome, 20);
          assert.ok(ms < 200, `${mapping} took ${ms} ms`);
        }
      });

      it('cuts off copies and serialisation of a large document, and huge strings', () => {
        const mappings = [
          'root = this',
          'root.a = this\nroot.b = this',
          'root = this.format_json()',
          'root = "x".repeat(1000000).split("")',
        ];
        for (const mapping of mappings) {
          const { outcome, ms } = timed(mapping, { content: reversed }, { limits: { maxMillis: 20 } });
          cutOff(outcome, 20);
          assert.ok(ms < 200, `${mapping} took ${ms} ms`);
        }
      });

      it('a catch() or an or() cannot swallow the cut-off', () => {
        const mapping = 'root = range(0, 900000).map_each(x -> x * 2).catch([]).or([])';
        const { outcome } = timed(mapping, { content: '{}' });
        cutOff(outcome, 50);
      });

      it('cuts off an interpolation and a check alike', () => {
        const interpolation = parseInterpolation('${! range(0, 900000).map_each(x -> x * 2).length() }');
        assert.ok(!(interpolation instanceof MappingSyntaxError));
        const text = interpolate(interpolation, { content: '{}' });
        assert.ok(text instanceof MappingError);
        assert.equal(text.message, 'mapping exceeded its time budget of 50 ms');
        const query = compile('root = range(0, 900000).map_each(x -> x * 2).length() > 0');
        const checked = check(query, { content: '{}' });
        assert.ok(checked instanceof MappingError);
        assert.equal(checked.message, 'mapping exceeded its time budget of 50 ms');
      });

      it('bounds what one builtin does natively: pattern input, YAML, split, reverse, replace_all', () => {
        const patternLimit = /input of 8000000 characters exceeds the limit of 262144$/;
        const cases: Array<[string, RegExp]> = [
          ['root = "ab".repeat(4000000).re_replace_all("a", "c")', patternLimit],
          ['root = "ab".repeat(4000000).re_match("b[a-z]*a$")', patternLimit],
          ['root = "- 1\\n".repeat(300000).parse_yaml()', /YAML of 1200000 characters exceeds the limit/],
          ['root = range(0, 5000).format_yaml()', /more than 2048 elements can not be written as YAML$/],
          // whichever bound comes first on the machine: the clock, or the count of parts
          [
            'root = "ab ".repeat(2000000).split(" ")',
            /(time budget of 50 ms|split gives more than the limit of 1000000 elements)$/,
          ],
          ['root = "a".repeat(8000000).reverse()', /time budget of 50 ms$/],
          ['root = "ab".repeat(8000000).replace_all("a", "c")', /time budget of 50 ms$/],
          ['root = "ab".repeat(100000).re_find_all("a")', /time budget of 50 ms$/],
        ];
        for (const [mapping, expected] of cases) {
          const { outcome, ms } = timed(mapping, { content: '{}' });
          assert.equal(outcome.kind, 'error', mapping);
          if (outcome.kind === 'error') assert.match(outcome.error.message, expected, mapping);
          assert.ok(ms < 250, `${mapping} took ${ms} ms`);
        }
      });

      it('leaves ordinary mappings alone', () => {
        const { outcome } = timed('root = this.map_each(x -> x * 2).sort()', { content: [3, 1, 2] });
        assert.ok(outcome.kind === 'message');
        assert.equal(outcome.message.content.toString(), '[2,4,6]');
        const lines = ['root.s = "a--b----c".split("--")', 'root.r = "abc".reverse()'];
        lines.push('root.y = "1".parse_yaml()');
        const text = lines.join('\n');
        const small = timed(text, { content: '{}' }).outcome;
        assert.ok(small.kind === 'message');
        assert.equal(small.message.content.toString(), '{"r":"cba","s":["a","b","","c"],"y":1}');
      });
    });

    it('recursion depth is bounded and configurable', () => {
      const mapping =
        'map down {\n  root = if this > 0 { (this - 1).apply("down") } else { "bottom" }\n}\nroot = this.n.apply("down")';
      const ok = execute(compile(mapping), { content: '{"n":50}' });
      assert.ok(ok.kind === 'message');
      assert.equal(ok.message.content.toString(), 'bottom');
      assert.match(
        errorOf(mapping, { content: '{"n":50}' }, { limits: { maxMapDepth: 10 } }),
        /entering map down exceeded maximum allowed stacks of 10/,
      );
    });

    it("count() totals belong to one mapping: another tenant's mapping starts at 1", () => {
      const first = compile('root = count("orders")');
      const second = compile('root = count("orders")');
      const content = (m: Mapping) => {
        const outcome = execute(m, { content: '{}' });
        return outcome.kind === 'message' ? outcome.message.content.toString() : outcome.kind;
      };
      assert.deepEqual([content(first), content(first), content(second), content(first)], ['1', '2', '1', '3']);
    });

    it('a catastrophic pattern runs in linear time on RE2', () => {
      const started = Date.now();
      const outcome = execute(compile('root = this.s.re_match("(a+)+$")'), {
        content: JSON.stringify({ s: 'a'.repeat(5000) + 'b' }),
      });
      assert.ok(outcome.kind === 'message');
      assert.equal(outcome.message.content.toString(), 'false');
      assert.ok(Date.now() - started < 2000);
    });

    it('an invalid pattern fails the message with the RE2 reason', () => {
      assert.match(
        errorOf('root = "x".re_match("(?<=a)b")', { content: '{}' }),
        /^failed assignment \(line 1\): string literal: error parsing regexp: /,
      );
    });
  });

  describe('stream configurations', () => {
    it('finds every mapping and interpolation that does not parse, with its place', () => {
      const config = {
        input: { http_server: { path: '/in' } },
        pipeline: {
          processors: [
            { mapping: 'root = this' },
            { branch: { request_map: 'root.id = this.id', result_map: 'root.x = this.\nroot.y = 1' } },
            { switch: [{ check: 'this.kind == "a"', processors: [{ mapping: 'root = "unterminated' }] }] },
          ],
        },
        output: { kafka: { addresses: ['k:9092'], topic: 'events-${! meta("key").nope() }' } },
      };
      const found = findMappingErrors(config).map((e) => `${e.path}: ${e.error.message}`);
      assert.deepEqual(found, [
        'pipeline.processors[1].branch.result_map: line 2 char 8: expected line break',
        'pipeline.processors[2].switch[0].processors[0].mapping: line 1 char 21: required: expected end quote',
        "output.kafka.topic: line 1 char 30: unrecognised method 'nope'",
      ]);
    });

    it('a valid configuration has none', () => {
      assert.deepEqual(
        findMappingErrors({
          pipeline: { processors: [{ mapping: 'root = this.a | "x"' }] },
          output: { kafka: { topic: 't-${! this.id }' } },
        }),
        [],
      );
    });
  });

  describe('interpolation', () => {
    it('replaces each ${! } with its query result', () => {
      const interpolation = parseInterpolation('orders-${! meta("region") }-${! this.id + 1 }');
      assert.ok(!(interpolation instanceof MappingSyntaxError));
      assert.equal(interpolate(interpolation, { content: '{"id":41}', metadata: { region: 'eu' } }), 'orders-eu-42');
    });

    it('keeps text without queries and escapes ${{! as a literal', () => {
      const interpolation = parseInterpolation('plain ${{! not a query }');
      assert.ok(!(interpolation instanceof MappingSyntaxError));
      assert.equal(interpolate(interpolation, { content: '' }), 'plain ${! not a query }');
    });

    it('reports a bad query with its column', () => {
      const result = parseInterpolation('topic-${! this.id.nope() }');
      assert.ok(result instanceof MappingSyntaxError);
      assert.equal(result.message, "line 1 char 25: unrecognised method 'nope'");
    });

    it('a failing query is a MappingError', () => {
      const interpolation = parseInterpolation('${! this.id.uppercase() }');
      assert.ok(!(interpolation instanceof MappingSyntaxError));
      const result = interpolate(interpolation, { content: '{"id":1}' });
      assert.ok(result instanceof MappingError);
      assert.equal(result.message, 'expected string value, got number from field `this.id` (1)');
    });
  });
});

import { strict as assert } from 'node:assert';
import { DurationError, parseDuration, parseGoDuration } from '../../../lib/streams/duration';
import { streamingProblems } from '../../../lib/streams/config-check';
import { execute, parseMapping, MappingSyntaxError } from '../../../services/streams/bloblang';
import { streamMappingCheck } from '../../../services/streams/lib/mapping-check';

const NS = 1n;
const US = 1_000n * NS;
const MS = 1_000n * US;
const S = 1_000n * MS;
const M = 60n * S;
const H = 60n * M;
const MAX = (1n << 63n) - 1n;
const MIN = -(1n << 63n);

/** Go's own table for time.ParseDuration (src/time/time_test.go, parseDurationTests). */
const VALID: Array<[string, bigint]> = [
  // simple
  ['0', 0n],
  ['5s', 5n * S],
  ['30s', 30n * S],
  ['1478s', 1478n * S],
  // sign
  ['-5s', -5n * S],
  ['+5s', 5n * S],
  ['-0', 0n],
  ['+0', 0n],
  // decimal
  ['5.0s', 5n * S],
  ['5.6s', 5n * S + 600n * MS],
  ['5.s', 5n * S],
  ['.5s', 500n * MS],
  ['1.0s', 1n * S],
  ['1.00s', 1n * S],
  ['1.004s', 1n * S + 4n * MS],
  ['1.0040s', 1n * S + 4n * MS],
  ['100.00100s', 100n * S + 1n * MS],
  // different units
  ['10ns', 10n * NS],
  ['11us', 11n * US],
  ['12\u00b5s', 12n * US],
  ['12\u03bcs', 12n * US],
  ['13ms', 13n * MS],
  ['14s', 14n * S],
  ['15m', 15n * M],
  ['16h', 16n * H],
  // composite durations
  ['3h30m', 3n * H + 30n * M],
  ['10.5s4m', 4n * M + 10n * S + 500n * MS],
  ['-2m3.4s', -(2n * M + 3n * S + 400n * MS)],
  ['1h2m3s4ms5us6ns', 1n * H + 2n * M + 3n * S + 4n * MS + 5n * US + 6n * NS],
  ['39h9m14.425s', 39n * H + 9n * M + 14n * S + 425n * MS],
  // large value
  ['52763797000ns', 52763797000n * NS],
  // more than 9 digits after the decimal point
  ['0.3333333333333333333h', 20n * M],
  // 1<<53+1 is not exact in a float64
  ['9007199254740993ns', (1n << 53n) + 1n],
  // the int64 limits
  ['9223372036854775807ns', MAX],
  ['9223372036854775.807us', MAX],
  ['9223372036s854ms775us807ns', MAX],
  ['-9223372036854775808ns', MIN],
  ['-9223372036854775.808us', MIN],
  ['-9223372036s854ms775us808ns', MIN],
  ['-2562047h47m16.854775808s', MIN],
  // huge string
  ['0.100000000000000000000h', 6n * M],
  // the first overflow check of the fraction
  ['0.830103483285477580700h', 49n * M + 48n * S + 372539827n * NS],
];

/** Go's parseDurationErrorTests: the input and what its error message quotes. */
const INVALID: Array<[string, string]> = [
  ['', '""'],
  ['3', '"3"'],
  ['-', '"-"'],
  ['s', '"s"'],
  ['.', '"."'],
  ['-.', '"-."'],
  ['.s', '".s"'],
  ['+.s', '"+.s"'],
  ['1d', '"1d"'],
  ['\uFFFD', '"\\xef\\xbf\\xbd"'],
  ['\uFFFD hello \uFFFD world', '"\\xef\\xbf\\xbd hello \\xef\\xbf\\xbd world"'],
  // overflow
  ['9223372036854775810ns', '"9223372036854775810ns"'],
  ['9223372036854775808ns', '"9223372036854775808ns"'],
  ['-9223372036854775809ns', '"-9223372036854775809ns"'],
  ['9223372036854776us', '"9223372036854776us"'],
  ['3000000h', '"3000000h"'],
  ['9223372036854775.808us', '"9223372036854775.808us"'],
  ['9223372036854ms775us808ns', '"9223372036854ms775us808ns"'],
];

function bloblangDuration(text: string): string {
  const mapping = parseMapping('root = this.d.parse_duration()');
  if (mapping instanceof MappingSyntaxError) assert.fail(mapping.message);
  const outcome = execute(mapping, { content: { d: text } });
  if (outcome.kind === 'message') return outcome.message.content.toString();
  return `error: ${outcome.kind === 'error' ? outcome.error.message : outcome.kind}`;
}

describe('Go durations (one parser for stream settings and Bloblang)', () => {
  for (const [text, nanoseconds] of VALID) {
    it(`parses ${JSON.stringify(text)}`, () => {
      assert.equal(parseGoDuration(text), nanoseconds);
      assert.equal(parseDuration(text), Number(nanoseconds) / 1e6);
      assert.equal(bloblangDuration(text), nanoseconds.toString());
    });
  }

  for (const [text, quoted] of INVALID) {
    it(`refuses ${JSON.stringify(text)}`, () => {
      const quotesInput = (err: Error) => err instanceof DurationError && err.message.includes(quoted);
      assert.throws(() => parseGoDuration(text), quotesInput);
      assert.equal(parseDuration(text), undefined);
      const goError = /^error: .*time: (invalid|missing unit in|unknown unit .* in) duration/;
      assert.match(bloblangDuration(text), goError);
    });
  }

  it('names the problem as Go does', () => {
    assert.throws(() => parseGoDuration('5'), { message: 'time: missing unit in duration "5"' });
    assert.throws(() => parseGoDuration('10sec'), { message: 'time: unknown unit "sec" in duration "10sec"' });
    assert.throws(() => parseGoDuration('soon'), { message: 'time: invalid duration "soon"' });
  });

  it('a stream setting takes 0 and any unit, and refuses a negative duration with a clear message', () => {
    const stream = (timeout: string) => ({
      input: { http_server: { path: '/in', timeout } },
      output: { http_server: {} },
    });
    const problems = (timeout: string) =>
      streamingProblems({ streams: { s: stream(timeout) } }, '/x-gw-streaming', streamMappingCheck);
    for (const timeout of ['0', '1.5s', '1h30m', '250\u03bcs', '+2s']) {
      assert.deepEqual(problems(timeout), [], timeout);
    }
    const at = '/x-gw-streaming/streams/s/input/http_server/timeout';
    assert.deepEqual(problems('-5s'), [`${at}: must not be negative (got "-5s")`]);
    assert.deepEqual(problems('5'), [`${at}: must be a duration such as "500ms", "5s" or "1m"`]);
  });
});

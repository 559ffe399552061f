import { strict as assert } from 'node:assert';
import {
  detectNativeParser,
  type NativeParserClass,
} from '../../../services/proxy/pipeline/upstream-client/native-parser';

/** Node's own parser class, as this Node line has it. */
const { HTTPParser: RealParser } = require('_http_common') as { HTTPParser: NativeParserClass };

/** What detection says of a module that looks like `_http_common`. */
const unusableReason = (load: () => unknown): string => {
  const detection = detectNativeParser(load);
  assert.ok('unusable' in detection, 'the parser was taken as usable');
  return detection.unusable;
};

describe("proxy: detecting Node's own HTTP parser", () => {
  it(`takes this Node line's parser (${process.version})`, () => {
    const detection = detectNativeParser();
    assert.ok('parser' in detection, 'unusable' in detection ? detection.unusable : '');
    assert.equal(detection.parser, RealParser);
  });

  it('refuses a parser that is missing or of another shape, saying why', () => {
    assert.match(
      unusableReason(() => {
        throw new Error('No such built-in module: _http_common');
      }),
      /_http_common can not be loaded \(No such built-in module/,
    );
    assert.equal(
      unusableReason(() => ({})),
      '_http_common.HTTPParser is missing',
    );
    const withoutConstant = class extends (RealParser as unknown as new () => object) {};
    Object.defineProperty(withoutConstant, 'kOnExecute', { value: undefined });
    assert.equal(
      unusableReason(() => ({ HTTPParser: withoutConstant })),
      'HTTPParser.kOnExecute is missing',
    );
    const withoutMethod = class extends (RealParser as unknown as new () => object) {};
    Object.defineProperty(withoutMethod.prototype, 'consume', { value: undefined });
    const reason = unusableReason(() => ({ HTTPParser: withoutMethod }));
    assert.equal(reason, 'HTTPParser.prototype.consume is missing');
  });

  it('refuses a parser whose callbacks no longer say what they used to', () => {
    // The same methods and constants, but the callbacks moved: a head would be read as a body.
    const moved = class extends (RealParser as unknown as new () => object) {};
    Object.defineProperty(moved, 'kOnHeadersComplete', { value: RealParser.kOnBody });
    Object.defineProperty(moved, 'kOnBody', { value: RealParser.kOnHeadersComplete });
    const reason = unusableReason(() => ({ HTTPParser: moved }));
    assert.match(reason, /^HTTPParser (reports a response differently|failed on a known response)/);
    // A parser that stops reading at the trailers.
    const cut = class extends (RealParser as unknown as new () => { execute(data: Buffer): number | Error }) {
      override execute(data: Buffer): number | Error {
        return super.execute(data.subarray(0, data.length - 8));
      }
    };
    assert.match(
      unusableReason(() => ({ HTTPParser: cut })),
      /^HTTPParser reports a response differently/,
    );
  });
});

import { strict as assert } from 'node:assert';
import { Errors } from 'moleculer';
import { envelopeError, ok } from '../../../lib/http/envelope';
import { jsonObjectBody } from '../../../lib/http/json-body';
import { HttpProblem, toProblem } from '../../../lib/http/problem';
import { GwError } from '../../../lib/errors';

describe('http: envelope', () => {
  it('builds the OK envelope with Meta null by default', () => {
    assert.deepEqual(ok('API deleted'), { Status: 'OK', Message: 'API deleted', Meta: null });
    assert.deepEqual(ok('API created', 'abc', { ID: 'x' }), {
      Status: 'OK',
      Message: 'API created',
      Meta: 'abc',
      ID: 'x',
    });
  });

  it('adds Errors only when there are schema problems', () => {
    assert.deepEqual(envelopeError({ status: 404, message: 'gone' }), { Status: 'Error', Message: 'gone', Meta: null });
    assert.deepEqual(envelopeError({ status: 400, message: 'bad', errors: ['a', 'b'] }), {
      Status: 'Error',
      Message: 'bad',
      Meta: null,
      Errors: ['a', 'b'],
    });
  });
});

describe('http: toProblem', () => {
  const unexpected: unknown[] = [];
  const problem = (err: unknown) => toProblem(err, (e) => unexpected.push(e));

  it('keeps the status and message of service errors, also after they crossed the bus', () => {
    assert.deepEqual(problem(new GwError('GW_ERR_APIS_NOT_FOUND', 404, 'API not found: x')), {
      status: 404,
      message: 'API not found: x',
    });
    const regenerated = new Errors.MoleculerClientError('API not found: y', 404, 'GW_ERR_APIS_NOT_FOUND');
    assert.deepEqual(problem(regenerated), { status: 404, message: 'API not found: y' });
  });

  it('turns validation failures into 400 with one Errors entry per check', () => {
    const err = new Errors.ValidationError('Parameters validation error!', 'VALIDATION_ERROR', [
      { message: "The 'a' field is required." },
      { message: "The 'b' field must be a string." },
    ]);
    assert.deepEqual(problem(err), {
      status: 400,
      message: "Request validation failed: The 'a' field is required. The 'b' field must be a string.",
      errors: ["The 'a' field is required.", "The 'b' field must be a string."],
    });
  });

  it('answers 503 when a service is not reachable', () => {
    assert.equal(problem(new Errors.ServiceNotAvailableError({ action: 'apis.list' })).status, 503);
  });

  it('hides unexpected errors behind a 500 and reports them', () => {
    unexpected.length = 0;
    assert.deepEqual(problem(new TypeError('x is undefined')), { status: 500, message: 'Internal server error' });
    assert.equal(unexpected.length, 1);
  });

  it('passes edge problems through', () => {
    assert.deepEqual(problem(new HttpProblem(401, 'no key')), new HttpProblem(401, 'no key'));
  });
});

describe('http: jsonObjectBody', () => {
  it('parses a JSON object whatever the body arrived as', () => {
    assert.deepEqual(jsonObjectBody('{"a":1}'), { a: 1 });
    assert.deepEqual(jsonObjectBody(Buffer.from('{"b":2}')), { b: 2 });
  });

  const refused: Array<[unknown, string]> = [
    ['', 'Request body is empty: send a JSON object'],
    [undefined, 'Request body is empty: send a JSON object'],
    ['null', 'Request body must be a JSON object, not null'],
    ['12', 'Request body must be a JSON object, not a number'],
    ['[{}]', 'Request body must be a JSON object, not an array'],
  ];
  for (const [raw, message] of refused) {
    it(`refuses ${JSON.stringify(raw)} with 400 "${message}"`, () => {
      assert.throws(
        () => jsonObjectBody(raw),
        (err: HttpProblem) => err.status === 400 && err.message === message,
      );
    });
  }

  it('says where JSON is malformed', () => {
    assert.throws(
      () => jsonObjectBody('{"a":'),
      (err: HttpProblem) => err.status === 400 && err.message.startsWith('Malformed JSON in request body: '),
    );
  });
});

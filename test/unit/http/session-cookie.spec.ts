import { strict as assert } from 'node:assert';
import type { IncomingMessage } from 'node:http';
import { isJsonContentType, requestSite } from '../../../lib/http/cross-site';
import { cookieValue, withoutSessionCookies } from '../../../lib/http/session-cookie';

describe('lib/http: the dashboard login cookie on the gateway port', () => {
  // [Cookie header as sent, what is forwarded (undefined: no Cookie header)]
  const table: Array<[string, string | undefined]> = [
    ['a=1; gw-session=SECRET; b=2', 'a=1; b=2'],
    ['gw-session=SECRET', undefined],
    ['gw-session=SECRET; a=1', 'a=1'],
    ['a=1;gw-session=SECRET', 'a=1'],
    ['__Host-gw-session=SECRET; gw-session=OTHER', undefined],
    ['a="x; y"; __Host-gw-session=S', 'a="x; y"'],
    ['my-gw-session=1; gw-session-id=2', 'my-gw-session=1; gw-session-id=2'],
    ['a=1;  b=2', 'a=1;  b=2'],
  ];
  for (const [sent, forwarded] of table) {
    it(`${JSON.stringify(sent)} → ${JSON.stringify(forwarded)}`, () => {
      assert.equal(withoutSessionCookies(sent), forwarded);
    });
  }

  it('reads a cookie by its exact name', () => {
    assert.equal(cookieValue('a=1; gw-session=t=k; b=2', 'gw-session'), 't=k');
    assert.equal(cookieValue('__Host-gw-session=s', 'gw-session'), undefined);
    assert.equal(cookieValue(undefined, 'gw-session'), undefined);
  });
});

describe('lib/http: where a request to the dashboard came from', () => {
  const request = (headers: Record<string, string>, encrypted = false) =>
    ({ headers, socket: { encrypted } }) as unknown as IncomingMessage;

  it("compares Origin with the request's own host and scheme", () => {
    assert.equal(requestSite(request({ host: 'dash:3000', origin: 'http://dash:3000' }), undefined), 'same-origin');
    assert.equal(requestSite(request({ host: 'dash:3000', origin: 'http://dash:8080' }), undefined), 'cross-site');
    assert.equal(requestSite(request({ host: 'dash:3000', origin: 'https://dash:3000' }), undefined), 'cross-site');
    assert.equal(
      requestSite(request({ host: 'dash', origin: 'https://dash', 'x-forwarded-proto': 'https' }), undefined),
      'same-origin',
    );
    assert.equal(requestSite(request({ host: 'dash:443', origin: 'https://dash' }, true), undefined), 'same-origin');
    assert.equal(requestSite(request({ host: 'dash', origin: 'null' }), undefined), 'cross-site');
  });

  it('takes only the configured origin when there is one', () => {
    assert.equal(
      requestSite(request({ host: 'internal:3000', origin: 'https://dash.example' }), 'https://dash.example/'),
      'same-origin',
    );
    assert.equal(
      requestSite(request({ host: 'internal:3000', origin: 'http://internal:3000' }), 'https://dash.example'),
      'cross-site',
    );
  });

  it('reads Sec-Fetch-Site when there is no Origin; neither header is unknown', () => {
    assert.equal(requestSite(request({ 'sec-fetch-site': 'same-origin' }), undefined), 'same-origin');
    assert.equal(
      requestSite(request({ 'sec-fetch-site': 'same-site', origin: 'http://x', host: 'x' }), undefined),
      'cross-site',
    );
    assert.equal(requestSite(request({ 'sec-fetch-site': 'cross-site' }), undefined), 'cross-site');
    assert.equal(requestSite(request({ host: 'dash' }), undefined), 'unknown');
  });

  it('counts application/json and application/*+json as JSON', () => {
    for (const type of ['application/json', 'Application/JSON; charset=utf-8', 'application/merge-patch+json'])
      assert.equal(isJsonContentType(type), true, type);
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonp',
      undefined,
    ]) {
      assert.equal(isJsonContentType(type), false, String(type));
    }
  });
});

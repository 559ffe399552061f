import { strict as assert } from 'node:assert';
import { configuredPath, valueAt } from '../../../services/graphql-engine/lib/combined-graph/field-mapping';
import { compileRestSource } from '../../../services/graphql-engine/lib/combined-graph/rest-source';
import { compileTemplate, encoders } from '../../../services/graphql-engine/lib/combined-graph/templates';

describe('combined graph: data-source templates and field mappings', () => {
  const scope = {
    arguments: { id: 'a/b?c', filter: { tag: 'x' }, n: 3 },
    object: { user: { id: 'u 1' } },
    headers: { 'x-token': 'tok\r\nInjected: yes' },
  };

  it('fills arguments, nested parent fields and request headers (any case), each encoded for where it goes', () => {
    const template = compileTemplate(
      '/users/{{ .arguments.id }}/{{.object.user.id}}?f={{.arguments.filter}}&h={{.request.headers.X-Token}}',
    );
    assert.equal(
      template.render(scope, encoders.url),
      '/users/a%2Fb%3Fc/u%201?f=%7B%22tag%22%3A%22x%22%7D&h=tok%0D%0AInjected%3A%20yes',
    );
    assert.equal(compileTemplate('{{.request.headers.x-token}}').render(scope, encoders.header), 'tokInjected: yes');
    assert.equal(
      compileTemplate('{"id": "{{.arguments.id}}", "n": {{.arguments.n}}, "missing": {{.arguments.nope}}}').render(
        { ...scope, arguments: { ...scope.arguments, id: 'say "hi"' } },
        encoders.json,
      ),
      '{"id": "say \\"hi\\"", "n": 3, "missing": null}',
    );
  });

  it('leaves text that is not a known placeholder alone, and knows when a template is static', () => {
    const template = compileTemplate('/a/{{.unknown.x}}/b');
    assert.equal(template.render(scope, encoders.url), '/a/{{.unknown.x}}/b');
    assert.equal(template.dynamic, false);
  });

  it('builds a REST request: URL, query parameters (encoded once), headers and a JSON body', () => {
    const build = compileRestSource({
      url: 'http://h.test/u/{{.arguments.id}}',
      method: 'POST',
      headers: { 'X-Auth': '{{.request.headers.x-token}}' },
      query: [{ name: 'q', value: '{{.arguments.id}} & more' }],
      body: '{"id":"{{.arguments.id}}"}',
    });
    const request = build(scope);
    assert.equal(request.url, 'http://h.test/u/a%2Fb%3Fc?q=a%2Fb%3Fc+%26+more');
    assert.equal(request.headers['x-auth'], 'tokInjected: yes');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(request.body!), { id: 'a/b?c' });
  });

  it('leaves out query parameters of arguments not given, and repeats one per element of a list', () => {
    const build = compileRestSource({
      url: 'http://h.test/pets',
      method: 'GET',
      headers: {},
      query: [
        { name: 'status', value: '{{.arguments.status}}' },
        { name: 'tag', value: '{{.arguments.tags}}' },
        { name: 'fixed', value: '' },
      ],
      body: '',
    });
    assert.equal(
      build({ ...scope, arguments: { tags: ['a b', 'c&d'] } }).url,
      'http://h.test/pets?tag=a+b&tag=c%26d&fixed=',
    );
  });

  it('reads a field config as the reference does: its path when set, else the whole answer with default mapping off, else the field name', () => {
    const config = (disableDefaultMapping: boolean, path: string[]) => ({
      typeName: 'Owner',
      fieldName: 'fullName',
      disableDefaultMapping,
      path,
    });
    assert.deepEqual(configuredPath(config(false, ['full-name']), 'fullName'), ['full-name']);
    assert.deepEqual(configuredPath(config(true, ['items']), 'fullName'), ['items']);
    assert.deepEqual(configuredPath(config(true, []), 'fullName'), []);
    assert.deepEqual(configuredPath(config(false, []), 'fullName'), ['fullName']);
  });

  it('follows a field_configs path, through lists, to null when absent', () => {
    const answer = { data: { items: [{ name: { first: 'Ada' } }, { name: { first: 'Bob' } }] } };
    assert.deepEqual(valueAt(answer, ['data', 'items', 'name', 'first']), ['Ada', 'Bob']);
    assert.deepEqual(valueAt(answer, []), answer);
    assert.equal(valueAt(answer, ['data', 'nope', 'x']), null);
  });
});

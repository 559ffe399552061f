import { strict as assert } from 'node:assert';
import { compileTemplate } from '../../../lib/go-template/template';
import { TemplateError } from '../../../lib/go-template/template-parser';
import { parseXml, toXml } from '../../../lib/go-template/xml';

const render = (source: string, data: unknown) => compileTemplate(source).render(data);

/** The Go text/template subset body transforms run (lib/go-template). */
describe('proxy: Go template subset for body transforms', () => {
  it('prints fields, nested fields, $ and missing values as Go does', () => {
    assert.equal(render('{{.a}} {{.b.c}} {{$.a}} {{.none}}', { a: 1, b: { c: 'x' } }), '1 x 1 <no value>');
    assert.equal(render('{{.m}} {{.l}}', { m: { b: 2, a: 1 }, l: [1, 'two'] }), 'map[a:1 b:2] [1 two]');
  });

  it('if / else if / else, with, and the trim markers', () => {
    // JSON numbers are float64 in Go, so they compare with float constants (1.0), not ints (1)
    const tpl = '{{if eq .n 1.0}}one{{else if gt .n 5.0}}big{{else}}other{{end}}';
    assert.deepEqual(
      [1, 9, 3].map((n) => render(tpl, { n })),
      ['one', 'big', 'other'],
    );
    assert.equal(render('{{with .u}}{{.name}}{{else}}nobody{{end}}', { u: { name: 'ada' } }), 'ada');
    assert.equal(render('{{with .u}}{{.name}}{{else}}nobody{{end}}', {}), 'nobody');
    assert.equal(render('a  {{- .x -}}  b', { x: '-' }), 'a-b');
  });

  it('range over lists (with $i, $v) and maps (sorted keys), with else for empty', () => {
    assert.equal(render('{{range $i, $v := .l}}{{$i}}={{$v}};{{end}}', { l: ['a', 'b'] }), '0=a;1=b;');
    assert.equal(render('{{range $k, $v := .m}}{{$k}}:{{$v}},{{end}}', { m: { z: 1, a: 2 } }), 'a:2,z:1,');
    assert.equal(render('{{range .l}}{{.}}{{else}}empty{{end}}', { l: [] }), 'empty');
  });

  it('functions and pipes: jsonMarshal (sorted, escaped), index, len, printf, and/or/not', () => {
    assert.equal(render('{{jsonMarshal .}}', { b: '<&>', a: [1] }), '{"a":[1],"b":"\\u003c\\u0026\\u003e"}');
    assert.equal(render('{{index .m "-id"}} {{len .l}} {{.l | len}}', { m: { '-id': '7' }, l: [1, 2] }), '7 2 2');
    assert.equal(render('{{printf "%s-%d" .a (len .l)}}', { a: 'x', l: [1, 2, 3] }), 'x-3');
    assert.equal(render('{{if and .a (not .b)}}yes{{end}}{{or .b "fallback"}}', { a: true, b: false }), 'yesfallback');
    assert.equal(render('{{$x := .a}}{{$x}}{{$x}}', { a: 'r' }), 'rr');
  });

  it('refuses templates it can not run, naming the problem', () => {
    assert.throws(() => compileTemplate('{{if .a}}open'), TemplateError);
    assert.throws(() => compileTemplate('{{nosuchfunc .a}}'), /function "nosuchfunc" not defined/);
    assert.throws(() => compileTemplate('{{end}}'), TemplateError);
  });

  it('reads XML as mxj does and writes it back with xmlMarshal', () => {
    const parsed = parseXml(
      '<?xml version="1.0"?><!-- c --><a x="1"><b>t&amp;u</b><b>v</b><c y="2">text</c><d/><e><![CDATA[<raw>]]></e></a>',
    );
    assert.deepEqual(parsed, {
      a: { '-x': '1', b: ['t&u', 'v'], c: { '-y': '2', '#text': 'text' }, d: '', e: '<raw>' },
    });
    assert.equal(toXml({ r: { '-id': '1', k: ['a', 'b'] } }), '<r id="1"><k>a</k><k>b</k></r>');
    assert.throws(() => parseXml('<a><b></a>'));
    // an unclosed CDATA section or comment used to send the parser back to the start, forever
    assert.throws(() => parseXml('<a><![CDATA[x</a>'), /unclosed CDATA/);
    assert.throws(() => parseXml('<a><!-- x</a>'), /unclosed comment/);
  });
});

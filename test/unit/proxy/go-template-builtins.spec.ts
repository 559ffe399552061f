import { strict as assert } from 'node:assert';
import { compileTemplate, ExecError } from '../../../lib/go-template/template';
import { TemplateError } from '../../../lib/go-template/template-parser';

const render = (source: string, data: unknown = {}) => compileTemplate(source).render(data);

/**
 * Each expectation is the output of Go's text/template for the same template and data: the
 * doc comments of text/template/funcs.go (HTMLEscape, JSEscape, URLQueryEscaper, evalArgs), the
 * cases of text/template/exec_test.go and fmt's documentation ("Printing"). Body data is what
 * encoding/json gives Go: JSON numbers are float64, a template's integer constants are int.
 */
describe('go-template: builtins print what Go text/template prints', () => {
  const table: Array<[string, string, unknown, string]> = [
    // funcs.go URLQueryEscaper = url.QueryEscape: space as +, all but [A-Za-z0-9-_.~] as %XX
    ['urlquery: url.QueryEscape', '{{urlquery "a b&c=d/é~-_."}}', {}, 'a+b%26c%3Dd%2F%C3%A9~-_.'],
    ['urlquery: fmt.Sprint of several args', '{{urlquery "x" 1 2}}', {}, 'x1+2'],
    ['urlquery: exec_test "urlquery"', '{{"<html>" | urlquery}}', {}, '%3Chtml%3E'],
    // funcs.go HTMLEscape: &#34; &#39; &amp; &lt; &gt; and NUL as U+FFFD
    ['html: HTMLEscapeString', `{{html "<a href='x'>&\\"\\x00"}}`, {}, '&lt;a href=&#39;x&#39;&gt;&amp;&#34;\uFFFD'],
    [
      'html: exec_test "html"',
      '{{html .s}}',
      { s: '<script>alert("XSS");</script>' },
      '&lt;script&gt;alert(&#34;XSS&#34;);&lt;/script&gt;',
    ],
    ['html: a missing value is <no value> (evalArgs)', '{{html .none}}', {}, '&lt;no value&gt;'],
    // funcs.go JSEscape: \\ \' \" \u003C \u003E \u0026 \u003D, control characters as \u00XX
    [
      'js: JSEscapeString',
      `{{js "<a='b'>\\\\\\"&\\n\\té"}}`,
      {},
      "\\u003Ca\\u003D\\'b\\'\\u003E\\\\\\\"\\u0026\\u000A\\u0009é",
    ],
    ['js: a non-printable rune as \\uXXXX', '{{js "\\u2028"}}', {}, '\\u2028'],
    // fmt: "Spaces are added between operands when neither is a string"
    ['print: fmt.Sprint spacing', '{{print 1 2 "a" 3 "b" "c"}}', {}, '1 2a3bc'],
    ['println: fmt.Sprintln', '{{println 1 "a"}}', {}, '1 a\n'],
    [
      'print: a float64 as %v (strconv g, shortest)',
      '{{.a}} {{.b}} {{.c}} {{.d}}',
      { a: 1000000, b: 123456, c: 0.00001, d: 2.5 },
      '1e+06 123456 1e-05 2.5',
    ],
    [
      'print: int constants stay ints, float constants are float64',
      "{{1000000}} {{1e6}} {{0x1F}} {{'a'}}",
      {},
      '1000000 1e+06 31 97',
    ],
    // exec.go evalPipeline digs an interface{} down: a nil one prints as the invalid value does
    [
      'print: nil and missing alone are <no value>, as print arguments <nil>',
      '{{.n}} {{.none}} {{print .none}} {{print .n}} {{range .l}}{{.}}{{end}}',
      { n: null, l: [null] },
      '<no value> <no value> <nil> <nil> <no value>',
    ],
    ['print: maps sorted, lists spaced', '{{.m}}', { m: { b: [1, null], a: 'x' } }, 'map[a:x b:[1 <nil>]]'],
    // fmt "Printing": verbs, width, precision, and the %!verb(type=value) errors
    [
      'printf: verbs',
      '{{printf "%d %s %q %v %5.2f|%-4d|%x %T" 3 "s" "q\\n" true 3.14159 7 "hi" .f}}',
      { f: 1.5 },
      '3 s "q\\n" true  3.14|7   |6869 float64',
    ],
    ['printf: %d of a float64 is a bad verb', '{{printf "%d" .n}}', { n: 3 }, '%!d(float64=3)'],
    [
      'printf: missing and extra operands',
      '{{printf "%d %d" 1}} {{printf "%d" 1 "x"}}',
      {},
      '1 %!d(MISSING) 1%!(EXTRA string=x)',
    ],
    // funcs.go length/index/slice: strings are bytes, indexes are ints
    [
      'len: bytes of a string, items of a list or map',
      '{{len "héllo"}} {{len .l}} {{len .m}}',
      { l: [1, 2], m: { a: 1 } },
      '6 2 1',
    ],
    [
      'index: list, nested, string byte, missing map key',
      '{{index .l 1}} {{index .m "a" 0}} {{index "abc" 1}} {{index .m "z"}}',
      { l: ['x', 'y'], m: { a: ['q'] } },
      'y q 98 <no value>',
    ],
    [
      'slice: exec_test "slice[1:2]" and friends',
      '{{slice .l 1 2}} {{slice .l 1}} {{slice "abcdef" 1 3}} {{slice "xyz"}}',
      { l: [0, 1, 2] },
      '[1] [1 2] bc xyz',
    ],
    // funcs.go eq/lt: one basic kind, eq against several values, nil equal only to nil
    [
      'eq/ne/lt/le/gt/ge',
      '{{eq 1 2 3 1}} {{ne "a" "b"}} {{lt "a" "b"}} {{le 2 2}} {{gt 1.5 .f}} {{ge 1 2}} {{eq .none nil}}',
      { f: 1.0 },
      'true true true true true false true',
    ],
    // exec_test "and"/"or": the deciding argument itself, short-circuited
    [
      'and/or/not return the deciding value',
      '{{and 1 0 "x"}} {{and 1 "x"}} {{or 0 "" "y"}} {{or 0 ""}} {{not 0}}',
      {},
      '0 x y  true',
    ],
    ['and stops before an argument that would fail', '{{and false (index .l 5)}}', { l: [] }, 'false'],
    // exec_test "range", "range $x $y", Go 1.22 "range over int", variables and $x = assignment
    [
      'range: list, int, else',
      '{{range $i, $v := .l}}{{$i}}{{$v}}{{end}} {{range 3}}{{.}}{{end}} {{range .e}}x{{else}}none{{end}}',
      { l: ['a', 'b'], e: [] },
      '0a1b 012 none',
    ],
    // exec_test "range break", "range continue" (Go 1.18)
    [
      'range: break and continue',
      '{{range .l}}{{if eq . 2.0}}{{continue}}{{end}}{{if eq . 4.0}}{{break}}{{end}}{{.}}{{end}}',
      { l: [1, 2, 3, 4, 5] },
      '13',
    ],
    [
      'variables: := is scoped to its block, = assigns the outer one',
      '{{$x := 1}}{{if true}}{{$x = 2}}{{$y := 3}}{{end}}{{$x}}',
      {},
      '2',
    ],
    ['trim markers remove spaces, tabs and newlines only', 'a \t\n {{- "b" -}} \n c\u00a0{{- "d"}}', {}, 'abc\u00a0d'],
  ];

  for (const [name, source, data, expected] of table) {
    it(name, () => assert.equal(render(source, data), expected));
  }

  it("refuses {{break}} and {{continue}} outside a range, as Go's parser does", () => {
    assert.throws(() => compileTemplate('{{if true}}{{break}}{{end}}'), TemplateError);
    assert.throws(() => compileTemplate('{{continue}}'), /outside \{\{range\}\}/);
  });

  it('fails where Go execution fails, naming the function and the reason', () => {
    const failures: Array<[string, unknown, RegExp]> = [
      // funcs.go eq: "incompatible types for comparison" (a JSON number is float64, 1 is an int)
      ['{{eq .n 1}}', { n: 1 }, /error calling eq: incompatible types for comparison: float64 and int/],
      ['{{lt true false}}', {}, /error calling lt: invalid type for comparison/],
      ['{{index .l 3}}', { l: [1] }, /error calling index: index out of range: 3/],
      ['{{index .l 0.0}}', { l: [1] }, /error calling index: cannot index slice\/array with type float64/],
      ['{{len 3}}', {}, /error calling len: len of type int/],
      ['{{slice .l 2 1}}', { l: [1, 2] }, /error calling slice: invalid slice index: 2 > 1/],
      ['{{.s.x}}', { s: 'text' }, /can't evaluate field x in type string/],
      ['{{index .m nil}}', { m: {} }, /error calling index: value is nil; should be of type string/],
    ];
    for (const [source, data, message] of failures) {
      const matches = (err: Error) => err instanceof ExecError && message.test(err.message);
      assert.throws(() => render(source, data), matches, source);
    }
  });
});

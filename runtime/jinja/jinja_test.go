package jinja

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestErrors checks that constructs outside the subset, and mistakes, are
// located errors naming what is wrong.
func TestErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"a\n  {{ s|wordwrap }}", `t:2:8: the filter "wordwrap" is not supported`},
		{"{{ x is wibble }}", `t:1:9: the test "wibble" is not supported`},
		{"{% include 'x' %}", `t:1:4: the statement "include" is not supported`},
		{"{% raw %}{{ x }}{% endraw %}", `t:1:1: the "raw" block is not supported`},
		{"{% for x in y recursive %}{% endfor %}", `t:1:15: recursive loops are not supported`},
		{"{% frobnicate %}", `t:1:4: unknown statement "frobnicate"`},
		{"{% if x %}\nno end", `t:2:7: unexpected end of template: expected {% endif %}`},
		{"{{ 1 + }}", `t:1:8: expected an expression, found '}}'`},
		{"{{ x", `t:1:1: the expression is not closed: expected "}}"`},
		{"{# x", `t:1:1: the comment is not closed`},
		{"{{ 'abc }}", `t:1:4: the string is not closed`},
		{"{{ f(*a) }}", `t:1:6: *args and **kwargs in calls are not supported`},
		{"{{ a ? b }}", `t:1:6: unexpected character '?'`},
		{"{{ " + strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300) + " }}", `the expression is nested too deeply`},
	} {
		_, err := Parse("t", tc.src)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q): %v, want %s", tc.src, err, tc.want)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"{{ x.y }}", `t:1:5: 'x' is undefined`},
		{"{% set l = [] %}\n{{ l.append(1) }}", `t:2:12: access to attribute 'append' of 'list' object is unsafe.`},
		{"{{ 1 / 0 }}", `t:1:6: division by zero`},
		{"{{ 1 + 'a' }}", `t:1:6: unsupported operand type(s) for +: 'int' and 'str'`},
		{"{% macro m(a) %}{% endmacro %}{{ m(1, 2) }}", `macro 'm' takes not more than 1 argument(s)`},
		{"{% for i in range(200000) %}{% endfor %}", `Range too big`},
		{"{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}", `maximum recursion depth exceeded`},
		{"{{ 2 ** 64 }}", `integer overflow`},
	} {
		tp, err := Parse("t", tc.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.src, err)
			continue
		}
		_, err = tp.Render(nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Render(%q): %v, want %s", tc.src, err, tc.want)
		}
	}
}

// TestRaiseException checks that raise_exception's message is the whole
// error text, as transformers' TemplateError prints it.
func TestRaiseException(t *testing.T) {
	tp, err := Parse("t", "{% if messages[0].role == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}")
	if err != nil {
		t.Fatal(err)
	}
	_, err = tp.Render(map[string]any{"messages": []any{map[string]any{"role": "system", "content": "x"}}})
	var ex *Exception
	if !errors.As(err, &ex) || err.Error() != "System role not supported" {
		t.Fatalf("got %v, want the Exception \"System role not supported\"", err)
	}
}

// TestGoValues renders Go values that are not the JSON decoder's.
func TestGoValues(t *testing.T) {
	tp, err := Parse("t", "{{ n + 1 }} {{ f }} {{ m.b }}{{ m.a }} {{ m|tojson }} {{ l|join(',') }}")
	if err != nil {
		t.Fatal(err)
	}
	got, err := tp.Render(map[string]any{"n": 41, "f": float32(0.5), "m": map[string]any{"b": 2, "a": 1}, "l": []string{"x", "y"}})
	if want := `42 0.5 21 {"a": 1, "b": 2} x,y`; err != nil || got != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
}

func TestFormatFloat(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0.0", 1: "1.0", 0.1: "0.1", 1e16: "1e+16", 1e15: "1000000000000000.0", 1.5e-7: "1.5e-07",
		0.0001: "0.0001", 0.00001: "1e-05", -2.5: "-2.5", 123456789.125: "123456789.125", 1.2345678901234568e+17: "1.2345678901234568e+17",
	} {
		if got := formatFloat(f); got != want {
			t.Errorf("formatFloat(%v) = %q, want %q", f, got, want)
		}
	}
}

func FuzzRender(f *testing.F) {
	for _, fx := range loadFixtures(f) {
		if !strings.Contains(fx.name, "/") || strings.HasPrefix(fx.name, "synthetic") || strings.HasSuffix(fx.name, "system_user/agp=True") {
			f.Add(fx.source)
		}
	}
	vars := map[string]any{
		"messages": []any{map[string]any{"role": "user", "content": "hi"}, map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "x"}}}},
		"items":    []any{3, 1, 2}, "d": map[string]any{"a": 1}, "name": "W", "add_generation_prompt": true,
	}
	f.Fuzz(func(t *testing.T, src string) {
		tp, err := Parse("f", src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse: an error without a place: %v", err)
			}
			return
		}
		_, _ = tp.RenderAt(vars, fixtureNow)
	})
}

// FuzzDecodeJSON: DecodeJSON never panics, and reads exactly the valid
// JSON that is not nested past maxDepth.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`[{"role": "user", "content": "hi"}]`, `{"a": [1, 2.5, -3e400, true, null, "\u00e9"]}`, `[`, `{"a" 1}`, `1 2`, `"x"`, `[[[[]]]]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := DecodeJSON(data)
		if valid := json.Valid(data); valid != (err == nil) && !(valid && strings.Contains(fmt.Sprint(err), "nested more than")) {
			t.Errorf("%q: valid %v, DecodeJSON error %v", data, valid, err)
		}
	})
}

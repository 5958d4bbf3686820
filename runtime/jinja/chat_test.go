package jinja

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var verbose = flag.Bool("jinja.diff", false, "print each mismatching output in full")

// fixtureNow is the clock tools/hf-fixtures/chat.py fixes.
var fixtureNow = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

type fixture struct {
	name, source string
	vars         *Dict
	output       string
	err, kind    string
	failed       bool
}

func loadFixtures(t testing.TB) []fixture {
	t.Helper()
	data, err := os.ReadFile("testdata/chat.json")
	if err != nil {
		t.Fatal(err)
	}
	root, err := DecodeJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	cases, _ := root.(*Dict).Get("cases")
	var out []fixture
	for _, c := range cases.([]any) {
		d := c.(*Dict)
		get := func(k string) string { v, _ := d.Get(k); s, _ := v.(string); return s }
		f := fixture{name: get("name"), source: get("template"), output: get("output"), err: get("error"), kind: get("kind")}
		_, f.failed = d.Get("error")
		if file := get("file"); file != "" {
			b, err := os.ReadFile(filepath.Join("testdata/templates", file))
			if err != nil {
				t.Fatal(err)
			}
			f.source = string(b)
		}
		v, _ := d.Get("vars")
		f.vars = v.(*Dict)
		out = append(out, f)
	}
	return out
}

func varsOf(d *Dict) map[string]any {
	m := map[string]any{}
	for i, k := range d.keys {
		m[k.(string)] = d.vals[i]
	}
	return m
}

// TestChatFixtures renders every case of testdata/chat.json, which jinja2
// rendered as transformers does, and wants the same bytes, or an error
// where jinja2 failed: raise_exception's own message where it raised.
func TestChatFixtures(t *testing.T) {
	fs := loadFixtures(t)
	bad := 0
	for _, f := range fs {
		got, err := renderSource(f.name, f.source, varsOf(f.vars))
		switch {
		case f.failed && err == nil:
			t.Errorf("%s: rendered %q; jinja2 failed: %s: %s", f.name, got, f.kind, f.err)
		case !f.failed && err != nil:
			t.Errorf("%s: %v; jinja2 rendered %q", f.name, err, f.output)
		case f.failed && f.kind == "raise":
			var ex *Exception
			if !errors.As(err, &ex) || ex.Msg != f.err {
				t.Errorf("%s: error %v; jinja2 raised %q", f.name, err, f.err)
			} else {
				continue
			}
		case !f.failed && got != f.output:
			if *verbose {
				t.Errorf("%s:\n got %q\nwant %q", f.name, got, f.output)
			} else {
				t.Errorf("%s: got %.200q, want %.200q", f.name, got, f.output)
			}
		default:
			continue
		}
		bad++
	}
	t.Logf("%d cases, %d mismatched", len(fs), bad)
}

func renderSource(name, source string, vars map[string]any) (string, error) {
	tp, err := Parse(name, source)
	if err != nil {
		return "", err
	}
	return tp.RenderAt(vars, fixtureNow)
}

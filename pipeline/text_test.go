package pipeline_test

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/pipeline"
	"github.com/rlx-compiler/rlx/pipeline/testpass"
)

func TestParsePrint(t *testing.T) {
	reg, _ := recorder()
	opts := "{big=-1 count=3 flag=false label=none limit=4294967295 mode=normal names=a,b pair=1:2 ratio=0.5 }"
	for _, tc := range []struct{ in, want string }{
		{"builtin.module()", "builtin.module()"},
		{" builtin.module ( a , b ) ", "builtin.module(a,b)"},
		{"builtin.module(func.func(a,b),m)", "builtin.module(func.func(a,b),m)"},
		{"any(a)", "any(a)"},
		{"builtin.module(any(a),func.func(fa))", "builtin.module(any(a),func.func(fa))"},
		{"builtin.module(test-options)", "builtin.module(test-options" + opts + ")"},
		{"builtin.module(test-options{})", "builtin.module(test-options" + opts + ")"},
		{"builtin.module(test-options{count=7 flag})", "builtin.module(test-options{big=-1 count=7 flag=true label=none limit=4294967295 mode=normal names=a,b pair=1:2 ratio=0.5 })"},
		{"builtin.module(test-options{label='x, y' names={p,\"q r\",s} sizes=1,2})",
			`builtin.module(test-options{big=-1 count=3 flag=false label="x, y" limit=4294967295 mode=normal names={p,"q r",s} pair=1:2 ratio=0.5 sizes=1,2})`},
		{"builtin.module(test-options{names={}})", "builtin.module(test-options{big=-1 count=3 flag=false label=none limit=4294967295 mode=normal names={} pair=1:2 ratio=0.5 })"},
		{`builtin.module(test-options{label="builtin.module(func.func(a{x=1}))"})`,
			`builtin.module(test-options{big=-1 count=3 flag=false label="builtin.module(func.func(a{x=1}))" limit=4294967295 mode=normal names=a,b pair=1:2 ratio=0.5 })`},
		{`builtin.module(test-options{label={a "b" c}})`,
			`builtin.module(test-options{big=-1 count=3 flag=false label='a "b" c' limit=4294967295 mode=normal names=a,b pair=1:2 ratio=0.5 })`},
	} {
		pm, err := pipeline.Parse(reg, tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		got := pm.String()
		if got != tc.want {
			t.Errorf("Parse(%q).String() =\n  %s\nwant\n  %s", tc.in, got, tc.want)
			continue
		}
		again, err := pipeline.Parse(reg, got)
		if err != nil {
			t.Errorf("reparse of %q: %v", got, err)
		} else if again.String() != got {
			t.Errorf("round trip of %q gave %q", got, again.String())
		}
	}
}

func TestParseErrors(t *testing.T) {
	reg, _ := recorder()
	for _, tc := range []struct {
		in  string
		col int
		msg string
	}{
		{"builtin.module(func.func(bogus))", 26, "'bogus' does not refer to a registered pass or pass pipeline"},
		{"builtin.module(func.func(tst-options))", 26, "'tst-options' does not refer to a registered pass or pass pipeline; did you mean 'test-options'?"},
		{"builtin.module(test-options{cont=3})", 29, "no such option 'cont' for pass 'test-options'; did you mean 'count'?"},
		{"builtin.module(test-options{count=x})", 35, "invalid value for option 'count' of pass 'test-options': 'x' is not a valid integer"},
		{"builtin.module(test-options{count})", 29, "option 'count' of pass 'test-options' requires a value"},
		{"builtin.module(test-options{mode=fast})", 34, "invalid value for option 'mode' of pass 'test-options': 'fast' is not a valid value (expected one of: disabled, normal, aggressive)"},
		{"builtin.module(test-options{label=\"x})", 35, "unterminated quoted string in pass options"},
		{"builtin.module(test-options{count=3)", 28, "missing closing '}' while processing pass options"},
		{"builtin.module(func.func(a)", 15, "encountered unbalanced parentheses while parsing pipeline"},
		{"builtin.module(func.func(a)))", 29, "encountered extra closing ')' creating unbalanced parentheses while parsing pipeline"},
		{"builtin.module(func.func(a)b)", 28, "expected ',' after parsing pipeline"},
		{"builtin.module(a,)", 18, "'' does not refer to a registered pass or pass pipeline"},
		{"builtin.module(func.func())", 26, "'' does not refer to a registered pass or pass pipeline"},
		{"cse", 1, "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'"},
		{"(cse)", 1, "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'"},
		{"builtin.module(fa)", 16, "pass 'fa' runs on 'func.func' ops and cannot be added to a 'builtin.module' pipeline; did you mean 'func.func(fa)'?"},
		{"builtin.module(func.func{x}(a))", 25, "a nested pipeline ('func.func') takes no options"},
		{"builtin.module(a b)", 17, "unexpected character ' ' in pass or op name"},
		{"builtin.module(test-options{pair=1})", 34, "invalid value for option 'pair' of pass 'test-options': '1' is not of the form A:B"},
	} {
		_, err := pipeline.Parse(reg, tc.in)
		var se *pipeline.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want a SyntaxError", tc.in, err)
			continue
		}
		if se.Pos+1 != tc.col || se.Msg != tc.msg {
			t.Errorf("Parse(%q):\n got col %d: %s\nwant col %d: %s", tc.in, se.Pos+1, se.Msg, tc.col, tc.msg)
		}
	}
}

func TestRenderedError(t *testing.T) {
	reg, _ := recorder()
	_, err := pipeline.Parse(reg, "builtin.module(func.func(a,tst-options))")
	want := "<pass-pipeline>:1:28: error: 'tst-options' does not refer to a registered pass or pass pipeline; did you mean 'test-options'?\n" +
		"builtin.module(func.func(a,tst-options))\n" +
		"                           ^\n"
	if got := err.(*pipeline.SyntaxError).Render(); got != want {
		t.Errorf("Render() =\n%s\nwant\n%s", got, want)
	}
}

// randomValue returns a random valid textual value for o.
func randomValue(r *rand.Rand, o *pipeline.Option) string {
	words := []string{"x", "a b", "p,q", "{n}", `say "hi"`, "it's", "c=d", "f(g)", "", "-", "1.5"}
	switch o.Type {
	case "bool":
		return fmt.Sprint(r.Intn(2) == 0)
	case "int":
		return fmt.Sprint(r.Intn(2001) - 1000)
	case "uint":
		return fmt.Sprint(r.Uint32())
	case "float":
		return fmt.Sprint(r.NormFloat64() * 100)
	case "enum":
		return o.Enum[r.Intn(len(o.Enum))].Name
	case "string":
		return words[r.Intn(len(words))]
	case "list<int>":
		n := r.Intn(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprint(r.Intn(100) - 50)
		}
		return strings.Join(parts, ",")
	case "list<string>":
		return ""
	}
	return o.Default
}

// TestOptionsRoundTrip sets every option of every registered pass to
// random values and checks that printing the pipeline and parsing it back
// gives the same values.
func TestOptionsRoundTrip(t *testing.T) {
	reg, _ := recorder()
	r := rand.New(rand.NewSource(1))
	words := []string{"x", "a b", "p,q", "{n}", `say "hi"`, "it's", "c=d", "f(g)", "-"}
	for _, pi := range reg.Passes() {
		for iter := 0; iter < 50; iter++ {
			p := pipeline.NewPass(pi)
			for _, o := range pipeline.Describe(p).Options() {
				var v string
				if o.Type == "list<string>" {
					n := r.Intn(4)
					elems := make([]string, n)
					for i := range elems {
						elems[i] = words[r.Intn(len(words))]
					}
					// Set through the typed list: build it from quoted parts.
					ps := pipeline.NewPass(pi)
					_ = ps
					v = joinQuoted(elems)
				} else {
					v = randomValue(r, o)
				}
				if o.Type == "pair" {
					v = fmt.Sprintf("%d:%d", r.Intn(9), r.Intn(9))
				}
				if err := o.Set(v); err != nil {
					t.Fatalf("%s: setting %s to %q: %v", pi.Argument, o.Name, v, err)
				}
			}
			pm := pipeline.NewOpPassManager("builtin.module")
			pm.AddPassImplicit(p)
			text := pm.String()
			back, err := pipeline.Parse(reg, text)
			if err != nil {
				t.Fatalf("%s: reparse of %s: %v", pi.Argument, text, err)
			}
			if back.String() != text {
				t.Fatalf("%s: round trip changed\n  %s\ninto\n  %s", pi.Argument, text, back.String())
			}
		}
	}
}

func joinQuoted(elems []string) string {
	parts := make([]string, len(elems))
	for i, e := range elems {
		switch {
		case !strings.ContainsAny(e, `"`):
			parts[i] = `"` + e + `"`
		default:
			parts[i] = `'` + e + `'`
		}
	}
	return strings.Join(parts, ",")
}

func TestTestOptionsValues(t *testing.T) {
	reg := pipeline.NewRegistry(testpass.All()...)
	p, err := reg.Create("test-options", `flag count=0x10 big=-5 limit=7 ratio=2.5e-3 label={a b} mode=aggressive sizes=1,-2 names="x,y",z pair=5:6`)
	if err != nil {
		t.Fatal(err)
	}
	o := p.(*testpass.Options)
	got := fmt.Sprintf("%v %d %d %d %g %q %s %v %q %s", o.Flag, o.Count, o.Big, o.Limit, o.Ratio, o.Label, o.Mode, o.Sizes, o.Names, o.Custom.String())
	want := `true 16 -5 7 0.0025 "a b" aggressive [1 -2] ["x,y" "z"] 5:6`
	if got != want {
		t.Errorf("options = %s\nwant      %s", got, want)
	}
}

// FuzzPipeline checks that the pipeline parser never panics and that any
// pipeline it accepts prints to text that parses back to the same text.
func FuzzPipeline(f *testing.F) {
	for _, s := range []string{
		"builtin.module(func.func(a,b),m)",
		"any(test-options{count=3 label=\"a b\" names={x,y}})",
		"builtin.module(test-options{label='q' sizes=1,2,3 flag pair=1:2})",
		"builtin.module(func.func(test-func-work{iterations=2}),test-module-pass)",
		"builtin.module(",
		"builtin.module(test-options{label={a{b}c}})",
	} {
		f.Add(s)
	}
	reg, _ := recorder()
	f.Fuzz(func(t *testing.T, text string) {
		pm, err := pipeline.Parse(reg, text)
		if err != nil {
			var se *pipeline.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("non-syntax error %T: %v", err, err)
			}
			_ = se.Render()
			return
		}
		printed := pm.String()
		back, err := pipeline.Parse(reg, printed)
		if err != nil {
			t.Fatalf("printed pipeline does not parse:\n in: %q\nout: %q\nerr: %v", text, printed, err)
		}
		if again := back.String(); again != printed {
			t.Fatalf("round trip changed the pipeline:\n in: %q\nout: %q\nnow: %q", text, printed, again)
		}
	})
}

// TestDeclCheck checks that an option's check runs on each parsed value and
// that its refusal is reported like any invalid value.
func TestDeclCheck(t *testing.T) {
	var d pipeline.Decl
	var n int
	d.Int(&n, "count", 1, "a count")
	d.Check("count", func() error {
		if n < 0 {
			return errors.New("negative")
		}
		return nil
	})
	o := d.Lookup("count")
	if err := o.Set("3"); err != nil || n != 3 {
		t.Fatalf("Set(3): n=%d err=%v", n, err)
	}
	if err := o.Set("-2"); err == nil || err.Error() != "negative" {
		t.Fatalf("Set(-2): err=%v, want the check's error", err)
	}
	if err := o.Set("x"); err == nil || !strings.Contains(err.Error(), "not a valid integer") {
		t.Fatalf("Set(x): err=%v, want the parse error first", err)
	}
}

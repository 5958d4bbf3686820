package optdriver

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/pipeline"
)

// TestRegisteredPassOptionsRoundTrip sets the options of every pass
// rlx-opt registers (rlx's passes and the test passes) to random values,
// prints the pipeline and parses it back: the text must be a fixed point
// and every option must keep its value.
func TestRegisteredPassOptionsRoundTrip(t *testing.T) {
	cfg := testConfig()
	reg := pipeline.NewRegistry(cfg.Passes...)
	r := rand.New(rand.NewSource(7))
	words := []string{"x", "a b", "p,q", "{n}", `say "hi"`, "it's", "c=d", "f(g)", "-", "canonicalize{max-iterations=3}"}
	for _, pi := range reg.Passes() {
		for iter := 0; iter < 40; iter++ {
			p := pipeline.NewPass(pi)
			want := map[string]string{}
			for _, o := range pipeline.Describe(p).Options() {
				var v string
				switch o.Type {
				case "bool":
					v = fmt.Sprint(r.Intn(2) == 0)
				case "int":
					v = fmt.Sprint(r.Intn(2001) - 1000)
				case "uint":
					v = fmt.Sprint(r.Uint32())
				case "float":
					v = fmt.Sprint(r.NormFloat64() * 100)
				case "enum":
					v = o.Enum[r.Intn(len(o.Enum))].Name
				case "string":
					v = words[r.Intn(len(words))]
				case "list<int>":
					var parts []string
					for n := r.Intn(4); n > 0; n-- {
						parts = append(parts, fmt.Sprint(r.Intn(100)-50))
					}
					v = strings.Join(parts, ",")
				case "list<string>":
					var parts []string
					for n := r.Intn(4); n > 0; n-- {
						w := words[r.Intn(len(words))]
						if strings.Contains(w, `"`) {
							parts = append(parts, "'"+w+"'")
						} else {
							parts = append(parts, `"`+w+`"`)
						}
					}
					v = strings.Join(parts, ",")
				default:
					v = o.Value() // custom types keep their value
				}
				if err := o.Set(v); err != nil {
					// A pass may refuse values its type allows (a
					// negative count, an unknown op name): round-trip
					// the default then, which must be accepted.
					if err := o.Set(o.Default); err != nil {
						t.Fatalf("%s: setting %s (%s) to %q, then to its default %q: %v", pi.Argument, o.Name, o.Type, v, o.Default, err)
					}
				}
				want[o.Name] = o.Value()
			}
			pm := pipeline.NewOpPassManager("builtin.module")
			pm.AddPassImplicit(p)
			text := pm.String()
			back, err := pipeline.Parse(reg, text)
			if err != nil {
				t.Fatalf("%s: %s does not parse back: %v", pi.Argument, text, err)
			}
			if back.String() != text {
				t.Fatalf("%s: round trip changed\n  %s\ninto\n  %s", pi.Argument, text, back.String())
			}
			var bp pipeline.Pass
			for _, q := range back.Passes() {
				bp = q
				if n := pipeline.Nested(q); n != nil {
					bp = n[0].Passes()[0]
				}
			}
			for _, o := range pipeline.Describe(bp).Options() {
				if o.Value() != want[o.Name] {
					t.Fatalf("%s: option %s is %q after the round trip, want %q (pipeline %s)", pi.Argument, o.Name, o.Value(), want[o.Name], text)
				}
			}
		}
	}
}

package hybridsplit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/hybridinline"
)

// FuzzSplit runs hybrid-split, then hybrid-inline, on arbitrary text. Text
// that does not parse or verify is skipped; on the rest neither pass may
// panic, an error must leave the function as it was, and a split or
// inlined module must verify and print text that parses back to the same
// print. The seeds are the hybrid-split lit inputs under 8 KB (whose
// already-split functions also reach the mps and thunk parsers); larger
// seeds make the fuzzer spend its time minimizing.
// mode selects the options: bit 0 seed mode, bit 1 min-subgraph-ops=2,
// bit 2 native-ops=graph.exp.
func FuzzSplit(f *testing.F) {
	files, _ := filepath.Glob("../../lit-tests/hybrid-split/*.mlir")
	for i, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if len(src) < 8<<10 {
			f.Add(string(src), uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, src string, mode uint8) {
		if len(src) > 1<<16 {
			return
		}
		m, err := asm.ParseString(newContext(), "fuzz.mlir", src)
		if err != nil || ir.Verify(m) != nil {
			return
		}
		opts := Options{Mode: ModeDependency, MinSubgraphOps: 1}
		if mode&1 != 0 {
			opts.Mode = ModeSeed
		}
		if mode&2 != 0 {
			opts.MinSubgraphOps = 2
		}
		if mode&4 != 0 {
			opts.NativeOps = []string{"graph.exp"}
		}
		var funcs []*ir.Operation
		m.Walk(func(op *ir.Operation) {
			if op.Name() == "func.func" {
				funcs = append(funcs, op)
			}
		})
		for _, fn := range funcs {
			before := ir.Sprint(fn, ir.PrintOptions{Generic: true})
			if _, err := Split(fn, opts); err != nil {
				if after := ir.Sprint(fn, ir.PrintOptions{Generic: true}); after != before {
					t.Fatalf("Split failed (%v) and changed the function:\n%s", err, after)
				}
			}
		}
		reparse(t, m, "after hybrid-split")
		for _, fn := range funcs {
			hybridinline.Inline(fn)
		}
		reparse(t, m, "after hybrid-inline")
	})
}

// reparse checks that m verifies and that its print parses back to the
// same print.
func reparse(t *testing.T, m *ir.Operation, when string) {
	t.Helper()
	if err := ir.Verify(m); err != nil {
		t.Fatalf("%s: does not verify: %v\n%s", when, err, ir.Sprint(m, ir.PrintOptions{Generic: true}))
	}
	text := ir.Sprint(m, ir.PrintOptions{})
	back, err := asm.ParseString(newContext(), "reparse.mlir", text)
	if err != nil {
		t.Fatalf("%s: print does not parse back: %v\n%s", when, err, text)
	}
	if again := ir.Sprint(back, ir.PrintOptions{}); again != text {
		t.Fatalf("%s: print changes when parsed back:\n%s\n---\n%s", when, text, again)
	}
}

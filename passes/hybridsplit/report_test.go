package hybridsplit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// This file holds what the property test does with a failing function: it
// shrinks the function to a small one that fails the same way and writes
// that out with a header, a lit test where the lit tools can see the bug.

// finding is a failing function, shrunk and written out.
type finding struct {
	seed int64
	v    variant
	src  string   // the random function
	fl   *failure // its failure
	// small is src shrunk: the smallest function found that fails with
	// fl's kind, and smallFl its failure.
	small   string
	smallFl *failure
	// path is the reproducer file, or why it was not written.
	path string
}

func (fd *finding) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, %s: %v\n", fd.seed, fd.v.name, fd.fl)
	if fd.smallFl.Error() != fd.fl.Error() {
		fmt.Fprintf(&b, "shrunk: %v\n", fd.smallFl)
	}
	fmt.Fprintf(&b, "shrunk reproducer (%d compute ops, from %d): %s\n%s", computeOps(fd.small), computeOps(fd.src), fd.path, fd.small)
	return b.String()
}

// checkGraph runs property on src, the function of seed, and investigates
// its failure into dir; nil when src passes.
func checkGraph(dir string, seed int64, v variant, src string) *finding {
	fl := property(newContext(), src, v, uint64(seed), nil)
	if fl == nil {
		return nil
	}
	return investigate(dir, seed, v, src, fl)
}

// investigate shrinks src, which fails v with fl, and writes the
// reproducer into dir (a new temporary directory when dir is "").
func investigate(dir string, seed int64, v variant, src string, fl *failure) *finding {
	fails := func(s string) error {
		if f := property(newContext(), s, v, uint64(seed), nil); f != nil {
			return f
		}
		return nil
	}
	fd := &finding{seed: seed, v: v, src: src, fl: fl}
	fd.small = shrink(src, fails)
	fd.smallFl = property(newContext(), fd.small, v, uint64(seed), nil)
	if fd.smallFl == nil || fd.smallFl.kind() != fl.kind() {
		// The failure comes and goes: report it as found.
		fd.small, fd.smallFl = src, fl
	}
	path, err := writeReproducer(dir, fd)
	if err != nil {
		path = "(not written: " + err.Error() + ")"
	}
	fd.path = path
	return fd
}

func writeReproducer(dir string, fd *finding) (string, error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "hybridsplit-repro-")
		if err != nil {
			return "", err
		}
		dir = d
	}
	path := filepath.Join(dir, fmt.Sprintf("seed%d-%s.mlir", fd.seed, strings.ReplaceAll(fd.v.name, "+", "-")))
	return path, os.WriteFile(path, []byte(reproducer(fd)), 0o644)
}

// reproducer is the file writeReproducer writes: a header that says what
// failed, the RUN and CHECK lines of runLines (or why there are none), how
// to run the property test on the function again, then the shrunk
// function.
func reproducer(fd *finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// hybrid-split, variant %s, on the random function of seed %d (shrunk from %d to %d compute ops).\n",
		fd.v.name, fd.seed, computeOps(fd.src), computeOps(fd.small))
	fmt.Fprintf(&b, "// Failure (%s):\n", fd.smallFl.kind())
	for _, l := range strings.Split(fd.smallFl.msg, "\n") {
		b.WriteString("//   " + l + "\n")
	}
	b.WriteString("//\n")
	run, check, why := runLines(fd)
	if run == nil {
		fmt.Fprintf(&b, "// No RUN line: rlx-opt, rlx-run and FileCheck cannot see this failure (%s).\n", why)
	} else {
		b.WriteString("// The RUN lines fail while the bug is present (copy the file to lit-tests/hybrid-split/).\n")
		for _, l := range run {
			b.WriteString("// RUN: " + l + "\n")
		}
		for _, l := range check {
			b.WriteString("// CHECK: " + l + "\n")
		}
	}
	fmt.Fprintf(&b, "// The property test on this seed alone: go test ./passes/hybridsplit -run 'TestRandomGraphs$' -seed %d -graphs 1\n\n", fd.seed)
	b.WriteString(fd.small)
	return b.String()
}

// runLines returns the RUN lines (and FileCheck's CHECK lines) that fail
// on the shrunk function while its failure is present, or nil and why the
// lit tools cannot see it. rlx-opt verifies after each pass and turns a
// panic in a pass into an error; rlx-run --compare-with interprets two
// functions on the same seeded inputs and weights, as sameResults does,
// and fails unless they give the same bits; the pass's statistics count
// its regions.
func runLines(fd *finding) (run, check []string, why string) {
	opt := "rlx-opt %s --hybrid-split" + optionText(fd.v.opts)
	compare := fmt.Sprintf("rlx-run %%s --compare-with %%t --seed %d", fd.seed)
	fl := fd.smallFl
	switch fl.stage {
	case stageSplit, stageVerify:
		return []string{opt + " -o /dev/null"}, nil, ""
	case stageInline, stageInlineVerify:
		return []string{opt + " --hybrid-inline -o /dev/null"}, nil, ""
	case stageSemantics:
		return []string{opt + " -o %t", compare}, nil, ""
	case stageInlineSemantics:
		return []string{opt + " --hybrid-inline -o %t", compare}, nil, ""
	case stageLower:
		return []string{opt + " --lower-to-mps -o /dev/null"}, nil, ""
	}
	if fl.panicked {
		return nil, nil, "the property test's own check panicked"
	}
	switch fl.stage {
	case stageOptimum:
		return []string{opt + " --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s"},
			[]string{"(S) [[#MPS:]] mps-regions", fmt.Sprintf("(S) [[#%d-MPS]] thunk-regions", fl.optimum)}, ""
	case stagePathBound:
		return nil, nil, "FileCheck compares numbers for equality only, not with the path bound"
	case stageForm:
		return nil, nil, "a rule of the output form that only checkSplit (check_test.go) checks"
	case stageSeedRef:
		return nil, nil, "the reference is the transcription of the original algorithm in seedref_test.go"
	case stageLowerSemantics:
		return nil, nil, "regions are compared one by one, with a relative tolerance that rlx-run's absolute --tolerance does not express"
	}
	return nil, nil, "the property test could not set up its check"
}

func optionText(o Options) string {
	var parts []string
	if o.Mode != "" {
		parts = append(parts, "mode="+string(o.Mode))
	}
	if len(o.NativeOps) > 0 {
		parts = append(parts, "native-ops="+strings.Join(o.NativeOps, ","))
	}
	if o.MinSubgraphOps > 1 {
		parts = append(parts, fmt.Sprintf("min-subgraph-ops=%d", o.MinSubgraphOps))
	}
	if len(parts) == 0 {
		return ""
	}
	return "='" + strings.Join(parts, " ") + "'"
}

// computeOps counts the compute ops of the function in src.
func computeOps(src string) int {
	_, body, err := bodyOf(src)
	if err != nil {
		return -1
	}
	n := 0
	for op := range body.Ops() {
		if op.Name() != fn.ReturnName && !graph.IsLeaf(op) {
			n++
		}
	}
	return n
}

// shrink makes src smaller while fails reports a failure of the kind it
// reports for src (a *failure's kind; any other error is one kind): it
// drops returned values, then ops (whose used results become new function
// arguments), and arguments nothing uses. Keeping the kind keeps the
// shrinker on the bug it was given, not another one its edits run into.
// It returns the smallest such source found.
func shrink(src string, fails func(string) error) string {
	want := kindOf(fails(src))
	for changed := true; changed; {
		changed = false
		for _, edit := range edits(src) {
			if cand, ok := edit(src); ok && cand != src {
				if err := fails(cand); err != nil && kindOf(err) == want {
					src, changed = cand, true
					break
				}
			}
		}
	}
	return src
}

func kindOf(err error) string {
	var f *failure
	switch {
	case err == nil:
		return ""
	case errors.As(err, &f):
		return f.kind()
	}
	return "error"
}

type edit func(string) (string, bool)

// edits lists the one-step reductions of src.
func edits(src string) []edit {
	_, body, err := bodyOf(src)
	if err != nil {
		return nil
	}
	var out []edit
	for k := body.Last().NumOperands() - 1; k >= 0; k-- {
		out = append(out, func(s string) (string, bool) { return rewrite(s, func(b *ir.Block) bool { return dropReturn(b, k) }) })
	}
	for i := body.NumOps() - 2; i >= 0; i-- {
		out = append(out, func(s string) (string, bool) { return rewrite(s, func(b *ir.Block) bool { return dropOp(b, i) }) })
	}
	return out
}

func bodyOf(src string) (*ir.Operation, *ir.Block, error) {
	m, err := asm.ParseString(newContext(), "shrink.mlir", src)
	if err != nil {
		return nil, nil, err
	}
	f := m.Region(0).First().First()
	return m, f.Region(0).First(), nil
}

// rewrite parses src, applies change to the function body, erases unused
// leaves and arguments, fixes the function type and prints the result.
func rewrite(src string, change func(*ir.Block) bool) (string, bool) {
	m, body, err := bodyOf(src)
	if err != nil || !change(body) {
		return "", false
	}
	for op := range body.Ops() {
		if op.NumResults() == 1 && !op.Result(0).HasUses() && (op.Name() == "graph.param" || op.Name() == "graph.constant") {
			op.Erase()
		}
	}
	for i := body.NumArguments() - 1; i >= 0; i-- {
		if !body.Argument(i).HasUses() {
			body.EraseArgument(i)
		}
	}
	ctx := m.Context()
	ret := body.Last()
	f := body.ParentOp()
	f.SetAttr(ctx, "function_type", ctx.TypeAttr(ctx.FunctionType(body.ArgumentTypes(), ret.OperandTypes())))
	if ir.Verify(m) != nil {
		return "", false
	}
	return ir.Sprint(m, ir.PrintOptions{}), true
}

// dropReturn removes returned value k.
func dropReturn(body *ir.Block, k int) bool {
	ret := body.Last()
	vs := ret.Operands()
	if k >= len(vs) {
		return false
	}
	ret.SetOperands(append(vs[:k:k], vs[k+1:]...))
	return true
}

// dropOp removes op i of the body; its used results become new arguments.
func dropOp(body *ir.Block, i int) bool {
	op := body.First()
	for ; i > 0 && op != nil; i-- {
		op = op.Next()
	}
	if op == nil || op.Name() == fn.ReturnName {
		return false
	}
	for k := 0; k < op.NumResults(); k++ {
		if r := op.Result(k); r.HasUses() {
			r.ReplaceAllUsesWith(body.AddArgument(r.Type(), op.Context().UnknownLoc()))
		}
	}
	op.Erase()
	return true
}

// panicsOnExp is Split with a bug: it panics on a function with a
// graph.exp.
func panicsOnExp(f *ir.Operation, o Options) (Result, error) {
	for op := range f.Region(0).First().Ops() {
		if op.Name() == graph.ExpName {
			panic("injected: " + op.Name())
		}
	}
	return Split(f, o)
}

// TestPanicIsReported checks that a pass that panics on a random function
// is a failure like any other: reported with the seed, the panic value and
// where it was raised, shrunk to the op it panics on, and written out.
func TestPanicIsReported(t *testing.T) {
	v := variant{name: "dependency", every: 1, split: panicsOnExp}
	for seed := int64(1); seed < 100; seed++ {
		src, err := randomSource(newContext(), seed)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(src, "graph.exp") || computeOps(src) < 4 {
			continue
		}
		fd := checkGraph(t.TempDir(), seed, v, src)
		if fd == nil {
			t.Fatalf("seed %d: no failure", seed)
		}
		if k := fd.fl.kind(); k != "panic in split" {
			t.Errorf("kind %q, want panic in split", k)
		}
		msg := fd.String()
		for _, want := range []string{fmt.Sprintf("seed %d, dependency: panic in split: injected: graph.exp", seed), "hybridsplit.panicsOnExp", "report_test.go:"} {
			if !strings.Contains(msg, want) {
				t.Errorf("the report lacks %q:\n%s", want, msg)
			}
		}
		if n := computeOps(fd.small); n != 1 || !strings.Contains(fd.small, "graph.exp") {
			t.Errorf("shrunk to %d compute ops, want the exp alone:\n%s", n, fd.small)
		}
		file, err := os.ReadFile(fd.path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(string(file), fd.small) || !strings.Contains(string(file), fmt.Sprintf("seed %d ", seed)) ||
			!strings.Contains(string(file), "// RUN: rlx-opt %s --hybrid-split -o /dev/null\n") {
			t.Errorf("reproducer %s:\n%s", fd.path, file)
		}
		return
	}
	t.Fatal("no random function with graph.exp and 4 compute ops")
}

// TestShrinkKeepsKind checks that shrinking keeps the kind of the
// failure: dropping the matmul (the last op) leaves a function that fails
// too, but in another way, so the shrinker must drop the exp instead.
func TestShrinkKeepsKind(t *testing.T) {
	src := `func.func @g(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %w = graph.param "w" : tensor<2x2xf32>
  %e = graph.exp %x : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = graph.matmul %x, %w : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m, %e : tensor<2x2xf32>, tensor<2x2xf32>
}`
	fails := func(s string) error {
		switch {
		case strings.Contains(s, "graph.matmul"):
			return fail(stageSemantics, "matmul")
		case strings.Contains(s, "graph.exp"):
			return fail(stageForm, "exp")
		}
		return nil
	}
	small := shrink(src, fails)
	if computeOps(small) != 1 || !strings.Contains(small, "graph.matmul") {
		t.Errorf("shrunk to another kind of failure:\n%s", small)
	}
}

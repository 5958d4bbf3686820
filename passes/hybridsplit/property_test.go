package hybridsplit

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	fn "github.com/rlx-compiler/rlx/dialect/func"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/hybridinline"
	"github.com/rlx-compiler/rlx/passes/hybridsplit/internal/randgraph"
	"github.com/rlx-compiler/rlx/runtime/ref"
)

var (
	flagGraphs = flag.Int("graphs", 5000, "number of random graphs TestRandomGraphs checks")
	flagSeed   = flag.Int64("seed", 1, "seed of the first random graph")
)

// variant is one way the property test runs the pass on each graph.
type variant struct {
	name string
	opts Options
	// every makes the variant run on one graph in every; 1 is all.
	every int
}

var variants = []variant{
	{name: "dependency", every: 1},
	{name: "seed", opts: Options{Mode: ModeSeed}, every: 1},
	{name: "dependency+options", opts: Options{NativeOps: []string{"graph.exp", "graph.transpose"}, MinSubgraphOps: 3}, every: 3},
	{name: "seed+options", opts: Options{Mode: ModeSeed, NativeOps: []string{"graph.add"}, MinSubgraphOps: 2}, every: 5},
}

// tally counts what the property test checked.
type tally struct {
	graphs, ops                      atomic.Int64
	runs, interpreted, inlined       atomic.Int64
	optimumChecked, atBound, seedCmp atomic.Int64
	regions, bound                   atomic.Int64
}

// TestRandomGraphs is the differential property test of hybrid-split. For
// each of -graphs random functions (randgraph; seeds from -seed on) and
// each variant it splits the function, verifies the result, checks every
// rule of the output form and that every op reads what it read before
// (checkSplit), interprets the original and the split function on the same
// seeded inputs and weights and compares the results bit for bit
// (runtime/ref), and puts every third split back in line and compares that
// too. In dependency mode it checks the region count against the exact
// optimum (exactOptimum, on functions of up to 12 compute ops) and the path
// bound; in seed mode it checks the regions against a transcription of the
// original algorithm (rsBuildHybridPlan). A failure is shrunk to a small
// function that still fails, written to a temporary file named in the
// message.
func TestRandomGraphs(t *testing.T) {
	n := *flagGraphs
	if testing.Short() {
		n = min(n, 500)
	}
	var tl tally
	var mu sync.Mutex
	failures := 0
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := newContext()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				seed := *flagSeed + i
				src, err := randomSource(ctx, seed)
				if err != nil {
					mu.Lock()
					t.Errorf("seed %d: %v", seed, err)
					mu.Unlock()
					continue
				}
				tl.graphs.Add(1)
				for _, v := range variants {
					if seed%int64(v.every) != 0 {
						continue
					}
					if err := property(ctx, src, v, uint64(seed), &tl); err != nil {
						mu.Lock()
						failures++
						if failures <= 3 {
							t.Error(report(seed, v, src, err))
						}
						mu.Unlock()
					}
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%d random graphs (%d compute ops), %d splits in %d variants, %d failures", tl.graphs.Load(), tl.ops.Load(), tl.runs.Load(), len(variants), failures)
	t.Logf("interpreted bit for bit: %d splits, %d split+inline round trips", tl.interpreted.Load(), tl.inlined.Load())
	t.Logf("dependency mode: %d region counts equal to the exact optimum; path bound reached in %d of %d splits (regions %d, bound %d in total)",
		tl.optimumChecked.Load(), tl.atBound.Load(), tl.graphs.Load(), tl.regions.Load(), tl.bound.Load())
	t.Logf("seed mode: %d splits equal to the transcription of the original", tl.seedCmp.Load())
}

func newContext() *ir.Context {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	return ctx
}

// randomSource prints the random function of seed. Most are small enough
// for the exact optimum; a quarter have no attention, gated_delta_net or
// lstm, so seed mode gets to make hybrid plans.
func randomSource(ctx *ir.Context, seed int64) (string, error) {
	ops := 1 + int(seed*7919%12)
	if seed%5 == 0 {
		ops = 12 + int(seed*104729%28)
	}
	m, err := randgraph.Build(ctx, seed, randgraph.Config{Ops: ops, Refusals: seed%4 != 0})
	if err != nil {
		return "", err
	}
	return ir.Sprint(m, ir.PrintOptions{}), nil
}

// property checks one split of src; it returns the first violation.
func property(ctx *ir.Context, src string, v variant, seed uint64, tl *tally) error {
	forced, err := NativeSet(v.opts.NativeOps)
	if err != nil {
		return err
	}
	part, err := asm.ParseString(ctx, "split.mlir", src)
	if err != nil {
		return err
	}
	orig := part.Clone(nil)
	f := part.Region(0).First().First()
	s := takeSnapshot(f, forced)
	nodes := rsNodes(s)
	res, err := Split(f, v.opts)
	if err != nil {
		return fmt.Errorf("Split: %v", err)
	}
	if tl != nil {
		tl.runs.Add(1)
		if v.name == "dependency" {
			tl.ops.Add(int64(len(s.ops)))
		}
	}
	if err := ir.Verify(part); err != nil {
		return fmt.Errorf("the split function does not verify: %v", err)
	}
	regions, err := checkSplit(s)
	if err != nil {
		return err
	}
	if got := res.MPSRegions + res.ThunkRegions; got != len(regions) {
		return fmt.Errorf("Result counts %d regions, the function has %d", got, len(regions))
	}
	defaults := len(v.opts.NativeOps) == 0 && v.opts.MinSubgraphOps <= 1
	switch {
	case defaults && v.opts.Mode != ModeSeed:
		b := pathBound(s)
		if len(regions) < b {
			return fmt.Errorf("%d regions, below the path bound %d: %s", len(regions), b, describe(s, regions))
		}
		if len(s.ops) <= 12 {
			if opt := exactOptimum(s); opt != len(regions) {
				return fmt.Errorf("%d regions, but the exact optimum is %d: %s", len(regions), opt, describe(s, regions))
			}
			if tl != nil {
				tl.optimumChecked.Add(1)
			}
		}
		if tl != nil {
			tl.regions.Add(int64(len(regions)))
			tl.bound.Add(int64(b))
			if b == len(regions) {
				tl.atBound.Add(1)
			}
		}
	case defaults:
		if err := checkSeed(s, nodes, regions); err != nil {
			return err
		}
		if tl != nil {
			tl.seedCmp.Add(1)
		}
	}
	if err := sameResults(orig, part, seed); err != nil {
		return fmt.Errorf("split: %v", err)
	}
	if tl != nil {
		tl.interpreted.Add(1)
	}
	if seed%3 == 0 {
		hybridinline.Inline(f)
		if err := ir.Verify(part); err != nil {
			return fmt.Errorf("split then inline does not verify: %v", err)
		}
		if err := sameResults(orig, part, seed); err != nil {
			return fmt.Errorf("split then inline: %v", err)
		}
		if tl != nil {
			tl.inlined.Add(1)
		}
	}
	return nil
}

// sameResults interprets both modules on the same seeded inputs and
// weights and reports any result whose bits differ.
func sameResults(a, b *ir.Operation, seed uint64) error {
	diffs, err := ref.Differential(a, b, "g", seed)
	if err != nil {
		return fmt.Errorf("interpreter: %v", err)
	}
	for i, d := range diffs {
		if !d.SameType || !d.BitIdentical {
			return fmt.Errorf("result #%d differs from the original's (same type %v, %d elements differ, max |Δ| %g)", i, d.SameType, d.Count, d.MaxAbs)
		}
	}
	return nil
}

// report shrinks a failing function and writes it where the user can
// find it.
func report(seed int64, v variant, src string, err error) string {
	fails := func(s string) error { return property(newContext(), s, v, uint64(seed), nil) }
	small := shrink(src, fails)
	msg := fails(small)
	if msg == nil {
		small, msg = src, err
	}
	dir, derr := os.MkdirTemp("", "hybridsplit-repro-")
	path := "(not written: " + fmt.Sprint(derr) + ")"
	if derr == nil {
		path = filepath.Join(dir, fmt.Sprintf("seed%d-%s.mlir", seed, strings.ReplaceAll(v.name, "+", "-")))
		header := fmt.Sprintf("// hybrid-split %s on random graph seed %d: %v\n// RUN: rlx-opt %%s --hybrid-split%s\n", v.name, seed, msg, optionText(v.opts))
		if werr := os.WriteFile(path, []byte(header+small), 0o644); werr != nil {
			path = "(not written: " + werr.Error() + ")"
		}
	}
	return fmt.Sprintf("seed %d, %s: %v\nshrunk reproducer (%d bytes, from %d): %s\n%s", seed, v.name, err, len(small), len(src), path, small)
}

func optionText(o Options) string {
	var parts []string
	if o.Mode != "" {
		parts = append(parts, "mode="+o.Mode)
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

// shrink makes src smaller while fails still reports a failure: it drops
// returned values, then ops (whose used results become new function
// arguments), and arguments nothing uses. It returns the smallest failing
// source found.
func shrink(src string, fails func(string) error) string {
	for changed := true; changed; {
		changed = false
		for _, edit := range edits(src) {
			if cand, ok := edit(src); ok && cand != src && fails(cand) != nil {
				src, changed = cand, true
				break
			}
		}
	}
	return src
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
	for op := body.First(); op != nil; {
		next := op.Next()
		if op.NumResults() == 1 && !op.Result(0).HasUses() && (op.Name() == "graph.param" || op.Name() == "graph.constant") {
			op.Erase()
		}
		op = next
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

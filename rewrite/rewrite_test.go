package rewrite_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/rewrite"
	"github.com/rlx-compiler/rlx/rewrite/rewritetest"
)

func parse(t *testing.T, src string) *ir.Operation {
	t.Helper()
	ctx := ir.NewContext()
	ctx.AllowUnregistered = true
	dialect.RegisterAll(ctx)
	rewritetest.Register(ctx)
	m, err := asm.ParseString(ctx, "test.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(m); err != nil {
		t.Fatal(err)
	}
	return m
}

func print(t *testing.T, op *ir.Operation) string {
	t.Helper()
	if err := ir.Verify(op); err != nil {
		t.Fatalf("invalid IR: %v\n%s", err, ir.Sprint(op, ir.PrintOptions{Generic: true}))
	}
	return ir.Sprint(op, ir.PrintOptions{})
}

// find returns the n-th op (0-based, pre-order) with the given name.
func find(m *ir.Operation, name string, n int) *ir.Operation {
	var found *ir.Operation
	m.Walk(func(o *ir.Operation) {
		if o.Name() == name {
			if n == 0 && found == nil {
				found = o
			}
			n--
		}
	})
	return found
}

// recorder records listener events as text.
type recorder struct {
	rewrite.BaseListener
	events []string
}

func (r *recorder) OpInserted(op *ir.Operation) { r.events = append(r.events, "inserted "+op.Name()) }
func (r *recorder) OpModified(op *ir.Operation) { r.events = append(r.events, "modified "+op.Name()) }
func (r *recorder) OpErased(op *ir.Operation)   { r.events = append(r.events, "erased "+op.Name()) }
func (r *recorder) OpReplaced(op *ir.Operation, vs []*ir.Value) {
	r.events = append(r.events, fmt.Sprintf("replaced %s with %d values", op.Name(), len(vs)))
}
func (r *recorder) BlockErased(*ir.Block)   { r.events = append(r.events, "block erased") }
func (r *recorder) BlockInserted(*ir.Block) { r.events = append(r.events, "block inserted") }
func (r *recorder) MatchFailure(op *ir.Operation, reason string) {
	r.events = append(r.events, "failure "+op.Name()+": "+reason)
}

func TestRewriterNotifies(t *testing.T) {
	m := parse(t, `
func.func @f(%x: i32) -> i32 {
  %0 = "tst.neg"(%x) : (i32) -> i32
  %1 = "tst.neg"(%0) : (i32) -> i32
  %2 = "tst.region"() ({
    %a = "tst.neg"(%1) : (i32) -> i32
    "tst.yield"(%a) : (i32) -> ()
  }) : () -> i32
  %3 = "tst.add"(%1, %1) : (i32, i32) -> i32
  return %3 : i32
}`)
	rec := &recorder{}
	r := rewrite.NewRewriter(m.Context(), rec)
	neg1 := find(m, "tst.neg", 1)
	// Replacing an op modifies each user once per use, then erases it.
	r.ReplaceOp(neg1, []*ir.Value{find(m, "tst.neg", 0).Result(0)})
	// Erasing an op erases its nested ops first, last to first.
	r.EraseOp(find(m, "tst.region", 0))
	r.SetInsertionPoint(find(m, "func.return", 0))
	c := r.CreateOp("tst.const", nil, nil, []ir.Type{m.Context().I32()}, ir.NamedAttr{Name: "value", Value: m.Context().IntegerAttr(m.Context().I32(), 1)})
	r.ModifyOpInPlace(find(m, "func.return", 0), func() { find(m, "func.return", 0).SetOperand(0, c.Result(0)) })
	r.NotifyMatchFailure(c, "just %s", "because")
	want := []string{
		"replaced tst.neg with 1 values",
		"modified tst.add", "modified tst.add", "modified tst.neg",
		"erased tst.neg",
		"erased tst.yield", "erased tst.neg", "block erased", "erased tst.region",
		"inserted tst.const",
		"modified func.return",
		"failure tst.const: just because",
	}
	if diff := cmp.Diff(want, rec.events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	print(t, m)
}

func TestRewriterBlocks(t *testing.T) {
	m := parse(t, `
func.func @f(%x: i32) -> i32 {
  %0 = "tst.neg"(%x) : (i32) -> i32
  %1 = "tst.neg"(%0) : (i32) -> i32
  "foo.br"(%1)[^bb1] : (i32) -> ()
^bb1(%a: i32):
  %2 = "tst.neg"(%a) : (i32) -> i32
  return %2 : i32
}`)
	rec := &recorder{}
	r := rewrite.NewRewriter(m.Context(), rec)
	fn := find(m, "func.func", 0)
	entry := fn.Region(0).First()
	bb1 := entry.Next()
	br := find(m, "foo.br", 0)
	// Merge ^bb1 into the entry block in place of the branch.
	r.InlineBlockBefore(bb1, entry, br, []*ir.Value{br.Operand(0)})
	r.EraseOp(br)
	nb := r.SplitBlock(find(m, "tst.neg", 1))
	if nb.Parent() != fn.Region(0) || fn.Region(0).NumBlocks() != 2 {
		t.Fatalf("SplitBlock: want 2 blocks")
	}
	r.SetInsertionPointToEnd(entry)
	r.Create(&ir.OperationState{Name: m.Context().OpName("foo.br"), Successors: []*ir.Block{nb}})
	got := print(t, m)
	want := `module {
  func.func @f(%arg0: i32) -> i32 {
    %0 = "tst.neg"(%arg0) : (i32) -> i32
    "foo.br"()[^bb1] : () -> ()
  ^bb1:  // pred: ^bb0
    %1 = "tst.neg"(%0) : (i32) -> i32
    %2 = "tst.neg"(%1) : (i32) -> i32
    return %2 : i32
  }
}
`
	if strings.TrimSpace(got) != strings.TrimSpace(want) {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(strings.Join(rec.events, ";"), "block inserted") {
		t.Errorf("SplitBlock did not report the new block: %v", rec.events)
	}
}

func TestPatternOrder(t *testing.T) {
	var tried []string
	pat := func(name, root string, benefit int, ok bool) *rewrite.Pattern {
		return &rewrite.Pattern{Name: name, Root: root, Benefit: benefit, MatchAndRewrite: func(op *ir.Operation, r *rewrite.Rewriter) bool {
			tried = append(tried, name)
			return ok
		}}
	}
	set := rewrite.NewPatternSet(
		pat("any1", "", 1, false),
		pat("neg2", "tst.neg", 2, false),
		pat("any3", "", 3, false),
		pat("neg1", "tst.neg", 1, false),
		pat("neg2b", "tst.neg", 2, false),
		pat("add9", "tst.add", 9, false),
	)
	m := parse(t, `
func.func @f(%x: i32) -> i32 {
  %0 = "tst.neg"(%x) : (i32) -> i32
  "tst.effect"(%0) : (i32) -> ()
  return %0 : i32
}`)
	cfg := rewrite.DefaultConfig()
	rewrite.ApplyPatternsToOps([]*ir.Operation{find(m, "tst.neg", 0)}, set, cfg)
	want := []string{"any3", "neg2", "neg2b", "neg1", "any1"}
	if diff := cmp.Diff(want, tried); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if n := set.Filter(nil, []string{"any1", "neg2"}).Len(); n != 4 {
		t.Errorf("Filter(disable) kept %d patterns, want 4", n)
	}
	if n := set.Filter([]string{"any1", "neg2"}, []string{"neg2"}).Len(); n != 1 {
		t.Errorf("Filter(enable, disable) kept %d patterns, want 1", n)
	}
}

func TestGreedyConfig(t *testing.T) {
	src := `
func.func @f(%x: i32) -> (i32, i1) {
  %c1 = "tst.const"() <{value = 1 : i32}> : () -> i32
  %c2 = "tst.const"() <{value = 2 : i32}> : () -> i32
  %0 = "tst.add"(%c1, %c2) : (i32, i32) -> i32
  %1 = "tst.neg"(%x) : (i32) -> i32
  %2 = "tst.neg"(%1) : (i32) -> i32
  %3 = "tst.add"(%0, %2) : (i32, i32) -> i32
  %f = "tst.flip"() <{state = false}> : () -> i1
  return %3, %f : i32, i1
}`
	for _, tc := range []struct {
		name      string
		cfg       func(*rewrite.Config)
		converged bool
		want      string
	}{
		// tst.Flip applies forever: with a rewrite limit each round
		// stops, and the iteration limit ends the driver.
		{"defaults-with-rewrite-limit", func(c *rewrite.Config) { c.MaxNumRewrites = 3 }, false, `
    %0 = "tst.const"() <{value = 3 : i32}> : () -> i32
    %1 = "tst.add"(%arg0, %0) : (i32, i32) -> i32
    %2 = "tst.flip"() <{state = true}> : () -> i1
    return %1, %2 : i32, i1`},
		{"no-fold", func(c *rewrite.Config) { c.Fold = false; c.MaxNumRewrites = 1; c.MaxIterations = 2 }, false, `
    %0 = "tst.const"() <{value = 1 : i32}> : () -> i32
    %1 = "tst.const"() <{value = 2 : i32}> : () -> i32
    %2 = "tst.add"(%0, %1) : (i32, i32) -> i32
    %3 = "tst.add"(%2, %arg0) : (i32, i32) -> i32
    %4 = "tst.flip"() <{state = true}> : () -> i1
    return %3, %4 : i32, i1`},
		{"one-iteration", func(c *rewrite.Config) { c.MaxIterations = 1; c.MaxNumRewrites = 2 }, false, `
    %0 = "tst.const"() <{value = 3 : i32}> : () -> i32
    %1 = "tst.add"(%arg0, %0) : (i32, i32) -> i32
    %2 = "tst.flip"() <{state = true}> : () -> i1
    return %1, %2 : i32, i1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parse(t, src)
			cfg := rewrite.DefaultConfig()
			cfg.TopDown = true
			tc.cfg(&cfg)
			set := rewrite.NewPatternSet(rewritetest.Patterns(m.Context())...)
			res := rewrite.ApplyPatterns(m, set, cfg)
			if res.Converged != tc.converged {
				t.Errorf("converged = %v, want %v (%+v)", res.Converged, tc.converged, res)
			}
			got := print(t, m)
			if !strings.Contains(got, tc.want[1:]) {
				t.Errorf("got:\n%s\nwant it to contain:\n%s", got, tc.want[1:])
			}
		})
	}
}

func TestStrictness(t *testing.T) {
	src := `
func.func @f(%x: i32) -> i32 {
  %c0 = "tst.const"() <{value = 0 : i32}> : () -> i32
  %1 = "tst.neg"(%x) : (i32) -> i32
  %2 = "tst.neg"(%1) : (i32) -> i32
  %3 = "tst.add"(%2, %c0) : (i32, i32) -> i32
  return %3 : i32
}`
	for _, tc := range []struct {
		strict rewrite.Strictness
		want   string
	}{
		// Only the outer neg may be rewritten: the add, a user of what it
		// produces, is not touched.
		{rewrite.ExistingOps, `"tst.add"(%arg0, %0)`},
		{rewrite.AnyOp, `return %arg0 : i32`},
	} {
		m := parse(t, src)
		cfg := rewrite.DefaultConfig()
		cfg.Strict = tc.strict
		set := rewrite.NewPatternSet(rewritetest.Patterns(m.Context())...)
		rewrite.ApplyPatternsToOps([]*ir.Operation{find(m, "tst.neg", 1)}, set, cfg)
		if got := print(t, m); !strings.Contains(got, tc.want) {
			t.Errorf("strict=%d: got\n%s\nwant it to contain %s", tc.strict, got, tc.want)
		}
	}
}

func TestFoldMaterializeFailure(t *testing.T) {
	ctx := ir.NewContext()
	ctx.AllowUnregistered = true
	dialect.RegisterAll(ctx)
	// mat.two folds to two constants; the dialect can materialize only
	// the integer one, so the fold must leave no constant behind.
	ctx.RegisterDialect(&ir.Dialect{
		Name: "mat",
		Ops: []*ir.OpDef{
			{Name: "mat.const", Traits: ir.TraitPure | ir.TraitConstantLike, InherentAttrs: []string{"value"}},
			{Name: "mat.two", Traits: ir.TraitPure, Fold: func(op *ir.Operation, _ []ir.Attribute) []ir.FoldResult {
				return []ir.FoldResult{{Attr: ctx.IntegerAttr(ctx.I32(), 1)}, {Attr: ctx.StringAttr("x")}}
			}},
		},
		Materialize: func(b *ir.Builder, v ir.Attribute, t ir.Type, loc ir.Location) *ir.Operation {
			if _, ok := v.(*ir.IntegerAttr); !ok {
				return nil
			}
			return b.CreateOp("mat.const", loc, nil, []ir.Type{t}, ir.NamedAttr{Name: "value", Value: v})
		},
	})
	m, err := asm.ParseString(ctx, "test.mlir", `
func.func @f() -> (i32, i32) {
  %0:2 = "mat.two"() : () -> (i32, i32)
  return %0#0, %0#1 : i32, i32
}`)
	if err != nil {
		t.Fatal(err)
	}
	before := print(t, m)
	rec := &recorder{}
	if rewrite.Fold(rewrite.NewRewriter(ctx, rec), find(m, "mat.two", 0)) {
		t.Errorf("Fold succeeded though materialization must fail")
	}
	if got := print(t, m); got != before {
		t.Errorf("IR changed:\n%s", got)
	}
	want := []string{"inserted mat.const", "erased mat.const"}
	if diff := cmp.Diff(want, rec.events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestEquivalence(t *testing.T) {
	m := parse(t, `
func.func @f(%x: i32, %y: i32) {
  %0 = "tst.add"(%x, %y) : (i32, i32) -> i32 loc("a")
  %1 = "tst.add"(%x, %y) : (i32, i32) -> i32 loc("b")
  %2 = "tst.add"(%y, %x) : (i32, i32) -> i32
  %3 = "tst.add"(%x, %y) {tag} : (i32, i32) -> i32
  "tst.effect"(%0, %1, %2, %3) : (i32, i32, i32, i32) -> ()
  return
}`)
	ops := []*ir.Operation{find(m, "tst.add", 0), find(m, "tst.add", 1), find(m, "tst.add", 2), find(m, "tst.add", 3)}
	h := rewrite.NewHasher()
	if !rewrite.Equivalent(ops[0], ops[1], rewrite.IgnoreLocations) || rewrite.Equivalent(ops[0], ops[1], 0) {
		t.Errorf("locations: want equivalent only when ignored")
	}
	if h.Hash(ops[0], nil, rewrite.IgnoreLocations) != h.Hash(ops[1], nil, rewrite.IgnoreLocations) {
		t.Errorf("equivalent ops hash differently")
	}
	// Commutative ops hash alike whatever their operand order, but are
	// only equivalent with equal operands, as in MLIR 19.
	if h.Hash(ops[0], nil, rewrite.IgnoreLocations) != h.Hash(ops[2], nil, rewrite.IgnoreLocations) {
		t.Errorf("commutative ops with swapped operands hash differently")
	}
	if rewrite.Equivalent(ops[0], ops[2], rewrite.IgnoreLocations) {
		t.Errorf("swapped operands are equivalent")
	}
	if rewrite.Equivalent(ops[0], ops[3], rewrite.IgnoreLocations) {
		t.Errorf("different attributes are equivalent")
	}
}

func TestTriviallyDead(t *testing.T) {
	m := parse(t, `
func.func @f(%x: i32) {
  %0 = "tst.neg"(%x) : (i32) -> i32
  %1 = "foo.pure"(%x) : (i32) -> i32
  %2 = "tst.effect"(%x) : (i32) -> i32
  return
}`)
	for _, tc := range []struct {
		op   *ir.Operation
		dead bool
	}{
		{find(m, "tst.neg", 0), true},
		{find(m, "foo.pure", 0), false},
		{find(m, "tst.effect", 0), false},
		{find(m, "func.return", 0), false},
		{find(m, "func.func", 0), false},
	} {
		if got := rewrite.IsTriviallyDead(tc.op); got != tc.dead {
			t.Errorf("IsTriviallyDead(%s) = %v, want %v", tc.op.Name(), got, tc.dead)
		}
	}
}

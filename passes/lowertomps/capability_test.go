package lowertomps

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/internal/mpsregions"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/target"
	"github.com/rlx-compiler/rlx/target/mpsgraph"
)

// instance is one use of a graph op: the argument types, the op line
// (reading %x0, %x1, … and defining %r, or %r:N), and its result types.
type instance struct {
	args    []string
	line    string
	results []string
	// bf16 marks an instance that only MPSGraph with bfloat16 tensors
	// (macOS 14 and later) runs.
	bf16 bool
}

// instances gives, for every graph op of the capability table, an instance
// MPSGraph can run (good) and, for the conditional rows, one that breaks
// the row's condition (bad). Ops without an MPS lowering have only bad.
func instances() map[string]struct{ good, bad []instance } {
	f32x := "tensor<2x8xf32>"
	unary := func(name string) instance {
		return instance{[]string{f32x}, "%r = " + name + " %x0 : (" + f32x + ") -> " + f32x, []string{f32x}, false}
	}
	binary := func(name string) instance {
		return instance{[]string{f32x, "tensor<8xf32>"}, "%r = " + name + " %x0, %x1 : (" + f32x + ", tensor<8xf32>) -> " + f32x, []string{f32x}, false}
	}
	m := map[string]struct{ good, bad []instance }{}
	good := func(name string, in ...instance) {
		e := m[name]
		e.good = append(e.good, in...)
		m[name] = e
	}
	bad := func(name string, in ...instance) {
		e := m[name]
		e.bad = append(e.bad, in...)
		m[name] = e
	}
	good(graph.ParamName, instance{nil, `%r = graph.param "w" : tensor<4x8xf32>`, []string{"tensor<4x8xf32>"}, false})
	good(graph.ConstantName, instance{nil, `%r = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>`, []string{"tensor<2xf32>"}, false})
	for _, n := range []string{graph.NegName, graph.AbsName, graph.ExpName, graph.LogName, graph.SqrtName, graph.RsqrtName,
		graph.ReciprocalName, graph.SigmoidName, graph.TanhName, graph.SinName, graph.CosName, graph.ReluName,
		graph.SiluName, graph.GeluName, graph.GeluTanhName} {
		good(n, unary(n))
	}
	good(graph.NegName, instance{[]string{"tensor<4xi32>"}, "%r = graph.neg %x0 : (tensor<4xi32>) -> tensor<4xi32>", []string{"tensor<4xi32>"}, false})
	good(graph.GeluName, instance{[]string{"tensor<2x8xf16>"}, "%r = graph.gelu %x0 : (tensor<2x8xf16>) -> tensor<2x8xf16>", []string{"tensor<2x8xf16>"}, false})
	bad(graph.SoftplusName, unary(graph.SoftplusName))
	for _, n := range []string{graph.AddName, graph.SubName, graph.MulName, graph.DivName} {
		good(n, binary(n))
	}
	good(graph.DivName, instance{[]string{"tensor<4xi32>", "tensor<4xi32>"}, "%r = graph.div %x0, %x1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>", []string{"tensor<4xi32>"}, false})
	for _, n := range []string{graph.MaxName, graph.MinName, graph.PowName} {
		bad(n, binary(n))
	}
	bad(graph.CmpName, instance{[]string{f32x, f32x}, `%r = graph.cmp %x0, %x1 {predicate = "lt"} : (` + f32x + ", " + f32x + ") -> tensor<2x8xi1>", []string{"tensor<2x8xi1>"}, false})
	bad(graph.SelectName, instance{[]string{"tensor<2x8xi1>", f32x, f32x}, "%r = graph.select %x0, %x1, %x2 : (tensor<2x8xi1>, " + f32x + ", " + f32x + ") -> " + f32x, []string{f32x}, false})
	good(graph.CastName,
		instance{[]string{f32x}, "%r = graph.cast %x0 : (" + f32x + ") -> tensor<2x8xf16>", []string{"tensor<2x8xf16>"}, false},
		instance{[]string{f32x}, "%r = graph.cast %x0 : (" + f32x + ") -> tensor<2x8xi32>", []string{"tensor<2x8xi32>"}, false})
	good(graph.CastName, instance{[]string{f32x}, "%r = graph.cast %x0 : (" + f32x + ") -> tensor<2x8xbf16>", []string{"tensor<2x8xbf16>"}, true})
	bad(graph.CastName, instance{[]string{f32x}, "%r = graph.cast %x0 : (" + f32x + ") -> tensor<2x8xi64>", []string{"tensor<2x8xi64>"}, false})
	good(graph.MatMulName,
		instance{[]string{"tensor<2x3x8xf32>", "tensor<8x4xf32>"}, "%r = graph.matmul %x0, %x1 : (tensor<2x3x8xf32>, tensor<8x4xf32>) -> tensor<2x3x4xf32>", []string{"tensor<2x3x4xf32>"}, false},
		instance{[]string{"tensor<3x8xf16>", "tensor<8x4xf32>"}, "%r = graph.matmul %x0, %x1 : (tensor<3x8xf16>, tensor<8x4xf32>) -> tensor<3x4xf32>", []string{"tensor<3x4xf32>"}, false})
	good(graph.ReshapeName, instance{[]string{f32x}, "%r = graph.reshape %x0 : (" + f32x + ") -> tensor<4x4xf32>", []string{"tensor<4x4xf32>"}, false})
	good(graph.BroadcastName, instance{[]string{"tensor<8xf32>"}, "%r = graph.broadcast %x0 : (tensor<8xf32>) -> tensor<3x8xf32>", []string{"tensor<3x8xf32>"}, false})
	good(graph.TransposeName, instance{[]string{"tensor<2x3x4xf32>"}, "%r = graph.transpose %x0 {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>", []string{"tensor<4x2x3xf32>"}, false})
	good(graph.ConcatName, instance{[]string{"tensor<2x3xf32>", "tensor<2x5xf32>"}, "%r = graph.concat %x0, %x1 {axis = -1} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>", []string{"tensor<2x8xf32>"}, false})
	good(graph.GatherName, instance{[]string{"tensor<10x4xf32>", "tensor<3xi32>"}, "%r = graph.gather %x0, %x1 {axis = 0} : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>", []string{"tensor<3x4xf32>"}, false})
	good(graph.SliceName, instance{[]string{f32x}, "%r = graph.slice %x0 {axis = -1, start = 2, length = 3} : (" + f32x + ") -> tensor<2x3xf32>", []string{"tensor<2x3xf32>"}, false})
	bad(graph.SliceName, instance{[]string{f32x}, "%r = graph.slice %x0 {axis = 1, start = 0, length = 4, step = 2} : (" + f32x + ") -> tensor<2x4xf32>", []string{"tensor<2x4xf32>"}, false})
	for _, k := range []string{"sum", "mean", "max", "min", "prod"} {
		good(graph.ReduceName, instance{[]string{"tensor<2x3x4xf32>"}, `%r = graph.reduce %x0 {axes = array<i64: 1, 2>, keep_dims = false, kind = "` + k + `"} : (tensor<2x3x4xf32>) -> tensor<2xf32>`, []string{"tensor<2xf32>"}, false})
	}
	good(graph.ReduceName, instance{[]string{"tensor<2x3x4x5xf32>"}, `%r = graph.reduce %x0 {axes = array<i64: -1>, keep_dims = true, kind = "mean"} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x1xf32>`, []string{"tensor<2x3x4x1xf32>"}, false})
	bad(graph.ReduceName, instance{[]string{"tensor<2x3x4x5xf32>"}, `%r = graph.reduce %x0 {axes = array<i64: 1>, keep_dims = true, kind = "sum"} : (tensor<2x3x4x5xf32>) -> tensor<2x1x4x5xf32>`, []string{"tensor<2x1x4x5xf32>"}, false})
	good(graph.SoftmaxName, instance{[]string{f32x}, "%r = graph.softmax %x0 {axis = 0} : (" + f32x + ") -> " + f32x, []string{f32x}, false})
	good(graph.RMSNormName, instance{[]string{f32x, "tensor<8xf32>"}, "%r = graph.rms_norm %x0, %x1 {epsilon = 1.0e-06 : f32} : (" + f32x + ", tensor<8xf32>) -> " + f32x, []string{f32x}, false})
	good(graph.LayerNormName, instance{[]string{f32x, "tensor<8xf32>", "tensor<8xf32>"}, "%r = graph.layer_norm %x0, %x1, %x2 {epsilon = 1.0e-05 : f32} : (" + f32x + ", tensor<8xf32>, tensor<8xf32>) -> " + f32x, []string{f32x}, false})
	rope := func(style string, rot int) instance {
		cs := fmt.Sprintf("tensor<3x%dxf32>", rot/2)
		return instance{[]string{"tensor<2x3x32xf32>", cs, cs},
			fmt.Sprintf(`%%r = graph.rope %%x0, %%x1, %%x2 {head_dim = 16, rotary_dim = %d, style = "%s"} : (tensor<2x3x32xf32>, %s, %s) -> tensor<2x3x32xf32>`, rot, style, cs, cs),
			[]string{"tensor<2x3x32xf32>"}, false}
	}
	good(graph.RopeName, rope("neox", 8), rope("gptj", 8), rope("neox", 16), rope("gptj", 16))
	bad(graph.RopeName, instance{[]string{"tensor<1x3x2x16xf32>", "tensor<3x4xf32>", "tensor<3x4xf32>"},
		`%r = graph.rope %x0, %x1, %x2 {head_dim = 16, rotary_dim = 8, style = "neox"} : (tensor<1x3x2x16xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<1x3x2x16xf32>`,
		[]string{"tensor<1x3x2x16xf32>"}, false})
	attn := func(sq, sk int, attrs string, mask string) instance {
		q, k := fmt.Sprintf("tensor<2x%dx4x8xf32>", sq), fmt.Sprintf("tensor<2x%dx2x8xf32>", sk)
		args, ops, types := []string{q, k, k}, "%x0, %x1, %x2", q+", "+k+", "+k
		if mask != "" {
			args, ops, types = append(args, mask), ops+", %x3", types+", "+mask
		}
		return instance{args, "%r = graph.attention " + ops + " " + attrs + " : (" + types + ") -> " + q, []string{q}, false}
	}
	good(graph.AttentionName,
		attn(3, 3, `{mask = "none"}`, ""),
		attn(3, 3, `{mask = "causal", softcap = 5.0 : f32}`, ""),
		attn(1, 5, `{mask = "custom", scale = 0.25 : f32}`, "tensor<2x5xf32>"),
		attn(1, 5, `{mask = "custom"}`, "tensor<2x5xi32>"))
	bad(graph.AttentionName,
		attn(2, 5, `{mask = "causal"}`, ""),
		attn(3, 3, `{mask = "sliding_window", window = 1}`, ""))
	gdn := "tensor<1x2x2x4xf32>"
	bad(graph.GatedDeltaNetName, instance{[]string{gdn, gdn, gdn, "tensor<1x2x2xf32>", "tensor<1x2x2xf32>"},
		"%r:2 = graph.gated_delta_net %x0, %x1, %x2, %x3, %x4 : (" + gdn + ", " + gdn + ", " + gdn + ", tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> (" + gdn + ", tensor<1x2x4x4xf32>)",
		[]string{gdn, "tensor<1x2x4x4xf32>"}, false})
	bad(graph.LSTMName, instance{[]string{"tensor<1x5x8xf32>", "tensor<64x8xf32>", "tensor<64x16xf32>", "tensor<64xf32>"},
		"%r:3 = graph.lstm %x0, %x1, %x2, %x3 : (tensor<1x5x8xf32>, tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>) -> (tensor<1x5x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)",
		[]string{"tensor<1x5x16xf32>", "tensor<1x16xf32>", "tensor<1x16xf32>"}, false})
	bad(graph.TopKName, instance{[]string{"tensor<1x8xf32>"},
		"%r:2 = graph.topk %x0 {k = 2} : (tensor<1x8xf32>) -> (tensor<1x2xf32>, tensor<1x2xi32>)",
		[]string{"tensor<1x2xf32>", "tensor<1x2xi32>"}, false})
	bad(graph.DequantMatMulName, instance{[]string{"tensor<1x64xf32>", "tensor<1152xui8>"},
		`%r = graph.dequant_matmul %x0, %x1 {format = "q4_0", k = 64, n = 32} : (tensor<1x64xf32>, tensor<1152xui8>) -> tensor<1x32xf32>`,
		[]string{"tensor<1x32xf32>"}, false})
	return m
}

// regionText puts one instance alone in an mps.subgraph of func.func @f.
func (in instance) regionText() string {
	var b strings.Builder
	params, args, bbArgs := make([]string, len(in.args)), make([]string, len(in.args)), make([]string, len(in.args))
	for i, t := range in.args {
		params[i] = fmt.Sprintf("%%a%d: %s", i, t)
		args[i] = fmt.Sprintf("%%a%d", i)
		bbArgs[i] = fmt.Sprintf("%%x%d: %s", i, t)
	}
	res := strings.Join(in.results, ", ")
	yields := make([]string, len(in.results))
	rets := make([]string, len(in.results))
	for i := range in.results {
		yields[i], rets[i] = "%r", "%0"
		if len(in.results) > 1 {
			yields[i], rets[i] = fmt.Sprintf("%%r#%d", i), fmt.Sprintf("%%0#%d", i)
		}
	}
	n := ""
	if len(in.results) > 1 {
		n = fmt.Sprintf(":%d", len(in.results))
	}
	fmt.Fprintf(&b, "func.func @f(%s) -> (%s) {\n", strings.Join(params, ", "), res)
	fmt.Fprintf(&b, "  %%0%s = mps.subgraph @f_mps0(%s) : (%s) -> (%s) {\n", n, strings.Join(args, ", "), strings.Join(in.args, ", "), res)
	fmt.Fprintf(&b, "  ^bb0(%s):\n    %s\n    mps.yield %s : %s\n  }\n", strings.Join(bbArgs, ", "), in.line, strings.Join(yields, ", "), res)
	fmt.Fprintf(&b, "  return %s : %s\n}\n", strings.Join(rets, ", "), res)
	return b.String()
}

func parse(t *testing.T, src string) *ir.Operation {
	t.Helper()
	f, err := asm.Parse(mpsregions.NewContext(), "instance.mlir", []byte(src), asm.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return f.Op
}

// TestCapabilityTable walks every row of every target's capability table:
// each op a row admits is lowered (alone in a region) to primitives that
// verify and compute what it computes on the interpreter; an instance that
// breaks a conditional row's condition, and every op of a row that
// refuses, is a located error naming the op. An instance with bf16 tensors
// is admitted only where the table takes bf16 (not macos13), and a target
// without MPSGraph (cpu) lowers nothing. Every op of the tables must have
// instances here, and every rule of the lowering must belong to an
// admitted op.
func TestCapabilityTable(t *testing.T) {
	in := instances()
	seen := map[string]bool{}
	for _, tg := range target.All() {
		opts := Options{Target: tg}
		if tg.MPS == nil {
			checkBad(t, tg.Name+": "+graph.AddName, in[graph.AddName].good[0], opts)
			continue
		}
		bf16 := strings.Contains(tg.MPS.ElemTypes(), "bf16")
		for _, row := range tg.MPS.Rows() {
			for _, name := range row.Ops {
				seen[name] = true
				e := in[name]
				what := tg.Name + ": " + name
				switch row.Kind {
				case mpsgraph.No:
					if len(e.good) > 0 || len(e.bad) == 0 {
						t.Errorf("%s (row %q): want only instances that are refused", what, row.Kind)
					}
					if HasRule(name) {
						t.Errorf("%s: the table refuses it, but lower-to-mps has a rule", what)
					}
				case mpsgraph.Conditional:
					if len(e.good) == 0 || len(e.bad) == 0 {
						t.Errorf("%s (conditional row): want instances that meet and that break %q", what, row.Condition)
					}
				default:
					if len(e.good) == 0 || len(e.bad) > 0 {
						t.Errorf("%s (row %q): want only instances that are admitted", what, row.Kind)
					}
				}
				for _, g := range e.good {
					if g.bf16 && !bf16 {
						checkBad(t, what, g, opts)
						continue
					}
					checkGood(t, what, g, opts)
				}
				for _, b := range e.bad {
					checkBad(t, what, b, opts)
				}
			}
		}
	}
	for name := range in {
		if !seen[name] {
			t.Errorf("%s has instances but no row in the tables", name)
		}
	}
	for name := range rules {
		if !seen[name] {
			t.Errorf("lower-to-mps has a rule for %s, which the tables do not list", name)
		}
	}
}

func checkGood(t *testing.T, name string, in instance, opts Options) {
	t.Helper()
	src := in.regionText()
	orig := parse(t, src)
	if err := ir.Verify(orig); err != nil {
		t.Errorf("%s: the instance does not verify: %v\n%s", name, err, src)
		return
	}
	low := orig.Clone(nil)
	st, err := Lower(low, opts)
	if err != nil {
		t.Errorf("%s: %v\n%s", name, err, src)
		return
	}
	if err := ir.Verify(low); err != nil {
		t.Errorf("%s: the lowered region does not verify: %v", name, err)
		return
	}
	if st.GraphOps != 1 || st.Regions != 1 {
		t.Errorf("%s: lowered %d graph ops in %d regions, want 1 in 1", name, st.GraphOps, st.Regions)
	}
	builtin.Body(low).First().Walk(func(op *ir.Operation) {
		if op.OpName().Dialect() == "graph" {
			t.Errorf("%s: %s is left after lowering", name, op.Name())
		}
	})
	diffs, err := ref.Differential(orig, low, "", 7)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	op := firstGraphOp(orig)
	for i, d := range diffs {
		switch {
		case !d.SameType:
			t.Errorf("%s: result #%d changed type", name, i)
		case !d.BitIdentical && !Decomposes(op):
			t.Errorf("%s: result #%d differs (%d elements, max |Δ| %g) though the op is not decomposed\n%s", name, i, d.Count, d.MaxAbs, src)
		case d.MaxAbs > 1e-6:
			t.Errorf("%s: result #%d differs by up to %g\n%s", name, i, d.MaxAbs, src)
		}
	}
}

func checkBad(t *testing.T, what string, in instance, opts Options) {
	t.Helper()
	src := in.regionText()
	mod := parse(t, src)
	before := ir.Sprint(mod, ir.PrintOptions{})
	_, err := Lower(mod, opts)
	d, ok := err.(*ir.Diagnostic)
	if !ok {
		t.Errorf("%s: want a located error, got %v\n%s", what, err, src)
		return
	}
	name := what
	if want := "'" + in.opName() + "' op cannot be lowered to MPSGraph: "; !strings.HasPrefix(d.Message, want) {
		t.Errorf("%s: error %q, want it to start with %q", name, d.Message, want)
	}
	if _, line, _, ok := ir.LineCol(d.Loc); !ok || line != 4 {
		t.Errorf("%s: error at %s, want line 4 of the instance (the op)", name, ir.FormatLoc(d.Loc))
	}
	if len(d.Notes) != 1 || !strings.Contains(d.Notes[0].Message, "@f_mps0") {
		t.Errorf("%s: want a note naming the region, got %v", name, d.Notes)
	}
	if after := ir.Sprint(mod, ir.PrintOptions{}); after != before {
		t.Errorf("%s: the failed lowering changed the module", name)
	}
}

// opName is the name of the instance's op.
func (in instance) opName() string {
	f := strings.Fields(in.line)
	return f[2]
}

func firstGraphOp(mod *ir.Operation) *ir.Operation {
	var found *ir.Operation
	mod.Walk(func(op *ir.Operation) {
		if found == nil && op.OpName().Dialect() == "graph" {
			found = op
		}
	})
	return found
}

// TestIdempotent: lowering a lowered function changes nothing.
func TestIdempotent(t *testing.T) {
	mod := parse(t, instances()[graph.RMSNormName].good[0].regionText())
	if _, err := Lower(mod, Options{}); err != nil {
		t.Fatal(err)
	}
	once := ir.Sprint(mod, ir.PrintOptions{})
	st, err := Lower(mod, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if twice := ir.Sprint(mod, ir.PrintOptions{}); twice != once || st.GraphOps != 0 {
		t.Errorf("the second lowering changed %d ops:\n%s\n---\n%s", st.GraphOps, once, twice)
	}
	if !strings.Contains(once, mps.RsqrtName) {
		t.Errorf("rms_norm lowered without %s:\n%s", mps.RsqrtName, once)
	}
}

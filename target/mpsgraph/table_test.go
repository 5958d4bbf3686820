package mpsgraph_test

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/target/mpsgraph"

	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/internal/irtest"

	"github.com/rlx-compiler/rlx/ir"
)

// lastGraphOp returns the last graph op of m.
func lastGraphOp(m *ir.Operation) *ir.Operation {
	var last *ir.Operation
	m.Walk(func(op *ir.Operation) {
		if strings.HasPrefix(op.Name(), "graph.") {
			last = op
		}
	})
	return last
}

func TestMPSCapable(t *testing.T) {
	const (
		qkv   = "%q: tensor<1x8x4x16xf32>, %k: tensor<1x8x2x16xf32>, %v: tensor<1x8x2x16xf32>"
		qkvT  = "(tensor<1x8x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) -> tensor<1x8x4x16xf32>"
		x4    = "%x: tensor<2x3x4x5xf32>"
		reduc = `%0 = graph.reduce %x {axes = array<i64: AXES>, kind = "sum"} : (tensor<2x3x4x5xf32>) -> `
	)
	unary := func(name string) string {
		return "%0 = " + name + " %x : (tensor<4xf32>) -> tensor<4xf32>"
	}
	binary := func(name string) string {
		return "%0 = " + name + " %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>"
	}
	type tc struct {
		name, args, body string
		ok               bool
		reason           string
	}
	cases := []tc{
		{"param", "", `%0 = graph.param "w" : tensor<4xf32>`, true, "leaf: cloned into every region that uses them"},
		{"packed param", "", `%0 = graph.param "w" : tensor<1152xui8>`, true, "leaf: cloned into every region that uses them"},
		{"constant", "", `%0 = graph.constant dense<1.0> : tensor<4xf32>`, true, "leaf: cloned into every region that uses them"},
		{"matmul", "%a: tensor<1x64xf32>, %b: tensor<64x8xf16>", `%0 = graph.matmul %a, %b : (tensor<1x64xf32>, tensor<64x8xf16>) -> tensor<1x8xf32>`, true, ""},
		{"softplus", "%x: tensor<4xf32>", unary(graph.SoftplusName), false, "graph.softplus: no MPSGraph lowering"},
		{"cast to f16", "%x: tensor<4xf32>", `%0 = graph.cast %x : (tensor<4xf32>) -> tensor<4xf16>`, true, ""},
		{"cast to i32", "%x: tensor<4xbf16>", `%0 = graph.cast %x : (tensor<4xbf16>) -> tensor<4xi32>`, true, ""},
		{"cast to i64", "%x: tensor<4xf32>", `%0 = graph.cast %x : (tensor<4xf32>) -> tensor<4xi64>`, false, "graph.cast: cast to i64 (MPS casts only to f32, f16, bf16, i32)"},
		{"cast to i1", "%x: tensor<4xf32>", `%0 = graph.cast %x : (tensor<4xf32>) -> tensor<4xi1>`, false, "graph.cast: cast to i1 (MPS casts only to f32, f16, bf16, i32)"},
		{"cast from i64", "%x: tensor<4xi64>", `%0 = graph.cast %x : (tensor<4xi64>) -> tensor<4xf32>`, false, "graph.cast: operand #0 has element type i64 (MPS takes f32, f16, bf16, i32)"},
		{"gather i32", "%t: tensor<10x4xf32>, %i: tensor<3xi32>", `%0 = graph.gather %t, %i {axis = 0} : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>`, true, ""},
		{"gather i64", "%t: tensor<10x4xf32>, %i: tensor<3xi64>", `%0 = graph.gather %t, %i {axis = 0} : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>`, false, "graph.gather: operand #1 has element type i64 (MPS takes f32, f16, bf16, i32)"},
		{"slice", "%x: tensor<10xf32>", `%0 = graph.slice %x {axis = 0, length = 3, start = 2} : (tensor<10xf32>) -> tensor<3xf32>`, true, ""},
		{"slice step", "%x: tensor<10xf32>", `%0 = graph.slice %x {axis = 0, length = 3, start = 2, step = 2} : (tensor<10xf32>) -> tensor<3xf32>`, false, "graph.slice: step 2 (MPS slices with step 1 only)"},
		{"reduce rank 3", "%x: tensor<3x4x5xf32>", `%0 = graph.reduce %x {axes = array<i64: 0>, kind = "sum"} : (tensor<3x4x5xf32>) -> tensor<4x5xf32>`, true, ""},
		{"reduce rank 4 last", x4, strings.Replace(reduc, "AXES", "-1", 1) + "tensor<2x3x4xf32>", true, ""},
		{"reduce rank 4 trailing", x4, strings.Replace(reduc, "AXES", "2, 3", 1) + "tensor<2x3xf32>", true, ""},
		{"reduce rank 4 all", x4, strings.Replace(reduc, "AXES", "0, 1, 2, 3", 1) + "tensor<f32>", true, ""},
		{"reduce rank 4 hazard", x4, strings.Replace(reduc, "AXES", "1", 1) + "tensor<2x4x5xf32>", false, "graph.reduce: rank-4 reduce over axis 1 keeps axis 2 after it (MPSGraph returned zeros for that)"},
		{"reduce rank 4 hazard keep_dims", x4, `%0 = graph.reduce %x {axes = array<i64: 3, 0>, keep_dims = true, kind = "max"} : (tensor<2x3x4x5xf32>) -> tensor<1x3x4x1xf32>`, false, "graph.reduce: rank-4 reduce over axis 0 keeps axis 1 after it (MPSGraph returned zeros for that)"},
		{"rope rank 3", "%x: tensor<1x1x64xf32>, %c: tensor<1x4xf32>", `%0 = graph.rope %x, %c, %c {head_dim = 16, rotary_dim = 8, style = "gptj"} : (tensor<1x1x64xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x1x64xf32>`, true, ""},
		{"rope rank 4", "%x: tensor<1x1x4x16xf32>, %c: tensor<1x4xf32>", `%0 = graph.rope %x, %c, %c {head_dim = 16, rotary_dim = 8, style = "neox"} : (tensor<1x1x4x16xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x1x4x16xf32>`, false, "graph.rope: rank-4 input (MPS takes rank-3 [B, S, H·D] input only)"},
		{"attention arguments", qkv, `%0 = graph.attention %q, %k, %v : ` + qkvT, true, ""},
		{"attention causal square", qkv, `%0 = graph.attention %q, %k, %v {mask = "causal"} : ` + qkvT, true, ""},
		{"attention custom", qkv + ", %m: tensor<1x8xf32>", `%0 = graph.attention %q, %k, %v, %m {mask = "custom"} : (tensor<1x8x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8xf32>) -> tensor<1x8x4x16xf32>`, true, ""},
		{"attention through views", "%x: tensor<1x8x64xf32>, %v: tensor<1x8x2x16xf32>", `%p = graph.param "wk" : tensor<1x2x8x16xf16>
  %c = graph.cast %p : (tensor<1x2x8x16xf16>) -> tensor<1x2x8x16xf32>
  %k = graph.transpose %c {permutation = array<i64: 0, 2, 1, 3>} : (tensor<1x2x8x16xf32>) -> tensor<1x8x2x16xf32>
  %s = graph.slice %x {axis = 2, length = 64, start = 0} : (tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
  %q = graph.reshape %s : (tensor<1x8x64xf32>) -> tensor<1x8x4x16xf32>
  %0 = graph.attention %q, %k, %v : ` + qkvT, true, ""},
		{"attention computed q", qkv + ", %w: tensor<16x16xf32>", `%m = graph.matmul %q, %w : (tensor<1x8x4x16xf32>, tensor<16x16xf32>) -> tensor<1x8x4x16xf32>
  %0 = graph.attention %m, %k, %v : ` + qkvT, false,
			"graph.attention: operand #0 (q) is computed by graph.matmul, not read from a function argument, param or constant through reshape/transpose/cast/slice only; MPSGraph attention over slices of computed tensors gives wrong values"},
		{"attention slice of computed v", qkv + ", %kv: tensor<1x8x2x32xf32>", `%e = graph.exp %kv : (tensor<1x8x2x32xf32>) -> tensor<1x8x2x32xf32>
  %s = graph.slice %e {axis = 3, length = 16, start = 16} : (tensor<1x8x2x32xf32>) -> tensor<1x8x2x16xf32>
  %0 = graph.attention %q, %k, %s : ` + qkvT, false,
			"graph.attention: operand #2 (v) is computed by graph.exp through slice, not read from a function argument, param or constant through reshape/transpose/cast/slice only; MPSGraph attention over slices of computed tensors gives wrong values"},
		{"attention broadcast k", "%q: tensor<1x8x4x16xf32>, %k1: tensor<1x8x1x16xf32>, %v: tensor<1x8x2x16xf32>", `%k = graph.broadcast %k1 : (tensor<1x8x1x16xf32>) -> tensor<1x8x2x16xf32>
  %0 = graph.attention %q, %k, %v : ` + qkvT, false,
			"graph.attention: operand #1 (k) is computed by graph.broadcast, not read from a function argument, param or constant through reshape/transpose/cast/slice only; MPSGraph attention over slices of computed tensors gives wrong values"},
		{"attention causal decode", "%q: tensor<1x1x4x16xf32>, %k: tensor<1x8x2x16xf32>, %v: tensor<1x8x2x16xf32>", `%0 = graph.attention %q, %k, %v {mask = "causal"} : (tensor<1x1x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) -> tensor<1x1x4x16xf32>`, false,
			"graph.attention: causal mask with Sq = 1 and Sk = 8 (MPS takes causal only with Sq = Sk)"},
		{"attention sliding window", qkv, `%0 = graph.attention %q, %k, %v {mask = "sliding_window", window = 2} : ` + qkvT, false,
			`graph.attention: mask "sliding_window" (MPS takes none, custom, or causal with Sq = Sk)`},
		{"attention bias", qkv + ", %m: tensor<1x4x8x8xf32>", `%0 = graph.attention %q, %k, %v, %m {mask = "bias"} : (tensor<1x8x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>, tensor<1x4x8x8xf32>) -> tensor<1x8x4x16xf32>`, false,
			`graph.attention: mask "bias" (MPS takes none, custom, or causal with Sq = Sk)`},
		{"attention mla", "%q: tensor<1x8x4x16xf32>, %k: tensor<1x8x2x16xf32>, %v: tensor<1x8x2x32xf32>", `%0 = graph.attention %q, %k, %v : (tensor<1x8x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x32xf32>) -> tensor<1x8x4x32xf32>`, false,
			"graph.attention: Dv = 32 differs from D = 16 (MPS takes Dv = D only)"},
		{"gated_delta_net", gdnArgs("1x1x4x16", "1x1x4", "1x1x4"), `%o:2 = graph.gated_delta_net %q, %k, %v, %g, %b : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)`, false,
			"graph.gated_delta_net: recurrent scans have no MPSGraph lowering"},
		{"lstm", lstmArgs, `%y:3 = graph.lstm %x, %wih, %whh, %b : (tensor<1x5x8xf32>, tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>) -> (tensor<1x5x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)`, false,
			"graph.lstm: recurrent scans have no MPSGraph lowering"},
		{"dequant_matmul", "%x: tensor<1x64xf32>, %w: tensor<1152xui8>", `%0 = graph.dequant_matmul %x, %w {format = "q4_0", k = 64, n = 32} : (tensor<1x64xf32>, tensor<1152xui8>) -> tensor<1x32xf32>`, false,
			"graph.dequant_matmul: packed GGUF weights have no MPSGraph lowering"},
		{"dynamic operand", "%x: tensor<?x64xf32>", `%0 = graph.exp %x : (tensor<?x64xf32>) -> tensor<?x64xf32>`, false, "graph.exp: operand #0 has a dynamic dim ([?, 64])"},
		{"dynamic result", "%x: tensor<4x64xf32>", `%0 = graph.reshape %x : (tensor<4x64xf32>) -> tensor<?xf32>`, false, "graph.reshape: result #0 has a dynamic dim ([?])"},
		{"i64 element type", "%x: tensor<4xi64>", strings.ReplaceAll(binary(graph.AddName), "f32", "i64"), false, "graph.add: operand #0 has element type i64 (MPS takes f32, f16, bf16, i32)"},
		{"ui8 element type", "%x: tensor<4xui8>", `%0 = graph.reshape %x : (tensor<4xui8>) -> tensor<2x2xui8>`, false, "graph.reshape: operand #0 has element type ui8 (MPS takes f32, f16, bf16, i32)"},
		{"i32 element type", "%x: tensor<4xi32>", strings.ReplaceAll(binary(graph.MulName), "f32", "i32"), true, ""},
		{"bf16 element type", "%x: tensor<4xbf16>", `%0 = graph.softmax %x {axis = 0} : (tensor<4xbf16>) -> tensor<4xbf16>`, true, ""},
	}
	for _, n := range []string{graph.AddName, graph.SubName, graph.MulName, graph.DivName} {
		cases = append(cases, tc{n, "%x: tensor<4xf32>", binary(n), true, ""})
	}
	for _, n := range []string{graph.MaxName, graph.MinName, graph.PowName} {
		cases = append(cases, tc{n, "%x: tensor<4xf32>", binary(n), false, n + ": no MPSGraph lowering"})
	}
	cases = append(cases,
		tc{"cmp", "%x: tensor<4xf32>", `%0 = graph.cmp %x, %x {predicate = "eq"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>`, false, "graph.cmp: no MPSGraph lowering"},
		tc{"select", "%c: tensor<4xi1>, %x: tensor<4xf32>", `%0 = graph.select %c, %x, %x : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>`, false, "graph.select: no MPSGraph lowering"},
	)
	for _, n := range graph.UnaryOpNames() {
		if n != graph.SoftplusName {
			cases = append(cases, tc{n, "%x: tensor<4xf32>", unary(n), true, ""})
		}
	}
	for _, n := range []string{graph.ReshapeName, graph.BroadcastName, graph.TransposeName, graph.ConcatName, graph.SoftmaxName, graph.RMSNormName, graph.LayerNormName} {
		ex, _ := graph.Example(n)
		args, rest, _ := strings.Cut(strings.SplitN(ex, "(", 2)[1], ") {\n  ")
		body, _, _ := strings.Cut(rest, "\n  return")
		cases = append(cases, tc{n, args, body, true, ""})
	}
	tbl := mpsgraph.New(mpsgraph.Config{BF16: true})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := irtest.ParseVerify(t, newContext(), "func.func @f("+c.args+") {\n  "+c.body+"\n  return\n}\n")
			op := lastGraphOp(m)
			ok, reason := tbl.Capable(op)
			if ok != c.ok || reason != c.reason {
				t.Errorf("Capable(%s) = %v, %q; want %v, %q", op.Name(), ok, reason, c.ok, c.reason)
			}
			if got := tbl.IsCapable(op); got != c.ok {
				t.Errorf("IsCapable(%s) = %v, want %v", op.Name(), got, c.ok)
			}
			// The verdict alone formats nothing: the pass asks it of
			// every op of million-op functions.
			if n := testing.AllocsPerRun(10, func() { tbl.IsCapable(op) }); n != 0 {
				t.Errorf("IsCapable(%s) allocates %v times", op.Name(), n)
			}
		})
	}
}

func TestMPSCapableOutsideFunctions(t *testing.T) {
	ctx := newContext()
	ctx.AllowUnregistered = true
	m := irtest.ParseVerify(t, ctx, `"test.region"() ({
^bb0(%q: tensor<1x8x4x16xf32>, %k: tensor<1x8x2x16xf32>):
  %0 = graph.attention %q, %k, %k : (tensor<1x8x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) -> tensor<1x8x4x16xf32>
  "test.yield"() : () -> ()
}) : () -> ()
`)
	tbl := mpsgraph.New(mpsgraph.Config{BF16: true})
	ok, reason := tbl.Capable(lastGraphOp(m))
	if ok || !strings.Contains(reason, "operand #0 (q) is a block argument of a region other than a function body") {
		t.Errorf("Capable = %v, %q", ok, reason)
	}
	var ret *ir.Operation
	m.Walk(func(op *ir.Operation) {
		if op.Name() == "test.yield" {
			ret = op
		}
	})
	if ok, reason := tbl.Capable(ret); ok || reason != "test.yield is not a graph op" {
		t.Errorf("Capable(test.yield) = %v, %q", ok, reason)
	}
}

// TestMPSTableCoversEveryOp checks that every graph op is in exactly one
// row, every row names only graph ops, and the kinds match the checks.
func TestMPSTableCoversEveryOp(t *testing.T) {
	seen := map[string]int{}
	for _, row := range mpsgraph.New(mpsgraph.Config{BF16: true}).Rows() {
		if len(row.Ops) == 0 {
			t.Errorf("row %+v has no ops", row)
		}
		if (row.Kind == mpsgraph.Conditional) != (row.Check != nil) {
			t.Errorf("row %v: kind %s with check %v", row.Ops, row.Kind, row.Check != nil)
		}
		if row.Kind != mpsgraph.Yes && row.Condition == "" {
			t.Errorf("row %v (%s) has no condition or reason", row.Ops, row.Kind)
		}
		for _, n := range row.Ops {
			seen[n]++
		}
	}
	for _, n := range graph.OpNames() {
		if seen[n] != 1 {
			t.Errorf("%s is in %d rows of the MPS table, want 1", n, seen[n])
		}
		delete(seen, n)
	}
	for n := range seen {
		t.Errorf("MPS table names %s, which is not a graph op", n)
	}
}

// TestMPSTypeOK checks the rule on types alone, with its reasons.
func TestMPSTypeOK(t *testing.T) {
	ctx := ir.NewContext()
	for _, tc := range []struct {
		t    ir.Type
		want string
	}{
		{ctx.TensorType([]int64{2, 3}, ctx.F32()), ""},
		{ctx.TensorType([]int64{4}, ctx.IntegerType(32, ir.Signless)), ""},
		{ctx.TensorType([]int64{ir.Dynamic}, ctx.F32()), "result #0 has a dynamic dim ([?])"},
		{ctx.TensorType([]int64{1088}, ctx.IntegerType(8, ir.Unsigned)), "result #0 has element type ui8 (MPS takes f32, f16, bf16, i32)"},
		{ctx.TensorType([]int64{1}, ctx.IntegerType(64, ir.Signless)), "result #0 has element type i64 (MPS takes f32, f16, bf16, i32)"},
		{ctx.F32(), "result #0 is not a ranked tensor"},
	} {
		if got := mpsgraph.New(mpsgraph.Config{BF16: true}).TypeOK(tc.t, "result #0"); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.t, got, tc.want)
		}
	}
}

// newContext returns a context with builtin, func and graph registered.
func newContext() *ir.Context {
	ctx := ir.NewContext()
	builtin.Register(ctx)
	fn.Register(ctx)
	graph.Register(ctx)
	return ctx
}

const lstmArgs = "%x: tensor<1x5x8xf32>, %wih: tensor<64x8xf32>, %whh: tensor<64x16xf32>, %b: tensor<64xf32>"

// gdnArgs declares q and v [1, 1, 4, 16], k, g and β as given.
func gdnArgs(k, g, b string) string {
	return "%q: tensor<1x1x4x16xf32>, %k: tensor<" + k + "xf32>, %v: tensor<1x1x4x16xf32>, %g: tensor<" + g + "xf32>, %b: tensor<" + b + "xf32>"
}

package models

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/target"
)

var update = flag.Bool("update", false, "rewrite testdata/opcounts.txt and testdata/golden.txt")

func newContext() *ir.Context {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	return ctx
}

// variant is one model configuration the tests build.
type variant struct {
	name  string
	build func(ctx *ir.Context) (*Model, error)
}

func qwen35With(f func(c *Qwen35Config)) func(*ir.Context) (*Model, error) {
	return func(ctx *ir.Context) (*Model, error) {
		c := DefaultQwen35()
		f(&c)
		return Qwen35(ctx, c)
	}
}

func zonosWith(f func(c *ZonosConfig)) func(*ir.Context) (*Model, error) {
	return func(ctx *ir.Context) (*Model, error) {
		c := DefaultZonos()
		f(&c)
		return Zonos(ctx, c)
	}
}

func kimiWith(f func(c *KimiConfig)) func(*ir.Context) (*Model, error) {
	return func(ctx *ir.Context) (*Model, error) {
		c := DefaultKimi()
		f(&c)
		return Kimi(ctx, c)
	}
}

func toy[C any](*C) {}

// variants are the toy models, the same at hidden 1024, and at hidden 1024
// with 24 layers.
func variants() []variant {
	return []variant{
		{"qwen35/toy", qwen35With(toy)},
		{"zonos/toy", zonosWith(toy)},
		{"kimi/toy", kimiWith(toy)},
		{"qwen35/h1024", qwen35With(func(c *Qwen35Config) { c.Hidden = 1024 })},
		{"zonos/h1024", zonosWith(func(c *ZonosConfig) { c.Hidden = 1024 })},
		{"kimi/h1024", kimiWith(func(c *KimiConfig) { c.Hidden = 1024 })},
		{"qwen35/h1024-l24", qwen35With(func(c *Qwen35Config) { c.Hidden, c.Layers = 1024, 24 })},
		{"zonos/h1024-l24", zonosWith(func(c *ZonosConfig) { c.Hidden, c.Layers = 1024, 24 })},
		{"kimi/h1024-l24", kimiWith(func(c *KimiConfig) { c.Hidden, c.Layers = 1024, 24 })},
	}
}

func mustBuild(t testing.TB, v variant) *Model {
	t.Helper()
	m, err := v.build(newContext())
	if err != nil {
		t.Fatalf("%s: %v", v.name, err)
	}
	return m
}

// TestVerify builds every variant, verifies it, and checks that its
// interface agrees with the function signature.
func TestVerify(t *testing.T) {
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			m := mustBuild(t, v)
			if err := ir.Verify(m.Module); err != nil {
				t.Fatal(err)
			}
			f := m.Func()
			if f.Name() != FuncName {
				t.Errorf("function @%s, want @%s", f.Name(), FuncName)
			}
			ft := f.Type()
			if len(ft.Inputs) != len(m.Inputs) || len(ft.Results) != len(m.Outputs) {
				t.Fatalf("signature %v, model has %d inputs and %d outputs", ft, len(m.Inputs), len(m.Outputs))
			}
			for i, p := range m.Inputs {
				if ft.Inputs[i] != p.Type || f.ArgAttrs(i).Get(NameAttr).(*ir.StringAttr).Value != p.Name {
					t.Errorf("argument #%d is %v %v, model says %s %v", i, ft.Inputs[i], f.ArgAttrs(i), p.Name, p.Type)
				}
			}
			for i, p := range m.Outputs {
				if ft.Results[i] != p.Type || f.ResultAttrs(i).Get(NameAttr).(*ir.StringAttr).Value != p.Name {
					t.Errorf("result #%d is %v %v, model says %s %v", i, ft.Results[i], f.ResultAttrs(i), p.Name, p.Type)
				}
			}
			var params []string
			for op := range m.Func().Body().Ops() {
				if p, ok := graph.AsParam(op); ok {
					params = append(params, p.Name())
				}
			}
			if len(params) != len(m.Params) {
				t.Fatalf("%d graph.param ops, %d ParamSpecs", len(params), len(m.Params))
			}
			for i, p := range m.Params {
				if params[i] != p.Name {
					t.Errorf("param #%d is %q, ParamSpec %q", i, params[i], p.Name)
				}
			}
		})
	}
}

func printed(m *ir.Operation, generic bool) string {
	return ir.Sprint(m, ir.PrintOptions{Generic: generic})
}

func parse(t *testing.T, src string) *ir.Operation {
	t.Helper()
	m, err := asm.ParseString(newContext(), "model.mlir", src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if err := ir.Verify(m); err != nil {
		t.Fatalf("verify after parsing: %v", err)
	}
	return m
}

// TestRoundTrip prints each model in custom and generic form, parses both
// back and checks that they print identically, and that the custom form
// reached through the generic one is the same too.
func TestRoundTrip(t *testing.T) {
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			m := mustBuild(t, v)
			custom, generic := printed(m.Module, false), printed(m.Module, true)
			if got := printed(parse(t, custom), false); got != custom {
				t.Errorf("custom form does not round-trip:\n%s", firstDiff(custom, got))
			}
			fromGeneric := parse(t, generic)
			if got := printed(fromGeneric, true); got != generic {
				t.Errorf("generic form does not round-trip:\n%s", firstDiff(generic, got))
			}
			if got := printed(fromGeneric, false); got != custom {
				t.Errorf("custom form through the generic one differs:\n%s", firstDiff(custom, got))
			}
		})
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(w), len(g)) {
		if w[i] != g[i] {
			return fmt.Sprintf("line %d:\nwant: %s\ngot:  %s", i+1, w[i], g[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}

// TestMLIROptAcceptsGeneric feeds the generic form of the toy models to
// mlir-opt-19, which does not know the graph dialect, and checks that it
// prints them back byte for byte.
func TestMLIROptAcceptsGeneric(t *testing.T) {
	bin, err := exec.LookPath("mlir-opt-19")
	if err != nil {
		t.Skip("mlir-opt-19 not on PATH (Debian's mlir-19-tools)")
	}
	for _, v := range variants()[:3] {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			generic := printed(mustBuild(t, v).Module, true)
			cmd := exec.Command(bin, "--allow-unregistered-dialect", "--mlir-print-op-generic", "-")
			cmd.Stdin = strings.NewReader(generic)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("mlir-opt-19 rejects the generic form: %v\n%s", err, stderr.String())
			}
			if string(out) != generic {
				t.Errorf("mlir-opt-19 prints the generic form differently:\n%s", firstDiff(generic, string(out)))
			}
		})
	}
}

// TestOpCounts compares the op counts of every variant with
// testdata/opcounts.txt.
func TestOpCounts(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("# Ops of each model's decode function (go test ./models -run TestOpCounts -update).\n")
	for _, v := range variants() {
		m := mustBuild(t, v)
		counts, total := m.OpCounts()
		fmt.Fprintf(&sb, "\n%s: %d ops, %d inputs, %d outputs, %d params\n", v.name, total, len(m.Inputs), len(m.Outputs), len(m.Params))
		names := make([]string, 0, len(counts))
		for n := range counts {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			fmt.Fprintf(&sb, "  %-24s %d\n", n, counts[n])
		}
	}
	golden(t, "testdata/opcounts.txt", sb.String())
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s is stale (run with -update to refresh it):\n%s", path, firstDiff(string(want), got))
	}
}

// TestOpCoverage checks which graph ops each toy model uses, and that
// together they use every op of the dialect but graph.lstm (none of the
// three recipes has an LSTM).
func TestOpCoverage(t *testing.T) {
	want := map[string][]string{
		"qwen35": {"add", "attention", "broadcast", "cmp", "concat", "constant", "dequant_matmul", "exp", "gated_delta_net", "gather",
			"matmul", "mul", "neg", "param", "reduce", "reshape", "rms_norm", "rope", "rsqrt", "select", "sigmoid", "silu", "slice",
			"softplus", "transpose"},
		"zonos": {"abs", "add", "attention", "cast", "concat", "constant", "cos", "div", "gather", "gelu", "gelu_tanh", "layer_norm",
			"log", "matmul", "max", "mul", "param", "reciprocal", "reduce", "relu", "reshape", "rope", "sin", "slice", "softmax", "sub",
			"tanh", "transpose"},
		"kimi": {"add", "attention", "broadcast", "concat", "constant", "div", "exp", "gated_delta_net", "matmul", "max", "min", "mul",
			"neg", "param", "pow", "reduce", "reshape", "rms_norm", "sigmoid", "silu", "slice", "softplus", "sqrt"},
	}
	used := map[string]bool{}
	for _, v := range variants()[:3] {
		m := mustBuild(t, v)
		var got []string
		for _, op := range m.GraphOps() {
			used[op] = true
			got = append(got, strings.TrimPrefix(op, "graph."))
		}
		if w := want[m.Name]; !slices.Equal(got, w) {
			t.Errorf("%s uses %v, want %v", m.Name, got, w)
		}
	}
	// No recipe has an LSTM; graph.topk routes the imported Qwen3-Next
	// (models/importer), not these builders.
	for _, op := range graph.OpNames() {
		if !used[op] && op != graph.LSTMName && op != graph.TopKName {
			t.Errorf("no model uses %s", op)
		}
	}
}

// TestHybridShapes checks the patterns the hybrid-split pass must meet in
// real graphs: leaf-materialised attention (MPS-capable) next to attention
// over slices of computed tensors, views feeding attention, a mixed
// precision round trip, an embedding lookup of an input, a mask built by
// cmp/select, and native ops (GDN, dequant_matmul) between MPS-capable
// ones.
func TestHybridShapes(t *testing.T) {
	type facts struct {
		mpsAttention, sliceIntoAttention, viewIntoAttention, maskFromSelect bool
		castToHalf, castFromHalf, gatherOfInput                             bool
	}
	want := map[string]facts{
		"qwen35": {sliceIntoAttention: false, viewIntoAttention: false, maskFromSelect: true, gatherOfInput: true},
		"zonos":  {mpsAttention: true, viewIntoAttention: true, castToHalf: true, castFromHalf: true, gatherOfInput: false},
		"kimi":   {sliceIntoAttention: true},
	}
	for _, v := range variants()[:3] {
		m := mustBuild(t, v)
		var got facts
		for op := range m.Func().Body().Ops() {
			switch op.Name() {
			case graph.AttentionName:
				if target.MustLookup(target.Default).MPS.IsCapable(op) {
					got.mpsAttention = true
				}
				for i, x := range op.Operands() {
					d := x.DefiningOp()
					switch {
					case d == nil:
					case i < 3 && d.Name() == graph.SliceName:
						got.sliceIntoAttention = true
					case i < 3 && (d.Name() == graph.TransposeName || d.Name() == graph.ReshapeName && d.Operand(0).DefiningOp().Name() == graph.ParamName):
						got.viewIntoAttention = true
					case i == 3 && d.Name() == graph.SelectName:
						got.maskFromSelect = true
					}
				}
			case graph.CastName:
				from, to := elemOf(op.Operand(0)).String(), elemOf(op.Result(0)).String()
				got.castToHalf = got.castToHalf || from == "f32" && to == "f16"
				got.castFromHalf = got.castFromHalf || from == "f16" && to == "f32"
			case graph.GatherName:
				got.gatherOfInput = got.gatherOfInput || op.Operand(1).IsBlockArgument()
			}
		}
		if got != want[m.Name] {
			t.Errorf("%s: %+v, want %+v", m.Name, got, want[m.Name])
		}
	}
}

// TestDerivedSizes checks that Hidden alone scales a model.
func TestDerivedSizes(t *testing.T) {
	q := DefaultQwen35()
	q.Hidden = 1024
	rq, err := q.Resolved()
	if err != nil {
		t.Fatal(err)
	}
	if rq.HeadDim != 256 || rq.RotaryDim != 64 || rq.FFN != 3072 || rq.GDNHeads != 4 || rq.GDNKeyHeads != 2 || rq.GDNHeadDim != 256 {
		t.Errorf("qwen35 at hidden 1024: %+v", rq)
	}
	k := DefaultKimi()
	k.Hidden = 1024
	rk, err := k.Resolved()
	if err != nil {
		t.Fatal(err)
	}
	if rk.KDAHeadDim != 256 || rk.GateRank != 256 || rk.QLoRA != 512 || rk.KVLoRA != 256 || rk.NoPEDim != 256 || rk.RoPEDim != 128 || rk.VHeadDim != 256 {
		t.Errorf("kimi at hidden 1024: %+v", rk)
	}
	// An explicit head size frees the heads from dividing hidden, as in
	// the real Qwen3.5 (8 heads of 256 at hidden 1024).
	q = DefaultQwen35()
	q.Heads, q.KVHeads, q.HeadDim = 3, 1, 32
	if _, err := Qwen35(newContext(), q); err != nil {
		t.Error(err)
	}
}

// TestConfigErrors checks that bad sizes give clear errors naming the
// knobs, every problem at once.
func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(*ir.Context) (*Model, error)
		want  string
	}{
		{"heads", qwen35With(func(c *Qwen35Config) { c.Heads, c.KVHeads = 5, 1 }),
			"qwen35: heads = 5 does not divide hidden = 64 (set head-dim to choose the head size)"},
		{"huge", zonosWith(func(c *ZonosConfig) { c.Past = 1 << 30 }), "zonos: past = 1073741824 exceeds the limit of 16777216"},
		{"kv-heads", qwen35With(func(c *Qwen35Config) { c.KVHeads = 3 }), "qwen35: kv-heads = 3 does not divide heads = 4"},
		{"two at once", qwen35With(func(c *Qwen35Config) { c.Layers, c.Past = 0, -1 }),
			"qwen35: layers = 0 must be at least 1; past = -1 must be at least 1"},
		{"q4_k toy", qwen35With(func(c *Qwen35Config) { c.Quant = graph.Q4_K }),
			"qwen35: quant q4_k needs every quantised projection's input size to be a multiple of 256, but hidden = 64, ffn = 192, heads·head-dim = 64, gdn-heads·gdn-head-dim = 64"},
		{"q4_0 ffn", qwen35With(func(c *Qwen35Config) { c.Quant, c.FFN = graph.Q4_0, 100 }),
			"multiple of 32, but ffn = 100"},
		{"quant name", qwen35With(func(c *Qwen35Config) { c.Quant = "q8_1" }), `quant "q8_1" must be one of q4_0, q8_0, q4_k, q5_k, q6_k, q6_k_c16, q2_k, q3_k, q4_1, q5_0, q5_1, iq4_nl, iq4_xs, mxfp4`},
		{"dtype", zonosWith(func(c *ZonosConfig) { c.DType = "f64" }), `zonos: dtype "f64" must be f32, f16 or bf16`},
		{"quant and dtype", zonosWith(func(c *ZonosConfig) { c.Quant = graph.Q8_0 }),
			"zonos: quant q8_0 and dtype f16 are exclusive"},
		{"rotary odd", qwen35With(func(c *Qwen35Config) { c.RotaryDim = 3 }), "rotary-dim = 3 must be even and in [2, head-dim = 16]"},
		{"rotary big", zonosWith(func(c *ZonosConfig) { c.RotaryDim = 32 }), "rotary-dim = 32 must be even and in [2, head-dim = 16]"},
		{"gdn heads", qwen35With(func(c *Qwen35Config) { c.GDNKeyHeads = 3 }), "gdn-key-heads = 3 does not divide gdn-heads = 4"},
		{"conv", qwen35With(func(c *Qwen35Config) { c.ConvKernel = 1 }), "conv-kernel = 1 must be at least 2"},
		{"every", qwen35With(func(c *Qwen35Config) { c.FullAttentionEvery = 0 }), "full-attn-every = 0 must be at least 1"},
		{"batch", zonosWith(func(c *ZonosConfig) { c.Batch = 3 }), "batch = 3 must be 1, or 2 for classifier-free guidance"},
		{"fourier", zonosWith(func(c *ZonosConfig) { c.FourierDim = 15 }), "fourier-dim = 15 must be even"},
		{"mla dims", kimiWith(func(c *KimiConfig) { c.NoPEDim, c.RoPEDim, c.VHeadDim = 8, 8, 16 }),
			"kimi: nope-dim + rope-dim = 16 must differ from v-head-dim = 16"},
		{"gate bound", kimiWith(func(c *KimiConfig) { c.GateLowerBound = 0 }), "gate-lower-bound = 0 must be negative"},
		{"kimi q4_k", kimiWith(func(c *KimiConfig) { c.Quant, c.Hidden = graph.Q4_K, 512 }),
			"kimi: quant q4_k needs every quantised projection's input size to be a multiple of 256, but kv-lora = 128"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.build(newContext())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestQuantFormats builds Qwen3.5 with each projection kind at hidden 1024.
func TestQuantFormats(t *testing.T) {
	for _, q := range []graph.QuantFormat{"", graph.Q4_0, graph.Q8_0, graph.Q4_K, graph.Q6_K, graph.Q6_KC16} {
		m, err := qwen35With(func(c *Qwen35Config) { c.Hidden, c.Quant = 1024, q })(newContext())
		if err != nil {
			t.Fatalf("quant %q: %v", q, err)
		}
		counts, _ := m.OpCounts()
		if n := counts[graph.DequantMatMulName]; (q == "") != (n == 0) {
			t.Errorf("quant %q: %d dequant_matmul ops", q, n)
		}
	}
	for _, dt := range []string{"f32", "f16", "bf16"} {
		m, err := zonosWith(func(c *ZonosConfig) { c.DType = dt })(newContext())
		if err != nil {
			t.Fatalf("dtype %s: %v", dt, err)
		}
		counts, _ := m.OpCounts()
		if n := counts[graph.CastName]; (dt == "f32") != (n == 1) { // the position cast stays
			t.Errorf("dtype %s: %d casts", dt, n)
		}
	}
}

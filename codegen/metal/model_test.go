package metal_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
	"github.com/rlx-compiler/rlx/codegen/metal/opsuite"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/thunk"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/models"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// modelVariant is one model graph of the end-to-end test.
type modelVariant struct {
	name  string
	build func(ctx *ir.Context) (*models.Model, error)
}

// modelVariants are the three model graphs at hidden 1024, each as its
// builder makes it by default and with q4_k, q6_k, q4_0 and q6_k_c16
// projections.
// The layer counts are the smallest that keep every layer kind (Qwen's
// GDN and attention layers, Kimi's KDA and MLA layers).
func modelVariants() []modelVariant {
	var vs []modelVariant
	for _, quant := range []graph.QuantFormat{"", "q4_k", "q6_k", "q4_0", "q6_k_c16"} {
		suffix := "default"
		if quant != "" {
			suffix = string(quant)
		}
		vs = append(vs,
			modelVariant{"qwen35_" + suffix, func(ctx *ir.Context) (*models.Model, error) {
				c := models.DefaultQwen35()
				c.Hidden, c.Layers, c.FullAttentionEvery = 1024, 2, 2
				if quant != "" {
					c.Quant = quant
				}
				return models.Qwen35(ctx, c)
			}},
			modelVariant{"zonos_" + suffix, func(ctx *ir.Context) (*models.Model, error) {
				c := models.DefaultZonos()
				c.Hidden, c.Layers = 1024, 1
				if quant != "" {
					c.Quant, c.DType = quant, "f32"
				}
				return models.Zonos(ctx, c)
			}},
			modelVariant{"kimi_" + suffix, func(ctx *ir.Context) (*models.Model, error) {
				c := models.DefaultKimi()
				c.Hidden, c.Layers, c.MLAEvery = 1024, 2, 2
				if quant != "" {
					c.Quant = quant
				}
				return models.Kimi(ctx, c)
			}},
		)
	}
	return vs
}

// regionValues are a region's operands and results in a reference run of
// the whole model.
type regionValues struct {
	variant string
	call    *ir.Operation
	in, out []*tensor.Tensor
	weights *ref.TensorWeights
	limit   float64
	region  *metal.Region
}

// probe runs the split function f in the reference interpreter and
// returns, for every Metal thunk.call, the values of its operands and
// results: a copy of f returns them after its own results.
func probe(ctx *ir.Context, f *ir.Operation, inputs []*tensor.Tensor, w ref.Weights) (map[*ir.Operation][2][]*tensor.Tensor, error) {
	var calls []*ir.Operation
	for op := range (fn.Func{Op: f}).Body().Ops() {
		if c, ok := thunk.AsCall(op); ok && c.Target() == thunk.TargetMetal {
			calls = append(calls, op)
		}
	}
	vm := ir.NewValueMap()
	pf := f.Clone(vm)
	pf.SetAttr(ctx, "sym_name", ctx.StringAttr("probe"))
	pf.RemoveAttr(ctx, "res_attrs")
	pm := builtin.NewModule(ctx, f.Loc())
	builtin.Body(pm).Append(pf)
	ret := fn.Func{Op: pf}.Body().Last()
	vals := ret.Operands()
	for _, c := range calls {
		for _, v := range c.Operands() {
			vals = append(vals, vm.Lookup(v))
		}
		for _, v := range c.Results() {
			vals = append(vals, vm.Lookup(v))
		}
	}
	nres := ret.NumOperands()
	ret.SetOperands(vals)
	types := make([]ir.Type, len(vals))
	for i, v := range vals {
		types[i] = v.Type()
	}
	ft := fn.Func{Op: f}.Type()
	pf.SetAttr(ctx, "function_type", ctx.TypeAttr(ctx.FunctionType(ft.Inputs, types)))
	p, err := ref.CompileFunc(pf)
	if err != nil {
		return nil, err
	}
	outs, err := p.Run(inputs, w)
	if err != nil {
		return nil, err
	}
	res := map[*ir.Operation][2][]*tensor.Tensor{}
	k := nres
	for _, c := range calls {
		in := outs[k : k+c.NumOperands()]
		k += c.NumOperands()
		out := outs[k : k+c.NumResults()]
		k += c.NumResults()
		res[c] = [2][]*tensor.Tensor{in, out}
	}
	return res, nil
}

// regionLimit is the NMSE limit of a region: the loosest of its ops'.
func regionLimit(call *ir.Operation) float64 {
	limit := opsuite.LimitExact
	for op := range (thunk.Call{Op: call}).Body().Ops() {
		switch op.Name() {
		case graph.MatMulName, graph.DequantMatMulName, graph.AttentionName:
			limit = max(limit, opsuite.LimitMatmul)
		case graph.GatedDeltaNetName, graph.LSTMName:
			limit = max(limit, 1e-6)
		}
		for _, r := range op.Results() {
			if strings.Contains(r.Type().String(), "xf16>") || strings.Contains(r.Type().String(), "xbf16>") {
				limit = max(limit, opsuite.LimitF16)
			}
		}
	}
	return limit
}

// TestModels splits the model graphs, emits every Metal region of all of
// them as one source, and runs each region through the harness on the
// values it sees in a reference run of its whole model.
func TestModels(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipping in -short mode")
	}
	cc := compiler(t)
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	all := builtin.NewModule(ctx, ctx.UnknownLoc())
	var regions []*regionValues
	for _, v := range modelVariants() {
		m, err := v.build(ctx)
		if err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		f := m.Func().Op
		if _, err := hybridsplit.Split(f, hybridsplit.Options{}); err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		st, err := m.RandomWeights(1)
		if err != nil {
			t.Fatal(err)
		}
		w := &ref.TensorWeights{Tensors: st.Tensors}
		in, err := m.RandomInputs(1)
		if err != nil {
			t.Fatal(err)
		}
		vals, err := probe(ctx, f, in, w)
		if err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		for op := range (fn.Func{Op: f}).Body().Ops() {
			if iv, ok := vals[op]; ok {
				regions = append(regions, &regionValues{variant: v.name, call: op, in: iv[0], out: iv[1], weights: w, limit: regionLimit(op)})
			}
		}
		f.Remove()
		f.SetAttr(ctx, "sym_name", ctx.StringAttr(v.name))
		builtin.Body(all).Append(f)
	}
	out, err := metal.Emit(all, metal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir, err := newTempDir()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := cc.Build(dir, out.Source, out.Kernels, mslcpu.Plain)
	if err != nil {
		t.Fatal(err)
	}
	// Some 10^5 threadgroups: OS threads would take minutes.
	bin.Fibers = true
	var jobs []*mslcpu.Job
	for _, rv := range regions {
		for _, r := range out.Manifest.Regions {
			if r.Function == rv.variant && r.Symbol == (thunk.Call{Op: rv.call}).Symbol() {
				rv.region = r
			}
		}
		if rv.region == nil {
			t.Fatalf("%s: no region for %s", rv.variant, thunk.Call{Op: rv.call}.Symbol())
		}
		job, err := mslcpu.RegionJob(out.Manifest, rv.region, rv.in, func(name string) (*tensor.Tensor, error) {
			t, ok := rv.weights.Tensors[name]
			if !ok {
				return nil, fmt.Errorf("no weight %q", name)
			}
			return t, nil
		}, mslcpu.RegionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, job)
	}
	res, err := bin.Run(jobs)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d regions of %d models, %d kernels, harness CPU %v", len(regions), len(modelVariants()), len(out.Kernels), bin.LastCPU)
	for i, rv := range regions {
		got, err := mslcpu.RegionOutputs(rv.region, res[i])
		if err != nil {
			t.Errorf("%s %s: %v", rv.variant, rv.region.Symbol, err)
			continue
		}
		var kernels []string
		for _, d := range rv.region.Dispatches {
			kernels = append(kernels, d.Kernel)
		}
		for k := range rv.out {
			e, _ := nmse(rv.out[k], got[k])
			if !(e <= rv.limit) {
				t.Errorf("%s %s result #%d: NMSE %.3g over %.0e (kernels %v)", rv.variant, rv.region.Symbol, k, e, rv.limit, kernels)
			}
		}
	}
}

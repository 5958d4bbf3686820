// Package modelregions gives the tests of lower-to-mps and of the MPSGraph
// emitter the mps.subgraph regions of the model graphs (models.Qwen35,
// Zonos, Kimi at toy size and at hidden 1024) after hybrid-split, each as
// a function of its own in graph form, together with the values it reads
// when the whole model runs on its random inputs and weights. Comparing a
// region's lowered form with its graph form on those values tests the
// lowering where the model exercises it, not on arbitrary numbers.
package modelregions

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/internal/mpsregions"
	"github.com/rlx-compiler/rlx/internal/runtimetest"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/models"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Case is one model graph.
type Case struct {
	Name  string
	Build func(*ir.Context) (*models.Model, error)
	// Short marks the cases that run under go test -short too.
	Short bool
}

// Cases returns the three models at toy size and at hidden 1024, with
// their default layer counts.
func Cases() []Case {
	return []Case{
		{"qwen35/toy", runtimetest.Qwen(0, "", 0), true},
		{"zonos/toy", runtimetest.Zonos(0), true},
		{"kimi/toy", runtimetest.Kimi(0), true},
		{"qwen35/h1024", runtimetest.Qwen(1024, "", 0), false},
		{"zonos/h1024", runtimetest.Zonos(1024), false},
		{"kimi/h1024", runtimetest.Kimi(1024), false},
	}
}

// Region is one mps.subgraph of a split model.
type Region struct {
	// Symbol is the region's symbol (decode_mps3).
	Symbol string
	// Module holds func.func @<Symbol>: the region's arguments, its body
	// (graph ops), and func.return of what it yields.
	Module *ir.Operation
	// Inputs are the values the region reads when the model runs.
	Inputs []*tensor.Tensor
}

// Split is a model split by hybrid-split (mode=dependency).
type Split struct {
	Model   *models.Model
	Module  *ir.Operation // the split module
	Weights ref.Weights   // the model's random weights (seed 1)
	Regions []Region
}

// Load builds the case's model, splits it, and outlines its MPS regions
// with the values they read on the model's random inputs (seed 1).
func Load(c Case) (*Split, error) {
	ctx := mpsregions.NewContext()
	m, err := c.Build(ctx)
	if err != nil {
		return nil, err
	}
	mod := m.Module.Clone(nil)
	f := builtin.Body(mod).First()
	if _, err := hybridsplit.Split(f, hybridsplit.Options{}); err != nil {
		return nil, err
	}
	st, err := m.RandomWeights(1)
	if err != nil {
		return nil, err
	}
	w := &ref.TensorWeights{Tensors: st.Tensors}
	inputs, err := m.RandomInputs(1)
	if err != nil {
		return nil, err
	}
	s := &Split{Model: m, Module: mod, Weights: w}
	taps, err := regionInputs(mod, inputs, w)
	if err != nil {
		return nil, err
	}
	for _, sg := range mpsregions.Subgraphs(f) {
		r := Region{Symbol: ir.SymbolName(sg), Module: mpsregions.Outline(sg)}
		r.Inputs, taps = taps[:sg.NumOperands()], taps[sg.NumOperands():]
		s.Regions = append(s.Regions, r)
	}
	return s, nil
}

// regionInputs runs a copy of the split module whose function returns
// the operands of every mps.subgraph, in order, instead of its results.
func regionInputs(mod *ir.Operation, inputs []*tensor.Tensor, w ref.Weights) ([]*tensor.Tensor, error) {
	ctx := mod.Context()
	c := mod.Clone(nil)
	f := builtin.Body(c).First()
	var vals []*ir.Value
	var types []ir.Type
	for _, sg := range mpsregions.Subgraphs(f) {
		for _, v := range sg.Operands() {
			vals = append(vals, v)
			types = append(types, v.Type())
		}
	}
	ret := (fn.Func{Op: f}).Body().Last()
	ret.SetOperands(vals)
	ft := (fn.Func{Op: f}).Type()
	f.SetAttr(ctx, "function_type", ctx.TypeAttr(ctx.FunctionType(ft.Inputs, types)))
	// The results' attributes (their names) no longer apply.
	f.SetAttr(ctx, "res_attrs", nil)
	p, err := ref.Compile(c, "")
	if err != nil {
		return nil, fmt.Errorf("the tapped model does not compile: %v", err)
	}
	return p.Run(inputs, w)
}

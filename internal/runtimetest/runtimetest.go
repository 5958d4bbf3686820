package runtimetest

import (
	"math"
	"slices"

	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/models"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Model is a model graph the runtime's tests use.
type Model struct {
	Name  string
	Build func(ctx *ir.Context) (*models.Model, error)
}

// Qwen returns the Qwen3.5-like model at hidden (0: toy size), quantised
// to quant ("" for dense), with the default layers when layers is 0.
func Qwen(hidden int, quant string, layers int) func(*ir.Context) (*models.Model, error) {
	return func(ctx *ir.Context) (*models.Model, error) {
		c := models.DefaultQwen35()
		if hidden > 0 {
			c.Hidden = hidden
		}
		if quant != "" {
			c.Quant = graph.QuantFormat(quant)
		}
		if layers > 0 {
			c.Layers = layers
		}
		return models.Qwen35(ctx, c)
	}
}

// Zonos returns the Zonos-like model at hidden (0: toy size).
func Zonos(hidden int) func(*ir.Context) (*models.Model, error) {
	return func(ctx *ir.Context) (*models.Model, error) {
		c := models.DefaultZonos()
		if hidden > 0 {
			c.Hidden = hidden
		}
		return models.Zonos(ctx, c)
	}
}

// Kimi returns the Kimi-like model at hidden (0: toy size).
func Kimi(hidden int) func(*ir.Context) (*models.Model, error) {
	return func(ctx *ir.Context) (*models.Model, error) {
		c := models.DefaultKimi()
		if hidden > 0 {
			c.Hidden = hidden
		}
		return models.Kimi(ctx, c)
	}
}

// Models returns the three models at toy size and at hidden 1024 with
// their default layer counts, and the Qwen3.5-like model quantised to
// q4_k at hidden 1024.
func Models() []Model {
	return []Model{
		{"qwen35 toy", Qwen(0, "", 0)},
		{"zonos toy", Zonos(0)},
		{"kimi toy", Kimi(0)},
		{"qwen35 h1024", Qwen(1024, "", 0)},
		{"qwen35 h1024 q4_k", Qwen(1024, "q4_k", 0)},
		{"zonos h1024", Zonos(1024)},
		{"kimi h1024", Kimi(1024)},
	}
}

// Split is a model split by hybrid-split.
type Split struct {
	Model *models.Model
	// Original is a copy of the model's module before the split; Module
	// the split one, and Func its function.
	Original, Module, Func *ir.Operation
}

// SplitModel builds a model in a fresh context and splits it with opts.
func SplitModel(build func(*ir.Context) (*models.Model, error), opts hybridsplit.Options) (*Split, error) {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := build(ctx)
	if err != nil {
		return nil, err
	}
	s := &Split{Model: m, Original: m.Module.Clone(nil), Module: m.Module}
	s.Func = builtin.Body(m.Module).First()
	if _, err := hybridsplit.Split(s.Func, opts); err != nil {
		return nil, err
	}
	return s, nil
}

// Reference returns the model's random weights and inputs (seed 1) and
// what the original, unsplit module computes from them: the results every
// run of the split function is checked against.
func (s *Split) Reference() (w *ref.TensorWeights, in, want []*tensor.Tensor, err error) {
	st, err := s.Model.RandomWeights(1)
	if err != nil {
		return nil, nil, nil, err
	}
	w = &ref.TensorWeights{Tensors: st.Tensors}
	if in, err = s.Model.RandomInputs(1); err != nil {
		return nil, nil, nil, err
	}
	if want, err = ref.RunModule(s.Original, "", in, w); err != nil {
		return nil, nil, nil, err
	}
	return w, in, want, nil
}

// NMSE is Σ(a−b)² / Σb² over two tensors of one shape: 0 when b is all
// zeros and a equals it, +Inf when b is all zeros and a is not.
func NMSE(a, b *tensor.Tensor) float64 {
	var num, den float64
	for i := range b.Len() {
		d := a.Float64(i) - b.Float64(i)
		num += d * d
		den += b.Float64(i) * b.Float64(i)
	}
	if den == 0 {
		if num == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return num / den
}

// Shared returns the results of step a that step b reads: the values one
// step hands to another.
func Shared(a, b *plan.Step) []int {
	var out []int
	for _, o := range a.Outputs {
		if slices.Contains(b.Inputs, o) {
			out = append(out, o)
		}
	}
	return out
}

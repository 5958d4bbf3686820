package models

import (
	"fmt"
	"hash/fnv"
	"sort"

	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// FuncName is the symbol of the decode function every builder emits.
const FuncName = "decode"

// NameAttr is the argument and result attribute that names each input and
// output of the decode function (`%arg0: tensor<1x1xi32> {rlx.name = "token"}`).
const NameAttr = "rlx.name"

// Model is a built decode step: the module and a description of its
// interface.
type Model struct {
	// Name is the model kind ("qwen35", "zonos" or "kimi").
	Name string
	// Module is a builtin.module holding one func.func @decode.
	Module *ir.Operation
	// Inputs describe the function arguments, in order.
	Inputs []Port
	// Outputs describe the function results, in order.
	Outputs []Port
	// Params are the graph.param weights, in the order they are built.
	Params []ParamSpec
}

// Port is one argument or result of the decode function.
type Port struct {
	Name string
	Type *ir.RankedTensorType
	// Gen says how RandomInputs fills an input (zero for outputs).
	Gen InputGen
}

// InputKind is how RandomInputs draws an input.
type InputKind uint8

const (
	// InputUniform draws floats uniformly from [Lo, Hi].
	InputUniform InputKind = iota
	// InputInt draws integers uniformly from [Lo, Hi).
	InputInt
	// InputMask draws a [B, Sk] attention keep-mask of 0s and 1s whose
	// last column (the new token) is always 1.
	InputMask
)

// InputGen describes the valid values of an input.
type InputGen struct {
	Kind   InputKind
	Lo, Hi float64
}

func uniformInput(lo, hi float64) InputGen { return InputGen{Kind: InputUniform, Lo: lo, Hi: hi} }
func intInput(lo, hi int64) InputGen {
	return InputGen{Kind: InputInt, Lo: float64(lo), Hi: float64(hi)}
}

// Init is the uniform range a weight is drawn from.
type Init struct{ Lo, Hi float32 }

// ParamSpec describes one graph.param: its name, its type, and how
// RandomWeights draws it. A packed GGUF weight (Format set) has type
// tensor<NBYTESxui8> and holds an [N, K] matrix drawn from Init, then
// quantised.
type ParamSpec struct {
	Name   string
	Type   *ir.RankedTensorType
	Init   Init
	Format graph.QuantFormat
	N, K   int64
}

// Func returns the decode function.
func (m *Model) Func() fn.Func {
	f, _ := fn.AsFunc(m.Module.Region(0).First().First())
	return f
}

// OpCounts returns how many ops of each name the decode function holds
// (func.return included) and their total.
func (m *Model) OpCounts() (counts map[string]int, total int) {
	counts = map[string]int{}
	for op := range m.Func().Body().Ops() {
		counts[op.Name()]++
		total++
	}
	return counts, total
}

// GraphOps returns the sorted names of the graph ops the model uses.
func (m *Model) GraphOps() []string {
	counts, _ := m.OpCounts()
	var out []string
	for name := range counts {
		if name != fn.ReturnName {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// rngFor returns the generator of one named tensor: each name has its own
// stream, so a weight's values do not depend on which other weights exist
// (layer 0 of a 2-layer and of a 24-layer model agree).
func rngFor(seed uint64, name string) *tensor.RNG {
	h := fnv.New64a()
	h.Write([]byte(name))
	return tensor.NewRNG(seed ^ h.Sum64())
}

// dtypeOf converts a graph element type to the runtime's.
func dtypeOf(t ir.Type) (tensor.DType, error) {
	switch {
	case t == nil:
	case ir.IsInteger(t, 32):
		return tensor.I32, nil
	case ir.IsInteger(t, 64):
		return tensor.I64, nil
	case ir.IsInteger(t, 1):
		return tensor.I1, nil
	case ir.IsInteger(t, 8):
		if it := t.(*ir.IntegerType); it.Signedness == ir.Unsigned {
			return tensor.UI8, nil
		}
		return tensor.I8, nil
	default:
		switch t.String() {
		case "f32":
			return tensor.F32, nil
		case "f16":
			return tensor.F16, nil
		case "bf16":
			return tensor.BF16, nil
		}
	}
	return 0, fmt.Errorf("element type %v has no runtime type", t)
}

func intShape(t *ir.RankedTensorType) []int {
	s := make([]int, len(t.Shape))
	for i, d := range t.Shape {
		s[i] = int(d)
	}
	return s
}

// RandomWeights draws every weight of the model from seed: dense weights
// uniformly from their Init range (rounded to f16/bf16 for half-precision
// weights), packed weights as an [N, K] f32 matrix quantised with
// gguf.Quantize. The result binds every graph.param by name.
func (m *Model) RandomWeights(seed uint64) (*tensor.Safetensors, error) {
	st := &tensor.Safetensors{Tensors: map[string]*tensor.Tensor{}}
	for _, p := range m.Params {
		t, err := p.Random(seed)
		if err != nil {
			return nil, err
		}
		st.Tensors[p.Name] = t
	}
	return st, nil
}

// Random draws the weight from seed (see Model.RandomWeights).
func (p ParamSpec) Random(seed uint64) (*tensor.Tensor, error) {
	rng := rngFor(seed, p.Name)
	if p.Format != "" {
		f, err := gguf.ParseFormat(string(p.Format))
		if err != nil {
			return nil, err
		}
		w, err := rng.Uniform(tensor.F32, []int{int(p.N), int(p.K)}, p.Init.Lo, p.Init.Hi)
		if err != nil {
			return nil, err
		}
		b, err := gguf.Quantize(f, w.Floats(), int(p.N), int(p.K))
		if err != nil {
			return nil, fmt.Errorf("weight %s: %v", p.Name, err)
		}
		return tensor.FromBytes(intShape(p.Type), b)
	}
	dt, err := dtypeOf(p.Type.Elem)
	if err != nil {
		return nil, fmt.Errorf("weight %s: %v", p.Name, err)
	}
	return rng.Uniform(dt, intShape(p.Type), p.Init.Lo, p.Init.Hi)
}

// RandomInputs draws one valid tensor per function argument from seed:
// token ids inside the vocabulary, positions inside the cache, keep-masks
// whose new-token column is set, states and caches uniform in [−1, 1].
func (m *Model) RandomInputs(seed uint64) ([]*tensor.Tensor, error) {
	out := make([]*tensor.Tensor, len(m.Inputs))
	for i, p := range m.Inputs {
		t, err := p.Random(seed)
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

// Random draws the input from seed (see Model.RandomInputs).
func (p Port) Random(seed uint64) (*tensor.Tensor, error) {
	rng := rngFor(seed, "input:"+p.Name)
	dt, err := dtypeOf(p.Type.Elem)
	if err != nil {
		return nil, fmt.Errorf("input %s: %v", p.Name, err)
	}
	shape := intShape(p.Type)
	switch p.Gen.Kind {
	case InputInt:
		return rng.Ints(dt, shape, int64(p.Gen.Lo), int64(p.Gen.Hi))
	case InputMask:
		n := tensor.NumElements(shape)
		vals := make([]float32, n)
		sk := shape[len(shape)-1]
		for i := range vals {
			if i%sk == sk-1 || rng.Intn(4) != 0 {
				vals[i] = 1
			}
		}
		return tensor.FromFloat32(dt, shape, vals)
	}
	return rng.Uniform(dt, shape, float32(p.Gen.Lo), float32(p.Gen.Hi))
}

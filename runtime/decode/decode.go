package decode

import (
	"fmt"
	"math"

	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// NameAttr is the argument and result attribute that names inputs, states
// and outputs (the same as models.NameAttr).
const NameAttr = "rlx.name"

// MaxTokensAttr is the function attribute that bounds a sequence's length.
const MaxTokensAttr = "rlx.max_tokens"

// Decoder runs one decode-step program token by token.
type Decoder struct {
	p *ref.Program
	// token and pos are argument indexes; state[i] pairs argument
	// state[i].arg with result state[i].res.
	token, pos, logits int
	states             []pair
	// MaxTokens bounds a sequence (0: no bound): the function's
	// rlx.max_tokens attribute, which a caller may lower.
	MaxTokens int
	// Vocab is the logits' size.
	Vocab int
	// Step, when set, runs one step in place of the program (a runtime
	// backend running its plan); it gets the step's arguments and returns
	// its results, as the program's Run does.
	Step func(args []*tensor.Tensor) ([]*tensor.Tensor, error)
	// Stop are end-of-sequence tokens: Generate stops, without feeding
	// it, when it would generate one.
	Stop []int
	// Pick picks Generate's next token from the tokens so far (the
	// prompt and those generated) and the last step's logits: the
	// arg-max when nil (greedy), or a Sampling's Sampler.
	Pick func(tokens []int, logits []float32) int
}

type pair struct {
	name     string
	arg, res int
}

// New checks that p follows the convention (see the package doc) and
// returns its decoder. Errors are located at the function.
func New(p *ref.Program) (*Decoder, error) {
	f, _ := fn.AsFunc(p.Func())
	d := &Decoder{p: p, token: -1, pos: -1, logits: -1}
	ft := f.Type()
	resIdx := map[string]int{}
	for i := range ft.Results {
		name := attrName(f.ResultAttrs(i))
		if name == "" {
			return nil, ir.OpError(f.Op, "result #%d has no %s attribute; a decode step names its logits and states", i, NameAttr)
		}
		if _, dup := resIdx[name]; dup {
			return nil, ir.OpError(f.Op, "two results are named %q", name)
		}
		resIdx[name] = i
	}
	li, ok := resIdx["logits"]
	if !ok {
		return nil, ir.OpError(f.Op, "no result is named \"logits\"")
	}
	lt := p.Results()[li]
	if lt.DType != tensor.F32 || len(lt.Shape) != 2 || lt.Shape[0] != 1 || lt.Shape[1] < 1 {
		return nil, ir.OpError(f.Op, "result \"logits\" is %v, want tensor<1xVxf32>", lt)
	}
	d.logits, d.Vocab = li, lt.Shape[1]
	seen := map[string]bool{}
	for i, a := range p.Args() {
		name := attrName(f.ArgAttrs(i))
		if name == "" {
			return nil, ir.OpError(f.Op, "argument #%d has no %s attribute; a decode step names its token, position and states", i, NameAttr)
		}
		if seen[name] {
			return nil, ir.OpError(f.Op, "two arguments are named %q", name)
		}
		seen[name] = true
		switch name {
		case "token":
			if a.Type.String() != "tensor<1x1xi32>" {
				return nil, ir.OpError(f.Op, "argument \"token\" is %v, want tensor<1x1xi32>", a.Type)
			}
			d.token = i
		case "pos":
			if a.Type.String() != "tensor<1xi32>" {
				return nil, ir.OpError(f.Op, "argument \"pos\" is %v, want tensor<1xi32>", a.Type)
			}
			d.pos = i
		default:
			r, ok := resIdx[name]
			if !ok {
				return nil, ir.OpError(f.Op, "argument %q is a state, but no result carries its next value (no result is named %q)", name, name)
			}
			if rt := p.Results()[r]; rt.String() != a.Type.String() || !a.Type.Static() {
				return nil, ir.OpError(f.Op, "state %q is %v as an argument but %v as a result; a state keeps one static type", name, a.Type, rt)
			}
			d.states = append(d.states, pair{name, i, r})
		}
	}
	if d.token < 0 {
		return nil, ir.OpError(f.Op, "no argument is named \"token\"")
	}
	if a, ok := f.Op.Attr(MaxTokensAttr).(*ir.IntegerAttr); ok && a.Value > 0 {
		d.MaxTokens = int(a.Value)
	}
	return d, nil
}

func attrName(d *ir.DictAttr) string {
	if d == nil {
		return ""
	}
	if s, ok := d.Get(NameAttr).(*ir.StringAttr); ok {
		return s.Value
	}
	return ""
}

// States returns the names of the states carried from step to step.
func (d *Decoder) States() []string {
	out := make([]string, len(d.states))
	for i, s := range d.states {
		out[i] = s.name
	}
	return out
}

// Run decodes tokens one step at a time from zero states and returns the
// logits of every step as one [len(tokens), Vocab] f32 tensor.
func (d *Decoder) Run(tokens []int, w ref.Weights) (*tensor.Tensor, error) {
	return d.RunSteps(tokens, w, nil)
}

// RunSteps is Run, calling step (when not nil) after each step with the
// step's index and all its results.
func (d *Decoder) RunSteps(tokens []int, w ref.Weights, step func(t int, results []*tensor.Tensor)) (*tensor.Tensor, error) {
	_, logits, err := d.GenerateSteps(tokens, 0, w, step)
	return logits, err
}

// Generate decodes the prompt, then n more tokens, each the arg-max of the
// step before (greedy decoding; d.Pick picks otherwise), all from zero
// states. It returns every token fed (the prompt, then the n generated)
// and the logits of every step as one [len(prompt)+n, Vocab] f32 tensor;
// the last step's pick is the token that would come next. When the token
// picked is one of d.Stop, generation ends there, with fewer than n
// generated.
func (d *Decoder) Generate(prompt []int, n int, w ref.Weights) ([]int, *tensor.Tensor, error) {
	return d.GenerateSteps(prompt, n, w, nil)
}

// GenerateSteps is Generate, calling step (when not nil) after each step
// with the step's index and all its results.
func (d *Decoder) GenerateSteps(prompt []int, n int, w ref.Weights, step func(t int, results []*tensor.Tensor)) ([]int, *tensor.Tensor, error) {
	switch {
	case len(prompt) == 0:
		return nil, nil, fmt.Errorf("no tokens to decode")
	case n < 0:
		return nil, nil, fmt.Errorf("cannot generate %d tokens", n)
	case d.MaxTokens > 0 && n > d.MaxTokens-len(prompt):
		if n == 0 {
			return nil, nil, fmt.Errorf("%d tokens exceed the model's capacity of %d (rlx.max_tokens; import with a larger --max-tokens)", len(prompt), d.MaxTokens)
		}
		return nil, nil, fmt.Errorf("%d tokens and %d to generate exceed the model's capacity of %d (rlx.max_tokens; import with a larger --max-tokens)", len(prompt), n, d.MaxTokens)
	case d.pos < 0 && len(prompt)+n > 1:
		return nil, nil, fmt.Errorf("the step function has no \"pos\" argument, so it cannot decode more than one token")
	}
	s := d.NewSession(w)
	out := make([]float32, 0, (len(prompt)+n)*d.Vocab)
	s.Step = func(t int, res []*tensor.Tensor) {
		out = append(out, res[d.logits].Floats()...)
		if step != nil {
			step(t, res)
		}
	}
	if err := s.Feed(prompt...); err != nil {
		return nil, nil, err
	}
	if _, _, _, err := s.Generate(n, nil); err != nil {
		return nil, nil, err
	}
	tokens := s.Tokens()
	logits, err := tensor.FromFloat32(tensor.F32, []int{len(tokens), d.Vocab}, out)
	return tokens, logits, err
}

// StepLogits returns the logits among a step's results (those
// GenerateSteps and RunSteps pass to their step function).
func (d *Decoder) StepLogits(results []*tensor.Tensor) []float32 {
	return results[d.logits].Floats()
}

// ArgMax returns the index of the largest of values (the first of equal
// ones; NaNs are never chosen over a number), or -1 when values is empty.
func ArgMax(values []float32) int {
	best := -1
	for i, x := range values {
		if best < 0 && !math.IsNaN(float64(x)) || best >= 0 && x > values[best] {
			best = i
		}
	}
	if best < 0 && len(values) > 0 {
		return 0 // all NaN
	}
	return best
}

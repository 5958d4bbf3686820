package decode

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// counter is a decode step whose state sums token·(pos+1) per step into
// a [1, 2] accumulator, returned as the logits.
const counter = `func.func @step(%tok: tensor<1x1xi32> {rlx.name = "token"}, %pos: tensor<1xi32> {rlx.name = "pos"}, %acc: tensor<1x2xf32> {rlx.name = "acc"}) -> (tensor<1x2xf32> {rlx.name = "logits"}, tensor<1x2xf32> {rlx.name = "acc"}) attributes {rlx.max_tokens = 4 : i64} {
  %t = graph.cast %tok : (tensor<1x1xi32>) -> tensor<1x1xf32>
  %p = graph.cast %pos : (tensor<1xi32>) -> tensor<1xf32>
  %one = graph.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %p1 = graph.add %p, %one : (tensor<1xf32>, tensor<2xf32>) -> tensor<2xf32>
  %d = graph.mul %t, %p1 : (tensor<1x1xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  %a = graph.add %acc, %d : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  return %a, %a : tensor<1x2xf32>, tensor<1x2xf32>
}`

func program(t *testing.T, src string) *ref.Program {
	t.Helper()
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := asm.ParseString(ctx, "step.mlir", src)
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(m); err != nil {
		t.Fatal(err)
	}
	p, err := ref.Compile(m, "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRun(t *testing.T) {
	d, err := New(program(t, counter))
	if err != nil {
		t.Fatal(err)
	}
	if d.MaxTokens != 4 || d.Vocab != 2 || !slices.Equal(d.States(), []string{"acc"}) {
		t.Errorf("decoder: max %d vocab %d states %v", d.MaxTokens, d.Vocab, d.States())
	}
	var steps []int
	logits, err := d.RunSteps([]int{3, 5, 2}, &ref.TensorWeights{}, func(t int, res []*tensor.Tensor) {
		steps = append(steps, t, int(res[1].Floats()[0]))
	})
	if err != nil {
		t.Fatal(err)
	}
	// acc: 3·1, then +5·2, then +2·3.
	if want := []float32{3, 3, 13, 13, 19, 19}; !slices.Equal(logits.Floats(), want) || !slices.Equal(logits.Shape(), []int{3, 2}) {
		t.Errorf("logits %v %v, want %v", logits.Shape(), logits.Floats(), want)
	}
	if !slices.Equal(steps, []int{0, 3, 1, 13, 2, 19}) {
		t.Errorf("steps and states seen: %v", steps)
	}
	if _, err := d.Run([]int{1, 1, 1, 1, 1}, &ref.TensorWeights{}); err == nil || !strings.Contains(err.Error(), "5 tokens exceed the model's capacity of 4") {
		t.Errorf("capacity: %v", err)
	}
}

func TestConventionErrors(t *testing.T) {
	for _, tc := range []struct {
		old, new, want string
	}{
		{`{rlx.name = "token"}`, ``, `argument #0 has no rlx.name attribute`},
		{`%acc: tensor<1x2xf32> {rlx.name = "acc"}`, `%acc: tensor<1x2xf32> {rlx.name = "other"}`, `argument "other" is a state, but no result carries its next value`},
		{`tensor<1x2xf32> {rlx.name = "logits"}`, `tensor<1x2xf32> {rlx.name = "out"}`, `no result is named "logits"`},
		{`-> (tensor<1x2xf32> {rlx.name = "logits"}, tensor<1x2xf32> {rlx.name = "acc"})`, `-> (tensor<1x2xf32> {rlx.name = "logits"}, tensor<1x2xf32> {rlx.name = "logits"})`, `two results are named "logits"`},
	} {
		src := strings.Replace(counter, tc.old, tc.new, 1)
		if _, err := New(program(t, src)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q → %q: error %v, want %q", tc.old, tc.new, err, tc.want)
		}
	}
}

// chooser's logits are [t, 2 − t, 1] for token t: arg-max 1 after token
// 0, 0 after 1 (the first of equals) and after 2.
const chooser = `func.func @step(%tok: tensor<1x1xi32> {rlx.name = "token"}, %pos: tensor<1xi32> {rlx.name = "pos"}) -> (tensor<1x3xf32> {rlx.name = "logits"}) attributes {rlx.max_tokens = 5 : i64} {
  %t = graph.cast %tok : (tensor<1x1xi32>) -> tensor<1x1xf32>
  %s = graph.constant dense<[1.0, -1.0, 0.0]> : tensor<3xf32>
  %b = graph.constant dense<[0.0, 2.0, 1.0]> : tensor<3xf32>
  %m = graph.mul %t, %s : (tensor<1x1xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  %l = graph.add %m, %b : (tensor<1x3xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  return %l : tensor<1x3xf32>
}`

// TestGenerate decodes a prompt and then feeds each step's arg-max as
// the next token, within the capacity.
func TestGenerate(t *testing.T) {
	d, err := New(program(t, chooser))
	if err != nil {
		t.Fatal(err)
	}
	tokens, logits, err := d.Generate([]int{2}, 3, &ref.TensorWeights{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tokens, []int{2, 0, 1, 0}) {
		t.Errorf("tokens %v, want [2 0 1 0]", tokens)
	}
	if want := []float32{2, 0, 1, 0, 2, 1, 1, 1, 1, 0, 2, 1}; !slices.Equal(logits.Floats(), want) || !slices.Equal(logits.Shape(), []int{4, 3}) {
		t.Errorf("logits %v %v, want %v", logits.Shape(), logits.Floats(), want)
	}
	// A stop token ends generation before it is fed: [2] gives 0, then 1.
	d.Stop = []int{1}
	tokens, logits, err = d.Generate([]int{2}, 3, &ref.TensorWeights{})
	if err != nil || !slices.Equal(tokens, []int{2, 0}) || logits.Shape()[0] != 2 {
		t.Errorf("stopped: %v %v, %v; want [2 0], 2 steps", tokens, logits.Shape(), err)
	}
	d.Stop = nil
	// The prompt alone is Run.
	if tokens, _, err := d.Generate([]int{1, 2}, 0, &ref.TensorWeights{}); err != nil || !slices.Equal(tokens, []int{1, 2}) {
		t.Errorf("no tokens generated: %v, %v", tokens, err)
	}
	for _, tc := range []struct {
		prompt []int
		n      int
		want   string
	}{
		{[]int{1, 1}, 4, "2 tokens and 4 to generate exceed the model's capacity of 5"},
		{[]int{1}, -1, "cannot generate -1 tokens"},
		{nil, 1, "no tokens to decode"},
	} {
		if _, _, err := d.Generate(tc.prompt, tc.n, &ref.TensorWeights{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v and %d: %v, want %q", tc.prompt, tc.n, err, tc.want)
		}
	}
}

func TestArgMax(t *testing.T) {
	nan := float32(math.NaN())
	for _, tc := range []struct {
		v    []float32
		want int
	}{{nil, -1}, {[]float32{1}, 0}, {[]float32{1, 3, 3}, 1}, {[]float32{nan, 1, 2}, 2}, {[]float32{1, nan, 0}, 0}, {[]float32{nan, nan}, 0}} {
		if got := ArgMax(tc.v); got != tc.want {
			t.Errorf("ArgMax(%v) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

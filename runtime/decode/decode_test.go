package decode

import (
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

package decode_test

import (
	"fmt"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/decode"
	"github.com/rlx-compiler/rlx/runtime/ref"
)

// decoder parses one decode-step function and returns its decoder.
func decoder(src string) (*decode.Decoder, error) {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := asm.ParseString(ctx, "step.mlir", src)
	if err != nil {
		return nil, err
	}
	p, err := ref.Compile(m, "")
	if err != nil {
		return nil, err
	}
	return decode.New(p)
}

// A decode step whose logits are [t, 2 − t, 1] for token t, generated
// from greedily and then sampled from.
func ExampleDecoder_Generate() {
	d, err := decoder(`func.func @step(%tok: tensor<1x1xi32> {rlx.name = "token"}, %pos: tensor<1xi32> {rlx.name = "pos"}) -> (tensor<1x3xf32> {rlx.name = "logits"}) {
  %t = graph.cast %tok : (tensor<1x1xi32>) -> tensor<1x1xf32>
  %s = graph.constant dense<[1.0, -1.0, 0.0]> : tensor<3xf32>
  %b = graph.constant dense<[0.0, 2.0, 1.0]> : tensor<3xf32>
  %m = graph.mul %t, %s : (tensor<1x1xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  %l = graph.add %m, %b : (tensor<1x3xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  return %l : tensor<1x3xf32>
}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	tokens, logits, err := d.Generate([]int{2}, 3, &ref.TensorWeights{})
	fmt.Println(tokens, logits.Shape(), err)

	// Token 1 ends a sequence; sampling at temperature 1 with seed 7 drew
	// 2 where the arg-max was 1, and the same seed draws it again.
	d.Stop = []int{1}
	if d.Pick, err = (decode.Sampling{Temperature: 1, Seed: 7}).Sampler(); err != nil {
		fmt.Println(err)
		return
	}
	tokens, _, err = d.Generate([]int{2}, 3, &ref.TensorWeights{})
	fmt.Println(tokens, err)
	// Output:
	// [2 0 1 0] [4 3] <nil>
	// [2 0 2 0] <nil>
}

// GenerationConfig reads how transformers' generate samples for a
// checkpoint when given no sampling arguments: Qwen3's file leaves out
// min_p and the repetition penalty, and greedy files still carry the
// settings --temperature would sample with.
func ExampleGenerationConfig() {
	s, sample, err := decode.GenerationConfig([]byte(`{"do_sample": true, "temperature": 0.6, "top_k": 20, "top_p": 0.95}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("samples %v: temperature %v, top-k %d, top-p %v, min-p %v, penalty %v\n", sample, s.Temperature, s.TopK, s.TopP, s.MinP, s.RepetitionPenalty)
	s, sample, _ = decode.GenerationConfig([]byte(`{"do_sample": false, "repetition_penalty": 1.1}`))
	fmt.Printf("samples %v: temperature %v, top-k %d (transformers' default), penalty %v\n", sample, s.Temperature, s.TopK, s.RepetitionPenalty)
	// Output:
	// samples true: temperature 0.6, top-k 20, top-p 0.95, min-p 0, penalty 1
	// samples false: temperature 1, top-k 50 (transformers' default), penalty 1.1
}

// A session goes on from turn to turn: the second Sync feeds only the
// token after those fed, and the third, which leaves them, goes back to
// the Mark.
func ExampleSession() {
	d, err := decoder(`func.func @step(%tok: tensor<1x1xi32> {rlx.name = "token"}, %pos: tensor<1xi32> {rlx.name = "pos"}, %acc: tensor<1x2xf32> {rlx.name = "acc"}) -> (tensor<1x2xf32> {rlx.name = "logits"}, tensor<1x2xf32> {rlx.name = "acc"}) {
  %t = graph.cast %tok : (tensor<1x1xi32>) -> tensor<1x1xf32>
  %s = graph.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %d = graph.mul %t, %s : (tensor<1x1xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  %a = graph.add %acc, %d : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  return %a, %a : tensor<1x2xf32>, tensor<1x2xf32>
}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	s := d.NewSession(&ref.TensorWeights{})
	for _, tokens := range [][]int{{3, 1}, {3, 1, 4}, {3, 1, 5}} {
		reused, err := s.Sync(tokens)
		fmt.Println(tokens, "reused", reused, "logits", s.Logits(), err)
		if len(tokens) == 2 {
			s.Mark()
		}
	}
	// Output:
	// [3 1] reused 0 logits [4 -4] <nil>
	// [3 1 4] reused 2 logits [8 -8] <nil>
	// [3 1 5] reused 2 logits [9 -9] <nil>
}

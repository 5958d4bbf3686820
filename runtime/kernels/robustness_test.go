package kernels

import (
	"fmt"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestNoPanicsOnArbitraryOperands calls every kernel with random small
// operands of random types and ranks (mostly invalid combinations) and random
// attributes: each call must return a result or an error, never panic.
func TestNoPanicsOnArbitraryOperands(t *testing.T) {
	rng := tensor.NewRNG(77)
	types := []tensor.DType{tensor.F32, tensor.F16, tensor.BF16, tensor.I32, tensor.I64, tensor.I1, tensor.I8, tensor.UI8}
	randTensor := func() *tensor.Tensor {
		if rng.Intn(12) == 0 {
			return nil
		}
		shape := make([]int, rng.Intn(5))
		for i := range shape {
			shape[i] = rng.Intn(4)
		}
		dt := types[rng.Intn(len(types))]
		if dt.IsFloat() {
			x, _ := rng.Uniform(dt, shape, -3, 3)
			return x
		}
		lo, hi := dt.IntRange()
		x, _ := rng.Ints(dt, shape, max(lo, -3), min(hi, 3)+1)
		return x
	}
	randInt := func() int { return rng.Intn(9) - 4 }
	randInts := func() []int {
		v := make([]int, rng.Intn(4))
		for i := range v {
			v[i] = randInt()
		}
		return v
	}
	dt := func() tensor.DType { return types[rng.Intn(len(types))] }
	calls := []func(){
		func() { _, _ = Unary([]UnaryOp{Exp, Neg, Relu, "bogus"}[rng.Intn(4)], randTensor(), dt()) },
		func() { _, _ = Binary([]BinaryOp{Add, Div, Pow, Max}[rng.Intn(4)], randTensor(), randTensor(), dt()) },
		func() {
			_, _ = Cmp(randTensor(), randTensor(), CmpAttrs{Predicate: []Predicate{Lt, Ne, "x"}[rng.Intn(3)]})
		},
		func() { _, _ = Select(randTensor(), randTensor(), randTensor(), dt()) },
		func() { _, _ = Cast(randTensor(), dt()) },
		func() { _, _ = MatMul(randTensor(), randTensor(), dt()) },
		func() { _, _ = RMSNorm(randTensor(), randTensor(), NormAttrs{}, dt()) },
		func() { _, _ = LayerNorm(randTensor(), randTensor(), randTensor(), NormAttrs{}, dt()) },
		func() { _, _ = Softmax(randTensor(), SoftmaxAttrs{Axis: randInt()}, dt()) },
		func() {
			_, _ = Reduce(randTensor(), ReduceAttrs{Kind: []ReduceKind{ReduceSum, ReduceMax, ReduceMean}[rng.Intn(3)], Axes: randInts(), KeepDims: rng.Intn(2) == 0}, dt())
		},
		func() { _, _ = Reshape(randTensor(), randInts()) },
		func() { _, _ = Broadcast(randTensor(), randInts()) },
		func() { _, _ = Transpose(randTensor(), TransposeAttrs{Permutation: randInts()}) },
		func() {
			_, _ = Slice(randTensor(), SliceAttrs{Axis: randInt(), Start: randInt(), Length: randInt(), Step: randInt()})
		},
		func() { _, _ = Concat([]*tensor.Tensor{randTensor(), randTensor()}, ConcatAttrs{Axis: randInt()}) },
		func() { _, _ = Gather(randTensor(), randTensor(), GatherAttrs{Axis: randInt()}) },
		func() {
			_, _ = Rope(randTensor(), randTensor(), randTensor(), RopeAttrs{HeadDim: randInt(), RotaryDim: randInt(), Style: RopeGPTJ}, dt())
		},
		func() {
			kinds := []MaskKind{MaskNone, MaskCausal, MaskCustom, MaskBias, MaskSlidingWindow}
			_, _ = Attention(randTensor(), randTensor(), randTensor(), randTensor(), AttentionAttrs{Mask: kinds[rng.Intn(5)], Window: randInt()}, dt())
		},
		func() {
			_, _, _ = GatedDeltaNet(randTensor(), randTensor(), randTensor(), randTensor(), randTensor(), randTensor(), GatedDeltaNetAttrs{GatePerChannel: rng.Intn(2) == 0}, dt())
		},
		func() {
			_, _, _, _ = LSTM(randTensor(), randTensor(), randTensor(), randTensor(), randTensor(), randTensor(), dt())
		},
		func() {
			_, _ = DequantMatMul(randTensor(), randTensor(), DequantMatMulAttrs{Format: gguf.Format(rng.Intn(6)), N: randInt(), K: randInt()})
		},
	}
	for i := range 20000 {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("call %d panicked: %v", i, fmt.Sprint(r))
				}
			}()
			calls[i%len(calls)]()
		}()
	}
}

package kernels_test

import (
	"fmt"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/kernels"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

func ExampleMatMul() {
	a, _ := tensor.FromFloat32(tensor.F32, []int{2, 3}, []float32{1, 2, 3, 4, 5, 6})
	b, _ := tensor.FromFloat32(tensor.F32, []int{3, 1}, []float32{1, 0, -1})
	c, err := kernels.MatMul(a, b, tensor.F32)
	if err != nil {
		panic(err)
	}
	fmt.Println(c)
	// Output: tensor<2x1xf32> [-2 -2]
}

func ExampleBinary() {
	// [2, 1] + [3] broadcasts to [2, 3]; the f16 result is rounded.
	a, _ := tensor.FromFloat32(tensor.F32, []int{2, 1}, []float32{0, 1000})
	b, _ := tensor.FromFloat32(tensor.F32, []int{3}, []float32{0.1, 0.2, 0.3})
	c, err := kernels.Binary(kernels.Add, a, b, tensor.F16)
	if err != nil {
		panic(err)
	}
	fmt.Println(c)
	// Output: tensor<2x3xf16> [0.0999755859375 0.199951171875 0.300048828125 1000 1000 1000.5]
}

func ExampleAttention() {
	// One query over three keys with a custom mask that drops key 1; with
	// identical keys the kept two share the weight equally.
	q, _ := tensor.FromFloat32(tensor.F32, []int{1, 1, 1, 2}, []float32{1, 0})
	k, _ := tensor.FromFloat32(tensor.F32, []int{1, 3, 1, 2}, []float32{1, 0, 1, 0, 1, 0})
	v, _ := tensor.FromFloat32(tensor.F32, []int{1, 3, 1, 1}, []float32{2, 100, 4})
	mask, _ := tensor.FromInt64(tensor.I1, []int{1, 3}, []int64{1, 0, 1})
	out, err := kernels.Attention(q, k, v, mask, kernels.AttentionAttrs{Mask: kernels.MaskCustom}, tensor.F32)
	if err != nil {
		panic(err)
	}
	fmt.Println(out)
	// Output: tensor<1x1x1x1xf32> [3]
}

func ExampleGather() {
	table, _ := tensor.FromFloat32(tensor.F32, []int{3, 2}, []float32{0, 1, 10, 11, 20, 21})
	ids, _ := tensor.FromInt64(tensor.I32, []int{2}, []int64{2, 0})
	rows, _ := kernels.Gather(table, ids, kernels.GatherAttrs{Axis: 0})
	fmt.Println(rows)
	_, err := kernels.Gather(table, ids, kernels.GatherAttrs{Axis: 1})
	fmt.Println(err)
	// Output:
	// tensor<2x2xf32> [20 21 0 1]
	// graph.gather: index 2 (element 0 of the indices) is out of range for axis 1 of tensor<3x2xf32> (size 2)
}

func ExampleDequantMatMul() {
	// A [2, 32] weight quantised to q8_0 (2 blocks of 34 bytes), times x [1, 32].
	// Row 0 sums w[0] + w[31] = 0 + 1, off by the quantisation error of 1/127
	// stored as an f16 scale.
	w := make([]float32, 64)
	for i := range w {
		w[i] = float32(i%32) / 31
	}
	w[32] = -1
	packed, _ := gguf.Quantize(gguf.Q8_0, w, 2, 32)
	wt, _ := tensor.FromBytes([]int{len(packed)}, packed)
	x := tensor.Zeros(tensor.F32, 1, 32)
	x.Floats()[0], x.Floats()[31] = 1, 1
	y, err := kernels.DequantMatMul(x, wt, kernels.DequantMatMulAttrs{Format: gguf.Q8_0, N: 2, K: 32})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(packed), y)
	// Output: 68 tensor<1x2xf32> [0.99993896484375 0]
}

package tensor_test

import (
	"bytes"
	"fmt"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

func ExampleRoundF16() {
	fmt.Println(tensor.RoundF16(1+1.0/2048), tensor.RoundF16(65520), tensor.RoundF16(0x1p-25))
	fmt.Printf("%#04x %#04x\n", tensor.F32ToF16Bits(-2), tensor.F32ToBF16Bits(1.00390625))
	// Output:
	// 1 +Inf 0
	// 0xc000 0x3f80
}

func ExampleRNG() {
	rng := tensor.NewRNG(42)
	w, _ := rng.Uniform(tensor.F32, []int{2, 2}, -1, 1)
	ids, _ := rng.Ints(tensor.I32, []int{3}, 0, 1000)
	fmt.Println(w)
	fmt.Println(ids)
	// Output:
	// tensor<2x2xf32> [0.4831297695636749 -0.680179238319397 -0.4427977502346039 -0.3116185665130615]
	// tensor<3xi32> [250 62 925]
}

func ExampleWriteNPY() {
	x, _ := tensor.FromFloat32(tensor.F16, []int{2, 2}, []float32{1, 2, 3, 4})
	var buf bytes.Buffer
	if err := tensor.WriteNPY(&buf, x); err != nil {
		panic(err)
	}
	y, err := tensor.ReadNPY(&buf)
	fmt.Println(y, err)
	// Output: tensor<2x2xf16> [1 2 3 4] <nil>
}

func ExampleReadSafetensors() {
	a, _ := tensor.FromFloat32(tensor.BF16, []int{2}, []float32{0.5, -1})
	b, _ := tensor.FromInt64(tensor.I64, []int{1}, []int64{1 << 40})
	var buf bytes.Buffer
	_ = tensor.WriteSafetensors(&buf, &tensor.Safetensors{
		Tensors:  map[string]*tensor.Tensor{"w": a, "step": b},
		Metadata: map[string]string{"format": "pt"},
	})
	s, err := tensor.ReadSafetensors(&buf)
	if err != nil {
		panic(err)
	}
	for _, name := range s.Names() {
		fmt.Println(name, s.Tensors[name])
	}
	fmt.Println(s.Metadata)
	// Output:
	// step tensor<1xi64> [1099511627776]
	// w tensor<2xbf16> [0.5 -1]
	// map[format:pt]
}

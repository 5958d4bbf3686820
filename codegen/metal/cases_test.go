package metal_test

// opCases is the op suite: every op family at several shapes, odd sizes
// (not multiples of 32 or of a block), the decode case and a batch case.
func opCases() []opCase {
	var cs []opCase
	cs = append(cs, elementwiseCases()...)
	cs = append(cs, normCases()...)
	return cs
}

const (
	limitExact  = 1e-7 // f32 element-wise, norms, data movement
	limitMatmul = 5e-4 // matmul and attention (another summation order)
)

func elementwiseCases() []opCase {
	return []opCase{
		{
			name: "ew_add_silu", args: []string{"tensor<4x1000xf32>", "tensor<1000xf32>"},
			body: `%0 = graph.add %a0, %a1 : (tensor<4x1000xf32>, tensor<1000xf32>) -> tensor<4x1000xf32>
%1 = graph.silu %0 : (tensor<4x1000xf32>) -> tensor<4x1000xf32>`,
			yield: []string{"%1"}, results: []string{"tensor<4x1000xf32>"}, limit: limitExact,
		},
	}
}

func normCases() []opCase {
	return []opCase{
		{
			name: "rms_norm_3x1000", args: []string{"tensor<3x1000xf32>", "tensor<1000xf32>"},
			body:  `%0 = graph.rms_norm %a0, %a1 {epsilon = 1.0e-06 : f32} : (tensor<3x1000xf32>, tensor<1000xf32>) -> tensor<3x1000xf32>`,
			yield: []string{"%0"}, results: []string{"tensor<3x1000xf32>"}, limit: limitExact,
		},
	}
}

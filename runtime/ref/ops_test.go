package ref

import (
	"fmt"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/kernels"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// The kernels are checked numerically in runtime/kernels; these tests check
// that every op reaches its kernel with the right operands, attributes and
// result type: each case runs a one-op function through the interpreter
// and compares the bits with a direct kernel call on the same tensors.

type opCase struct {
	name string
	src  string
	want func(in []*tensor.Tensor, w map[string]*tensor.Tensor) ([]*tensor.Tensor, error)
}

func single(t *tensor.Tensor, err error) ([]*tensor.Tensor, error) { return []*tensor.Tensor{t}, err }

func elementwiseCases() []opCase {
	var cases []opCase
	for _, op := range []string{"neg", "abs", "exp", "log", "sqrt", "rsqrt", "reciprocal", "sigmoid", "tanh", "sin", "cos", "relu", "softplus", "silu", "gelu", "gelu_tanh"} {
		for _, ty := range []string{"f32", "f16", "bf16"} {
			dt, _ := tensor.ParseDType(ty)
			cases = append(cases, opCase{
				name: op + "/" + ty,
				src: fmt.Sprintf(`func.func @f(%%x: tensor<2x3x%[2]s>) -> tensor<2x3x%[2]s> {
  %%0 = graph.%[1]s %%x : (tensor<2x3x%[2]s>) -> tensor<2x3x%[2]s>
  return %%0 : tensor<2x3x%[2]s>
}`, op, ty),
				want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
					return single(kernels.Unary(kernels.UnaryOp(op), in[0], dt))
				},
			})
		}
	}
	for _, op := range []string{"neg", "abs", "relu"} {
		cases = append(cases, opCase{
			name: op + "/i32",
			src: fmt.Sprintf(`func.func @f(%%x: tensor<5xi32>) -> tensor<5xi32> {
  %%0 = graph.%s %%x : (tensor<5xi32>) -> tensor<5xi32>
  return %%0 : tensor<5xi32>
}`, op),
			want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
				return single(kernels.Unary(kernels.UnaryOp(op), in[0], tensor.I32))
			},
		})
	}
	for _, op := range []string{"add", "sub", "mul", "div", "max", "min", "pow"} {
		for _, ty := range []string{"f32", "bf16"} {
			dt, _ := tensor.ParseDType(ty)
			cases = append(cases, opCase{
				name: op + "/" + ty,
				src: fmt.Sprintf(`func.func @f(%%a: tensor<2x3x%[2]s>, %%b: tensor<3x%[2]s>) -> tensor<2x3x%[2]s> {
  %%0 = graph.%[1]s %%a, %%b : (tensor<2x3x%[2]s>, tensor<3x%[2]s>) -> tensor<2x3x%[2]s>
  return %%0 : tensor<2x3x%[2]s>
}`, op, ty),
				want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
					return single(kernels.Binary(kernels.BinaryOp(op), in[0], in[1], dt))
				},
			})
		}
	}
	cases = append(cases, opCase{
		name: "div/i64",
		src: `func.func @f(%a: tensor<4xi64>, %b: tensor<1xi64>) -> tensor<4xi64> {
  %0 = graph.div %a, %b : (tensor<4xi64>, tensor<1xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}`,
		want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
			return single(kernels.Binary(kernels.Div, in[0], in[1], tensor.I64))
		},
	})
	for _, pred := range []string{"eq", "ne", "lt", "le", "gt", "ge"} {
		cases = append(cases, opCase{
			name: "cmp/" + pred,
			src: fmt.Sprintf(`func.func @f(%%a: tensor<2x3xf32>, %%b: tensor<3xf32>) -> tensor<2x3xi1> {
  %%0 = graph.cmp %%a, %%b {predicate = "%s"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %%0 : tensor<2x3xi1>
}`, pred),
			want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
				return single(kernels.Cmp(in[0], in[1], kernels.CmpAttrs{Predicate: kernels.Predicate(pred)}))
			},
		})
	}
	cases = append(cases, opCase{
		name: "select",
		src: `func.func @f(%c: tensor<2x3xi1>, %a: tensor<2x3xf16>, %b: tensor<3xf16>) -> tensor<2x3xf16> {
  %0 = graph.select %c, %a, %b : (tensor<2x3xi1>, tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}`,
		want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
			return single(kernels.Select(in[0], in[1], in[2], tensor.F16))
		},
	})
	for _, to := range []string{"f16", "bf16", "i32", "i8", "i1", "i64"} {
		dt, _ := tensor.ParseDType(to)
		cases = append(cases, opCase{
			name: "cast/" + to,
			src: fmt.Sprintf(`func.func @f(%%x: tensor<8xf32>) -> tensor<8x%[1]s> {
  %%s = graph.constant dense<100.0> : tensor<8xf32>
  %%y = graph.mul %%x, %%s : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %%0 = graph.cast %%y : (tensor<8xf32>) -> tensor<8x%[1]s>
  return %%0 : tensor<8x%[1]s>
}`, to),
			want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
				s := tensor.Zeros(tensor.F32, 8)
				for i := range s.Floats() {
					s.Floats()[i] = 100
				}
				y, err := kernels.Binary(kernels.Mul, in[0], s, tensor.F32)
				if err != nil {
					return nil, err
				}
				return single(kernels.Cast(y, dt))
			},
		})
	}
	return cases
}

func linalgCases() []opCase {
	return []opCase{{
		name: "matmul/batched",
		src: `func.func @f(%a: tensor<2x1x3x4xbf16>, %b: tensor<5x4x2xbf16>) -> tensor<2x5x3x2xbf16> {
  %0 = graph.matmul %a, %b : (tensor<2x1x3x4xbf16>, tensor<5x4x2xbf16>) -> tensor<2x5x3x2xbf16>
  return %0 : tensor<2x5x3x2xbf16>
}`,
		want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
			return single(kernels.MatMul(in[0], in[1], tensor.BF16))
		},
	}, {
		name: "rms_norm",
		src: `func.func @f(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %g = graph.param "g" : tensor<8xf32>
  %0 = graph.rms_norm %x, %g {epsilon = 0.25 : f32} : (tensor<3x8xf32>, tensor<8xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}`,
		want: func(in []*tensor.Tensor, w map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
			return single(kernels.RMSNorm(in[0], w["g"], kernels.NormAttrs{Epsilon: 0.25}, tensor.F32))
		},
	}, {
		name: "layer_norm",
		src: `func.func @f(%x: tensor<3x8xf16>) -> tensor<3x8xf16> {
  %g = graph.param "g" : tensor<8xf16>
  %b = graph.param "b" : tensor<8xf16>
  %0 = graph.layer_norm %x, %g, %b {epsilon = 0.5 : f32} : (tensor<3x8xf16>, tensor<8xf16>, tensor<8xf16>) -> tensor<3x8xf16>
  return %0 : tensor<3x8xf16>
}`,
		want: func(in []*tensor.Tensor, w map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
			return single(kernels.LayerNorm(in[0], w["g"], w["b"], kernels.NormAttrs{Epsilon: 0.5}, tensor.F16))
		},
	}, {
		name: "softmax/axis0",
		src: `func.func @f(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %0 = graph.softmax %x {axis = -2} : (tensor<3x8xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}`,
		want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
			return single(kernels.Softmax(in[0], kernels.SoftmaxAttrs{Axis: 0}, tensor.F32))
		},
	}, {
		name: "reduce/max/keep",
		src: `func.func @f(%x: tensor<2x3x4xf32>) -> tensor<2x1x1xf32> {
  %0 = graph.reduce %x {axes = array<i64: -1, 1>, keep_dims = true, kind = "max"} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}`,
		want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
			return single(kernels.Reduce(in[0], kernels.ReduceAttrs{Kind: kernels.ReduceMax, Axes: []int{1, 2}, KeepDims: true}, tensor.F32))
		},
	}, {
		name: "reduce/mean",
		src: `func.func @f(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %0 = graph.reduce %x {axes = array<i64: 0, 2>, kind = "mean"} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}`,
		want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
			return single(kernels.Reduce(in[0], kernels.ReduceAttrs{Kind: kernels.ReduceMean, Axes: []int{0, 2}}, tensor.F32))
		},
	}}
}

func movementCases() []opCase {
	return []opCase{{
		name: "reshape",
		src: `func.func @f(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = graph.reshape %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}`,
		want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
			return single(kernels.Reshape(in[0], []int{6, 4}))
		},
	}, {
		name: "broadcast",
		src: `func.func @f(%x: tensor<3x1xi32>) -> tensor<2x3x4xi32> {
  %0 = graph.broadcast %x : (tensor<3x1xi32>) -> tensor<2x3x4xi32>
  return %0 : tensor<2x3x4xi32>
}`,
		want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
			return single(kernels.Broadcast(in[0], []int{2, 3, 4}))
		},
	}, {
		name: "transpose",
		src: `func.func @f(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = graph.transpose %x {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}`,
		want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
			return single(kernels.Transpose(in[0], kernels.TransposeAttrs{Permutation: []int{2, 0, 1}}))
		},
	}, {
		name: "slice/step",
		src: `func.func @f(%x: tensor<2x9xf32>) -> tensor<2x3xf32> {
  %0 = graph.slice %x {axis = 1, start = 1, length = 3, step = 3} : (tensor<2x9xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}`,
		want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
			return single(kernels.Slice(in[0], kernels.SliceAttrs{Axis: 1, Start: 1, Length: 3, Step: 3}))
		},
	}, {
		name: "concat/three",
		src: `func.func @f(%a: tensor<2x1xf32>, %b: tensor<2x3xf32>) -> tensor<2x5xf32> {
  %0 = graph.concat %a, %b, %a {axis = -1} : (tensor<2x1xf32>, tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}`,
		want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
			return single(kernels.Concat([]*tensor.Tensor{in[0], in[1], in[0]}, kernels.ConcatAttrs{Axis: 1}))
		},
	}, {
		name: "gather/axis1",
		src: `func.func @f(%t: tensor<2x7x3xf32>, %i: tensor<2x2xi64>) -> tensor<2x2x2x3xf32> {
  %0 = graph.gather %t, %i {axis = 1} : (tensor<2x7x3xf32>, tensor<2x2xi64>) -> tensor<2x2x2x3xf32>
  return %0 : tensor<2x2x2x3xf32>
}`,
		want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
			return single(kernels.Gather(in[0], in[1], kernels.GatherAttrs{Axis: 1}))
		},
	}}
}

func blockCases() []opCase {
	var cases []opCase
	for _, style := range []string{"neox", "gptj"} {
		cases = append(cases, opCase{
			name: "rope/" + style,
			src: fmt.Sprintf(`func.func @f(%%x: tensor<1x2x3x8xf32>, %%c: tensor<2x2xf32>, %%s: tensor<2x2xf32>) -> tensor<1x2x3x8xf32> {
  %%0 = graph.rope %%x, %%c, %%s {head_dim = 8, rotary_dim = 4, style = "%s"} : (tensor<1x2x3x8xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<1x2x3x8xf32>
  return %%0 : tensor<1x2x3x8xf32>
}`, style),
			want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
				return single(kernels.Rope(in[0], in[1], in[2], kernels.RopeAttrs{HeadDim: 8, RotaryDim: 4, Style: kernels.RopeStyle(style)}, tensor.F32))
			},
		})
	}
	cases = append(cases, opCase{
		name: "rope/packed",
		src: `func.func @f(%x: tensor<1x2x24xf32>, %c: tensor<2x4xf32>) -> tensor<1x2x24xf32> {
  %0 = graph.rope %x, %c, %c {head_dim = 8, rotary_dim = 8, style = "neox"} : (tensor<1x2x24xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<1x2x24xf32>
  return %0 : tensor<1x2x24xf32>
}`,
		want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
			return single(kernels.Rope(in[0], in[1], in[1], kernels.RopeAttrs{HeadDim: 8, RotaryDim: 8, Style: kernels.RopeNeoX}, tensor.F32))
		},
	})
	qkv := `%q: tensor<1x2x4x8xf32>, %k: tensor<1x5x2x8xf32>, %v: tensor<1x5x2x6xf32>`
	types := `tensor<1x2x4x8xf32>, tensor<1x5x2x8xf32>, tensor<1x5x2x6xf32>`
	for _, m := range []struct {
		attrs, extraArg, extraType string
		a                          kernels.AttentionAttrs
	}{
		{`{}`, "", "", kernels.AttentionAttrs{}},
		{`{mask = "causal", scale = 0.5 : f32}`, "", "", kernels.AttentionAttrs{Mask: kernels.MaskCausal, Scale: 0.5}},
		{`{mask = "sliding_window", window = 1, softcap = 2.0 : f32}`, "", "", kernels.AttentionAttrs{Mask: kernels.MaskSlidingWindow, Window: 1, Softcap: 2}},
		{`{mask = "custom"}`, ", %m: tensor<1x5xi1>", ", tensor<1x5xi1>", kernels.AttentionAttrs{Mask: kernels.MaskCustom}},
		{`{mask = "bias"}`, ", %m: tensor<1x4x2x5xf32>", ", tensor<1x4x2x5xf32>", kernels.AttentionAttrs{Mask: kernels.MaskBias}},
	} {
		operands := "%q, %k, %v"
		if m.extraArg != "" {
			operands += ", %m"
		}
		a := m.a
		cases = append(cases, opCase{
			name: "attention/" + m.attrs,
			src: fmt.Sprintf(`func.func @f(%s%s) -> tensor<1x2x4x6xf32> {
  %%0 = graph.attention %s %s : (%s%s) -> tensor<1x2x4x6xf32>
  return %%0 : tensor<1x2x4x6xf32>
}`, qkv, m.extraArg, operands, m.attrs, types, m.extraType),
			want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
				return single(kernels.Attention(in[0], in[1], in[2], opt(in, 3), a, tensor.F32))
			},
		})
	}
	gdnIn := `%q: tensor<1x3x2x4xf32>, %k: tensor<1x3x2x4xf32>, %v: tensor<1x3x2x4xf32>, %b: tensor<1x3x2xf32>`
	for _, g := range []struct {
		name, gate, attrs string
		state, perChan    bool
	}{
		{"scalar", "tensor<1x3x2xf32>", "", false, false},
		{"scalar+state", "tensor<1x3x2xf32>", "", true, false},
		{"per-channel+state", "tensor<1x3x2x4xf32>", " {gate_per_channel = true}", true, true},
	} {
		args, ops, tys := gdnIn+", %g: "+g.gate, "%q, %k, %v, %g, %b", "tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>, "+g.gate+", tensor<1x3x2xf32>"
		if g.state {
			args, ops, tys = args+", %s: tensor<1x2x4x4xf32>", ops+", %s", tys+", tensor<1x2x4x4xf32>"
		}
		perChan, state := g.perChan, g.state
		cases = append(cases, opCase{
			name: "gated_delta_net/" + g.name,
			src: fmt.Sprintf(`func.func @f(%s) -> (tensor<1x3x2x4xf32>, tensor<1x2x4x4xf32>) {
  %%0:2 = graph.gated_delta_net %s%s : (%s) -> (tensor<1x3x2x4xf32>, tensor<1x2x4x4xf32>)
  return %%0#0, %%0#1 : tensor<1x3x2x4xf32>, tensor<1x2x4x4xf32>
}`, args, ops, g.attrs, tys),
			want: func(in []*tensor.Tensor, _ map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
				var s0 *tensor.Tensor
				if state {
					s0 = in[5]
				}
				o, s, err := kernels.GatedDeltaNet(in[0], in[1], in[2], in[4], in[3], s0, kernels.GatedDeltaNetAttrs{GatePerChannel: perChan}, tensor.F32)
				return []*tensor.Tensor{o, s}, err
			},
		})
	}
	for _, withState := range []bool{false, true} {
		extra, extraT := "", ""
		if withState {
			extra, extraT = ", %h, %h", ", tensor<1x3xf32>, tensor<1x3xf32>"
		}
		cases = append(cases, opCase{
			name: fmt.Sprintf("lstm/state=%v", withState),
			src: fmt.Sprintf(`func.func @f(%%x: tensor<1x4x5xf32>, %%h: tensor<1x3xf32>) -> (tensor<1x4x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>) {
  %%wih = graph.param "wih" : tensor<12x5xf32>
  %%whh = graph.param "whh" : tensor<12x3xf32>
  %%b = graph.param "b" : tensor<12xf32>
  %%0:3 = graph.lstm %%x, %%wih, %%whh, %%b%s : (tensor<1x4x5xf32>, tensor<12x5xf32>, tensor<12x3xf32>, tensor<12xf32>%s) -> (tensor<1x4x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>)
  return %%0#0, %%0#1, %%0#2 : tensor<1x4x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>
}`, extra, extraT),
			want: func(in []*tensor.Tensor, w map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
				var h *tensor.Tensor
				if withState {
					h = in[1]
				}
				y, hh, c, err := kernels.LSTM(in[0], w["wih"], w["whh"], w["b"], h, h, tensor.F32)
				return []*tensor.Tensor{y, hh, c}, err
			},
		})
	}
	for _, f := range []gguf.Format{gguf.Q4_0, gguf.Q8_0, gguf.Q4_K, gguf.Q6_K, gguf.Q6_KC16} {
		n, k := 4, 256
		bytes, _ := gguf.ByteCount(f, n, k)
		cases = append(cases, opCase{
			name: "dequant_matmul/" + f.String(),
			src: fmt.Sprintf(`func.func @f(%%x: tensor<2x%[2]dxf32>) -> tensor<2x%[3]dxf32> {
  %%w = graph.param "w" : tensor<%[4]dxui8>
  %%0 = graph.dequant_matmul %%x, %%w {format = "%[1]s", n = %[3]d, k = %[2]d} : (tensor<2x%[2]dxf32>, tensor<%[4]dxui8>) -> tensor<2x%[3]dxf32>
  return %%0 : tensor<2x%[3]dxf32>
}`, f, k, n, bytes),
			want: func(in []*tensor.Tensor, w map[string]*tensor.Tensor) ([]*tensor.Tensor, error) {
				return single(kernels.DequantMatMul(in[0], w["w"], kernels.DequantMatMulAttrs{Format: f, N: n, K: k}))
			},
		})
	}
	return cases
}

func TestOpsDispatch(t *testing.T) {
	var cases []opCase
	cases = append(cases, elementwiseCases()...)
	cases = append(cases, linalgCases()...)
	cases = append(cases, movementCases()...)
	cases = append(cases, blockCases()...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := compile(t, c.src)
			in, w, got := seededRun(t, p, 7)
			want, err := c.want(in, w.Tensors)
			if err != nil {
				t.Fatalf("kernel: %v", err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d results, want %d", len(got), len(want))
			}
			for i := range got {
				if !tensor.BitsEqual(got[i], want[i]) {
					t.Errorf("result %d = %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}

// TestSeededQuantWeights checks that a packed weight generated for a
// dequant_matmul decodes close to the f32 matrix it was quantised from.
func TestSeededQuantWeights(t *testing.T) {
	for _, f := range []gguf.Format{gguf.Q4_0, gguf.Q8_0, gguf.Q4_K, gguf.Q6_K, gguf.Q6_KC16} {
		n, k := 8, 512
		bytes, _ := gguf.ByteCount(f, n, k)
		s := Spec{Name: "w", Type: TensorType{DType: tensor.UI8, Shape: []int{bytes}}, Quant: &QuantUse{Format: f, N: n, K: k}}
		w, err := SeededTensor(1, 'w', s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := gguf.Dequantize(f, w.Bytes(), n, k)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := tensor.NewRNG(StreamSeed(1, 'w', "w")).Uniform(tensor.F32, []int{n, k}, -1/float32(22.627417), 1/float32(22.627417))
		var worst float64
		for i, v := range got {
			worst = max(worst, float64(abs32(v-ref.Floats()[i])))
		}
		if worst > 0.01 {
			t.Errorf("%v: decoded weights differ from the source by up to %g", f, worst)
		}
	}
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// TestParallelUniform pins the parallel generator to tensor.RNG.Uniform.
func TestParallelUniform(t *testing.T) {
	for _, dt := range []tensor.DType{tensor.F32, tensor.F16, tensor.BF16} {
		for _, n := range []int{0, 1, 1000, 3<<16 + 17} {
			want, _ := tensor.NewRNG(42).Uniform(dt, []int{n}, -0.3, 0.7)
			if got := uniform(42, dt, []int{n}, -0.3, 0.7); !tensor.BitsEqual(got, want) {
				t.Errorf("%v n=%d: parallel generation differs from RNG.Uniform", dt, n)
			}
		}
	}
}

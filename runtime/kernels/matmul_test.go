package kernels

import (
	"math"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// matmulRef computes a batched matmul with explicit index arithmetic, both in
// float64 (for accuracy) and in the contract's float32 order (for bits).
func matmulRef(a, b *tensor.Tensor) (shape []int, f64 []float64, f32 []float32) {
	as, bs := a.Shape(), b.Shape()
	M, K, N := as[len(as)-2], as[len(as)-1], bs[len(bs)-1]
	batch, _ := tensor.BroadcastShapes(as[:len(as)-2], bs[:len(bs)-2])
	shape = append(append([]int{}, batch...), M, N)
	nb := tensor.NumElements(batch)
	matIndex := func(t []int, idx []int) int {
		sub := make([]int, len(t))
		off := len(idx) - len(t)
		for d := range t {
			if t[d] != 1 {
				sub[d] = idx[off+d]
			}
		}
		return ravel(sub, t)
	}
	for bi := range nb {
		idx := unravel(bi, batch)
		ao := matIndex(as[:len(as)-2], idx) * M * K
		bo := matIndex(bs[:len(bs)-2], idx) * K * N
		for m := range M {
			for n := range N {
				var s64 float64
				var s32 float32
				for k := range K {
					x, y := a.Floats()[ao+m*K+k], b.Floats()[bo+k*N+n]
					s64 += float64(x) * float64(y)
					// The conversion matters: without it Go may fuse the
					// multiply and add on arm64, ppc64 and s390x.
					s32 = s32 + float32(x*y)
				}
				f64 = append(f64, s64)
				f32 = append(f32, s32)
			}
		}
	}
	return shape, f64, f32
}

func TestMatMul(t *testing.T) {
	cases := []struct{ a, b []int }{
		{[]int{1, 7}, []int{7, 5}},
		{[]int{37, 300}, []int{300, 133}},   // crosses the K block and column panel
		{[]int{2, 1, 3, 4}, []int{5, 4, 2}}, // batch broadcast [2,1] x [5]
		{[]int{3, 4}, []int{2, 4, 6}},       // rank mismatch: a broadcast over b's batch
		{[]int{2, 6, 9, 17}, []int{1, 17, 3}},
		{[]int{4, 0}, []int{0, 3}}, // K = 0 gives zeros
	}
	rng := tensor.NewRNG(3)
	for _, c := range cases {
		a, b := randF32(rng, -1, 1, c.a...), randF32(rng, -1, 1, c.b...)
		got := must(t)(MatMul(a, b, tensor.F32))
		shape, want64, want32 := matmulRef(a, b)
		if !tensor.ShapeEqual(got.Shape(), shape) {
			t.Fatalf("%v x %v: shape %v, want %v", c.a, c.b, got.Shape(), shape)
		}
		assertClose(t, "matmul", got, want64, 1e-5, 1e-5)
		for i, w := range want32 {
			if math.Float32bits(got.Floats()[i]) != math.Float32bits(w) {
				t.Fatalf("%v x %v: element %d = %g, the sequential float32 order gives %g", c.a, c.b, i, got.Floats()[i], w)
			}
		}
	}
	// f16 operands and an f16 result.
	a, b := randF32(rng, -1, 1, 3, 8), randF32(rng, -1, 1, 8, 2)
	ah, _ := Cast(a, tensor.F16)
	got := must(t)(MatMul(ah, b, tensor.F16))
	_, _, want := matmulRef(ah, b)
	for i, w := range want {
		if got.Floats()[i] != tensor.RoundF16(w) {
			t.Errorf("f16 matmul element %d = %g, want %g", i, got.Floats()[i], tensor.RoundF16(w))
		}
	}
}

func TestMatMulErrors(t *testing.T) {
	rng := tensor.NewRNG(4)
	tests := []struct {
		a, b *tensor.Tensor
		want string
	}{
		{randF32(rng, 0, 1, 2, 3), randF32(rng, 0, 1, 4, 2), "contraction dimensions differ"},
		{randF32(rng, 0, 1, 3), randF32(rng, 0, 1, 3, 2), "rank ≥ 2"},
		{randF32(rng, 0, 1, 2, 2, 3), randF32(rng, 0, 1, 3, 3, 2), "batch dimensions"},
		{ints(tensor.I32, []int{1, 1}, 1), randF32(rng, 0, 1, 1, 1), "floating-point"},
	}
	for _, tc := range tests {
		_, err := MatMul(tc.a, tc.b, tensor.F32)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "graph.matmul: ") {
			t.Errorf("MatMul(%s, %s): %v, want an error containing %q", tc.a.Type(), tc.b.Type(), err, tc.want)
		}
	}
}

func TestDequantMatMulMatchesMatMul(t *testing.T) {
	rng := tensor.NewRNG(5)
	for _, f := range []gguf.Format{gguf.Q4_0, gguf.Q8_0, gguf.Q4_K, gguf.Q6_K, gguf.Q6_KC16} {
		for _, M := range []int{1, 3} {
			N, K := 7, 512
			w := randF32(rng, -1, 1, N, K)
			packed, err := gguf.Quantize(f, w.Floats(), N, K)
			if err != nil {
				t.Fatal(err)
			}
			wt, _ := tensor.FromBytes([]int{len(packed)}, packed)
			x := randF32(rng, -1, 1, M, K)
			got := must(t)(DequantMatMul(x, wt, DequantMatMulAttrs{Format: f, N: N, K: K}))
			// The same weights decoded, transposed and multiplied by MatMul
			// must give identical bits: both sum in increasing k.
			deq, _ := gguf.Dequantize(f, packed, N, K)
			wd := f32([]int{N, K}, deq...)
			wT := must(t)(Transpose(wd, TransposeAttrs{Permutation: []int{1, 0}}))
			want := must(t)(MatMul(x, wT, tensor.F32))
			if !tensor.BitsEqual(got, want) {
				t.Errorf("%v M=%d: dequant_matmul %v differs from matmul %v", f, M, got, want)
			}
			// And it approximates the unquantised product.
			_, ref, _ := matmulRef(x, must(t)(Transpose(w, TransposeAttrs{Permutation: []int{1, 0}})))
			if e := nmse(got, ref); e > 0.02 {
				t.Errorf("%v M=%d: NMSE %g against the unquantised product", f, M, e)
			}
		}
	}
}

func TestDequantMatMulErrors(t *testing.T) {
	x := randF32(tensor.NewRNG(6), -1, 1, 1, 64)
	bytes := func(n int) *tensor.Tensor {
		w, _ := tensor.FromBytes([]int{n}, make([]byte, n))
		return w
	}
	tests := []struct {
		attrs DequantMatMulAttrs
		x, w  *tensor.Tensor
		want  string
	}{
		{DequantMatMulAttrs{Format: gguf.Q4_0, N: 1, K: 64}, x, bytes(35), "needs 36 bytes"},
		{DequantMatMulAttrs{Format: gguf.Q4_0, N: 2, K: 64}, x, bytes(36), "needs 72 bytes"},
		{DequantMatMulAttrs{Format: gguf.Q4_0, N: 1, K: 48}, x, bytes(36), "not a multiple"},
		{DequantMatMulAttrs{Format: gguf.Q8_0, N: 1, K: 32}, x, bytes(34), "want [M, 32]"},
		{DequantMatMulAttrs{Format: gguf.Q8_0, N: 1, K: 64}, x, x, "ui8"},
		{DequantMatMulAttrs{Format: 0, N: 1, K: 64}, x, bytes(36), "invalid GGUF format"},
	}
	for _, tc := range tests {
		_, err := DequantMatMul(tc.x, tc.w, tc.attrs)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error containing %q", tc.attrs, err, tc.want)
		}
	}
	if got := must(t)(DequantMatMul(x, bytes(36), DequantMatMulAttrs{Format: gguf.Q4_0, N: 1, K: 64})); got.Floats()[0] != 0 {
		t.Errorf("all-zero blocks gave %v", got)
	}
}

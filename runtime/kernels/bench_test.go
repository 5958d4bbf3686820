package kernels

import (
	"fmt"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// naiveMatMul is the plain triple loop the benchmarks compare against:
// i, j, k order with a scalar accumulator, no blocking, one goroutine.
func naiveMatMul(c, a, b []float32, M, K, N int) {
	for i := range M {
		for j := range N {
			var s float32
			for k := range K {
				s += float32(a[i*K+k] * b[k*N+j])
			}
			c[i*N+j] = s
		}
	}
}

// reportGFLOPS reports wall-clock GFLOP/s and, where the CPU time is known,
// GFLOP per CPU-second since cpu0 (a processCPUSeconds reading taken before
// the loop). On a machine shared with other work the second figure shows what
// the kernel achieves per core while it runs; times the number of cores it
// estimates the uncontended parallel rate.
func reportGFLOPS(b *testing.B, flops float64, cpu0 float64) {
	total := flops * float64(b.N)
	b.ReportMetric(total/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	if cpu := processCPUSeconds() - cpu0; cpu0 > 0 && cpu > 0 {
		b.ReportMetric(total/cpu/1e9, "GFLOP/cpu-s")
	}
}

var benchShapes = []struct{ M, K, N int }{{1, 1024, 1024}, {64, 1024, 1024}}

func BenchmarkMatMul(b *testing.B) {
	for _, s := range benchShapes {
		rng := tensor.NewRNG(1)
		x, _ := rng.Uniform(tensor.F32, []int{s.M, s.K}, -1, 1)
		w, _ := rng.Uniform(tensor.F32, []int{s.K, s.N}, -1, 1)
		b.Run(fmt.Sprintf("%dx%dx%d", s.M, s.K, s.N), func(b *testing.B) {
			cpu0 := processCPUSeconds()
			for b.Loop() {
				if _, err := MatMul(x, w, tensor.F32); err != nil {
					b.Fatal(err)
				}
			}
			reportGFLOPS(b, 2*float64(s.M*s.K*s.N), cpu0)
		})
		b.Run(fmt.Sprintf("naive/%dx%dx%d", s.M, s.K, s.N), func(b *testing.B) {
			c := make([]float32, s.M*s.N)
			cpu0 := processCPUSeconds()
			for b.Loop() {
				naiveMatMul(c, x.Floats(), w.Floats(), s.M, s.K, s.N)
			}
			reportGFLOPS(b, 2*float64(s.M*s.K*s.N), cpu0)
		})
	}
}

func BenchmarkDequantMatMul(b *testing.B) {
	const M, K, N = 1, 1024, 1024
	rng := tensor.NewRNG(2)
	x, _ := rng.Uniform(tensor.F32, []int{M, K}, -1, 1)
	w, _ := rng.Uniform(tensor.F32, []int{N, K}, -1, 1)
	for _, f := range []gguf.Format{gguf.Q4_0, gguf.Q8_0, gguf.Q4_K, gguf.Q6_K} {
		packed, err := gguf.Quantize(f, w.Floats(), N, K)
		if err != nil {
			b.Fatal(err)
		}
		wt, _ := tensor.FromBytes([]int{len(packed)}, packed)
		b.Run(fmt.Sprintf("%v/%dx%dx%d", f, M, K, N), func(b *testing.B) {
			cpu0 := processCPUSeconds()
			for b.Loop() {
				if _, err := DequantMatMul(x, wt, DequantMatMulAttrs{Format: f, N: N, K: K}); err != nil {
					b.Fatal(err)
				}
			}
			reportGFLOPS(b, 2*float64(M*K*N), cpu0)
		})
		b.Run(fmt.Sprintf("naive/%v/%dx%dx%d", f, M, K, N), func(b *testing.B) {
			// Decode the whole matrix, then the triple loop on x·Wᵀ.
			c := make([]float32, M*N)
			cpu0 := processCPUSeconds()
			for b.Loop() {
				wd, _ := gguf.Dequantize(f, packed, N, K)
				for i := range M {
					for j := range N {
						var s float32
						for k := range K {
							s += float32(x.Floats()[i*K+k] * wd[j*K+k])
						}
						c[i*N+j] = s
					}
				}
			}
			reportGFLOPS(b, 2*float64(M*K*N), cpu0)
		})
	}
}

// BenchmarkDecodeLayer runs one transformer decode step at hidden 1024 (16
// heads of 64, 4 kv heads, 256 cached positions, FFN 2816, f32 weights):
// the shape of the interpreter's differential tests at real sizes.
func BenchmarkDecodeLayer(b *testing.B) {
	const E, H, Hkv, D, Sk, F = 1024, 16, 4, 64, 256, 2816
	rng := tensor.NewRNG(3)
	r := func(shape ...int) *tensor.Tensor { return randF32(rng, -0.05, 0.05, shape...) }
	x, g := r(1, E), r(E)
	wq, wk, wv, wo := r(E, H*D), r(E, Hkv*D), r(E, Hkv*D), r(H*D, E)
	wg, wu, wd := r(E, F), r(E, F), r(F, E)
	kc, vc := r(1, Sk, Hkv, D), r(1, Sk, Hkv, D)
	cos, sin := r(1, D/2), r(1, D/2)
	cpu0 := processCPUSeconds()
	for b.Loop() {
		h, _ := RMSNorm(x, g, NormAttrs{Epsilon: 1e-6}, tensor.F32)
		q, _ := MatMul(h, wq, tensor.F32)
		k, _ := MatMul(h, wk, tensor.F32)
		v, _ := MatMul(h, wv, tensor.F32)
		q, _ = Reshape(q, []int{1, 1, H, D})
		k, _ = Reshape(k, []int{1, 1, Hkv, D})
		v, _ = Reshape(v, []int{1, 1, Hkv, D})
		q, _ = Rope(q, cos, sin, RopeAttrs{HeadDim: D, RotaryDim: D, Style: RopeNeoX}, tensor.F32)
		k, _ = Rope(k, cos, sin, RopeAttrs{HeadDim: D, RotaryDim: D, Style: RopeNeoX}, tensor.F32)
		kk, _ := Concat([]*tensor.Tensor{kc, k}, ConcatAttrs{Axis: 1})
		vv, _ := Concat([]*tensor.Tensor{vc, v}, ConcatAttrs{Axis: 1})
		a, err := Attention(q, kk, vv, nil, AttentionAttrs{Mask: MaskCausal}, tensor.F32)
		if err != nil {
			b.Fatal(err)
		}
		a, _ = Reshape(a, []int{1, H * D})
		o, _ := MatMul(a, wo, tensor.F32)
		x1, _ := Binary(Add, x, o, tensor.F32)
		h, _ = RMSNorm(x1, g, NormAttrs{Epsilon: 1e-6}, tensor.F32)
		gate, _ := MatMul(h, wg, tensor.F32)
		up, _ := MatMul(h, wu, tensor.F32)
		gate, _ = Unary(Silu, gate, tensor.F32)
		m, _ := Binary(Mul, gate, up, tensor.F32)
		down, _ := MatMul(m, wd, tensor.F32)
		if _, err := Binary(Add, x1, down, tensor.F32); err != nil {
			b.Fatal(err)
		}
	}
	// Matmuls plus attention (scores and weighted sum over Sk+1 keys).
	reportGFLOPS(b, 2*float64(E*H*D+2*E*Hkv*D+H*D*E+3*E*F)+4*float64(H*(Sk+1)*D), cpu0)
}

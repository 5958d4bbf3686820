package kernels

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"runtime"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// scenarios run one kernel each on seeded inputs large enough to take the
// parallel paths, returning every result.
func scenarios(t *testing.T) map[string]func() []*tensor.Tensor {
	rng := tensor.NewRNG(100)
	r := func(lo, hi float32, shape ...int) *tensor.Tensor { return randF32(rng, lo, hi, shape...) }
	one := func(x *tensor.Tensor, err error) []*tensor.Tensor {
		if err != nil {
			t.Fatal(err)
		}
		return []*tensor.Tensor{x}
	}
	a, b := r(-1, 1, 2, 40, 256), r(-1, 1, 256, 300)
	x, gamma := r(-2, 2, 64, 1024), r(0.5, 1.5, 1024)
	q, k, v := r(-1, 1, 1, 4, 8, 64), r(-1, 1, 1, 96, 2, 64), r(-1, 1, 1, 96, 2, 64)
	gq, gk, gv := r(-0.3, 0.3, 1, 4, 4, 32), r(-0.3, 0.3, 1, 4, 4, 32), r(-1, 1, 1, 4, 4, 32)
	gg, gb := r(-2, -0.2, 1, 4, 4), r(0, 1, 1, 4, 4)
	lx, wih, whh, lb := r(-1, 1, 2, 3, 64), r(-0.3, 0.3, 4*96, 64), r(-0.3, 0.3, 4*96, 96), r(-0.3, 0.3, 4*96)
	cos, sin := r(-1, 1, 8, 32), r(-1, 1, 8, 32)
	rx := r(-1, 1, 2, 8, 16*64)
	wq := r(-1, 1, 64, 512)
	packed := map[gguf.Format]*tensor.Tensor{}
	for _, f := range []gguf.Format{gguf.Q4_0, gguf.Q8_0, gguf.Q4_K, gguf.Q6_K, gguf.Q6_KC16} {
		p, err := gguf.Quantize(f, wq.Floats(), 64, 512)
		if err != nil {
			t.Fatal(err)
		}
		packed[f], _ = tensor.FromBytes([]int{len(p)}, p)
	}
	dx := r(-1, 1, 3, 512)
	s := map[string]func() []*tensor.Tensor{
		"matmul":    func() []*tensor.Tensor { return one(MatMul(a, b, tensor.F32)) },
		"matmul16":  func() []*tensor.Tensor { return one(MatMul(a, b, tensor.BF16)) },
		"rms_norm":  func() []*tensor.Tensor { return one(RMSNorm(x, gamma, NormAttrs{Epsilon: 1e-6}, tensor.F32)) },
		"layernorm": func() []*tensor.Tensor { return one(LayerNorm(x, gamma, gamma, NormAttrs{Epsilon: 1e-6}, tensor.F32)) },
		"softmax":   func() []*tensor.Tensor { return one(Softmax(x, SoftmaxAttrs{Axis: -1}, tensor.F32)) },
		"gelu":      func() []*tensor.Tensor { return one(Unary(Gelu, x, tensor.F16)) },
		"reduce": func() []*tensor.Tensor {
			return one(Reduce(x, ReduceAttrs{Kind: ReduceSum, Axes: []int{0}}, tensor.F32))
		},
		"rope": func() []*tensor.Tensor {
			return one(Rope(rx, cos, sin, RopeAttrs{HeadDim: 64, RotaryDim: 64, Style: RopeNeoX}, tensor.F32))
		},
		"attention": func() []*tensor.Tensor {
			return one(Attention(q, k, v, nil, AttentionAttrs{Mask: MaskCausal, Softcap: 30}, tensor.F32))
		},
		"gdn": func() []*tensor.Tensor {
			o, st, err := GatedDeltaNet(gq, gk, gv, gg, gb, nil, GatedDeltaNetAttrs{}, tensor.F32)
			if err != nil {
				t.Fatal(err)
			}
			return []*tensor.Tensor{o, st}
		},
		"lstm": func() []*tensor.Tensor {
			y, h, c, err := LSTM(lx, wih, whh, lb, nil, nil, tensor.F32)
			if err != nil {
				t.Fatal(err)
			}
			return []*tensor.Tensor{y, h, c}
		},
	}
	for f, w := range packed {
		s["dequant_"+f.String()] = func() []*tensor.Tensor {
			return one(DequantMatMul(dx, w, DequantMatMulAttrs{Format: f, N: 64, K: 512}))
		}
	}
	return s
}

func TestDeterminismAcrossGOMAXPROCS(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	for name, run := range scenarios(t) {
		runtime.GOMAXPROCS(1)
		serial := run()
		for _, procs := range []int{2, 2, 3} {
			runtime.GOMAXPROCS(procs)
			again := run()
			for i := range serial {
				if !tensor.BitsEqual(serial[i], again[i]) {
					t.Errorf("%s: result %d differs between GOMAXPROCS 1 and %d", name, i, procs)
				}
			}
		}
	}
}

// goldenHashes pin the exact result bits of every scenario (FNV-1a over the
// float32 bits). A change means the numerics changed: on purpose (update the
// hash and docs/runtime-kernels.md) or by accident (for example a fused
// multiply-add on another architecture).
var goldenHashes = map[string]uint64{
	"attention":        0x1eb14a6b5e0552af,
	"dequant_q4_0":     0x686ddd92f324665,
	"dequant_q4_k":     0x4f606f1be4b0f377,
	"dequant_q6_k":     0xf0907ddf14fd961d,
	"dequant_q6_k_c16": 0xf0907ddf14fd961d, // q6_k's: the same blocks in columns
	"dequant_q8_0":     0x203a1558780c6680,
	"gdn":              0x2b329360ecf27e2c,
	"gelu":             0xc57ec0f41f390f9f,
	"layernorm":        0xfcd9a36556795077,
	"lstm":             0x8cf73e05b251e14f,
	"matmul":           0xe6bf92cd877ae9cb,
	"matmul16":         0x32de766c73623e5e,
	"reduce":           0xdc82bc57318f0131,
	"rms_norm":         0xdb943c73468aff7,
	"rope":             0x7a229bfe2d18622c,
	"softmax":          0x484de85509d55628,
}

func TestGoldenBits(t *testing.T) {
	for name, run := range scenarios(t) {
		h := fnv.New64a()
		for _, r := range run() {
			for _, v := range r.Floats() {
				_ = binary.Write(h, binary.LittleEndian, math.Float32bits(v))
			}
		}
		got := h.Sum64()
		want, ok := goldenHashes[name]
		if !ok {
			t.Errorf("no golden hash for %q: add %#x", name, got)
			continue
		}
		if got != want {
			t.Errorf("%s: result bits hash to %#x, want %#x", name, got, want)
		}
	}
}

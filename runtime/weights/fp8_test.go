package weights

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestE4M3: the OCP E4M3 (FN) values at their landmarks; every finite
// code encodes back to itself (−0 too); values between two codes round
// to the nearer, ties to the even code; beyond 448 saturates; NaN stays
// NaN.
func TestE4M3(t *testing.T) {
	for _, c := range []struct {
		b    byte
		want float64
	}{
		{0x00, 0}, {0x01, 0x1p-9}, {0x07, 7 * 0x1p-9}, {0x08, 0x1p-6}, {0x38, 1}, {0x39, 1.125}, {0x40, 2},
		{0x7E, 448}, {0xB8, -1}, {0xFE, -448},
	} {
		if got := DecodeE4M3(c.b); float64(got) != c.want {
			t.Errorf("DecodeE4M3(%#02x) = %g, want %g", c.b, got, c.want)
		}
	}
	if v := DecodeE4M3(0x7F); !math.IsNaN(float64(v)) || !math.IsNaN(float64(DecodeE4M3(0xFF))) {
		t.Errorf("0x7F and 0xFF decode to %g and %g, want NaN", v, DecodeE4M3(0xFF))
	}
	for c := range 256 {
		b := byte(c)
		if b&0x7F == 0x7F {
			continue
		}
		if got := EncodeE4M3(DecodeE4M3(b)); got != b {
			t.Errorf("EncodeE4M3(DecodeE4M3(%#02x) = %g) = %#02x", b, DecodeE4M3(b), got)
		}
	}
	for _, c := range []struct {
		f    float32
		want byte
	}{
		{1.0625, 0x38},  // halfway between 1 (0x38, even) and 1.125
		{1.1875, 0x3A},  // halfway between 1.125 and 1.25 (0x3A, even)
		{1.07, 0x39},    // nearer 1.125
		{1000, 0x7E},    // saturated
		{-1e9, 0xFE},    // saturated, negative
		{0x1p-11, 0x00}, // a quarter of the smallest subnormal, 2^-9: 0
	} {
		if got := EncodeE4M3(c.f); got != c.want {
			t.Errorf("EncodeE4M3(%g) = %#02x, want %#02x", c.f, got, c.want)
		}
	}
	if got := EncodeE4M3(float32(math.NaN())); got&0x7F != 0x7F {
		t.Errorf("EncodeE4M3(NaN) = %#02x", got)
	}
}

// writeFP8 writes a checkpoint directory: config.json (block, when not
// "") and one model.safetensors of ts, the tensors named in fp8 stored
// as F8_E4M3.
func writeFP8(t *testing.T, block string, ts map[string]*tensor.Tensor, fp8 ...string) string {
	t.Helper()
	dir := t.TempDir()
	if block != "" {
		cfg := `{"quantization_config": {"quant_method": "fp8", "weight_block_size": ` + block + `}}`
		if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stored := map[string]string{}
	for _, name := range fp8 {
		stored[name] = "F8_E4M3"
	}
	var buf bytes.Buffer
	if err := tensor.WriteSafetensors(&buf, &tensor.Safetensors{Tensors: ts, Stored: stored}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "model.safetensors"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestFP8Pair: a 3×3 F8_E4M3 matrix in blocks of 2×2 (partial blocks at
// its edges) with its F32 scales reads as BF16, each value its code's ×
// its block's scale rounded to bf16, the scales no longer a tensor of
// their own; what does not pair is refused by name.
func TestFP8Pair(t *testing.T) {
	codes := []byte{0x38, 0x39, 0x40, 0xB8, 0x01, 0x7E, 0x3C, 0x3D, 0x00}
	w, _ := tensor.FromBytes([]int{3, 3}, codes)
	scales := []float32{0.5, 3, 1.0 / 3, 0.01}
	sc := f32(t, tensor.F32, []int{2, 2}, scales...)
	dir := writeFP8(t, "[2, 2]", map[string]*tensor.Tensor{"w": w, "w_scale_inv": sc, "b": f32(t, tensor.F32, []int{2}, 1, 2)}, "w")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	info, ok := s.Info("w")
	if !ok || info.DType != tensor.BF16 || info.Type != TypeFP8 || info.String() != "F8_E4M3 [3, 3]" {
		t.Fatalf("w: %+v", info)
	}
	if _, ok := s.Info("w_scale_inv"); ok || strings.Join(s.Names(), ",") != "b,w" {
		t.Errorf("names %v: the scales should be w's", s.Names())
	}
	got, err := s.Weight(spec("w", tensor.BF16, 3, 3))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		for j := range 3 {
			want := tensor.RoundBF16(DecodeE4M3(codes[3*i+j]) * scales[i/2*2+j/2])
			if g := got.Floats()[3*i+j]; g != want {
				t.Errorf("w[%d][%d] = %g, want %g", i, j, g, want)
			}
		}
	}
	for _, c := range []struct {
		name  string
		block string
		ts    map[string]*tensor.Tensor
		want  string
	}{
		{"no scales", "[2, 2]", map[string]*tensor.Tensor{"w": w}, `tensor "w" is F8_E4M3 without its scales "w_scale_inv"`},
		{"scales of another blocking", "[3, 3]", map[string]*tensor.Tensor{"w": w, "w_scale_inv": sc},
			`tensor "w_scale_inv" is tensor<2x2xf32>; the scales of F8_E4M3 [3, 3] in blocks of 3×3 are F32 or BF16 [1, 1]`},
		{"no block size", "", map[string]*tensor.Tensor{"w": w, "w_scale_inv": sc}, `tensor "w" is F8_E4M3: rlx reads FP8 weights with the block size of config.json's quantization_config`},
		{"a bad block size", "[0, 128]", map[string]*tensor.Tensor{"w": w, "w_scale_inv": sc}, "weight_block_size [0 128] is not two positive sizes"},
	} {
		_, err := Open(writeFP8(t, c.block, c.ts, "w"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
	// A lone safetensors file has no config to give the block size.
	if _, err := Open(filepath.Join(dir, "model.safetensors")); err == nil || !strings.Contains(err.Error(), "block size of config.json") {
		t.Errorf("a lone file: %v", err)
	}
}

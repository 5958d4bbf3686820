package gguf

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestScaleOffsets: each offset ScaleOffsets gives is an f16 field that
// scales weights (a non-finite value there makes some decoded weight
// non-finite, and only in its own block's 32 or 256 weights), there is
// one a block (two for q4_k), and FiniteScales makes exactly those
// fields finite again.
func TestScaleOffsets(t *testing.T) {
	const n, k = 3, 512
	w := make([]float32, n*k)
	for i := range w {
		w[i] = float32(math.Sin(float64(i))) / 8
	}
	for _, f := range []Format{Q4_0, Q8_0, Q4_K, Q5_K, Q6_K, Q6_KC16, Q2_K, Q3_K, Q4_1, Q5_0, Q5_1, IQ4_NL, IQ4_XS} {
		data, err := Quantize(f.Storage(), w, n, k)
		if err != nil {
			t.Fatal(err)
		}
		if data, err = Convert(data, f.Storage(), f, n, k); err != nil {
			t.Fatal(err)
		}
		offsets := slices.Collect(ScaleOffsets(f, n, k))
		perBlock := map[Format]int{Q4_K: 2, Q5_K: 2, Q2_K: 2, Q4_1: 2, Q5_1: 2}[f]
		if perBlock == 0 {
			perBlock = 1
		}
		if want := n * k / f.BlockSize() * perBlock; len(offsets) != want {
			t.Fatalf("%v: %d offsets, want %d", f, len(offsets), want)
		}
		for i, o := range offsets {
			bad := slices.Clone(data)
			bad[o], bad[o+1] = 0x00, 0x7C // +Inf
			v, err := Dequantize(f, bad, n, k)
			if err != nil {
				t.Fatal(err)
			}
			block := i / perBlock
			for j, x := range v {
				inBlock := j/f.BlockSize() == block
				if nonFinite := math.IsInf(float64(x), 0) || math.IsNaN(float64(x)); nonFinite && !inBlock {
					t.Fatalf("%v: +Inf at offset %d made weight %d (block %d) %v, outside block %d", f, o, j, j/f.BlockSize(), x, block)
				}
			}
			if !slices.ContainsFunc(v[block*f.BlockSize():(block+1)*f.BlockSize()], func(x float32) bool { return math.IsInf(float64(x), 0) || math.IsNaN(float64(x)) }) {
				t.Fatalf("%v: +Inf at offset %d left block %d finite", f, o, block)
			}
			changed, err := FiniteScales(f, bad, n, k)
			if err != nil || changed != 1 {
				t.Fatalf("%v: FiniteScales changed %d (%v), want 1", f, changed, err)
			}
			if v, _ := Dequantize(f, bad, n, k); slices.ContainsFunc(v, func(x float32) bool { return math.IsInf(float64(x), 0) || math.IsNaN(float64(x)) }) {
				t.Fatalf("%v: offset %d still non-finite after FiniteScales", f, o)
			}
		}
		if changed, _ := FiniteScales(f, data, n, k); changed != 0 {
			t.Errorf("%v: FiniteScales changed %d finite scales", f, changed)
		}
	}
	if _, err := FiniteScales(Q4_0, make([]byte, 17), 1, 32); err == nil || !strings.Contains(err.Error(), "needs 18 bytes") {
		t.Errorf("FiniteScales of 17 bytes for one q4_0 block: %v", err)
	}
}

package gguf

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

func TestFormatSizes(t *testing.T) {
	tests := []struct {
		name         string
		block, bytes int
	}{{"q4_0", 32, 18}, {"q8_0", 32, 34}, {"q4_k", 256, 144}, {"q5_k", 256, 176}, {"q6_k", 256, 210},
		{"q2_k", 256, 84}, {"q3_k", 256, 110}, {"q4_1", 32, 20}, {"q5_0", 32, 22}, {"q5_1", 32, 24},
		{"iq4_nl", 32, 18}, {"iq4_xs", 256, 136}, {"mxfp4", 32, 17}}
	for _, tc := range tests {
		f, err := ParseFormat(tc.name)
		if err != nil || f.String() != tc.name || f.BlockSize() != tc.block || f.BlockBytes() != tc.bytes {
			t.Errorf("%s: format %v (%v) block %d bytes %d", tc.name, f, err, f.BlockSize(), f.BlockBytes())
		}
		if n, err := ByteCount(f, 3, 2*tc.block); err != nil || n != 3*2*tc.bytes {
			t.Errorf("%s: ByteCount(3, %d) = %d, %v", tc.name, 2*tc.block, n, err)
		}
		if _, err := ByteCount(f, 3, tc.block+1); err == nil || !strings.Contains(err.Error(), "not a multiple") {
			t.Errorf("%s: ByteCount with a ragged k: %v", tc.name, err)
		}
	}
	if _, err := ParseFormat("q8_1"); err == nil {
		t.Error("ParseFormat(q8_1) succeeded")
	}
	if _, err := ByteCount(Q4_0, math.MaxInt/2, 1<<20); err == nil {
		t.Error("overflowing ByteCount succeeded")
	}
	if _, err := Dequantize(Q8_0, make([]byte, 33), 1, 32); err == nil || !strings.Contains(err.Error(), "needs 34 bytes") {
		t.Errorf("Dequantize with a short buffer: %v", err)
	}
}

// decodeAll dequantises one block and fails the test on error.
func decodeAll(t *testing.T, f Format, block []byte) []float32 {
	t.Helper()
	w, err := Dequantize(f, block, 1, f.BlockSize())
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestDequantQ4_0HandDecoded(t *testing.T) {
	// d = 0x3800 = 0.5; qs[j] has low nibble j and high nibble 15−j.
	block := []byte{0x00, 0x38,
		0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87,
		0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0x1e, 0x0f}
	w := decodeAll(t, Q4_0, block)
	want := []float32{
		-4, -3.5, -3, -2.5, -2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5,
		3.5, 3, 2.5, 2, 1.5, 1, 0.5, 0, -0.5, -1, -1.5, -2, -2.5, -3, -3.5, -4,
	}
	assertEqual(t, w, want)
}

func TestDequantQ8_0HandDecoded(t *testing.T) {
	// d = 0x3400 = 0.25; qs = 0x80 (−128), 0x7f (127), 0xff (−1), 0x01, then 3, 4, ...
	block := []byte{0x00, 0x34, 0x80, 0x7f, 0xff, 0x01}
	for j := 4; j < 32; j++ {
		block = append(block, byte(j-1))
	}
	w := decodeAll(t, Q8_0, block)
	want := []float32{-32, 31.75, -0.25, 0.25}
	for j := 4; j < 32; j++ {
		want = append(want, float32(j-1)/4)
	}
	assertEqual(t, w, want)
}

// q4kBlock is a q4_k block with d = 1 (0x3c00), dmin = 0.5 (0x3800) and
// sub-block scales 1 2 3 4 17 33 50 63 and mins 5 6 7 8 20 40 60 19, packed
// by hand:
//
//	bytes 0-3:  sc_j | (sc_{j+4}>>4)<<6 = 0x41 0x82 0xc3 0xc4
//	bytes 4-7:  m_j  | (m_{j+4}>>4)<<6  = 0x45 0x86 0xc7 0x48
//	bytes 8-11: (sc_{j+4}&15) | (m_{j+4}&15)<<4 = 0x41 0x81 0xc2 0x3f
var q4kScales = []byte{0x41, 0x82, 0xc3, 0xc4, 0x45, 0x86, 0xc7, 0x48, 0x41, 0x81, 0xc2, 0x3f}

func TestScaleMinK4(t *testing.T) {
	wantSc := []uint8{1, 2, 3, 4, 17, 33, 50, 63}
	wantM := []uint8{5, 6, 7, 8, 20, 40, 60, 19}
	for j := range 8 {
		sc, m := scaleMinK4(j, q4kScales)
		if sc != wantSc[j] || m != wantM[j] {
			t.Errorf("sub-block %d: scale %d min %d, want %d %d", j, sc, m, wantSc[j], wantM[j])
		}
	}
}

func TestDequantQ4_KHandDecoded(t *testing.T) {
	block := append([]byte{0x00, 0x3c, 0x00, 0x38}, q4kScales...)
	// Chunk c, byte l: low nibble l%16 (sub-block 2c), high nibble 15−l%16
	// (sub-block 2c+1), except byte 5 of chunk 3 which is 0xa3.
	for i := range 128 {
		l := i % 32
		block = append(block, byte(l%16|(15-l%16)<<4))
	}
	block[16+3*32+5] = 0xa3
	w := decodeAll(t, Q4_K, block)
	sc := []float32{1, 2, 3, 4, 17, 33, 50, 63}
	m := []float32{5, 6, 7, 8, 20, 40, 60, 19}
	// Spot checks worked out by hand: w = 1·sc·q − 0.5·m.
	spot := map[int]float32{
		0:   1*0 - 2.5,   // sub-block 0, q 0
		15:  1*15 - 2.5,  // sub-block 0, q 15
		32:  2*15 - 3,    // sub-block 1, q 15
		140: 17*12 - 10,  // sub-block 4 (chunk 2 low), l 12
		175: 33*0 - 20,   // sub-block 5 (chunk 2 high), l 15: 15 − 15
		197: 50*3 - 30,   // sub-block 6 (chunk 3 low), l 5: 0xa3 & 15
		229: 63*10 - 9.5, // sub-block 7 (chunk 3 high), l 5: 0xa3 >> 4
		255: 63*0 - 9.5,  // sub-block 7, l 31: 15 − 15
	}
	for i, want := range spot {
		if w[i] != want {
			t.Errorf("w[%d] = %g, want %g", i, w[i], want)
		}
	}
	for i := range 256 {
		j, l := i/32, i%32
		q := float32(l % 16)
		if j%2 == 1 {
			q = float32(15 - l%16)
		}
		if i == 197 || i == 229 {
			continue
		}
		if want := sc[j]*q - 0.5*m[j]; w[i] != want {
			t.Errorf("w[%d] = %g, want %g", i, w[i], want)
		}
	}
}

func TestDequantQ6_KHandDecoded(t *testing.T) {
	block := make([]byte, 210)
	// First half, l = 0: ql[0] = 0x21, ql[32] = 0x43, qh[0] = 0xe4 (high bit
	// pairs 0, 1, 2, 3 for weights 0, 32, 64, 96).
	block[0], block[32], block[128] = 0x21, 0x43, 0xe4
	// Second half, l = 5: ql[64+5] = 0x5a, ql[64+37] = 0x6b, qh[32+5] = 0x1b
	// (pairs 3, 2, 1, 0 for weights 133, 165, 197, 229).
	block[69], block[101], block[165] = 0x5a, 0x6b, 0x1b
	for i := range 16 {
		block[192+i] = byte(int8(i - 8)) // scales −8 .. 7
	}
	block[208], block[209] = 0x00, 0x34 // d = 0.25, stored last
	w := decodeAll(t, Q6_K, block)
	q := make([]int, 256)
	for i := range q {
		q[i] = -32 // every other 6-bit value is 0
	}
	q[0] = 0x1 + 0<<4 - 32   // −31
	q[32] = 0x3 + 1<<4 - 32  // −13
	q[64] = 0x2 + 2<<4 - 32  // 2
	q[96] = 0x4 + 3<<4 - 32  // 20
	q[133] = 0xa + 3<<4 - 32 // 26
	q[165] = 0xb + 2<<4 - 32 // 11
	q[197] = 0x5 + 1<<4 - 32 // −11
	q[229] = 0x6 + 0<<4 - 32 // −26
	want := make([]float32, 256)
	for i := range want {
		want[i] = 0.25 * float32(i/16-8) * float32(q[i])
	}
	assertEqual(t, w, want)
	if w[0] != 0.25*-8*-31 || w[229] != 0.25*6*-26 {
		t.Errorf("w[0] = %g, w[229] = %g", w[0], w[229])
	}
}

func assertEqual(t *testing.T, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d values, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("w[%d] = %g, want %g", i, got[i], want[i])
		}
	}
}

func TestQuantizeRoundTrip(t *testing.T) {
	const n, k = 8, 512
	rng := tensor.NewRNG(9)
	x, _ := rng.Uniform(tensor.F32, []int{n, k}, -1, 1)
	w := x.Floats()
	w[3] = 0 // a zero in a block
	for i := 256; i < 512; i++ {
		w[i] = 0 // an all-zero super-block
	}
	limits := map[Format]float64{Q8_0: 1e-4, Q6_K: 2e-3, Q5_K: 3e-3, Q4_K: 1e-2, Q4_0: 2e-2,
		Q5_1: 3e-3, Q5_0: 5e-3, Q4_1: 1e-2, Q3_K: 5e-2, Q2_K: 0.15,
		IQ4_NL: 2e-2, IQ4_XS: 2e-2, MXFP4: 5e-2}
	for f, limit := range limits {
		t.Run(f.String(), func(t *testing.T) {
			q, err := Quantize(f, w, n, k)
			if err != nil {
				t.Fatal(err)
			}
			y, err := Dequantize(f, q, n, k)
			if err != nil {
				t.Fatal(err)
			}
			var num, den float64
			for i := range w {
				num += (float64(y[i]) - float64(w[i])) * (float64(y[i]) - float64(w[i]))
				den += float64(w[i]) * float64(w[i])
			}
			t.Logf("NMSE %.3g", num/den)
			if nmse := num / den; nmse > limit {
				t.Errorf("NMSE %g > %g", nmse, limit)
			}
			for i := 256; i < 512; i++ {
				if y[i] != 0 {
					t.Fatalf("zero weight %d decoded as %g", i, y[i])
				}
			}
		})
	}
}

func ExampleDequantize() {
	// One q8_0 block: d = 0.5 (f16 0x3800), then 32 int8 values.
	block := []byte{0x00, 0x38, 2, 0xfe, 7}
	block = append(block, make([]byte, 29)...)
	w, err := Dequantize(Q8_0, block, 1, 32)
	if err != nil {
		panic(err)
	}
	fmt.Println(w[:4])
	// Output: [1 -1 3.5 0]
}

func TestQuantizeRefusesWhatBlocksCannotHold(t *testing.T) {
	w := make([]float32, 256)
	for _, tc := range []struct {
		f    Format
		v    float32
		want string // "" means it encodes
	}{
		{Q4_0, float32(math.NaN()), "weight #7 is NaN (GGUF blocks hold finite values)"},
		{Q8_0, float32(math.Inf(-1)), "weight #7 is -Inf"},
		{Q4_0, 6e5, "q4_0: block 0 (weights #0 to #31) reaches 600000, beyond the range of the format's f16 scales"},
		{Q4_0, 5e5, ""},
		{Q8_0, 6e5, ""},
		{Q4_K, 6e5, ""},
		{Q5_K, 6e5, ""},
		{Q2_K, 6e5, ""},
		{Q3_K, 6e5, ""},
		{Q4_1, 6e4, ""},
		{Q5_0, 5e5, ""},
		{Q5_1, 6e4, ""},
		{IQ4_NL, 6e5, ""},
		{IQ4_XS, 6e5, ""},
		{MXFP4, 5e5, ""}, // E2M1 levels 8 and 12 (doubled) lie 40% apart
		{MXFP4, 3e38, "block 0 (weights #0 to #31) reaches 3e+38"}, // its nearest code, 8·2^125, overflows
		{Q6_K, 6e5, ""},
	} {
		w[7] = tc.v
		q, err := Quantize(tc.f, w, 1, 256)
		if tc.want != "" {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v with %v: error %v, want %q", tc.f, tc.v, err, tc.want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v with %v: %v", tc.f, tc.v, err)
		}
		back, _ := Dequantize(tc.f, q, 1, 256)
		if got := back[7]; math.Abs(float64(got-tc.v)) > 0.1*float64(tc.v) {
			t.Errorf("%v: %v decodes to %v", tc.f, tc.v, got)
		}
	}
}

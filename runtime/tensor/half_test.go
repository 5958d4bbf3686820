package tensor

import (
	"math"
	"sort"
	"testing"
)

// f16Values lists the float64 values of the non-negative f16 encodings
// 0x0000..0x7c00 in order, computed from the IEEE definition rather than by
// F16BitsToF32. The entry for 0x7c00 (infinity) is 65536, the value the
// rounding rule treats as the next step after the largest finite f16.
func f16Values() []float64 {
	v := make([]float64, 0x7c01)
	for h := range v {
		e, m := h>>10, h&0x3ff
		if e == 0 {
			v[h] = float64(m) * math.Ldexp(1, -24)
		} else {
			v[h] = (1 + float64(m)/1024) * math.Ldexp(1, e-15)
		}
	}
	return v
}

// refF16 rounds x to f16 by searching the table of values: nearest, ties to
// the even encoding.
func refF16(vals []float64, x float32) uint16 {
	sign := uint16(0)
	if math.Signbit(float64(x)) {
		sign = 0x8000
	}
	ax := math.Abs(float64(x))
	if ax >= 65536 {
		return sign | 0x7c00
	}
	i := sort.SearchFloat64s(vals, ax) // first index with vals[i] >= ax
	if vals[i] == ax {
		return sign | uint16(i)
	}
	lo, hi := i-1, i
	dlo, dhi := ax-vals[lo], vals[hi]-ax
	switch {
	case dlo < dhi:
		return sign | uint16(lo)
	case dhi < dlo:
		return sign | uint16(hi)
	case lo%2 == 0:
		return sign | uint16(lo)
	}
	return sign | uint16(hi)
}

func TestF16RoundTripAllEncodings(t *testing.T) {
	for h := range 1 << 16 {
		f := F16BitsToF32(uint16(h))
		got := F32ToF16Bits(f)
		if h&0x7c00 == 0x7c00 && h&0x3ff != 0 {
			if got&0x7c00 != 0x7c00 || got&0x3ff == 0 {
				t.Fatalf("NaN %#04x became %#04x", h, got)
			}
			continue
		}
		if got != uint16(h) {
			t.Fatalf("%#04x -> %g -> %#04x", h, f, got)
		}
	}
}

// TestStorageBitsAllEncodings: F16Bits and BF16Bits give back every
// encoding decoded to float32, NaN payloads and signalling NaNs included
// (a file read and written back keeps its bytes).
func TestStorageBitsAllEncodings(t *testing.T) {
	for h := range 1 << 16 {
		if got := F16Bits(F16BitsToF32(uint16(h))); got != uint16(h) {
			t.Fatalf("f16 %#04x came back as %#04x", h, got)
		}
		if got := BF16Bits(BF16BitsToF32(uint16(h))); got != uint16(h) {
			t.Fatalf("bf16 %#04x came back as %#04x", h, got)
		}
	}
	// On values that are not f16 (bf16) values they round like the
	// conversions, quieting NaNs whose payload does not fit.
	for _, x := range []float32{1.0 / 3, 65520, math.Float32frombits(0x7f800001), math.Float32frombits(0xff812345)} {
		if got, want := F16Bits(x), F32ToF16Bits(x); got != want {
			t.Errorf("F16Bits(%#08x) = %#04x, want %#04x", math.Float32bits(x), got, want)
		}
		if got, want := BF16Bits(x), F32ToBF16Bits(x); got != want {
			t.Errorf("BF16Bits(%#08x) = %#04x, want %#04x", math.Float32bits(x), got, want)
		}
	}
}

func TestF16MatchesReference(t *testing.T) {
	vals := f16Values()
	rng := NewRNG(1)
	check := func(x float32) {
		t.Helper()
		if want, got := refF16(vals, x), F32ToF16Bits(x); want != got {
			t.Fatalf("F32ToF16Bits(%g [%#08x]) = %#04x, want %#04x", x, math.Float32bits(x), got, want)
		}
	}
	for range 200000 {
		// Uniform over the f32 exponents that matter for f16 (2^-27 .. 2^17).
		b := uint32(rng.Uint64())
		exp := 100 + uint32(rng.Intn(45))
		check(math.Float32frombits(b&0x807fffff | exp<<23))
	}
	for h := range 0x7c00 {
		// Exact midpoints between consecutive f16 values, and their neighbours.
		mid := float32((vals[h] + vals[h+1]) / 2)
		check(mid)
		check(math.Nextafter32(mid, 0))
		check(math.Nextafter32(mid, 1e9))
		check(-mid)
	}
}

func TestF16Cases(t *testing.T) {
	tests := []struct {
		in   float32
		want uint16
	}{
		{0, 0},
		{float32(math.Copysign(0, -1)), 0x8000},
		{1, 0x3c00},
		{-2, 0xc000},
		{65504, 0x7bff},                   // largest finite
		{65519.996, 0x7bff},               // just under the overflow midpoint
		{65520, 0x7c00},                   // midpoint rounds to even: infinity
		{1e10, 0x7c00},                    // overflow
		{float32(math.Inf(-1)), 0xfc00},   // infinity
		{1 + 1.0/2048, 0x3c00},            // tie between 1 and 1+2^-10: even is 1
		{1 + 3.0/2048, 0x3c02},            // tie: even is 1+2^-9
		{0x1p-24, 0x0001},                 // smallest subnormal
		{0x1p-25, 0x0000},                 // half of it: tie to even (0)
		{0x1.000002p-25, 0x0001},          // just above half
		{0x1.8p-24, 0x0002},               // 1.5 ulp: tie to even (2)
		{0x1.ffcp-15, 0x0400},             // tie above the largest subnormal rounds to the smallest normal
		{0x1p-14, 0x0400},                 // smallest normal
		{0x1p-30, 0x0000},                 // underflow
		{float32(-0x1p-24), 0x8001},       // negative subnormal
		{math.Float32frombits(1), 0x0000}, // f32 subnormal
	}
	for _, tc := range tests {
		if got := F32ToF16Bits(tc.in); got != tc.want {
			t.Errorf("F32ToF16Bits(%g) = %#04x, want %#04x", tc.in, got, tc.want)
		}
	}
	if v := RoundF16(float32(math.NaN())); !math.IsNaN(float64(v)) {
		t.Errorf("RoundF16(NaN) = %g", v)
	}
}

// refBF16 rounds by comparing x with the two bf16 neighbours in float64.
func refBF16(x float32) uint16 {
	b := math.Float32bits(x)
	lo := b &^ 0xffff
	down := float64(math.Float32frombits(lo))
	upBits := lo + 0x10000
	up := float64(math.Float32frombits(upBits))
	if upBits&0x7f800000 == 0x7f800000 {
		// Past the largest finite bf16: the next step is 2^128 in magnitude.
		up = math.Copysign(math.Ldexp(1, 128), float64(x))
	}
	ax := float64(x)
	dd, du := math.Abs(ax-down), math.Abs(up-ax)
	switch {
	case dd < du:
		return uint16(lo >> 16)
	case du < dd:
		return uint16(upBits >> 16)
	case (lo>>16)&1 == 0:
		return uint16(lo >> 16)
	}
	return uint16(upBits >> 16)
}

func TestBF16MatchesReference(t *testing.T) {
	rng := NewRNG(2)
	for range 200000 {
		x := math.Float32frombits(uint32(rng.Uint64()))
		if x != x || math.IsInf(float64(x), 0) {
			continue
		}
		if want, got := refBF16(x), F32ToBF16Bits(x); want != got {
			t.Fatalf("F32ToBF16Bits(%g [%#08x]) = %#04x, want %#04x", x, math.Float32bits(x), got, want)
		}
	}
	tests := []struct {
		in   uint32
		want uint16
	}{
		{0x3f808000, 0x3f80}, // tie, even stays
		{0x3f818000, 0x3f82}, // tie, odd rounds up
		{0x3f808001, 0x3f81}, // above the tie
		{0x7f7fffff, 0x7f80}, // overflow to infinity
		{0x00008000, 0x0000}, // subnormal tie to even zero
		{0x00018000, 0x0002}, // subnormal tie rounds up to even
		{0xff800000, 0xff80}, // -inf
	}
	for _, tc := range tests {
		if got := F32ToBF16Bits(math.Float32frombits(tc.in)); got != tc.want {
			t.Errorf("F32ToBF16Bits(%#08x) = %#04x, want %#04x", tc.in, got, tc.want)
		}
	}
	if v := RoundBF16(float32(math.NaN())); !math.IsNaN(float64(v)) {
		t.Errorf("RoundBF16(NaN) = %g", v)
	}
	// A NaN whose payload lives only in the low bits must stay a NaN.
	if h := F32ToBF16Bits(math.Float32frombits(0x7f800001)); h&0x7f != 0x40 || h&0x7f80 != 0x7f80 {
		t.Errorf("signalling NaN became %#04x", h)
	}
}

package ir

import (
	"math"
	"math/big"
	"testing"
)

func TestFormatFloatMLIR(t *testing.T) {
	// Expected strings were printed by mlir-opt 19 for the same inputs.
	tests := []struct {
		sem  *FloatSemantics
		in   float64
		hex  uint64
		want string
	}{
		{sem: semF32, in: 1e-6, want: "9.99999997E-7"},
		{sem: semF32, in: 0.1, want: "1.000000e-01"},
		{sem: semF32, in: 123456789.0, want: "0x4CEB79A3"},
		{sem: semF64, in: 3.14159, want: "3.141590e+00"},
		{sem: semBF16, in: 0.3, want: "3.007810e-01"},
		{sem: semF32, in: 1e-40, want: "9.999940e-41"},
		{sem: semF64, in: 1e-6, want: "9.9999999999999995E-7"},
		{sem: semF16, in: 1.5, want: "1.500000e+00"},
		{sem: semF32, in: 2e-7, want: "2.000000e-07"},
		{sem: semF32, in: 7e-7, want: "6.99999987E-7"},
		{sem: semF32, in: 1e-5, want: "9.99999974E-6"},
		{sem: semF32, in: 0.001, want: "1.000000e-03"},
		{sem: semF32, in: 100, want: "1.000000e+02"},
		{sem: semF32, in: 1.1, want: "1.100000e+00"},
		{sem: semF32, in: 5e-7, want: "5.000000e-07"},
		{sem: semF32, in: 1e20, want: "1.000000e+20"},
		{sem: semF16, in: 1e-6, want: "1.013280e-06"},
		{sem: semF16, in: 0.1, want: "9.997550e-02"},
		{sem: semBF16, in: 0.1, want: "1.000980e-01"},
		{sem: semF80, in: 0.1, want: "0.100000000000000005551"},
		{sem: semF128, in: 0.1, want: "0.100000000000000005551115123125782702"},
		{sem: semTF32, in: 0.1, want: "9.997550e-02"},
		{sem: semF8E5M2, in: 0.1, want: "9.375000e-02"},
		{sem: semF8E4M3FN, in: 0.1, want: "1.015630e-01"},
		{sem: semF32, in: math.Copysign(0, -1), want: "-0.000000e+00"},
		{sem: semF16, in: 65504, want: "6.550400e+04"},
	}
	for _, tc := range tests {
		f := floatFromFloat64(tc.sem, tc.in)
		got, _ := formatFloatMLIR(f)
		if got != tc.want {
			t.Errorf("%s %v: got %s, want %s", tc.sem.Name, tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		sem  *FloatSemantics
		bits int64
		want string
	}{
		{semF32, 0x358637BD, "9.99999997E-7"},
		{semF32, 0x358637BE, "1.00000011E-6"},
		{semF32, 0x353BE7A1, "6.9999993E-7"},
		{semF32, 0x353BE7A0, "6.99999873E-7"},
		{semF32, 0x7FC00000, "0x7FC00000"},
		{semF32, 0x7F800000, "0x7F800000"},
	} {
		f := decodeFloat(tc.sem, big.NewInt(tc.bits))
		if got, _ := formatFloatMLIR(f); got != tc.want {
			t.Errorf("%s %#x: got %s, want %s", tc.sem.Name, tc.bits, got, tc.want)
		}
	}
}

package tensor

import (
	"fmt"
	"math"
)

// DType is the element type of a tensor.
type DType uint8

// The element types of the graph dialect. The zero DType is invalid.
const (
	F32 DType = iota + 1
	F16
	BF16
	I32
	I64
	I1
	I8
	UI8
)

var dtypeNames = [...]string{
	F32:  "f32",
	F16:  "f16",
	BF16: "bf16",
	I32:  "i32",
	I64:  "i64",
	I1:   "i1",
	I8:   "i8",
	UI8:  "ui8",
}

// String returns the MLIR spelling of the element type ("f32", "ui8", ...).
func (d DType) String() string {
	if d.Valid() {
		return dtypeNames[d]
	}
	return fmt.Sprintf("dtype(%d)", uint8(d))
}

// ParseDType returns the element type spelled s in MLIR syntax.
func ParseDType(s string) (DType, error) {
	for d, name := range dtypeNames {
		if name != "" && name == s {
			return DType(d), nil
		}
	}
	return 0, fmt.Errorf("unknown element type %q", s)
}

// Valid reports whether d is one of the element types above.
func (d DType) Valid() bool { return d >= F32 && d <= UI8 }

// IsFloat reports whether d is f32, f16 or bf16.
func (d DType) IsFloat() bool { return d == F32 || d == F16 || d == BF16 }

// IsInt reports whether d is an integer type: i1, i8, i32, i64 or ui8.
func (d DType) IsInt() bool { return d == I32 || d == I64 || d == I1 || d == I8 || d == UI8 }

// ByteSize returns the size in bytes of one element in the raw little-endian
// encoding used by .npy and safetensors files (one byte for i1).
func (d DType) ByteSize() int {
	switch d {
	case F32, I32:
		return 4
	case F16, BF16:
		return 2
	case I64:
		return 8
	case I1, I8, UI8:
		return 1
	}
	return 0
}

// IntRange returns the smallest and largest value of the integer type d.
// For non-integer types it returns the int64 range.
func (d DType) IntRange() (lo, hi int64) {
	switch d {
	case I1:
		return 0, 1
	case I8:
		return math.MinInt8, math.MaxInt8
	case UI8:
		return 0, math.MaxUint8
	case I32:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// WrapInt converts v to the integer type d the way a two's-complement machine
// truncates: i8, i32 and ui8 keep the low bits, and i1 maps every non-zero
// value to 1 (a boolean). Other types return v unchanged.
func WrapInt(d DType, v int64) int64 {
	switch d {
	case I1:
		if v != 0 {
			return 1
		}
		return 0
	case I8:
		return int64(int8(v))
	case UI8:
		return int64(uint8(v))
	case I32:
		return int64(int32(v))
	}
	return v
}

// RoundFloat rounds x to the floating-point type d: f16 and bf16 round to
// nearest even; f32 and every other type return x unchanged.
func RoundFloat(d DType, x float32) float32 {
	switch d {
	case F16:
		return RoundF16(x)
	case BF16:
		return RoundBF16(x)
	}
	return x
}

// RoundSlice rounds every element of v in place to the floating-point type d.
// It does nothing for f32.
func RoundSlice(d DType, v []float32) {
	switch d {
	case F16:
		for i, x := range v {
			v[i] = RoundF16(x)
		}
	case BF16:
		for i, x := range v {
			v[i] = RoundBF16(x)
		}
	}
}

package tensor

import "math"

// F32ToF16Bits returns the IEEE binary16 encoding of x rounded to nearest,
// ties to even. Values too large for f16 become infinities, values too small
// become (signed) zeros or f16 subnormals, and NaNs stay NaNs (quiet, with the
// sign and the top payload bits of x).
func F32ToF16Bits(x float32) uint16 {
	b := math.Float32bits(x)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	man := b & 0x7fffff
	if exp == 0xff {
		if man != 0 {
			return sign | 0x7e00 | uint16(man>>13)
		}
		return sign | 0x7c00
	}
	// e is the biased f16 exponent of x if x were a normal f16.
	e := exp - 127 + 15
	if e >= 31 {
		return sign | 0x7c00
	}
	if e >= 1 {
		// Normal: keep 10 mantissa bits; a carry out of the mantissa bumps the
		// exponent, and a carry out of exponent 30 gives exactly the infinity
		// encoding 0x7c00.
		h := uint32(e)<<10 | man>>13
		rem := man & 0x1fff
		if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
			h++
		}
		return sign | uint16(h)
	}
	if exp == 0 {
		// f32 zeros and subnormals are below 2^-126, far under half the
		// smallest f16 subnormal (2^-25).
		return sign
	}
	// Subnormal f16: the value is m·2^(exp-150) and the f16 unit is 2^-24, so
	// the f16 mantissa is m>>(126-exp) rounded. Rounding up from 0x3ff gives
	// 0x400, the encoding of the smallest normal.
	m := man | 0x800000
	shift := uint32(126 - exp)
	if shift > 24 {
		return sign
	}
	h := m >> shift
	rem := m & (1<<shift - 1)
	half := uint32(1) << (shift - 1)
	if rem > half || (rem == half && h&1 == 1) {
		h++
	}
	return sign | uint16(h)
}

// F16BitsToF32 returns the float32 value of the IEEE binary16 encoding h.
// Every f16 value, including subnormals, is exactly representable.
func F16BitsToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp != 0:
		return math.Float32frombits(sign | (exp+127-15)<<23 | man<<13)
	case man == 0:
		return math.Float32frombits(sign)
	}
	// Subnormal: normalise the mantissa.
	e := uint32(127 - 15 + 1)
	for man&0x400 == 0 {
		man <<= 1
		e--
	}
	return math.Float32frombits(sign | e<<23 | (man&0x3ff)<<13)
}

// F32ToBF16Bits returns the bfloat16 encoding of x (the top 16 bits of the
// float32 encoding) rounded to nearest, ties to even. NaNs stay NaNs (quiet).
func F32ToBF16Bits(x float32) uint16 {
	b := math.Float32bits(x)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x0040
	}
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}

// BF16BitsToF32 returns the float32 value of the bfloat16 encoding h.
func BF16BitsToF32(h uint16) float32 {
	return math.Float32frombits(uint32(h) << 16)
}

// F16Bits returns the binary16 encoding of x, an element of an f16 tensor
// (a float32 holding an f16 value exactly). It is F32ToF16Bits except for
// NaNs, whose bits are kept as they are, signalling ones included: a
// tensor read from a file and written back gives the same bytes. (A
// conversion, F32ToF16Bits, quiets NaNs as hardware does.)
func F16Bits(x float32) uint16 {
	b := math.Float32bits(x)
	if b&0x7fffffff > 0x7f800000 && b&0x1fff == 0 {
		return uint16(b>>16)&0x8000 | 0x7c00 | uint16(b>>13)&0x3ff
	}
	return F32ToF16Bits(x)
}

// BF16Bits is F16Bits for bfloat16: the top half of x's encoding, NaNs
// kept as they are.
func BF16Bits(x float32) uint16 {
	b := math.Float32bits(x)
	if b&0x7fffffff > 0x7f800000 && b&0xffff == 0 {
		return uint16(b >> 16)
	}
	return F32ToBF16Bits(x)
}

// RoundF16 rounds x to the nearest f16 value (ties to even) and returns it as
// a float32.
func RoundF16(x float32) float32 { return F16BitsToF32(F32ToF16Bits(x)) }

// RoundBF16 rounds x to the nearest bf16 value (ties to even) and returns it
// as a float32.
func RoundBF16(x float32) float32 { return BF16BitsToF32(F32ToBF16Bits(x)) }

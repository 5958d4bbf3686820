package tensor

import "fmt"

// RNG is a seeded pseudo-random generator whose streams are fixed by this
// package, so weights and inputs generated from a seed are the same on every
// machine and Go version (math/rand does not promise that).
//
// The algorithm is splitmix64 (Steele, Lea and Flood, "Fast splittable
// pseudorandom number generators", OOPSLA 2014), as in Java's SplittableRandom:
//
//	state += 0x9E3779B97F4A7C15
//	z := state
//	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
//	z = (z ^ z>>27) * 0x94D049BB133111EB
//	return z ^ z>>31
//
// with the state initialised to the seed. Derived values are defined exactly
// below (Float64, Float32, Intn, Uniform, Ints). An RNG is not safe for
// concurrent use.
type RNG struct {
	state uint64
}

// NewRNG returns a generator seeded with seed.
func NewRNG(seed uint64) *RNG { return &RNG{state: seed} }

// Uint64 returns the next 64 random bits.
func (r *RNG) Uint64() uint64 {
	r.state += 0x9E3779B97F4A7C15
	z := r.state
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// Float64 returns a uniform value in [0, 1): the top 53 bits of Uint64 times
// 2^-53.
func (r *RNG) Float64() float64 {
	return float64(r.Uint64()>>11) * (1.0 / (1 << 53))
}

// Float32 returns a uniform value in [0, 1): the top 24 bits of Uint64 times
// 2^-24.
func (r *RNG) Float32() float32 {
	return float32(r.Uint64()>>40) * (1.0 / (1 << 24))
}

// Intn returns a uniform integer in [0, n) for n > 0, by rejection: draws of
// Uint64 at or above the largest multiple of n that fits in 2^64 are
// discarded, and the first accepted draw x gives x mod n. It panics if n <= 0.
func (r *RNG) Intn(n int) int {
	if n <= 0 {
		panic("tensor: RNG.Intn called with n <= 0")
	}
	un := uint64(n)
	limit := -un / un * un // (2^64 / n) * n, computed modulo 2^64
	for {
		x := r.Uint64()
		if limit == 0 || x < limit {
			return int(x % un)
		}
	}
}

// Uniform returns a tensor of the floating-point type dt whose elements, in
// row-major order, are float32(lo + (hi−lo)·u) rounded to dt, where u is one
// Float64 draw per element and the arithmetic is float64 (no fused
// multiply-add). Values lie in [lo, hi] (rounding may reach hi).
func (r *RNG) Uniform(dt DType, shape []int, lo, hi float32) (*Tensor, error) {
	if !dt.IsFloat() {
		return nil, fmt.Errorf("RNG.Uniform: %v is not a floating-point type", dt)
	}
	if NumElements(shape) < 0 {
		return nil, fmt.Errorf("RNG.Uniform: invalid shape %v", shape)
	}
	t := Zeros(dt, shape...)
	span := float64(hi) - float64(lo)
	for i := range t.floats {
		v := float64(lo) + float64(span*r.Float64())
		t.floats[i] = RoundFloat(dt, float32(v))
	}
	return t, nil
}

// Ints returns a tensor of the integer type dt whose elements, in row-major
// order, are lo + Intn(hi−lo), uniform in [lo, hi). The range must be
// non-empty and inside dt's range.
func (r *RNG) Ints(dt DType, shape []int, lo, hi int64) (*Tensor, error) {
	tlo, thi := dt.IntRange()
	if !dt.IsInt() || lo >= hi || lo < tlo || hi-1 > thi || hi-lo < 0 {
		return nil, fmt.Errorf("RNG.Ints: invalid range [%d, %d) for %v", lo, hi, dt)
	}
	if NumElements(shape) < 0 {
		return nil, fmt.Errorf("RNG.Ints: invalid shape %v", shape)
	}
	t := Zeros(dt, shape...)
	for i := range t.Len() {
		v := lo + int64(r.Intn(int(hi-lo)))
		if dt == UI8 {
			t.bytes[i] = byte(v)
		} else {
			t.ints[i] = v
		}
	}
	return t, nil
}

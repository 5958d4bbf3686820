package ir

import (
	"math"
	"math/big"
)

// FloatSemantics describes a binary floating-point format the way LLVM's
// APFloat does: precision counts the significand bits including the leading
// one, and exponents are unbiased. Values are carried as a sign, a
// significand and an exponent so that formats wider than float64 (f80, f128)
// round-trip exactly.
type FloatSemantics struct {
	Name      string // MLIR spelling, e.g. "f32"
	Precision int    // significand bits including the integer bit
	MaxExp    int    // largest unbiased exponent of a finite value
	MinExp    int    // smallest unbiased exponent of a normal value
	Bits      int    // storage width
	// NaN and infinity encodings.
	nonFinite nonFiniteKind
	// explicitInt is true for x87 extended precision, whose integer bit is
	// stored.
	explicitInt bool
}

type nonFiniteKind uint8

const (
	ieeeNonFinite  nonFiniteKind = iota // inf and NaN as in IEEE 754
	nanOnlyAllOnes                      // no inf; all-ones exponent and mantissa is NaN (…FN)
	nanOnlyNegZero                      // no inf, no -0; the -0 pattern is NaN (…FNUZ)
)

// The float formats MLIR 19 knows, in the order its lexer tries them.
var (
	semF16           = &FloatSemantics{Name: "f16", Precision: 11, MaxExp: 15, MinExp: -14, Bits: 16}
	semBF16          = &FloatSemantics{Name: "bf16", Precision: 8, MaxExp: 127, MinExp: -126, Bits: 16}
	semF32           = &FloatSemantics{Name: "f32", Precision: 24, MaxExp: 127, MinExp: -126, Bits: 32}
	semF64           = &FloatSemantics{Name: "f64", Precision: 53, MaxExp: 1023, MinExp: -1022, Bits: 64}
	semF80           = &FloatSemantics{Name: "f80", Precision: 64, MaxExp: 16383, MinExp: -16382, Bits: 80, explicitInt: true}
	semF128          = &FloatSemantics{Name: "f128", Precision: 113, MaxExp: 16383, MinExp: -16382, Bits: 128}
	semTF32          = &FloatSemantics{Name: "tf32", Precision: 11, MaxExp: 127, MinExp: -126, Bits: 19}
	semF8E5M2        = &FloatSemantics{Name: "f8E5M2", Precision: 3, MaxExp: 15, MinExp: -14, Bits: 8}
	semF8E4M3        = &FloatSemantics{Name: "f8E4M3", Precision: 4, MaxExp: 7, MinExp: -6, Bits: 8}
	semF8E4M3FN      = &FloatSemantics{Name: "f8E4M3FN", Precision: 4, MaxExp: 8, MinExp: -6, Bits: 8, nonFinite: nanOnlyAllOnes}
	semF8E5M2FNUZ    = &FloatSemantics{Name: "f8E5M2FNUZ", Precision: 3, MaxExp: 15, MinExp: -15, Bits: 8, nonFinite: nanOnlyNegZero}
	semF8E4M3FNUZ    = &FloatSemantics{Name: "f8E4M3FNUZ", Precision: 4, MaxExp: 7, MinExp: -7, Bits: 8, nonFinite: nanOnlyNegZero}
	semF8E4M3B11FNUZ = &FloatSemantics{Name: "f8E4M3B11FNUZ", Precision: 4, MaxExp: 4, MinExp: -10, Bits: 8, nonFinite: nanOnlyNegZero}
)

var allFloatSemantics = []*FloatSemantics{
	semF16, semBF16, semF32, semF64, semF80, semF128, semTF32,
	semF8E5M2, semF8E4M3, semF8E4M3FN, semF8E5M2FNUZ, semF8E4M3FNUZ, semF8E4M3B11FNUZ,
}

// floatSemanticsByName returns the format with the given MLIR spelling.
func floatSemanticsByName(name string) *FloatSemantics {
	for _, s := range allFloatSemantics {
		if s.Name == name {
			return s
		}
	}
	return nil
}

func (s *FloatSemantics) expBits() int {
	m := s.Precision - 1
	if s.explicitInt {
		m = s.Precision
	}
	return s.Bits - 1 - m
}

func (s *FloatSemantics) mantBits() int {
	if s.explicitInt {
		return s.Precision
	}
	return s.Precision - 1
}

func (s *FloatSemantics) bias() int {
	// The biased exponent of the smallest normal is 1.
	return 1 - s.MinExp
}

// apfloat is a decoded floating-point value.
type apfloat struct {
	sem  *FloatSemantics
	kind fpKind
	neg  bool
	// For fpNormal: value = sig × 2^(exp - (Precision-1)), with sig < 2^Precision.
	sig *big.Int
	exp int
	// nanBits keeps the exact pattern of a NaN read from bits, so its
	// payload prints back unchanged (MLIR keeps it too).
	nanBits *big.Int
}

type fpKind uint8

const (
	fpZero fpKind = iota
	fpNormal
	fpInf
	fpNaN
)

// decodeFloat turns a bit pattern (given as a big.Int) into its value.
func decodeFloat(s *FloatSemantics, bits *big.Int) apfloat {
	f := decodeFloatValue(s, bits)
	if f.kind == fpNaN {
		f.nanBits = new(big.Int).Set(bits)
	}
	return f
}

func decodeFloatValue(s *FloatSemantics, bits *big.Int) apfloat {
	mb := s.mantBits()
	eb := s.expBits()
	mant := new(big.Int).And(bits, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(mb)), big.NewInt(1)))
	e := int(new(big.Int).And(new(big.Int).Rsh(bits, uint(mb)), big.NewInt(int64(1<<eb-1))).Int64())
	neg := bits.Bit(s.Bits-1) == 1
	f := apfloat{sem: s, neg: neg}
	allOnesExp := 1<<eb - 1
	switch s.nonFinite {
	case ieeeNonFinite:
		if e == allOnesExp {
			if s.explicitInt {
				// x87: integer bit set and zero fraction is infinity.
				frac := new(big.Int).And(mant, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(mb-1)), big.NewInt(1)))
				if frac.Sign() == 0 {
					f.kind = fpInf
				} else {
					f.kind = fpNaN
				}
				return f
			}
			if mant.Sign() == 0 {
				f.kind = fpInf
			} else {
				f.kind = fpNaN
			}
			return f
		}
	case nanOnlyAllOnes:
		if e == allOnesExp && mant.Cmp(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(mb)), big.NewInt(1))) == 0 {
			f.kind = fpNaN
			return f
		}
	case nanOnlyNegZero:
		if neg && e == 0 && mant.Sign() == 0 {
			f.kind = fpNaN
			return f
		}
	}
	if e == 0 && mant.Sign() == 0 {
		f.kind = fpZero
		return f
	}
	f.kind = fpNormal
	if s.explicitInt {
		f.sig = mant
		if e == 0 {
			e = 1
		}
		f.exp = e - s.bias()
	} else if e == 0 {
		f.sig = mant
		f.exp = s.MinExp
	} else {
		f.sig = new(big.Int).SetBit(mant, mb, 1)
		f.exp = e - s.bias()
	}
	if f.sig.Sign() == 0 {
		f.kind = fpZero
	}
	return f
}

// floatFromRat rounds an exact rational to the format with round to nearest,
// ties to even, as APFloat's string conversion does. Overflow gives infinity
// (or NaN for formats without infinity).
func floatFromRat(s *FloatSemantics, r *big.Rat, neg bool) apfloat {
	f := apfloat{sem: s, neg: neg}
	if r.Sign() == 0 {
		f.kind = fpZero
		return f
	}
	num := new(big.Int).Set(r.Num())
	den := new(big.Int).Set(r.Denom())
	// Find e with 2^e <= r < 2^(e+1).
	e := num.BitLen() - den.BitLen()
	if cmpShift(num, den, e) < 0 {
		e--
	}
	if e < s.MinExp {
		e = s.MinExp
	}
	// sig = round(r × 2^(Precision-1-e)).
	shift := s.Precision - 1 - e
	n, d := num, den
	if shift >= 0 {
		n = new(big.Int).Lsh(num, uint(shift))
	} else {
		d = new(big.Int).Lsh(den, uint(-shift))
	}
	q, rem := new(big.Int).QuoRem(n, d, new(big.Int))
	twice := new(big.Int).Lsh(rem, 1)
	if c := twice.Cmp(d); c > 0 || (c == 0 && q.Bit(0) == 1) {
		q.Add(q, big.NewInt(1))
	}
	if q.BitLen() > s.Precision {
		q.Rsh(q, 1)
		e++
	}
	if q.Sign() == 0 {
		f.kind = fpZero
		return f.normalizeZero()
	}
	if e > s.MaxExp || (s.nonFinite == nanOnlyAllOnes && e == s.MaxExp && q.Cmp(maxSigNanOnly(s)) > 0) {
		if s.nonFinite == ieeeNonFinite {
			f.kind = fpInf
		} else {
			f.kind = fpNaN
		}
		return f
	}
	f.kind = fpNormal
	f.sig = q
	f.exp = e
	return f
}

func (f apfloat) normalizeZero() apfloat {
	if f.kind == fpZero && f.sem.nonFinite == nanOnlyNegZero {
		f.neg = false
	}
	return f
}

// maxSigNanOnly is the largest significand at MaxExp for …FN formats, whose
// all-ones pattern is NaN.
func maxSigNanOnly(s *FloatSemantics) *big.Int {
	m := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(s.Precision)), big.NewInt(2))
	return m
}

// cmpShift compares num with den×2^e.
func cmpShift(num, den *big.Int, e int) int {
	if e >= 0 {
		return num.Cmp(new(big.Int).Lsh(den, uint(e)))
	}
	return new(big.Int).Lsh(num, uint(-e)).Cmp(den)
}

// encode returns the bit pattern of a value.
func (f apfloat) encode() *big.Int {
	if f.kind == fpNaN && f.nanBits != nil {
		return new(big.Int).Set(f.nanBits)
	}
	s := f.sem
	mb, eb := s.mantBits(), s.expBits()
	bits := new(big.Int)
	switch f.kind {
	case fpZero:
		if f.neg && s.nonFinite == nanOnlyNegZero {
			return bits
		}
	case fpInf:
		bits.SetInt64(int64(1<<eb - 1))
		bits.Lsh(bits, uint(mb))
		if s.explicitInt {
			bits.SetBit(bits, mb-1, 1)
		}
	case fpNaN:
		switch s.nonFinite {
		case ieeeNonFinite:
			bits.SetInt64(int64(1<<eb - 1))
			bits.Lsh(bits, uint(mb))
			bits.SetBit(bits, mb-1, 1)
			if s.explicitInt {
				bits.SetBit(bits, mb-2, 1)
			}
		case nanOnlyAllOnes:
			bits.Lsh(big.NewInt(1), uint(s.Bits-1))
			bits.Sub(bits, big.NewInt(1))
		case nanOnlyNegZero:
			bits.SetBit(bits, s.Bits-1, 1)
			return bits
		}
	case fpNormal:
		if s.explicitInt {
			be := f.exp + s.bias()
			if f.sig.BitLen() < s.Precision {
				be = 0
			}
			bits.SetInt64(int64(be))
			bits.Lsh(bits, uint(mb))
			bits.Or(bits, f.sig)
		} else if f.sig.BitLen() < s.Precision {
			bits.Set(f.sig) // subnormal
		} else {
			bits.SetInt64(int64(f.exp + s.bias()))
			bits.Lsh(bits, uint(mb))
			frac := new(big.Int).SetBit(new(big.Int).Set(f.sig), mb, 0)
			bits.Or(bits, frac)
		}
	}
	if f.neg {
		bits.SetBit(bits, s.Bits-1, 1)
	}
	return bits
}

// rat returns the exact value of a finite number (without sign).
func (f apfloat) rat() *big.Rat {
	if f.kind != fpNormal {
		return new(big.Rat)
	}
	e := f.exp - (f.sem.Precision - 1)
	r := new(big.Rat).SetInt(f.sig)
	if e >= 0 {
		r.SetInt(new(big.Int).Lsh(f.sig, uint(e)))
	} else {
		r.SetFrac(f.sig, new(big.Int).Lsh(big.NewInt(1), uint(-e)))
	}
	return r
}

// floatFromFloat64 converts a float64 to the format, rounding to nearest even,
// as APFloat::convert does.
func floatFromFloat64(s *FloatSemantics, v float64) apfloat {
	neg := math.Signbit(v)
	switch {
	case math.IsNaN(v):
		return apfloat{sem: s, kind: fpNaN, neg: neg && s.nonFinite == ieeeNonFinite}
	case math.IsInf(v, 0):
		if s.nonFinite == ieeeNonFinite {
			return apfloat{sem: s, kind: fpInf, neg: neg}
		}
		return apfloat{sem: s, kind: fpNaN}
	}
	r := new(big.Rat)
	r.SetFloat64(math.Abs(v))
	return floatFromRat(s, r, neg)
}

// float64Value returns the value as a float64 (rounded if the format is wider).
func (f apfloat) float64Value() float64 {
	var v float64
	switch f.kind {
	case fpZero:
		v = 0
	case fpInf:
		v = math.Inf(1)
	case fpNaN:
		return math.NaN()
	case fpNormal:
		v, _ = f.rat().Float64()
	}
	if f.neg {
		v = -v
	}
	return v
}

// parseDecimalFloat converts a decimal literal exactly (as APFloat's string
// constructor does).
func parseDecimalFloat(s *FloatSemantics, lit string) (apfloat, bool) {
	neg := false
	if len(lit) > 0 && (lit[0] == '-' || lit[0] == '+') {
		neg = lit[0] == '-'
		lit = lit[1:]
	}
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		return apfloat{}, false
	}
	return floatFromRat(s, r, neg), true
}

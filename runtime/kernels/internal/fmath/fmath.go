package fmath

import (
	"math"
	"math/bits"
)

// Exp returns e**x.
func Exp(x float64) float64 {
	const (
		Ln2Hi     = 6.93147180369123816490e-01
		Ln2Lo     = 1.90821492927058770002e-10
		Log2e     = 1.44269504088896338700e+00
		Overflow  = 7.09782712893383973096e+02
		Underflow = -7.45133219101941108420e+02
		NearZero  = 1.0 / (1 << 28)
	)
	switch {
	case math.IsNaN(x):
		return x
	case x > Overflow:
		return math.Inf(1)
	case x < Underflow:
		return 0
	case -NearZero < x && x < NearZero:
		return 1 + x
	}
	var k int
	switch {
	case x < 0:
		k = int(float64(Log2e*x) - 0.5)
	case x > 0:
		k = int(float64(Log2e*x) + 0.5)
	}
	hi := x - float64(float64(k)*Ln2Hi)
	lo := float64(k) * Ln2Lo
	return expmulti(hi, lo, k)
}

// expmulti returns e**r × 2**k where r = hi - lo and |r| ≤ ln(2)/2.
func expmulti(hi, lo float64, k int) float64 {
	const (
		P1 = 1.66666666666666657415e-01
		P2 = -2.77777777770155933842e-03
		P3 = 6.61375632143793436117e-05
		P4 = -1.65339022054652515390e-06
		P5 = 4.13813679705723846039e-08
	)
	r := hi - lo
	t := r * r
	p := P4 + float64(t*P5)
	p = P3 + float64(t*p)
	p = P2 + float64(t*p)
	p = P1 + float64(t*p)
	c := r - float64(t*p)
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	return math.Ldexp(y, k)
}

// Log returns the natural logarithm of x.
func Log(x float64) float64 {
	const (
		Ln2Hi = 6.93147180369123816490e-01
		Ln2Lo = 1.90821492927058770002e-10
		L1    = 6.666666666666735130e-01
		L2    = 3.999999999940941908e-01
		L3    = 2.857142874366239149e-01
		L4    = 2.222219843214978396e-01
		L5    = 1.818357216161805012e-01
		L6    = 1.531383769920937332e-01
		L7    = 1.479819860511658591e-01
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := s * s
	s4 := s2 * s2
	t1 := L5 + float64(s4*L7)
	t1 = L3 + float64(s4*t1)
	t1 = L1 + float64(s4*t1)
	t1 = s2 * t1
	t2 := L4 + float64(s4*L6)
	t2 = L2 + float64(s4*t2)
	t2 = s4 * t2
	R := t1 + t2
	hfsq := float64(0.5*f) * f
	return float64(k*Ln2Hi) - ((hfsq - (float64(s*(hfsq+R)) + float64(k*Ln2Lo))) - f)
}

// Log1p returns log(1+x), accurate also for tiny x (Goldberg's method:
// log(u)·x/(u−1) with u = 1+x rounded).
func Log1p(x float64) float64 {
	u := 1 + x
	switch {
	case u == 1:
		return x
	case math.IsInf(u, 1):
		return u
	}
	return Log(u) * (x / (u - 1))
}

// Expm1 returns e**x − 1, accurate also for tiny x (Kahan's method:
// (u−1)·x/log(u) with u = e**x rounded).
func Expm1(x float64) float64 {
	u := Exp(x)
	switch {
	case u == 1:
		return x
	case u-1 == -1:
		return -1
	case math.IsInf(u, 1):
		return u
	}
	return (u - 1) * (x / Log(u))
}

// Tanh returns the hyperbolic tangent of x, as e/(e+2) with e = expm1(2|x|)
// and the sign of x; ±1 beyond |x| = 22, where tanh rounds to ±1 in float64.
func Tanh(x float64) float64 {
	ax := math.Abs(x)
	if math.IsNaN(x) {
		return x
	}
	var t float64
	if ax > 22 {
		t = 1
	} else {
		e := Expm1(2 * ax)
		t = e / (e + 2)
	}
	return math.Copysign(t, x)
}

// Pow returns x**y with the special cases of IEEE 754 pow (and Go's
// math.Pow): x**±0 = 1, 1**y = 1, NaN in gives NaN out, a negative x needs an
// integer y, and zeros and infinities behave as in math.Pow. Otherwise it
// computes exp(y·log|x|) with the sign of x for odd integer y.
func Pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN()
	case x == 0:
		odd := isOddInt(y)
		switch {
		case y < 0 && odd:
			return math.Copysign(math.Inf(1), x)
		case y < 0:
			return math.Inf(1)
		case odd:
			return x
		}
		return 0
	case math.IsInf(y, 0):
		switch {
		case x == -1:
			return 1
		case (math.Abs(x) < 1) == math.IsInf(y, 1):
			return 0
		}
		return math.Inf(1)
	case math.IsInf(x, 0):
		if math.IsInf(x, -1) {
			return Pow(1/x, -y) // -0 ** -y
		}
		if y < 0 {
			return 0
		}
		return math.Inf(1)
	}
	neg := false
	if x < 0 {
		if y != math.Trunc(y) {
			return math.NaN()
		}
		neg = isOddInt(y)
		x = -x
	}
	r := Exp(y * Log(x))
	if neg {
		return -r
	}
	return r
}

func isOddInt(y float64) bool {
	if math.Abs(y) >= 1<<53 {
		return false // every float64 this large is even
	}
	i := int64(y)
	return float64(i) == y && i&1 == 1
}

// Sin returns the sine of x (Cephes, with Payne-Hanek reduction for huge x).
func Sin(x float64) float64 {
	switch {
	case x == 0 || math.IsNaN(x):
		return x
	case math.IsInf(x, 0):
		return math.NaN()
	}
	sign := false
	if x < 0 {
		x = -x
		sign = true
	}
	j, z := reduce(x)
	if j > 3 {
		sign = !sign
		j -= 4
	}
	var y float64
	if j == 1 || j == 2 {
		y = cosPoly(z)
	} else {
		y = sinPoly(z)
	}
	if sign {
		y = -y
	}
	return y
}

// Cos returns the cosine of x.
func Cos(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN()
	}
	sign := false
	j, z := reduce(math.Abs(x))
	if j > 3 {
		j -= 4
		sign = !sign
	}
	if j > 1 {
		sign = !sign
	}
	var y float64
	if j == 1 || j == 2 {
		y = sinPoly(z)
	} else {
		y = cosPoly(z)
	}
	if sign {
		y = -y
	}
	return y
}

var sinCoef = [...]float64{
	1.58962301576546568060e-10,
	-2.50507477628578072866e-8,
	2.75573136213857245213e-6,
	-1.98412698295895385996e-4,
	8.33333333332211858878e-3,
	-1.66666666666666307295e-1,
}

var cosCoef = [...]float64{
	-1.13585365213876817300e-11,
	2.08757008419747316778e-9,
	-2.75573141792967388112e-7,
	2.48015872888517045348e-5,
	-1.38888888888730564116e-3,
	4.16666666666665929218e-2,
}

func horner(c *[6]float64, zz float64) float64 {
	p := c[0]
	for _, k := range c[1:] {
		p = float64(p*zz) + k
	}
	return p
}

func sinPoly(z float64) float64 {
	zz := z * z
	return z + float64(float64(z*zz)*horner(&sinCoef, zz))
}

func cosPoly(z float64) float64 {
	zz := z * z
	return 1.0 - float64(0.5*zz) + float64(float64(zz*zz)*horner(&cosCoef, zz))
}

// reduce returns the octant j (0..7) of x ≥ 0 and the remainder z in
// [−π/4, π/4], as Go's math package does.
func reduce(x float64) (uint64, float64) {
	const (
		PI4A = 7.85398125648498535156e-1
		PI4B = 3.77489470793079817668e-8
		PI4C = 2.69515142907905952645e-15
	)
	if x >= reduceThreshold {
		return trigReduce(x)
	}
	j := uint64(x * (4 / math.Pi))
	y := float64(j)
	if j&1 == 1 {
		j++
		y++
	}
	j &= 7
	z := ((x - float64(y*PI4A)) - float64(y*PI4B)) - float64(y*PI4C)
	return j, z
}

const reduceThreshold = 1 << 29

// trigReduce is Payne-Hanek reduction by π/4 in integer arithmetic.
func trigReduce(x float64) (j uint64, z float64) {
	const (
		PI4   = math.Pi / 4
		shift = 52
		mask  = 0x7FF
		bias  = 1023
	)
	ix := math.Float64bits(x)
	exp := int(ix>>shift&mask) - bias - shift
	ix &^= mask << shift
	ix |= 1 << shift
	digit, bitshift := uint(exp+61)/64, uint(exp+61)%64
	z0 := (mPi4[digit] << bitshift) | (mPi4[digit+1] >> (64 - bitshift))
	z1 := (mPi4[digit+1] << bitshift) | (mPi4[digit+2] >> (64 - bitshift))
	z2 := (mPi4[digit+2] << bitshift) | (mPi4[digit+3] >> (64 - bitshift))
	z2hi, _ := bits.Mul64(z2, ix)
	z1hi, z1lo := bits.Mul64(z1, ix)
	z0lo := z0 * ix
	lo, c := bits.Add64(z1lo, z2hi, 0)
	hi, _ := bits.Add64(z0lo, z1hi, c)
	j = hi >> 61
	hi = hi<<3 | lo>>61
	lz := uint(bits.LeadingZeros64(hi))
	e := uint64(bias - (lz + 1))
	hi = (hi << (lz + 1)) | (lo >> (64 - (lz + 1)))
	hi >>= 64 - shift
	hi |= e << shift
	z = math.Float64frombits(hi)
	if j&1 == 1 {
		j++
		j &= 7
		z--
	}
	return j, z * PI4
}

// mPi4 is the binary digits of 4/π as a uint64 array.
var mPi4 = [...]uint64{
	0x0000000000000001,
	0x45f306dc9c882a53,
	0xf84eafa3ea69bb81,
	0xb6c52b3278872083,
	0xfca2c757bd778ac3,
	0x6e48dc74849ba5c0,
	0x0c925dd413a32439,
	0xfc3bd63962534e7d,
	0xd1046bea5d768909,
	0xd338e04d68befc82,
	0x7323ac7306a673e9,
	0x3908bf177bf25076,
	0x3ff12fffbc0b301f,
	0xde5e2316b414da3e,
	0xda6cfd9e4f96136e,
	0x9e8c7ecd3cbfd45a,
	0xea4f758fd7cbe2f6,
	0x7a0e73ef14a525d4,
	0xd7f6bf623f1aba10,
	0xac06608df8f6d757,
}

package kernels

import (
	"math"

	"github.com/rlx-compiler/rlx/runtime/kernels/internal/fmath"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// UnaryOp names an element-wise unary op by its graph-dialect name without
// the "graph." prefix.
type UnaryOp string

// The unary ops.
const (
	Neg        UnaryOp = "neg"
	Abs        UnaryOp = "abs"
	Exp        UnaryOp = "exp"
	Log        UnaryOp = "log"
	Sqrt       UnaryOp = "sqrt"
	Rsqrt      UnaryOp = "rsqrt"
	Reciprocal UnaryOp = "reciprocal"
	Sigmoid    UnaryOp = "sigmoid"
	Tanh       UnaryOp = "tanh"
	Sin        UnaryOp = "sin"
	Cos        UnaryOp = "cos"
	Relu       UnaryOp = "relu"
	Softplus   UnaryOp = "softplus"
	Silu       UnaryOp = "silu"
	Gelu       UnaryOp = "gelu"
	GeluTanh   UnaryOp = "gelu_tanh"

	// Erf and Square are not graph ops: they are MPSGraph's erf and square,
	// which lower-to-mps decomposes gelu and the norms into, run by the
	// interpreter for the mps dialect's primitives.
	Erf    UnaryOp = "erf"
	Square UnaryOp = "square"
)

// UnaryFunc returns the float32 function that op applies to each element, or
// nil for an unknown op. neg, abs, relu and reciprocal are exact float32
// operations; the others evaluate the formula in float64 (with the
// deterministic routines of internal/fmath) and round once to float32:
//
//	sigmoid    1/(1+exp(−x))
//	softplus   max(x,0) + log1p(exp(−|x|))
//	silu       x/(1+exp(−x))
//	gelu       0.5·x·erfc(−x/√2)                    (= 0.5·x·(1+erf(x/√2)))
//	gelu_tanh  x/(1+exp(−2u)), u = √(2/π)·(x+0.044715·x³)  (= 0.5·x·(1+tanh u))
//	rsqrt      1/sqrt(x)
//	erf        erf(x)
//
// square is the exact float32 product x·x.
// The rewritten forms are algebraically identical to the spec's and avoid
// cancellation for negative x. relu maps x ≤ 0 (including −0) to +0 and
// passes NaN through.
func UnaryFunc(op UnaryOp) func(float32) float32 {
	switch op {
	case Neg:
		return func(x float32) float32 { return -x }
	case Abs:
		return func(x float32) float32 { return float32(math.Abs(float64(x))) }
	case Relu:
		return func(x float32) float32 {
			if x > 0 || x != x {
				return x
			}
			return 0
		}
	case Reciprocal:
		return func(x float32) float32 { return 1 / x }
	case Exp:
		return wide(fmath.Exp)
	case Log:
		return wide(fmath.Log)
	case Sqrt:
		return wide(math.Sqrt)
	case Rsqrt:
		return wide(func(x float64) float64 { return 1 / math.Sqrt(x) })
	case Sigmoid:
		return wide(sigmoid64)
	case Tanh:
		return wide(fmath.Tanh)
	case Sin:
		return wide(fmath.Sin)
	case Cos:
		return wide(fmath.Cos)
	case Softplus:
		return wide(func(x float64) float64 { return math.Max(x, 0) + fmath.Log1p(fmath.Exp(-math.Abs(x))) })
	case Silu:
		return wide(func(x float64) float64 { return x / (1 + fmath.Exp(-x)) })
	case Gelu:
		return wide(func(x float64) float64 { return float64(0.5*x) * fmath.Erfc(-x/math.Sqrt2) })
	case Erf:
		return wide(fmath.Erf)
	case Square:
		return func(x float32) float32 { return x * x }
	case GeluTanh:
		return wide(func(x float64) float64 {
			const c = 0.7978845608028654 // √(2/π)
			u := c * (x + float64(float64(0.044715*x)*x)*x)
			return x / (1 + fmath.Exp(-2*u))
		})
	}
	return nil
}

// wide lifts a float64 function to float32: widen, evaluate, round once.
func wide(f func(float64) float64) func(float32) float32 {
	return func(x float32) float32 { return float32(f(float64(x))) }
}

func sigmoid64(x float64) float64 { return 1 / (1 + fmath.Exp(-x)) }

// sigmoid32 is sigmoid rounded to float32, as graph.sigmoid computes it.
func sigmoid32(x float32) float32 { return float32(sigmoid64(float64(x))) }

// tanh32 is tanh rounded to float32, as graph.tanh computes it.
func tanh32(x float32) float32 { return float32(fmath.Tanh(float64(x))) }

// exp32 is exp rounded to float32, as graph.exp computes it.
func exp32(x float32) float32 { return float32(fmath.Exp(float64(x))) }

// Unary applies op to every element of x and returns a tensor of element
// type out. Floating-point operands need a floating-point result type (the
// value is rounded to it). Integer operands support only neg, abs, relu and square,
// computed exactly in int64 and wrapped to the integer result type.
func Unary(op UnaryOp, x *tensor.Tensor, out tensor.DType) (*tensor.Tensor, error) {
	name := "graph." + string(op)
	f := UnaryFunc(op)
	if f == nil {
		return nil, errorf("graph.unary", "unknown unary op %q", op)
	}
	if x == nil {
		return nil, errorf(name, "missing operand")
	}
	float := x.DType().IsFloat()
	if err := requireResultClass(name, out, float); err != nil {
		return nil, err
	}
	if !float {
		return unaryInt(name, op, x, out)
	}
	r := tensor.Zeros(out, x.Shape()...)
	src, dst := x.Floats(), r.Floats()
	parallelFor(len(src), 16*len(src), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			dst[i] = f(src[i])
		}
		tensor.RoundSlice(out, dst[lo:hi])
	})
	return r, nil
}

func unaryInt(name string, op UnaryOp, x *tensor.Tensor, out tensor.DType) (*tensor.Tensor, error) {
	var f func(int64) int64
	switch op {
	case Neg:
		f = func(v int64) int64 { return -v }
	case Abs:
		f = func(v int64) int64 {
			if v < 0 {
				return -v
			}
			return v
		}
	case Relu:
		f = func(v int64) int64 { return max(v, 0) }
	case Square:
		f = func(v int64) int64 { return v * v }
	default:
		return nil, errorf(name, "operand has type %s; want a floating-point element type", x.Type())
	}
	src := intValues(x)
	vals := make([]int64, len(src))
	for i, v := range src {
		vals[i] = f(v)
	}
	return newIntResult(out, x.Shape(), vals), nil
}

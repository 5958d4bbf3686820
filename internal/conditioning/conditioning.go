package conditioning

import (
	"encoding/binary"
	"fmt"
	"maps"
	"math"

	"github.com/rlx-compiler/rlx/codegen/metal/opsuite"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// perturbULPs is how far perturb moves each f32 element: this many units
// in the last place. The dequantising GEMVs decode a code q as the float
// 256 + q and take 264·Σx off after (rlx_n256), so their sums carry
// rounding of about 2^8 times the codes' own: 32 ulps left a q4_0 product
// of all-negative x (the random functions' g1944) 10 times the NMSE of
// its perturbation; 64 cover it, and mark 0.6% of the first 2,400
// functions' results (32: 0.4%, 128: 0.8%). f16 and bf16 elements move
// by one of theirs: the
// kernels compute in f32 and round to the type once, as the interpreter
// does, so their rounding differences are of f32's size before that last
// rounding (which the f16 and bf16 limits allow for).
const perturbULPs = 64

// perturb returns a copy of t, a float tensor, with each element
// multiplied by 1 ± perturbULPs ulps (f32; one ulp for f16 and bf16), the
// sign drawn per element from salt, rounded back to the type; other
// tensors (integers, packed weights) are returned as they are.
func perturb(t *tensor.Tensor, salt uint64) *tensor.Tensor {
	if t == nil || !t.DType().IsFloat() {
		return t
	}
	var eps float64
	switch t.DType() {
	case tensor.F16:
		eps = 0x1p-10
	case tensor.BF16:
		eps = 0x1p-7
	default:
		eps = perturbULPs * 0x1p-23
	}
	return perturbBy(t, eps, salt, false)
}

// perturbBy returns a copy of t, a float tensor, with each element
// multiplied by 1 ± eps, the sign drawn per element from salt (each
// negated under flip), rounded back to the type.
func perturbBy(t *tensor.Tensor, eps float64, salt uint64, flip bool) *tensor.Tensor {
	r := t.Clone()
	out := r.Floats()
	rng := tensor.NewRNG(salt*0x9E3779B97F4A7C15 + 1)
	for i, x := range out {
		s := eps
		if (rng.Uint64()&1 == 0) != flip {
			s = -eps
		}
		out[i] = tensor.RoundFloat(t.DType(), float32(float64(x)*(1+s)))
	}
	return r
}

// operandULPs is how far moveOperands moves each float operand of a
// rounding op: a value as a kernel computes it carries that op's own
// rounding, a few ulps (CUDA's rsqrtf is within 2, its exp and log
// within 2 or 3), which an op that cancels its terms inside amplifies:
// the random functions' g13601, a LayerNorm of two values with β = γ,
// γ·(n + 1) for n = −1 + 2.3·10⁻⁵, whose GPU run (n rounded apart by
// rsqrt) was 3.4·10⁻⁷ off in NMSE while inputs moved by 64 ulps moved it
// by less than 10⁻⁷ (both uses of γ move alike there).
const operandULPs = 4

// exactOps move no value: they copy, select, compare or round as the
// interpreter does (a cast to f16 or bf16 rounds once, as the kernels
// do), so moveOperands leaves their operands as they are.
var exactOps = map[string]bool{
	graph.ParamName: true, graph.ConstantName: true, graph.NegName: true, graph.AbsName: true, graph.ReluName: true,
	graph.MaxName: true, graph.MinName: true, graph.CmpName: true, graph.SelectName: true, graph.CastName: true,
	graph.ReshapeName: true, graph.BroadcastName: true, graph.TransposeName: true, graph.SliceName: true,
	graph.ConcatName: true, graph.GatherName: true, graph.TopKName: true,
}

// moveOperands returns an operand hook for ref's RunOperandsMoved, for
// the sample-th of conditionSamples runs: each f32 operand of an op
// outside exactOps multiplied element by element by 1 ± operandULPs ulps.
// An op's operands share one draw of signs per element, which operand i
// takes negated where bit sample of i is set: over the samples, every
// two of an op's first 2^conditionSamples operands are moved apart (the
// first sample moves operands 0 and 1 apart, the second 0 and 2, …),
// and each operand's elements apart from one another.
func moveOperands(salt uint64, sample int) func(op *ir.Operation, i int, t *tensor.Tensor) *tensor.Tensor {
	var last *ir.Operation
	ops := uint64(0)
	return func(op *ir.Operation, i int, t *tensor.Tensor) *tensor.Tensor {
		if op != last {
			last, ops = op, ops+1
		}
		if exactOps[op.Name()] || t.DType() != tensor.F32 {
			return t
		}
		return perturbBy(t, operandULPs*0x1p-23, salt+ops<<20, i>>sample&1 == 1)
	}
}

// scaleNMSE scales the NMSE that perturbScales causes to what a
// perturbation of 32 f32 ulps would: the f16 scales move by one f16 ulp
// (2^-10 relative), 2^8 times 32 f32 ulps (2^-18), and in the linear
// regime NMSE goes with the square.
const scaleNMSE = 0x1p-16

// perturbScales returns a copy of t, a packed weight that q says how a
// dequant_matmul reads, with each block's f16 scales (gguf.ScaleOffsets:
// q4_0's and q8_0's d, q4_k's d and dmin, q6_k's d, …) moved by one f16 ulp up or down, the
// sign drawn per scale from salt; other tensors are returned as they are.
// A packed product's kernel sums the codes and applies the scales after
// (d·Σq·x − dmin·m·Σx for q4_k): where those terms cancel, its error is
// far above the input perturbation's, and moving the scales shows that
// (the random functions' g580: a q4_k product of 10^-3 whose factored
// terms are of order 1).
func perturbScales(t *tensor.Tensor, q *ref.QuantUse, salt uint64) *tensor.Tensor {
	if t == nil || q == nil || q.Partial || t.DType() != tensor.UI8 {
		return t
	}
	r := t.Clone()
	b := r.Bytes()
	rng := tensor.NewRNG(salt*0x9E3779B97F4A7C15 + 7)
	nudge := func(off int) {
		if off+2 > len(b) {
			return
		}
		h := binary.LittleEndian.Uint16(b[off:])
		if h&0x7c00 == 0x7c00 || h&0x7fff == 0 { // inf, NaN, zero
			return
		}
		if rng.Uint64()&1 == 0 {
			h++
		} else if h&0x3ff != 0 || h&0x7c00 != 0 {
			h--
		}
		binary.LittleEndian.PutUint16(b[off:], h)
	}
	switch {
	case q.Format.RowMajor():
		// Each block's scales (gguf.ScaleOffsets of one block).
		bb := q.Format.BlockBytes()
		var at []int
		for o := range gguf.ScaleOffsets(q.Format, 1, q.Format.BlockSize()) {
			at = append(at, o)
		}
		for blk := 0; (blk+1)*bb <= len(b); blk++ {
			for _, o := range at {
				nudge(blk*bb + o)
			}
		}
	case q.Format == gguf.Q6_KC16:
		// Each [N, K] matrix (a stack holds several) ends with its
		// N·K/256 f16 d's from 13·N·K/16.
		size := q.N * q.K / 256 * 210
		for m := 0; size > 0 && (m+1)*size <= len(b); m++ {
			for i := range q.N * q.K / 256 {
				nudge(m*size + 13*q.N*q.K/16 + 2*i)
			}
		}
	}
	return r
}

// NMSE is Σ(a−b)²/Σb² as the GPU check's driver measures it
// (bench/gpu/check.py's nmse): NaN in one and not the other, or
// infinities that differ, give +Inf; elements NaN or infinite in both
// are left out; 0 over 0 is 0. (internal/runtimetest's NMSE returns NaN
// where a NaN is.)
func NMSE(a, b *tensor.Tensor) float64 {
	var num, den float64
	for i := range b.Len() {
		x, y := a.Float64(i), b.Float64(i)
		xn, yn := math.IsNaN(x), math.IsNaN(y)
		if xn != yn {
			return math.Inf(1)
		}
		xi, yi := math.IsInf(x, 0), math.IsInf(y, 0)
		if (xi || yi) && !xn && x != y {
			return math.Inf(1)
		}
		if xn || xi || yi {
			continue
		}
		num += (x - y) * (x - y)
		den += y * y
	}
	if den == 0 {
		return num
	}
	return num / den
}

// conditionSamples is how many perturbations conditioning draws of each
// kind: a result that a last bit decides (a power whose exponent is an
// odd integer or a half: -0 or NaN) moves under about half of them.
const conditionSamples = 3

// maxConstantElems bounds the float constants withConstantsPerturbed
// moves: a larger one (a splat the interpreter expands lazily) is left
// as it is.
const maxConstantElems = 1 << 16

// withConstantsPerturbed returns p compiled again from a copy of its
// function whose float graph.constant values are moved as perturb moves
// a tensor's (salt and the constant's order drawing the signs), or p
// where the function has none. A constant is a float the kernels read
// as they read a weight: two equal constants times one value cancel
// exactly in the interpreter, but a fused multiply-add in a kernel
// leaves the rounding of one product (the random functions' g8350:
// rope of [−0.75, −0.75] with cos = sin, then its reciprocal, infinite
// in the interpreter and 1/ulp on the GPU); moving the constants shows
// that such a result is not decided.
func withConstantsPerturbed(p *ref.Program, salt uint64) (*ref.Program, error) {
	f := p.Func().Clone(nil)
	n := 0
	f.Walk(func(op *ir.Operation) {
		if op.Name() != graph.ConstantName {
			return
		}
		a, ok := op.Attr("value").(*ir.DenseElementsAttr)
		if !ok {
			return
		}
		st, ok := a.AttrType().(*ir.RankedTensorType)
		if !ok {
			return
		}
		ft, ok := st.Elem.(*ir.FloatType)
		if !ok || a.NumElements() > maxConstantElems {
			return
		}
		dt := tensor.F32
		switch ft.Sem.Name {
		case "f16":
			dt = tensor.F16
		case "bf16":
			dt = tensor.BF16
		case "f32":
		default:
			return
		}
		vals := make([]float32, a.NumElements())
		for i := range vals {
			vals[i] = float32(a.FloatAt(int64(i)))
		}
		t, err := tensor.FromFloat32(dt, []int{len(vals)}, vals)
		if err != nil {
			return
		}
		moved := perturb(t, salt+uint64(n))
		n++
		out := make([]float64, len(vals))
		for i := range out {
			out[i] = moved.Float64(i)
		}
		op.SetAttr(op.Context(), "value", op.Context().DenseFloats(st, out))
	})
	if n == 0 {
		return p, nil
	}
	q, err := ref.CompileFunc(f)
	if err != nil {
		return nil, fmt.Errorf("the function with its constants moved: %v", err)
	}
	return q, nil
}

// Moved returns, for each result of p, the most its reference (want,
// p's run on inputs and weights) moves, as NMSE, under conditionSamples
// perturbations of the float inputs, weights and constants (perturb,
// withConstantsPerturbed) and as many of
// the packed weights' scales (perturbScales, scaled by scaleNMSE) and
// of each rounding op's operands (moveOperands), and
// as p's run with its ops' f32 subnormals flushed (ref's RunFlushed: the
// Metal Shading Language lets a GPU flush them, and the CPU harness's
// kernels may round to zero what the interpreter, in f64, keeps as a
// subnormal: the random functions' g12010, a silu of a large negative value,
// −1.1e-40 in the interpreter and −0 in the kernel, and g12085, a
// gelu_tanh −1.1e-42 or −0 whose power is NaN or +Inf). seed
// names each weight's draws, so that a weight shared by two programs is
// perturbed alike in both. A result whose Moved is beyond its limit
// (NaN included) is ill-conditioned.
func Moved(p *ref.Program, inputs []*tensor.Tensor, weights *ref.TensorWeights, want []*tensor.Tensor, seed func(weight string) uint32) ([]float64, error) {
	moved := make([]float64, len(want))
	note := func(got []*tensor.Tensor, scale float64) {
		for k := range want {
			if e := scale * NMSE(got[k], want[k]); !(e <= moved[k]) {
				moved[k] = e
			}
		}
	}
	got, err := p.RunFlushed(inputs, weights)
	if err != nil {
		return nil, fmt.Errorf("the run with subnormals flushed: %v", err)
	}
	note(got, 1)
	for s := range uint64(conditionSamples) {
		salt := s << 40
		weightSalt := func(name string) uint64 { return salt + 1<<32 + uint64(seed(name)) }
		// Floats moved by a few ulps.
		in := make([]*tensor.Tensor, len(inputs))
		for i := range inputs {
			in[i] = perturb(inputs[i], salt+uint64(i))
		}
		w := &ref.TensorWeights{Tensors: map[string]*tensor.Tensor{}}
		for name, t := range weights.Tensors {
			w.Tensors[name] = perturb(t, weightSalt(name))
		}
		q, err := withConstantsPerturbed(p, salt+1<<33)
		if err != nil {
			return nil, err
		}
		got, err = q.Run(in, w)
		if err != nil {
			return nil, fmt.Errorf("the perturbed run: %v", err)
		}
		note(got, 1)
		// The packed weights' scales moved by one f16 ulp, the rest as
		// they are.
		for i, a := range p.Args() {
			in[i] = perturbScales(inputs[i], a.Quant, salt+uint64(i))
		}
		w = &ref.TensorWeights{Tensors: maps.Clone(weights.Tensors)}
		for _, sp := range p.Params() {
			w.Tensors[sp.Name] = perturbScales(weights.Tensors[sp.Name], sp.Quant, weightSalt(sp.Name))
		}
		if got, err = p.Run(in, w); err != nil {
			return nil, fmt.Errorf("the run with perturbed scales: %v", err)
		}
		note(got, scaleNMSE)
		// Each rounding op's float operands moved by a few ulps, apart
		// from one another (moveOperands).
		if got, err = p.RunOperandsMoved(inputs, weights, moveOperands(salt+1<<34, int(s))); err != nil {
			return nil, fmt.Errorf("the run with its operands moved: %v", err)
		}
		note(got, 1)
	}
	return moved, nil
}

// Limit is the NMSE limit of a function's results, f a function: the
// widest of the limits of every value's element type (a value rounded to
// f16 inside the function carries f16's error into an f32 result):
// opsuite.LimitBF16 with a bf16 value, else opsuite.LimitF16 with an f16
// one, else opsuite.LimitExact.
func Limit(f *ir.Operation) float64 {
	limit := opsuite.LimitExact
	f.Walk(func(op *ir.Operation) {
		for _, r := range op.Results() {
			rt, ok := r.Type().(*ir.RankedTensorType)
			if !ok {
				continue
			}
			ft, ok := rt.Elem.(*ir.FloatType)
			if !ok {
				continue
			}
			switch ft.Sem.Name {
			case "bf16":
				limit = max(limit, opsuite.LimitBF16)
			case "f16":
				limit = max(limit, opsuite.LimitF16)
			}
		}
	})
	return limit
}

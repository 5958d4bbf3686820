package graph

import (
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// AttrKind is the type an inherent attribute must have.
type AttrKind uint8

const (
	// AttrI64 is a signless 64-bit integer (`axis = -1`).
	AttrI64 AttrKind = iota
	// AttrF32 is a 32-bit float (`epsilon = 1.0e-06 : f32`).
	AttrF32
	// AttrBool is `true` or `false`.
	AttrBool
	// AttrString is any string (`"l0.wq"`).
	AttrString
	// AttrEnum is a string from a fixed set (`mask = "causal"`).
	AttrEnum
	// AttrI64Array is a dense i64 array (`axes = array<i64: 1, 2>`).
	AttrI64Array
	// AttrElements is a dense elements attribute (`dense<1.0> : tensor<4xf32>`)
	// or a dense resource.
	AttrElements
)

// String returns the kind as the docs spell it.
func (k AttrKind) String() string {
	switch k {
	case AttrI64:
		return "i64"
	case AttrF32:
		return "f32"
	case AttrBool:
		return "bool"
	case AttrString:
		return "string"
	case AttrEnum:
		return "enum"
	case AttrI64Array:
		return "array<i64>"
	}
	return "dense elements"
}

// constraint is the ODS-like wording of a kind in "failed to satisfy
// constraint" errors.
func (k AttrKind) constraint() string {
	switch k {
	case AttrI64:
		return "64-bit signless integer attribute"
	case AttrF32:
		return "32-bit float attribute"
	case AttrBool:
		return "bool attribute"
	case AttrString, AttrEnum:
		return "string attribute"
	case AttrI64Array:
		return "i64 dense array attribute"
	}
	return "dense elements attribute"
}

// AttrSpec describes one inherent attribute of an op.
type AttrSpec struct {
	Name     string
	Kind     AttrKind
	Required bool
	// Default is the value an absent optional attribute stands for, as
	// the docs show it ("1", "false", "1/√D").
	Default string
	// Values are the allowed strings of an AttrEnum.
	Values []string
	Doc    string
}

// TypeString describes the attribute's type for the docs, in Markdown:
// "`i64`", or the enum's values "`"a"` \| `"b"`".
func (s AttrSpec) TypeString() string {
	if s.Kind != AttrEnum {
		return "`" + s.Kind.String() + "`"
	}
	q := make([]string, len(s.Values))
	for i, v := range s.Values {
		q[i] = "`" + strconv.Quote(v) + "`"
	}
	return strings.Join(q, " \\| ")
}

// check validates attribute a (nil when absent) against the spec.
func (s AttrSpec) check(op *ir.Operation, a ir.Attribute) error {
	if a == nil {
		if s.Required {
			return ir.OpError(op, "requires attribute '%s'", s.Name)
		}
		return nil
	}
	bad := func() error {
		return ir.OpError(op, "attribute '%s' failed to satisfy constraint: %s, got %s", s.Name, s.Kind.constraint(), a)
	}
	switch s.Kind {
	case AttrI64:
		if ia, ok := a.(*ir.IntegerAttr); !ok || !ir.IsInteger(ia.Type, 64) || !ia.Type.(*ir.IntegerType).IsSignless() {
			return bad()
		}
	case AttrF32:
		if fa, ok := a.(*ir.FloatAttr); !ok || fa.Type.Name() != "f32" {
			return bad()
		}
	case AttrBool:
		if ia, ok := a.(*ir.IntegerAttr); !ok || !ir.IsInteger(ia.Type, 1) {
			return bad()
		}
	case AttrString, AttrEnum:
		sa, ok := a.(*ir.StringAttr)
		if !ok || sa.Type != nil {
			return bad()
		}
		if s.Kind == AttrEnum && !contains(s.Values, sa.Value) {
			q := make([]string, len(s.Values))
			for i, v := range s.Values {
				q[i] = strconv.Quote(v)
			}
			return ir.OpError(op, "attribute '%s' must be one of %s, got %s", s.Name, strings.Join(q, ", "), a)
		}
	case AttrI64Array:
		if da, ok := a.(*ir.DenseArrayAttr); !ok || !ir.IsInteger(da.Elem, 64) {
			return bad()
		}
	case AttrElements:
		switch a.(type) {
		case *ir.DenseElementsAttr, *ir.DenseResourceElementsAttr:
		default:
			return bad()
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Attribute value types. Each is a string type so that a switch over the
// constants reads naturally and the attribute text is the value.

// CmpPredicate is the predicate of graph.cmp.
type CmpPredicate string

// The predicates of graph.cmp.
const (
	CmpEQ CmpPredicate = "eq"
	CmpNE CmpPredicate = "ne"
	CmpLT CmpPredicate = "lt"
	CmpLE CmpPredicate = "le"
	CmpGT CmpPredicate = "gt"
	CmpGE CmpPredicate = "ge"
)

// ReduceKind is the combining function of graph.reduce.
type ReduceKind string

// The kinds of graph.reduce.
const (
	ReduceSum  ReduceKind = "sum"
	ReduceMean ReduceKind = "mean"
	ReduceMax  ReduceKind = "max"
	ReduceMin  ReduceKind = "min"
	ReduceProd ReduceKind = "prod"
)

// RopeStyle is how graph.rope pairs the rotated dims.
type RopeStyle string

// The styles of graph.rope.
const (
	// RopeNeoX pairs dim i with i+R/2.
	RopeNeoX RopeStyle = "neox"
	// RopeGPTJ pairs dim 2i with 2i+1.
	RopeGPTJ RopeStyle = "gptj"
)

// MaskKind is the masking of graph.attention.
type MaskKind string

// The mask kinds of graph.attention.
const (
	MaskNone          MaskKind = "none"
	MaskCausal        MaskKind = "causal"
	MaskSlidingWindow MaskKind = "sliding_window"
	// MaskCustom takes a [B, Sk] operand: 1 keeps a key, 0 drops it.
	MaskCustom MaskKind = "custom"
	// MaskBias takes a [B, H, Sq, Sk] operand added to the scores.
	MaskBias MaskKind = "bias"
)

// HasOperand reports whether the mask kind takes a mask operand.
func (m MaskKind) HasOperand() bool { return m == MaskCustom || m == MaskBias }

// QuantFormat is the GGUF block format of graph.dequant_matmul.
type QuantFormat string

// The formats of graph.dequant_matmul.
const (
	Q4_0 QuantFormat = "q4_0"
	Q8_0 QuantFormat = "q8_0"
	Q4_K QuantFormat = "q4_k"
	Q5_K QuantFormat = "q5_k"
	Q6_K QuantFormat = "q6_k"
	// Q6_KC16 is q6_k's bytes rearranged over the whole matrix into
	// columns of 16 weights for the GPU GEMV (runtime/gguf's Q6_KC16);
	// checkpoints store q6_k and a binder converts it.
	Q6_KC16 QuantFormat = "q6_k_c16"
	// Q2_K, Q3_K, Q4_1, Q5_0 and Q5_1 are GGUF's, read by kernels that
	// decode a unit of 32 weights at a time.
	Q2_K QuantFormat = "q2_k"
	Q3_K QuantFormat = "q3_k"
	Q4_1 QuantFormat = "q4_1"
	Q5_0 QuantFormat = "q5_0"
	Q5_1 QuantFormat = "q5_1"
	// IQ4_NL, IQ4_XS and MXFP4 are GGUF's non-linear 4-bit formats, unit
	// formats too.
	IQ4_NL QuantFormat = "iq4_nl"
	IQ4_XS QuantFormat = "iq4_xs"
	MXFP4  QuantFormat = "mxfp4"
)

// Block returns the number of weights per block and the bytes per block of
// the format (the GGUF layouts); ok is false for an unknown format.
func (f QuantFormat) Block() (elems, nbytes int64, ok bool) {
	switch f {
	case Q4_0:
		return 32, 18, true
	case Q8_0:
		return 32, 34, true
	case Q4_K:
		return 256, 144, true
	case Q5_K:
		return 256, 176, true
	case Q2_K:
		return 256, 84, true
	case Q3_K:
		return 256, 110, true
	case Q4_1:
		return 32, 20, true
	case Q5_0:
		return 32, 22, true
	case Q5_1:
		return 32, 24, true
	case IQ4_NL:
		return 32, 18, true
	case IQ4_XS:
		return 256, 136, true
	case MXFP4:
		return 32, 17, true
	case Q6_K, Q6_KC16:
		return 256, 210, true
	}
	return 0, 0, false
}

// PackedBytes returns the size in bytes of an [n, k] weight matrix stored in
// the format, or -1 when k is not a whole number of blocks, the format is
// unknown, or the size does not fit in an int64.
func (f QuantFormat) PackedBytes(n, k int64) int64 {
	elems, nbytes, ok := f.Block()
	if !ok || k%elems != 0 {
		return -1
	}
	size, ok := ir.ShapeElements([]int64{n, k / elems, nbytes})
	if !ok {
		return -1
	}
	return size
}

func enumValues[T ~string](vs ...T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

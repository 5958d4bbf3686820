package mps

import (
	"sync"

	"github.com/rlx-compiler/rlx/ir"
)

// Names of the primitive ops: each is one MPSGraph method (Method gives
// its selector), with MPSGraph's semantics rather than the graph
// dialect's.
const (
	PlaceholderName  = "mps.placeholder"
	ConstantName     = "mps.constant"
	AddName          = "mps.add"
	SubName          = "mps.sub"
	MulName          = "mps.mul"
	DivName          = "mps.div"
	MaxName          = "mps.max"
	MinName          = "mps.min"
	PowName          = "mps.pow"
	EqualName        = "mps.equal"
	NotEqualName     = "mps.not_equal"
	LessName         = "mps.less"
	LessEqualName    = "mps.less_equal"
	GreaterName      = "mps.greater"
	GreaterEqualName = "mps.greater_equal"
	SelectName       = "mps.select"
	NegName          = "mps.neg"
	AbsName          = "mps.abs"
	ExpName          = "mps.exp"
	LogName          = "mps.log"
	SqrtName         = "mps.sqrt"
	RsqrtName        = "mps.rsqrt"
	ReciprocalName   = "mps.reciprocal"
	SquareName       = "mps.square"
	SigmoidName      = "mps.sigmoid"
	TanhName         = "mps.tanh"
	SinName          = "mps.sin"
	CosName          = "mps.cos"
	ReluName         = "mps.relu"
	ErfName          = "mps.erf"
	ReduceSumName    = "mps.reduce_sum"
	ReduceMaxName    = "mps.reduce_max"
	ReduceMinName    = "mps.reduce_min"
	ReduceProdName   = "mps.reduce_prod"
	MeanName         = "mps.mean"
	SoftmaxName      = "mps.softmax"
	MatMulName       = "mps.matmul"
	ReshapeName      = "mps.reshape"
	BroadcastName    = "mps.broadcast"
	TransposeName    = "mps.transpose"
	PermuteName      = "mps.permute"
	SliceName        = "mps.slice"
	StridedSliceName = "mps.strided_slice"
	ConcatName       = "mps.concat"
	GatherName       = "mps.gather"
	CastName         = "mps.cast"
	SDPAName         = "mps.sdpa"
)

// PrimAttrKind is the kind of a primitive's attribute.
type PrimAttrKind uint8

// The attribute kinds.
const (
	AttrI64      PrimAttrKind = iota + 1 // `3 : i64`
	AttrI64Array                         // `array<i64: 0, 2>`
	AttrF32                              // `0.125 : f32`
	AttrStr                              // `"l0.wq"`
	AttrElements                         // `dense<…> : tensor<…>`
)

// PrimAttr is one inherent attribute of a primitive.
type PrimAttr struct {
	Name string
	Kind PrimAttrKind
	// Doc says what the attribute is, as the docs show it.
	Doc string
}

// Primitive describes one primitive op: its name, the MPSGraph method it
// stands for, its operands, attributes and result rule. The docs, the
// verifier and the Objective-C emitter all read this table.
type Primitive struct {
	Name string
	// Method is the Objective-C selector of the MPSGraph instance method.
	Method string
	// MinMacOS is the first macOS version with the method ("11.0").
	MinMacOS string
	Summary  string
	// Operands lists the operands as the docs show them; MinIn and MaxIn
	// bound their count (MaxIn < 0: unbounded).
	Operands     string
	MinIn, MaxIn int
	Attrs        []PrimAttr
	infer        func(c *primChecker) (*ir.RankedTensorType, error)
}

// Primitives returns the table of primitive ops, new on each call, in the
// order the docs list them.
func Primitives() []Primitive {
	var t []Primitive
	t = append(t,
		Primitive{Name: PlaceholderName, Method: "placeholderWithShape:dataType:name:", MinMacOS: "11.0",
			Summary:  "A weight fed at run time, bound by its name (the runtime feeds the graph.param of the same name).",
			Operands: "–", Attrs: []PrimAttr{{"name", AttrStr, "the weight's name"}}, infer: inferPlaceholder},
		Primitive{Name: ConstantName, Method: "constantWithData:shape:dataType:", MinMacOS: "11.0",
			Summary:  "A literal tensor (a splat is built with constantWithScalar:shape:dataType:).",
			Operands: "–", Attrs: []PrimAttr{{"value", AttrElements, "the elements"}}, infer: inferConstant},
	)
	binary := []struct{ name, method, sem string }{
		{AddName, "additionWithPrimaryTensor:secondaryTensor:name:", "`a + b`"},
		{SubName, "subtractionWithPrimaryTensor:secondaryTensor:name:", "`a − b`"},
		{MulName, "multiplicationWithPrimaryTensor:secondaryTensor:name:", "`a · b`"},
		{DivName, "divisionWithPrimaryTensor:secondaryTensor:name:", "`a / b` (i32: truncated toward zero)"},
		{MaxName, "maximumWithNaNPropagationWithPrimaryTensor:secondaryTensor:name:", "`max(a, b)`, NaN if either is NaN"},
		{MinName, "minimumWithNaNPropagationWithPrimaryTensor:secondaryTensor:name:", "`min(a, b)`, NaN if either is NaN"},
		{PowName, "powerWithPrimaryTensor:secondaryTensor:name:", "`a^b` (floats)"},
	}
	for _, b := range binary {
		min := "11.0"
		if b.name == MaxName || b.name == MinName {
			min = "12.0"
		}
		t = append(t, Primitive{Name: b.name, Method: b.method, MinMacOS: min,
			Summary:  "Element-wise " + b.sem + ", broadcasting (shapes right-aligned, the shorter left-padded with 1s).",
			Operands: "a, b", MinIn: 2, MaxIn: 2, infer: inferBinary(b.name == PowName)})
	}
	compare := []struct{ name, method, sem string }{
		{EqualName, "equalWithPrimaryTensor:secondaryTensor:name:", "`a == b`"},
		{NotEqualName, "notEqualWithPrimaryTensor:secondaryTensor:name:", "`a != b`"},
		{LessName, "lessThanWithPrimaryTensor:secondaryTensor:name:", "`a < b`"},
		{LessEqualName, "lessThanOrEqualToWithPrimaryTensor:secondaryTensor:name:", "`a <= b`"},
		{GreaterName, "greaterThanWithPrimaryTensor:secondaryTensor:name:", "`a > b`"},
		{GreaterEqualName, "greaterThanOrEqualToWithPrimaryTensor:secondaryTensor:name:", "`a >= b`"},
	}
	for _, c := range compare {
		t = append(t, Primitive{Name: c.name, Method: c.method, MinMacOS: "11.0",
			Summary:  "Element-wise " + c.sem + " as i1 (MPSDataTypeBool), broadcasting; IEEE comparisons (NaN compares false except in not_equal).",
			Operands: "a, b", MinIn: 2, MaxIn: 2, infer: inferCompare})
	}
	t = append(t, Primitive{Name: SelectName, Method: "selectWithPredicateTensor:truePredicateTensor:falsePredicateTensor:name:",
		MinMacOS: "11.0", Summary: "Element-wise `p ? a : b` with an i1 predicate, broadcasting all three.",
		Operands: "p, a, b", MinIn: 3, MaxIn: 3, infer: inferSelect})
	unary := []struct {
		name, method, sem string
		float             bool
	}{
		{NegName, "negativeWithTensor:name:", "`-x`", false},
		{AbsName, "absoluteWithTensor:name:", "absolute value", false},
		{ExpName, "exponentWithTensor:name:", "`e^x`", true},
		{LogName, "logarithmWithTensor:name:", "natural logarithm", true},
		{SqrtName, "squareRootWithTensor:name:", "`√x`", true},
		{RsqrtName, "reciprocalSquareRootWithTensor:name:", "`1/√x` (before macOS 15: reverseSquareRootWithTensor:name:)", true},
		{ReciprocalName, "reciprocalWithTensor:name:", "`1/x`", true},
		{SquareName, "squareWithTensor:name:", "`x·x`", false},
		{SigmoidName, "sigmoidWithTensor:name:", "`1/(1+e^−x)`", true},
		{TanhName, "tanhWithTensor:name:", "hyperbolic tangent", true},
		{SinName, "sinWithTensor:name:", "sine", true},
		{CosName, "cosWithTensor:name:", "cosine", true},
		{ReluName, "reLUWithTensor:name:", "`max(x, 0)`", false},
		{ErfName, "erfWithTensor:name:", "the error function", true},
	}
	for _, u := range unary {
		min := "11.0"
		if u.name == RsqrtName {
			min = "15.0"
		}
		t = append(t, Primitive{Name: u.name, Method: u.method, MinMacOS: min,
			Summary: "Element-wise " + u.sem + ".", Operands: "x", MinIn: 1, MaxIn: 1, infer: inferUnary(u.float)})
	}
	axes := []PrimAttr{{"axes", AttrI64Array, "the reduced axes (negative ones count from the end)"}}
	reductions := []struct{ name, method, sem string }{
		{ReduceSumName, "reductionSumWithTensor:axes:name:", "sum"},
		{ReduceMaxName, "reductionMaximumPropagateNaNWithTensor:axes:name:", "maximum (NaN if any element is NaN)"},
		{ReduceMinName, "reductionMinimumPropagateNaNWithTensor:axes:name:", "minimum (NaN if any element is NaN)"},
		{ReduceProdName, "reductionProductWithTensor:axes:name:", "product"},
		{MeanName, "meanOfTensor:axes:name:", "mean (floats)"},
	}
	for _, r := range reductions {
		t = append(t, Primitive{Name: r.name, Method: r.method, MinMacOS: "11.0",
			Summary:  "The " + r.sem + " over `axes`; the reduced axes stay, with size 1.",
			Operands: "x", MinIn: 1, MaxIn: 1, Attrs: axes, infer: inferReduction(r.name == MeanName)})
	}
	t = append(t,
		Primitive{Name: SoftmaxName, Method: "softMaxWithTensor:axis:name:", MinMacOS: "11.0",
			Summary:  "Max-subtracted softmax along `axis`.",
			Operands: "x", MinIn: 1, MaxIn: 1, Attrs: []PrimAttr{{"axis", AttrI64, "the axis (negative counts from the end)"}}, infer: inferSoftmax},
		Primitive{Name: MatMulName, Method: "matrixMultiplicationWithPrimaryTensor:secondaryTensor:name:", MinMacOS: "11.0",
			Summary:  "`[..., M, K] × [..., K, N]`; the batch dims broadcast (left-padded with 1s).",
			Operands: "a, b", MinIn: 2, MaxIn: 2, infer: inferMatMul},
		Primitive{Name: ReshapeName, Method: "reshapeTensor:withShape:name:", MinMacOS: "11.0",
			Summary:  "The same elements in row-major order, in the result type's shape.",
			Operands: "x", MinIn: 1, MaxIn: 1, infer: inferReshape},
		Primitive{Name: BroadcastName, Method: "broadcastTensor:toShape:name:", MinMacOS: "12.0",
			Summary:  "Broadcast to the result type's shape (rank may grow: the operand is left-padded with 1s).",
			Operands: "x", MinIn: 1, MaxIn: 1, infer: inferBroadcast},
		Primitive{Name: TransposeName, Method: "transposeTensor:dimension:withDimension:name:", MinMacOS: "11.0",
			Summary:  "Swap two axes.",
			Operands: "x", MinIn: 1, MaxIn: 1, Attrs: []PrimAttr{
				{"dimension", AttrI64, "the first axis (≥ 0)"}, {"with_dimension", AttrI64, "the second axis (≥ 0)"}},
			infer: inferTranspose},
		Primitive{Name: PermuteName, Method: "transposeTensor:permutation:name:", MinMacOS: "13.0",
			Summary:  "Permute the axes: result axis i is operand axis `permutation[i]`.",
			Operands: "x", MinIn: 1, MaxIn: 1, Attrs: []PrimAttr{{"permutation", AttrI64Array, "a permutation of the axes"}},
			infer: inferPermute},
		Primitive{Name: SliceName, Method: "sliceTensor:dimension:start:length:name:", MinMacOS: "11.0",
			Summary:  "`length` elements from `start` along `dimension`; a negative start counts from the end.",
			Operands: "x", MinIn: 1, MaxIn: 1, Attrs: []PrimAttr{
				{"dimension", AttrI64, "the axis (≥ 0)"}, {"start", AttrI64, "the first element (negative counts from the end)"},
				{"length", AttrI64, "the number of elements"}},
			infer: inferSlice},
		Primitive{Name: StridedSliceName, Method: "sliceTensor:starts:ends:strides:name:", MinMacOS: "11.0",
			Summary: "Per axis, the elements from `starts[i]` up to (not including) `ends[i]` every `strides[i]`; " +
				"negative starts and ends count from the end, and both are clamped to the axis.",
			Operands: "x", MinIn: 1, MaxIn: 1, Attrs: []PrimAttr{
				{"starts", AttrI64Array, "one per axis"}, {"ends", AttrI64Array, "one per axis"}, {"strides", AttrI64Array, "one per axis, ≥ 1"}},
			infer: inferStridedSlice},
		Primitive{Name: ConcatName, Method: "concatTensors:dimension:name:", MinMacOS: "11.0",
			Summary:  "Concatenate along `dimension`.",
			Operands: "x₁, …, xₙ", MinIn: 1, MaxIn: -1, Attrs: []PrimAttr{{"dimension", AttrI64, "the axis (negative counts from the end)"}},
			infer: inferConcat},
		Primitive{Name: GatherName, Method: "gatherWithUpdatesTensor:indicesTensor:axis:batchDimensions:name:", MinMacOS: "11.0",
			Summary:  "Rows of `updates` along `axis` picked by i32 `indices`: result `updates[:axis] ++ indices ++ updates[axis+1:]`.",
			Operands: "updates, indices", MinIn: 2, MaxIn: 2, Attrs: []PrimAttr{
				{"axis", AttrI64, "the axis of updates (≥ 0)"}, {"batch_dimensions", AttrI64, "leading dims shared by updates and indices (0 here)"}},
			infer: inferGather},
		Primitive{Name: CastName, Method: "castTensor:toType:name:", MinMacOS: "12.0",
			Summary:  "Convert to the result's element type (float to integer truncates toward zero).",
			Operands: "x", MinIn: 1, MaxIn: 1, infer: inferCast},
		Primitive{Name: SDPAName, Method: "scaledDotProductAttentionWithQueryTensor:keyTensor:valueTensor:maskTensor:scale:name:", MinMacOS: "15.0",
			Summary:  "`softmax(q·kᵀ·scale + mask)·v` over `[B, H, S, D]` tensors; the additive mask broadcasts to `[B, H, Sq, Sk]`.",
			Operands: "q, k, v, mask (optional)", MinIn: 3, MaxIn: 4, Attrs: []PrimAttr{{"scale", AttrF32, "the score scale"}},
			infer: inferSDPA},
	)
	return t
}

// primIndex maps primitive names to their rows; built once, never
// changed.
var primIndex = sync.OnceValue(func() map[string]*Primitive {
	t := Primitives()
	m := make(map[string]*Primitive, len(t))
	for i := range t {
		m[t[i].Name] = &t[i]
	}
	return m
})

// LookupPrimitive returns the row of the primitive name, or nil.
func LookupPrimitive(name string) *Primitive {
	p := primIndex()[name]
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// IsPrimitive reports whether op is one of the primitive ops.
func IsPrimitive(op *ir.Operation) bool { return primIndex()[op.Name()] != nil }

// primitiveDefs returns the ir.OpDefs of the primitives.
func primitiveDefs() []*ir.OpDef {
	t := Primitives()
	defs := make([]*ir.OpDef, len(t))
	for i := range t {
		p := &t[i]
		names := make([]string, len(p.Attrs))
		for j, a := range p.Attrs {
			names[j] = a.Name
		}
		d := &ir.OpDef{
			Name:          p.Name,
			Summary:       p.Summary,
			Traits:        ir.TraitPure,
			InherentAttrs: names,
			Counts:        &ir.OpCounts{Operands: ir.Variadic, Results: 1, Regions: 0, Successors: 0},
			Verify:        func(op *ir.Operation) error { return verifyPrim(p, op) },
			Parse:         parsePrim,
			Print:         printPrim,
		}
		switch p.Name {
		case PlaceholderName:
			d.Parse, d.Print = parsePlaceholder, printPlaceholder
			d.Traits |= ir.TraitConstantLike
		case ConstantName:
			d.Parse, d.Print = parseConstant, printConstant
			d.Traits |= ir.TraitConstantLike
			d.ResultNames = func(*ir.Operation) []string { return []string{"cst"} }
		}
		defs[i] = d
	}
	return defs
}

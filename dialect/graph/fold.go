package graph

import (
	"github.com/rlx-compiler/rlx/ir"
)

// Folders. As in MLIR, a folder that rewrites its op in place (a new
// operand or attribute) returns the op's own result; a folder that finds
// the op redundant returns the value that replaces it.

func foldConstant(op *ir.Operation, _ []ir.Attribute) []ir.FoldResult {
	if v := op.Attr("value"); v != nil {
		return []ir.FoldResult{{Attr: v}}
	}
	return nil
}

// sameType returns the operand as the fold result when the op changes
// nothing: its result type is its operand's type.
func sameType(op *ir.Operation) []ir.FoldResult {
	if op.NumOperands() == 1 && op.NumResults() == 1 && op.Operand(0).Type() == op.Result(0).Type() {
		return []ir.FoldResult{{Value: op.Operand(0)}}
	}
	return nil
}

// foldCast folds a cast to its operand's own type.
func foldCast(op *ir.Operation, _ []ir.Attribute) []ir.FoldResult { return sameType(op) }

// foldBroadcast folds a broadcast to the operand's own shape.
func foldBroadcast(op *ir.Operation, _ []ir.Attribute) []ir.FoldResult { return sameType(op) }

// foldReshape folds a reshape to the same type, and a reshape of a
// reshape to one reshape of the original value (or to that value when the
// types agree).
func foldReshape(op *ir.Operation, _ []ir.Attribute) []ir.FoldResult {
	if r := sameType(op); r != nil {
		return r
	}
	if op.NumOperands() != 1 || op.NumResults() != 1 {
		return nil
	}
	inner := op.Operand(0).DefiningOp()
	if inner == nil || inner.Name() != ReshapeName || inner.NumOperands() != 1 {
		return nil
	}
	src := inner.Operand(0)
	if src.Type() == op.Result(0).Type() {
		return []ir.FoldResult{{Value: src}}
	}
	op.SetOperand(0, src)
	return []ir.FoldResult{{Value: op.Result(0)}}
}

// foldTranspose folds an identity transpose to its operand, and a
// transpose of a transpose to one transpose by the composed permutation
// (or to the original value when that is the identity).
func foldTranspose(op *ir.Operation, _ []ir.Attribute) []ir.FoldResult {
	if op.NumOperands() != 1 || op.NumResults() != 1 {
		return nil
	}
	outer := attrInts(op, "permutation")
	if !isPermutation(outer, len(outer)) {
		return nil
	}
	if isIdentity(outer) && op.Operand(0).Type() == op.Result(0).Type() {
		return []ir.FoldResult{{Value: op.Operand(0)}}
	}
	inner := op.Operand(0).DefiningOp()
	if inner == nil || inner.Name() != TransposeName || inner.NumOperands() != 1 {
		return nil
	}
	in := attrInts(inner, "permutation")
	if len(in) != len(outer) || !isPermutation(in, len(in)) {
		return nil
	}
	// y = transpose(x, in): y[i] = x[in[i]]; z = transpose(y, outer):
	// z[j] = y[outer[j]] = x[in[outer[j]]].
	composed := make([]int64, len(outer))
	for j, o := range outer {
		composed[j] = in[o]
	}
	src := inner.Operand(0)
	if isIdentity(composed) {
		if src.Type() == op.Result(0).Type() {
			return []ir.FoldResult{{Value: src}}
		}
		return nil
	}
	op.SetOperand(0, src)
	op.SetAttr(op.Context(), "permutation", op.Context().DenseI64Array(composed))
	return []ir.FoldResult{{Value: op.Result(0)}}
}

func isIdentity(perm []int64) bool {
	for i, p := range perm {
		if p != int64(i) {
			return false
		}
	}
	return true
}

// materialize creates a graph.constant for a folded elements value.
func materialize(b *ir.Builder, value ir.Attribute, t ir.Type, loc ir.Location) *ir.Operation {
	ta, ok := value.(ir.TypedAttr)
	if !ok || ta.AttrType() != t {
		return nil
	}
	switch value.(type) {
	case *ir.DenseElementsAttr, *ir.DenseResourceElementsAttr:
	default:
		return nil
	}
	if rt, ok := t.(*ir.RankedTensorType); !ok || !ElementTypeOK(rt.Elem) {
		return nil
	}
	return b.CreateOp(ConstantName, loc, nil, []ir.Type{t}, ir.NamedAttr{Name: "value", Value: value})
}

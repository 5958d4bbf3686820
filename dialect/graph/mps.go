package graph

import (
	"fmt"
	"strings"
	"sync"

	"github.com/rlx-compiler/rlx/ir"
)

// MPSKind says whether hybrid-split may place an op in an mps.subgraph.
type MPSKind uint8

const (
	// MPSNo: the op always stays native.
	MPSNo MPSKind = iota
	// MPSYes: the op goes to MPS unless a rule for every op forbids it
	// (a dynamic dim, an element type MPS lacks).
	MPSYes
	// MPSConditional: as MPSYes, when the row's condition also holds.
	MPSConditional
	// MPSLeaf: the op is not placed; it is cloned into every region that
	// uses it.
	MPSLeaf
)

// String returns the kind as the docs show it.
func (k MPSKind) String() string {
	switch k {
	case MPSYes:
		return "yes"
	case MPSConditional:
		return "conditional"
	case MPSLeaf:
		return "leaf"
	}
	return "no"
}

// MPSRow is one row of the MPS capability table.
type MPSRow struct {
	Ops  []string
	Kind MPSKind
	// Condition is the row's condition (MPSConditional) or reason (MPSNo,
	// MPSLeaf) as the docs show it.
	Condition string
	// check reports whether the op meets the row's condition and, when
	// explain is set, why not.
	check func(op *ir.Operation, explain bool) (bool, string)
}

// mpsElemTypesText names the element types MPSGraph takes.
const mpsElemTypesText = "f32, f16, bf16, i32"

// MPSTable returns the MPS capability table (new on each call). The
// hybrid-split pass and the docs both read it. Besides the rows, one rule
// holds for every op (MPSTypeOK): an operand or result with a dynamic dim,
// or with an element type outside f32/f16/bf16/i32, keeps the op native.
// MPSCapable passes leaves whatever their type, since hybrid-split clones
// them into the regions that read them; the mps.subgraph verifier applies
// the rule to the leaves inside a region.
func MPSTable() []MPSRow {
	var unary []string
	for _, u := range unaryOps() {
		if u.name != SoftplusName {
			unary = append(unary, u.name)
		}
	}
	return []MPSRow{
		{Ops: []string{ParamName, ConstantName}, Kind: MPSLeaf, Condition: "cloned into every region that uses them"},
		{Ops: []string{MatMulName, AddName, SubName, MulName, DivName}, Kind: MPSYes},
		{Ops: unary, Kind: MPSYes},
		{Ops: []string{SoftplusName}, Kind: MPSNo, Condition: "no MPSGraph lowering"},
		{Ops: []string{MaxName, MinName, PowName, CmpName, SelectName}, Kind: MPSNo, Condition: "no MPSGraph lowering"},
		{Ops: []string{CastName}, Kind: MPSConditional, Condition: "to " + mpsElemTypesText + " only", check: mpsCast},
		{Ops: []string{ReshapeName, BroadcastName, TransposeName, ConcatName, GatherName}, Kind: MPSYes},
		{Ops: []string{SliceName}, Kind: MPSConditional, Condition: "`step = 1` only", check: mpsSlice},
		{Ops: []string{ReduceName}, Kind: MPSConditional,
			Condition: "except rank ≥ 4 where a reduced axis has a kept axis after it (MPSGraph returned zeros for that)", check: mpsReduce},
		{Ops: []string{SoftmaxName, RMSNormName, LayerNormName}, Kind: MPSYes},
		{Ops: []string{RopeName}, Kind: MPSConditional, Condition: "rank-3 input only", check: mpsRope},
		{Ops: []string{AttentionName}, Kind: MPSConditional,
			Condition: "only when leaf-materialised: q, k and v each reach a function argument, param or constant through " +
				"reshape/transpose/cast/slice only; rank 4; mask none, custom, or causal with Sq = Sk; Dv = D " +
				"(MPSGraph attention over slices of computed tensors gives wrong values)",
			check: mpsAttention},
		{Ops: []string{GatedDeltaNetName, LSTMName}, Kind: MPSNo, Condition: "recurrent scans have no MPSGraph lowering"},
		{Ops: []string{DequantMatMulName}, Kind: MPSNo, Condition: "packed GGUF weights have no MPSGraph lowering"},
		{Ops: []string{TopKName}, Kind: MPSNo,
			Condition: "MPSGraph's topK leaves the order of equal values unspecified, and a routed model must pick the reference's experts exactly"},
	}
}

// mpsIndex maps op names to their capability rows; built once, never
// changed.
var mpsIndex = sync.OnceValue(func() map[string]*MPSRow {
	rows := MPSTable()
	m := map[string]*MPSRow{}
	for i := range rows {
		for _, n := range rows[i].Ops {
			m[n] = &rows[i]
		}
	}
	return m
})

// MPSCapable reports whether hybrid-split may place op in an mps.subgraph,
// and otherwise why not (for the pass's explain remarks). Leaves report
// true with reason "leaf: …": they are cloned into regions, not placed.
// Capability is a property of the op in the original function; for
// attention it looks at how q, k and v are produced there. The op should
// have been verified; an op with the wrong number of operands or results
// is reported as not capable.
func MPSCapable(op *ir.Operation) (ok bool, reason string) {
	return mpsCapable(op, true)
}

// IsMPSCapable is MPSCapable without the reason. It formats nothing, so a
// caller asking for every op of a large function (hybrid-split without
// explain) allocates nothing for the ops that stay native.
func IsMPSCapable(op *ir.Operation) bool {
	ok, _ := mpsCapable(op, false)
	return ok
}

// mpsCapable is MPSCapable; the reason is formatted only with explain
// (see because).
func mpsCapable(op *ir.Operation, explain bool) (bool, string) {
	row := mpsIndex()[op.Name()]
	if row == nil {
		return because(explain, func() string { return op.Name() + " is not a graph op" })
	}
	if err := checkCounts(lookup(op.Name()), op); err != nil {
		return false, err.(*ir.Diagnostic).Message
	}
	switch row.Kind {
	case MPSLeaf:
		if explain {
			return true, "leaf: " + row.Condition
		}
		return true, ""
	case MPSNo:
		return because(explain, func() string { return op.Name() + ": " + row.Condition })
	}
	ok, reason := true, ""
	if row.check != nil {
		ok, reason = row.check(op, explain)
	}
	if ok {
		ok, reason = mpsTypes(op, explain)
	}
	if !ok {
		return because(explain, func() string { return op.Name() + ": " + reason })
	}
	return true, ""
}

// IsLeaf reports whether op is graph.param or graph.constant, the ops
// cloned into every region that uses them.
func IsLeaf(op *ir.Operation) bool {
	return op.Name() == ParamName || op.Name() == ConstantName
}

// SplitPointOps returns the ops that the original hybrid plan always made
// a one-op native step, flushing the pending run (hybrid-split's seed
// mode).
func SplitPointOps() []string {
	return []string{GatedDeltaNetName, LSTMName, AttentionName, DequantMatMulName}
}

// IsSplitPoint reports whether op is one of SplitPointOps.
func IsSplitPoint(op *ir.Operation) bool {
	switch op.Name() {
	case GatedDeltaNetName, LSTMName, AttentionName, DequantMatMulName:
		return true
	}
	return false
}

// mpsElemOK reports whether MPSGraph takes the element type.
func mpsElemOK(t ir.Type) bool {
	switch t := t.(type) {
	case *ir.FloatType:
		switch t.Name() {
		case "f32", "f16", "bf16":
			return true
		}
	case *ir.IntegerType:
		return t.Width == 32 && t.IsSignless()
	}
	return false
}

// MPSTypeOK returns "" when MPSGraph takes values of type t (a ranked
// tensor of static shape and element type f32, f16, bf16 or i32), else
// why not, naming the value as what ("result #0"). It is the rule on types
// of the capability table, which every op meets on every operand and
// result; the mps.subgraph verifier applies it to leaves too.
func MPSTypeOK(t ir.Type, what string) string {
	_, why := mpsTypeOK(t, true, func() string { return what })
	return why
}

// mpsTypeOK is MPSTypeOK; the reason is formatted only with explain, and
// what is called only then.
func mpsTypeOK(t ir.Type, explain bool, what func() string) (bool, string) {
	rt, ok := t.(*ir.RankedTensorType)
	switch {
	case !ok:
		return because(explain, func() string { return what() + " is not a ranked tensor" })
	case hasDynamic(rt.Shape):
		return because(explain, func() string {
			return fmt.Sprintf("%s has a dynamic dim (%s)", what(), FormatShape(rt.Shape))
		})
	case !mpsElemOK(rt.Elem):
		return because(explain, func() string {
			return fmt.Sprintf("%s has element type %s (MPS takes %s)", what(), rt.Elem, mpsElemTypesText)
		})
	}
	return true, ""
}

// mpsTypes applies the rule on types to every operand and result.
func mpsTypes(op *ir.Operation, explain bool) (bool, string) {
	for i := 0; i < op.NumOperands(); i++ {
		if ok, why := mpsTypeOK(op.Operand(i).Type(), explain, func() string { return fmt.Sprintf("operand #%d", i) }); !ok {
			return false, why
		}
	}
	for i := 0; i < op.NumResults(); i++ {
		if ok, why := mpsTypeOK(op.Result(i).Type(), explain, func() string { return fmt.Sprintf("result #%d", i) }); !ok {
			return false, why
		}
	}
	return true, ""
}

// because returns "not capable" and, with explain, the reason format
// gives. format runs only then, so without explain the checks format
// nothing: hybrid-split asks every op of million-op functions.
func because(explain bool, format func() string) (bool, string) {
	if explain {
		return false, format()
	}
	return false, ""
}

func mpsCast(op *ir.Operation, explain bool) (bool, string) {
	if t := elemOf(op.Result(0)); t != nil && !mpsElemOK(t) {
		return because(explain, func() string { return fmt.Sprintf("cast to %s (MPS casts only to %s)", t, mpsElemTypesText) })
	}
	return true, ""
}

func mpsSlice(op *ir.Operation, explain bool) (bool, string) {
	if s := attrInt(op, "step", 1); s != 1 {
		return because(explain, func() string { return fmt.Sprintf("step %d (MPS slices with step 1 only)", s) })
	}
	return true, ""
}

func mpsReduce(op *ir.Operation, explain bool) (bool, string) {
	r := rankOf(op.Operand(0))
	if r < 4 {
		return true, ""
	}
	// The reduced axes as a mask (Reduce.Axes without its allocations).
	var buf [16]bool
	var mask []bool
	if r <= len(buf) {
		mask = buf[:r]
	} else {
		mask = make([]bool, r)
	}
	if a, ok := op.Attr("axes").(*ir.DenseArrayAttr); ok {
		for _, x := range a.Ints {
			if ax, ok := NormalizeAxis(x, r); ok {
				mask[ax] = true
			}
		}
	}
	for i := 0; i < r; i++ {
		if !mask[i] {
			continue
		}
		for j := i + 1; j < r; j++ {
			if !mask[j] {
				return because(explain, func() string {
					return fmt.Sprintf("rank-%d reduce over axis %d keeps axis %d after it (MPSGraph returned zeros for that)", r, i, j)
				})
			}
		}
	}
	return true, ""
}

func mpsRope(op *ir.Operation, explain bool) (bool, string) {
	if r := rankOf(op.Operand(0)); r != 3 {
		return because(explain, func() string { return fmt.Sprintf("rank-%d input (MPS takes rank-3 [B, S, H·D] input only)", r) })
	}
	return true, ""
}

func mpsAttention(op *ir.Operation, explain bool) (bool, string) {
	a := Attention{op}
	for i, name := range []string{"q", "k", "v"} {
		if ok, reached := leafMaterialised(op.Operand(i), explain); !ok {
			return because(explain, func() string {
				return fmt.Sprintf("operand #%d (%s) %s; MPSGraph attention over slices of computed tensors gives wrong values", i, name, reached)
			})
		}
	}
	q, k, v := shapeOf(a.Q()), shapeOf(a.K()), shapeOf(a.V())
	if len(q) != 4 || len(k) != 4 || len(v) != 4 {
		return false, "rank other than 4 (MPS attention takes rank 4)"
	}
	switch m := a.MaskKind(); m {
	case MaskNone, MaskCustom:
	case MaskCausal:
		if q[1] != k[1] {
			return because(explain, func() string {
				return fmt.Sprintf("causal mask with Sq = %s and Sk = %s (MPS takes causal only with Sq = Sk)", dimString(q[1]), dimString(k[1]))
			})
		}
	default:
		return because(explain, func() string {
			return fmt.Sprintf("mask %q (MPS takes none, custom, or causal with Sq = Sk)", string(m))
		})
	}
	if v[3] != q[3] {
		return because(explain, func() string {
			return fmt.Sprintf("Dv = %s differs from D = %s (MPS takes Dv = D only)", dimString(v[3]), dimString(q[3]))
		})
	}
	return true, ""
}

// leafMaterialised follows v back through reshape, transpose, cast and
// slice and reports whether it reaches a function argument, a param or a
// constant; if not, with explain, it says what it reached.
func leafMaterialised(v *ir.Value, explain bool) (bool, string) {
	start := v
	for steps := 0; ; steps++ {
		def := v.DefiningOp()
		if def == nil {
			if b := v.OwnerBlock(); b != nil && b.Parent() != nil {
				if p := b.Parent().ParentOp(); p != nil && p.Name() == "func.func" {
					return true, ""
				}
			}
			return false, "is a block argument of a region other than a function body"
		}
		switch def.Name() {
		case ParamName, ConstantName:
			return true, ""
		case ReshapeName, TransposeName, CastName, SliceName:
			if steps > 1<<16 || def.NumOperands() != 1 {
				return false, "is not reached from a leaf"
			}
			v = def.Operand(0)
			continue
		}
		return because(explain, func() string {
			// Walk the chain again for the names of the ops on the way.
			var path []string
			for u := start; u != v; u = u.DefiningOp().Operand(0) {
				path = append(path, strings.TrimPrefix(u.DefiningOp().Name(), "graph."))
			}
			via := ""
			if len(path) > 0 {
				via = " through " + strings.Join(path, ", ")
			}
			return fmt.Sprintf("is computed by %s%s, not read from a function argument, param or constant through reshape/transpose/cast/slice only", def.Name(), via)
		})
	}
}

func shapeOf(v *ir.Value) []int64 {
	if t, ok := v.Type().(*ir.RankedTensorType); ok {
		return t.Shape
	}
	return nil
}

func dimString(d int64) string {
	if d == dyn {
		return "?"
	}
	return fmt.Sprint(d)
}

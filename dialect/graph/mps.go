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
	// check returns why the op fails the row's condition, or "".
	check func(op *ir.Operation) string
}

// mpsElemTypesText names the element types MPSGraph takes.
const mpsElemTypesText = "f32, f16, bf16, i32"

// MPSTable returns the MPS capability table (new on each call). The
// hybrid-split pass and the docs both read it. Besides the rows, one rule
// holds for every op but the leaves: an operand or result with a dynamic
// dim, or with an element type outside f32/f16/bf16/i32, keeps the op
// native.
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
	row := mpsIndex()[op.Name()]
	if row == nil {
		return false, fmt.Sprintf("%s is not a graph op", op.Name())
	}
	if err := checkCounts(lookup(op.Name()), op); err != nil {
		return false, err.(*ir.Diagnostic).Message
	}
	switch row.Kind {
	case MPSLeaf:
		return true, "leaf: " + row.Condition
	case MPSNo:
		return false, fmt.Sprintf("%s: %s", op.Name(), row.Condition)
	}
	if row.check != nil {
		if why := row.check(op); why != "" {
			return false, fmt.Sprintf("%s: %s", op.Name(), why)
		}
	}
	if why := mpsTypes(op); why != "" {
		return false, fmt.Sprintf("%s: %s", op.Name(), why)
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

// mpsTypes applies the rule for every op: static shapes and MPS element
// types on every operand and result.
func mpsTypes(op *ir.Operation) string {
	check := func(what string, i int, t ir.Type) string {
		rt, ok := t.(*ir.RankedTensorType)
		if !ok {
			return fmt.Sprintf("%s #%d is not a ranked tensor", what, i)
		}
		if hasDynamic(rt.Shape) {
			return fmt.Sprintf("%s #%d has a dynamic dim (%s)", what, i, FormatShape(rt.Shape))
		}
		if !mpsElemOK(rt.Elem) {
			return fmt.Sprintf("%s #%d has element type %s (MPS takes %s)", what, i, rt.Elem, mpsElemTypesText)
		}
		return ""
	}
	for i := 0; i < op.NumOperands(); i++ {
		if why := check("operand", i, op.Operand(i).Type()); why != "" {
			return why
		}
	}
	for i := 0; i < op.NumResults(); i++ {
		if why := check("result", i, op.Result(i).Type()); why != "" {
			return why
		}
	}
	return ""
}

func mpsCast(op *ir.Operation) string {
	if t := elemOf(op.Result(0)); t != nil && !mpsElemOK(t) {
		return fmt.Sprintf("cast to %s (MPS casts only to %s)", t, mpsElemTypesText)
	}
	return ""
}

func mpsSlice(op *ir.Operation) string {
	if s := attrInt(op, "step", 1); s != 1 {
		return fmt.Sprintf("step %d (MPS slices with step 1 only)", s)
	}
	return ""
}

func mpsReduce(op *ir.Operation) string {
	r := rankOf(op.Operand(0))
	if r < 4 {
		return ""
	}
	axes := Reduce{op}.Axes()
	mask := make([]bool, r)
	for _, a := range axes {
		mask[a] = true
	}
	for i := 0; i < r; i++ {
		if !mask[i] {
			continue
		}
		for j := i + 1; j < r; j++ {
			if !mask[j] {
				return fmt.Sprintf("rank-%d reduce over axis %d keeps axis %d after it (MPSGraph returned zeros for that)", r, i, j)
			}
		}
	}
	return ""
}

func mpsRope(op *ir.Operation) string {
	if r := rankOf(op.Operand(0)); r != 3 {
		return fmt.Sprintf("rank-%d input (MPS takes rank-3 [B, S, H·D] input only)", r)
	}
	return ""
}

func mpsAttention(op *ir.Operation) string {
	a := Attention{op}
	for i, name := range []string{"q", "k", "v"} {
		if why := leafMaterialised(op.Operand(i)); why != "" {
			return fmt.Sprintf("operand #%d (%s) %s; MPSGraph attention over slices of computed tensors gives wrong values", i, name, why)
		}
	}
	q, k, v := shapeOf(a.Q()), shapeOf(a.K()), shapeOf(a.V())
	if len(q) != 4 || len(k) != 4 || len(v) != 4 {
		return "rank other than 4 (MPS attention takes rank 4)"
	}
	switch m := a.MaskKind(); m {
	case MaskNone, MaskCustom:
	case MaskCausal:
		if q[1] != k[1] {
			return fmt.Sprintf("causal mask with Sq = %s and Sk = %s (MPS takes causal only with Sq = Sk)", dimString(q[1]), dimString(k[1]))
		}
	default:
		return fmt.Sprintf("mask %q (MPS takes none, custom, or causal with Sq = Sk)", string(m))
	}
	if v[3] != q[3] {
		return fmt.Sprintf("Dv = %s differs from D = %s (MPS takes Dv = D only)", dimString(v[3]), dimString(q[3]))
	}
	return ""
}

// leafMaterialised follows v back through reshape, transpose, cast and
// slice and returns "" when it reaches a function argument, a param or a
// constant, else what it reached.
func leafMaterialised(v *ir.Value) string {
	var path []string
	for steps := 0; ; steps++ {
		def := v.DefiningOp()
		if def == nil {
			if b := v.OwnerBlock(); b != nil && b.Parent() != nil {
				if p := b.Parent().ParentOp(); p != nil && p.Name() == "func.func" {
					return ""
				}
			}
			return "is a block argument of a region other than a function body"
		}
		switch def.Name() {
		case ParamName, ConstantName:
			return ""
		case ReshapeName, TransposeName, CastName, SliceName:
			if steps > 1<<16 || def.NumOperands() != 1 {
				return "is not reached from a leaf"
			}
			path = append(path, strings.TrimPrefix(def.Name(), "graph."))
			v = def.Operand(0)
			continue
		}
		via := ""
		if len(path) > 0 {
			via = " through " + strings.Join(path, ", ")
		}
		return fmt.Sprintf("is computed by %s%s, not read from a function argument, param or constant through reshape/transpose/cast/slice only", def.Name(), via)
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

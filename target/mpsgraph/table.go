package mpsgraph

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/regionop"
	"github.com/rlx-compiler/rlx/ir"
)

// Kind says whether hybrid-split may place an op in an mps.subgraph.
type Kind uint8

const (
	// No: the op always stays native.
	No Kind = iota
	// Yes: the op goes to MPS unless the rule on types forbids it (a
	// dynamic dim, an element type MPSGraph lacks).
	Yes
	// Conditional: as Yes, when the row's condition also holds.
	Conditional
	// Leaf: the op is not placed; it is cloned into every region that
	// uses it.
	Leaf
)

// String returns the kind as the docs show it.
func (k Kind) String() string {
	switch k {
	case Yes:
		return "yes"
	case Conditional:
		return "conditional"
	case Leaf:
		return "leaf"
	}
	return "no"
}

// A Check is a row's condition: it reports whether op meets it and, when
// explain is set, why not. Without explain it formats nothing.
type Check func(op *ir.Operation, explain bool) (bool, string)

// Row is one row of a capability table.
type Row struct {
	Ops  []string
	Kind Kind
	// Condition is the row's condition (Conditional) or reason (No, Leaf)
	// as the docs show it.
	Condition string
	// Check decides a Conditional row; the other kinds have none.
	Check Check
}

// Config is what differs between the MPSGraph versions a table describes.
type Config struct {
	// BF16 is set when MPSGraph takes bfloat16 tensors (MPSDataTypeBFloat16,
	// macOS 14 and later).
	BF16 bool
}

// Table is a capability table: its rows, one per group of graph ops, and
// the rule on types that every op meets on every operand and result.
// Tables are immutable once made and safe for concurrent use.
type Table struct {
	rows  []Row
	elems []string // the element types it takes, as the docs name them
	// bf16 says whether bf16 is among them (f32, f16 and i32 always are);
	// elemOK reads it rather than comparing names, as it runs for every
	// operand and result of every op hybrid-split asks about.
	bf16  bool
	index map[string]int
}

// New returns the capability table of an MPSGraph with cfg's features.
func New(cfg Config) *Table {
	elems := []string{"f32", "f16", "i32"}
	if cfg.BF16 {
		elems = []string{"f32", "f16", "bf16", "i32"}
	}
	t := &Table{elems: elems, bf16: cfg.BF16, index: map[string]int{}}
	t.rows = t.defaultRows()
	for i, r := range t.rows {
		for _, n := range r.Ops {
			t.index[n] = i
		}
	}
	return t
}

// Rows returns the table's rows, in the order the docs list them (a copy).
func (t *Table) Rows() []Row {
	rows := make([]Row, len(t.rows))
	copy(rows, t.rows)
	return rows
}

// Row returns the row of the named op.
func (t *Table) Row(name string) (Row, bool) {
	i, ok := t.index[name]
	if !ok {
		return Row{}, false
	}
	return t.rows[i], true
}

// ElemTypes returns the element types MPSGraph takes, as the docs name
// them.
func (t *Table) ElemTypes() string { return strings.Join(t.elems, ", ") }

func (t *Table) defaultRows() []Row {
	var unary []string
	for _, n := range graph.UnaryOpNames() {
		if n != graph.SoftplusName {
			unary = append(unary, n)
		}
	}
	return []Row{
		{Ops: []string{graph.ParamName, graph.ConstantName}, Kind: Leaf, Condition: "cloned into every region that uses them"},
		{Ops: []string{graph.MatMulName, graph.AddName, graph.SubName, graph.MulName, graph.DivName}, Kind: Yes},
		{Ops: unary, Kind: Yes},
		{Ops: []string{graph.SoftplusName}, Kind: No, Condition: "no MPSGraph lowering"},
		{Ops: []string{graph.MaxName, graph.MinName, graph.PowName, graph.CmpName, graph.SelectName}, Kind: No, Condition: "no MPSGraph lowering"},
		{Ops: []string{graph.CastName}, Kind: Conditional, Condition: "to " + t.ElemTypes() + " only", Check: t.checkCast},
		{Ops: []string{graph.ReshapeName, graph.BroadcastName, graph.TransposeName, graph.ConcatName, graph.GatherName}, Kind: Yes},
		{Ops: []string{graph.SliceName}, Kind: Conditional, Condition: "`step = 1` only", Check: checkSlice},
		{Ops: []string{graph.ReduceName}, Kind: Conditional,
			Condition: "except rank ≥ 4 where a reduced axis has a kept axis after it (MPSGraph returned zeros for that)", Check: checkReduce},
		{Ops: []string{graph.SoftmaxName, graph.RMSNormName, graph.LayerNormName}, Kind: Yes},
		{Ops: []string{graph.RopeName}, Kind: Conditional, Condition: "rank-3 input only", Check: checkRope},
		{Ops: []string{graph.AttentionName}, Kind: Conditional,
			Condition: "only when leaf-materialised: q, k and v each reach a function argument, param or constant through " +
				"reshape/transpose/cast/slice only; rank 4; mask none, custom, or causal with Sq = Sk; Dv = D " +
				"(MPSGraph attention over slices of computed tensors gives wrong values)",
			Check: checkAttention},
		{Ops: []string{graph.GatedDeltaNetName, graph.LSTMName}, Kind: No, Condition: "recurrent scans have no MPSGraph lowering"},
		{Ops: []string{graph.DequantMatMulName}, Kind: No, Condition: "packed GGUF weights have no MPSGraph lowering"},
		{Ops: []string{graph.TopKName}, Kind: No,
			Condition: "MPSGraph's topK leaves the order of equal values unspecified, and a routed model must pick the reference's experts exactly"},
	}
}

// Capable reports whether hybrid-split may place op in an mps.subgraph,
// and otherwise why not (for the pass's explain remarks). Leaves report
// true with reason "leaf: …": they are cloned into regions, not placed.
// Capability is a property of the op in the function before
// partitioning; for attention it follows q, k and v back to where they
// are computed, across region boundaries once the function is split. The
// op should have been verified; one with the wrong number of operands or
// results is reported as not capable.
func (t *Table) Capable(op *ir.Operation) (ok bool, reason string) {
	return t.capable(op, true)
}

// IsCapable is Capable without the reason. It formats nothing, so a
// caller asking for every op of a large function (hybrid-split without
// explain) allocates nothing for the ops that stay native.
func (t *Table) IsCapable(op *ir.Operation) bool {
	ok, _ := t.capable(op, false)
	return ok
}

func (t *Table) capable(op *ir.Operation, explain bool) (bool, string) {
	i, found := t.index[op.Name()]
	if !found {
		return because(explain, func() string { return op.Name() + " is not a graph op" })
	}
	if err := graph.VerifyCounts(op); err != nil {
		return false, err.(*ir.Diagnostic).Message
	}
	row := &t.rows[i]
	switch row.Kind {
	case Leaf:
		if explain {
			return true, "leaf: " + row.Condition
		}
		return true, ""
	case No:
		return because(explain, func() string { return op.Name() + ": " + row.Condition })
	}
	ok, reason := true, ""
	if row.Check != nil {
		ok, reason = row.Check(op, explain)
	}
	if ok {
		ok, reason = t.types(op, explain)
	}
	if !ok {
		return because(explain, func() string { return op.Name() + ": " + reason })
	}
	return true, ""
}

// Placeable returns "" when op may be in an mps.subgraph, else why not
// (the mps.subgraph verifier's rule): op is a graph op the table passes,
// or a leaf whose type MPSGraph takes. The table passes every leaf, as
// hybrid-split clones leaves rather than placing them; but a leaf inside
// a region becomes an MPSGraph constant or placeholder, so it meets the
// rule on types every other op meets.
func (t *Table) Placeable(op *ir.Operation) string {
	if op.Def() == nil || op.OpName().Dialect() != "graph" {
		return "'" + op.Name() + "' is not a graph op"
	}
	if graph.IsLeaf(op) && op.NumResults() == 1 {
		return t.TypeOK(op.Result(0).Type(), "result #0")
	}
	if ok, why := t.Capable(op); !ok {
		return strings.TrimPrefix(why, op.Name()+": ")
	}
	return ""
}

// TypeOK returns "" when MPSGraph takes values of type ty (a ranked
// tensor of static shape and an element type of the table's), else why
// not, naming the value as what ("result #0"). It is the rule on types of
// the table, which every op meets on every operand and result.
func (t *Table) TypeOK(ty ir.Type, what string) string {
	_, why := t.typeOK(ty, true, func() string { return what })
	return why
}

// elemOK reports whether MPSGraph takes the element type.
func (t *Table) elemOK(e ir.Type) bool {
	switch e := e.(type) {
	case *ir.FloatType:
		switch e.Name() {
		case "f32", "f16":
			return true
		case "bf16":
			return t.bf16
		}
	case *ir.IntegerType:
		return e.Width == 32 && e.IsSignless()
	}
	return false
}

// typeOK is TypeOK; the reason is formatted only with explain, and what
// is called only then.
func (t *Table) typeOK(ty ir.Type, explain bool, what func() string) (bool, string) {
	rt, ok := ty.(*ir.RankedTensorType)
	switch {
	case !ok:
		return because(explain, func() string { return what() + " is not a ranked tensor" })
	case hasDynamic(rt.Shape):
		return because(explain, func() string {
			return fmt.Sprintf("%s has a dynamic dim (%s)", what(), graph.FormatShape(rt.Shape))
		})
	case !t.elemOK(rt.Elem):
		return because(explain, func() string {
			return fmt.Sprintf("%s has element type %s (MPS takes %s)", what(), rt.Elem, t.ElemTypes())
		})
	}
	return true, ""
}

// types applies the rule on types to every operand and result.
func (t *Table) types(op *ir.Operation, explain bool) (bool, string) {
	for i := 0; i < op.NumOperands(); i++ {
		if ok, why := t.typeOK(op.Operand(i).Type(), explain, func() string { return fmt.Sprintf("operand #%d", i) }); !ok {
			return false, why
		}
	}
	for i := 0; i < op.NumResults(); i++ {
		if ok, why := t.typeOK(op.Result(i).Type(), explain, func() string { return fmt.Sprintf("result #%d", i) }); !ok {
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

func hasDynamic(shape []int64) bool {
	for _, d := range shape {
		if d == ir.Dynamic {
			return true
		}
	}
	return false
}

func (t *Table) checkCast(op *ir.Operation, explain bool) (bool, string) {
	c, _ := graph.AsCast(op)
	if e := c.Target(); e != nil && !t.elemOK(e) {
		return because(explain, func() string { return fmt.Sprintf("cast to %s (MPS casts only to %s)", e, t.ElemTypes()) })
	}
	return true, ""
}

func checkSlice(op *ir.Operation, explain bool) (bool, string) {
	s, _ := graph.AsSlice(op)
	if step := s.Step(); step != 1 {
		return because(explain, func() string { return fmt.Sprintf("step %d (MPS slices with step 1 only)", step) })
	}
	return true, ""
}

func checkReduce(op *ir.Operation, explain bool) (bool, string) {
	r := rank(op.Operand(0))
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
			if ax, ok := graph.NormalizeAxis(x, r); ok {
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

func checkRope(op *ir.Operation, explain bool) (bool, string) {
	if r := rank(op.Operand(0)); r != 3 {
		return because(explain, func() string { return fmt.Sprintf("rank-%d input (MPS takes rank-3 [B, S, H·D] input only)", r) })
	}
	return true, ""
}

func checkAttention(op *ir.Operation, explain bool) (bool, string) {
	a, _ := graph.AsAttention(op)
	for i, name := range []string{"q", "k", "v"} {
		if ok, reached := LeafMaterialised(op.Operand(i), explain); !ok {
			return because(explain, func() string {
				return fmt.Sprintf("operand #%d (%s) %s; MPSGraph attention over slices of computed tensors gives wrong values", i, name, reached)
			})
		}
	}
	q, k, v := shape(a.Q()), shape(a.K()), shape(a.V())
	if len(q) != 4 || len(k) != 4 || len(v) != 4 {
		return false, "rank other than 4 (MPS attention takes rank 4)"
	}
	switch m := a.MaskKind(); m {
	case graph.MaskNone, graph.MaskCustom:
	case graph.MaskCausal:
		if q[1] != k[1] {
			return because(explain, func() string {
				return fmt.Sprintf("causal mask with Sq = %s and Sk = %s (MPS takes causal only with Sq = Sk)", dim(q[1]), dim(k[1]))
			})
		}
	default:
		return because(explain, func() string {
			return fmt.Sprintf("mask %q (MPS takes none, custom, or causal with Sq = Sk)", string(m))
		})
	}
	if v[3] != q[3] {
		return because(explain, func() string {
			return fmt.Sprintf("Dv = %s differs from D = %s (MPS takes Dv = D only)", dim(v[3]), dim(q[3]))
		})
	}
	return true, ""
}

// LeafMaterialised follows v back through reshape, transpose, cast and
// slice, and across region boundaries (regionop.Source), and reports
// whether it reaches a function argument, a param or a constant; if not,
// with explain, it says what it reached and through which views.
// Attention over anything else is what MPSGraph computes wrongly.
func LeafMaterialised(v *ir.Value, explain bool) (bool, string) {
	var path []string
	for steps := 0; steps < 1<<16; steps++ {
		v = regionop.Source(v)
		def := v.DefiningOp()
		if def == nil {
			if b := v.OwnerBlock(); b != nil && b.ParentOp() != nil && b.ParentOp().Name() == "func.func" {
				return true, ""
			}
			return false, "is a block argument of a region other than a function body"
		}
		switch def.Name() {
		case graph.ParamName, graph.ConstantName:
			return true, ""
		case graph.ReshapeName, graph.TransposeName, graph.CastName, graph.SliceName:
			if def.NumOperands() != 1 {
				return false, "is not reached from a leaf"
			}
			if explain {
				path = append(path, strings.TrimPrefix(def.Name(), "graph."))
			}
			v = def.Operand(0)
			continue
		}
		return because(explain, func() string {
			via := ""
			if len(path) > 0 {
				via = " through " + strings.Join(path, ", ")
			}
			return fmt.Sprintf("is computed by %s%s, not read from a function argument, param or constant through reshape/transpose/cast/slice only", def.Name(), via)
		})
	}
	return false, "is not reached from a leaf"
}

func shape(v *ir.Value) []int64 {
	if t, ok := v.Type().(*ir.RankedTensorType); ok {
		return t.Shape
	}
	return nil
}

func rank(v *ir.Value) int { return len(shape(v)) }

func dim(d int64) string {
	if d == ir.Dynamic {
		return "?"
	}
	return fmt.Sprint(d)
}

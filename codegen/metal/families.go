package metal

import (
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// family emits the kernels of one op family.
type family struct {
	// fuse marks element-wise ops: a run of them in a region becomes one
	// kernel (emitFused), so emit is nil.
	fuse bool
	emit func(r *regionState, op *ir.Operation) error
}

// familyTable is the one table from graph op to kernel family. Adding a
// family is one line here and a file with its emitter. Leaves and reshape
// (a view) have no kernel.
func familyTable() []struct {
	op string
	f  family
} {
	ew := family{fuse: true}
	return []struct {
		op string
		f  family
	}{
		{graph.NegName, ew}, {graph.AbsName, ew}, {graph.ExpName, ew}, {graph.LogName, ew},
		{graph.SqrtName, ew}, {graph.RsqrtName, ew}, {graph.ReciprocalName, ew},
		{graph.SigmoidName, ew}, {graph.TanhName, ew}, {graph.SinName, ew}, {graph.CosName, ew},
		{graph.ReluName, ew}, {graph.SoftplusName, ew}, {graph.SiluName, ew}, {graph.GeluName, ew},
		{graph.GeluTanhName, ew},
		{graph.AddName, ew}, {graph.SubName, ew}, {graph.MulName, ew}, {graph.DivName, ew},
		{graph.MaxName, ew}, {graph.MinName, ew}, {graph.PowName, ew},
		{graph.CmpName, ew}, {graph.SelectName, ew}, {graph.CastName, ew}, {graph.BroadcastName, ew},
		{graph.RMSNormName, family{emit: emitNorm}},
		{graph.LayerNormName, family{emit: emitNorm}},
		{graph.SoftmaxName, family{emit: emitSoftmax}},
		{graph.ReduceName, family{emit: emitReduce}},
		{graph.RopeName, family{emit: emitRope}},
		{graph.TransposeName, family{emit: emitTranspose}},
		{graph.SliceName, family{emit: emitSlice}},
		{graph.ConcatName, family{emit: emitConcat}},
		{graph.GatherName, family{emit: emitGather}},
		{graph.MatMulName, family{emit: emitMatMul}},
		{graph.DequantMatMulName, family{emit: emitDequantMatMul}},
		{graph.AttentionName, family{emit: emitAttention}},
		{graph.GatedDeltaNetName, family{emit: emitGatedDeltaNet}},
		{graph.LSTMName, family{emit: emitLSTM}},
		{graph.TopKName, family{emit: emitTopK}},
	}
}

func familyMap() map[string]family {
	t := familyTable()
	m := make(map[string]family, len(t))
	for _, row := range t {
		m[row.op] = row.f
	}
	return m
}

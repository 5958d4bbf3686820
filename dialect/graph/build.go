package graph

import (
	"github.com/rlx-compiler/rlx/ir"
)

// Create builds the graph op name with the given operands and attributes,
// checks it, and inserts it with b. When results is nil the result types
// are inferred (InferResultTypes); graph.param, graph.reshape,
// graph.broadcast and graph.cast take their result type as an input and
// need results. An invalid op is not inserted: the verifier's diagnostic
// is returned instead.
func Create(b *ir.Builder, loc ir.Location, name string, operands []*ir.Value, results []ir.Type, attrs ...ir.NamedAttr) (*ir.Operation, error) {
	ctx := b.Ctx
	if loc == nil {
		loc = ctx.UnknownLoc()
	}
	info := lookup(name)
	if info == nil {
		return nil, ir.NewError(loc, "'%s' is not a graph op", name)
	}
	infer := results == nil
	if infer {
		switch name {
		case ParamName, ReshapeName, BroadcastName, CastName:
			return nil, ir.NewError(loc, "'%s' takes its result type as an input: pass results", name)
		}
		results = make([]ir.Type, info.numOut)
		for i := range results {
			results[i] = ctx.None()
		}
	}
	op := ir.NewOperation(ctx, &ir.OperationState{Name: ctx.OpName(name), Loc: loc, Operands: operands, ResultTypes: results, Attrs: attrs})
	if infer {
		ts, err := check(info, op, false)
		if err != nil {
			op.Erase()
			return nil, err
		}
		for i, t := range ts {
			op.Result(i).SetType(ctx.TensorType(t.shape, t.elem))
		}
	}
	if _, err := check(info, op, true); err != nil {
		op.Erase()
		return nil, err
	}
	return b.Insert(op), nil
}

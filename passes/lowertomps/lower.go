package lowertomps

import (
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/dialect/regionop"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/target"
)

// Options are lower-to-mps's options.
type Options struct {
	// Target is the device whose MPSGraph runs the regions: its capability
	// table decides what may be lowered. nil means target.Default.
	Target *target.Target
	// SDPA lowers graph.attention to MPSGraph's own scaled dot-product
	// attention (mps.sdpa, macOS 15) instead of the hand-written sequence.
	// MPSGraph's SDPA drifts on RoPE'd inputs (reference/rlx.md §2), so it
	// is off by default; attention with a softcap always takes the
	// hand-written sequence, which SDPA cannot express.
	SDPA bool
}

// Stats counts what Lower did.
type Stats struct {
	Regions    int // mps.subgraph regions lowered
	GraphOps   int // graph ops replaced
	Primitives int // primitives created
}

// Lower lowers every mps.subgraph directly in op's regions (a func.func;
// a module is walked for its functions): each graph op in a region becomes
// one or more primitives of the mps dialect. Regions that hold only
// primitives are left as they are, so lowering twice changes nothing.
//
// An op that the target's MPSGraph cannot run (its capability table says
// why), or that the lowering has no rule for, is an error located at the
// op, naming it, with a note at the region; nothing is changed then.
// Every region is checked before any is lowered, since attention's
// capability is judged across region boundaries on the graph ops.
func Lower(op *ir.Operation, opts Options) (Stats, error) {
	t := opts.Target
	if t == nil {
		t = target.MustLookup(target.Default)
	}
	var regions []*ir.Operation
	op.Walk(func(o *ir.Operation) {
		if o.Name() == mps.SubgraphName && regionop.IsOutlined(o) {
			regions = append(regions, o)
		}
	})
	for _, sg := range regions {
		if err := check(sg, t); err != nil {
			return Stats{}, err
		}
	}
	var st Stats
	for _, sg := range regions {
		n, p, err := lowerRegion(sg, opts)
		if err != nil {
			return st, err
		}
		if n > 0 {
			st.Regions++
		}
		st.GraphOps += n
		st.Primitives += p
	}
	return st, nil
}

// check reports the first op of the region that cannot be lowered for t.
func check(sg *ir.Operation, t *target.Target) error {
	body := sg.Region(0).First()
	for o := body.First(); o != nil && o != body.Last(); o = o.Next() {
		if mps.IsPrimitive(o) {
			continue
		}
		why := "target " + t.Name + " runs nothing through MPSGraph"
		if t.MPS != nil {
			why = t.MPS.Placeable(o)
		}
		if why == "" && rules[o.Name()] == nil {
			why = "lower-to-mps has no rule for it"
		}
		if why != "" {
			return inRegion(ir.OpError(o, "cannot be lowered to MPSGraph: %s", why), sg)
		}
	}
	return nil
}

func inRegion(d *ir.Diagnostic, sg *ir.Operation) *ir.Diagnostic {
	d.AttachNote(sg.Loc(), "in the mps.subgraph @"+ir.SymbolName(sg))
	return d
}

// lowerRegion replaces the graph ops of one region by primitives and
// returns how many graph ops it replaced and primitives it made.
func lowerRegion(sg *ir.Operation, opts Options) (graphOps, prims int, err error) {
	ctx := sg.Context()
	body := sg.Region(0).First()
	b := ir.NewBuilder(ctx)
	b.Listener = func(*ir.Operation) { prims++ }
	for o := body.First(); o != nil && o != body.Last(); {
		next := o.Next()
		if mps.IsPrimitive(o) {
			o = next
			continue
		}
		b.SetInsertionPoint(o)
		l := &builder{b: b, ctx: ctx, loc: o.Loc()}
		res, err := apply(l, o, opts)
		if err != nil {
			return graphOps, prims, inRegion(ir.OpError(o, "%v", err), sg)
		}
		for i, r := range res {
			o.Result(i).ReplaceAllUsesWith(r)
		}
		o.Erase()
		graphOps++
		o = next
	}
	return graphOps, prims, nil
}

// apply runs the rule of op, turning a lowering bug into an error.
func apply(l *builder, op *ir.Operation, opts Options) (res []*ir.Value, err error) {
	defer catch(&err)
	return []*ir.Value{rules[op.Name()](l, op, opts)}, nil
}

// A rule builds the primitives that compute op's (single) result.
type rule func(l *builder, op *ir.Operation, opts Options) *ir.Value

// rules maps every graph op that the capability table lets into an
// mps.subgraph to its lowering; TestCapabilityTable checks that the two
// agree row by row.
var rules = map[string]rule{
	graph.ParamName:    lowerParam,
	graph.ConstantName: lowerConstant,

	graph.NegName:        oneToOne(mps.NegName),
	graph.AbsName:        oneToOne(mps.AbsName),
	graph.ExpName:        oneToOne(mps.ExpName),
	graph.LogName:        oneToOne(mps.LogName),
	graph.SqrtName:       oneToOne(mps.SqrtName),
	graph.RsqrtName:      oneToOne(mps.RsqrtName),
	graph.ReciprocalName: oneToOne(mps.ReciprocalName),
	graph.SigmoidName:    oneToOne(mps.SigmoidName),
	graph.TanhName:       oneToOne(mps.TanhName),
	graph.SinName:        oneToOne(mps.SinName),
	graph.CosName:        oneToOne(mps.CosName),
	graph.ReluName:       oneToOne(mps.ReluName),
	graph.SiluName:       lowerSilu,
	graph.GeluName:       lowerGelu,
	graph.GeluTanhName:   lowerGeluTanh,

	graph.AddName: oneToOne(mps.AddName),
	graph.SubName: oneToOne(mps.SubName),
	graph.MulName: oneToOne(mps.MulName),
	graph.DivName: oneToOne(mps.DivName),

	graph.CastName:      lowerCast,
	graph.MatMulName:    lowerMatMul,
	graph.ReshapeName:   lowerReshape,
	graph.BroadcastName: lowerBroadcast,
	graph.TransposeName: lowerTranspose,
	graph.ConcatName:    lowerConcat,
	graph.GatherName:    lowerGather,
	graph.SliceName:     lowerSlice,
	graph.ReduceName:    lowerReduce,
	graph.SoftmaxName:   lowerSoftmax,
	graph.RMSNormName:   lowerRMSNorm,
	graph.LayerNormName: lowerLayerNorm,
	graph.RopeName:      lowerRope,
	graph.AttentionName: lowerAttention,
}

// HasRule reports whether lower-to-mps has a lowering for the graph op
// name.
func HasRule(name string) bool { return rules[name] != nil }

// Decomposes reports whether lower-to-mps writes op as several primitives
// whose roundings may differ from the graph op's kernel (rms_norm,
// layer_norm, silu, gelu, gelu_tanh, rope, attention, a mean), rather than
// as primitives that compute its bits exactly.
func Decomposes(op *ir.Operation) bool {
	switch op.Name() {
	case graph.SiluName, graph.GeluName, graph.GeluTanhName, graph.RMSNormName, graph.LayerNormName,
		graph.RopeName, graph.AttentionName:
		return true
	case graph.ReduceName:
		r, _ := graph.AsReduce(op)
		return r.Kind() == graph.ReduceMean
	}
	return false
}

package plan

import (
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/dialect/regionop"
	"github.com/rlx-compiler/rlx/dialect/thunk"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Options control Build.
type Options struct {
	// Align is the alignment of every slot, in bytes: a power of two, at
	// least 16 (DefaultAlign when 0).
	Align int64
	// Guard is the number of bytes kept free after every arena value
	// (rounded up to a multiple of 16), which a runtime can fill with a
	// pattern and check after each step: a kernel writing past its value
	// shows there instead of in a neighbour.
	Guard int64
	// Carry keeps decode states in the arena between runs (see the
	// package doc).
	Carry bool
}

// NameAttr is the argument and result attribute that names a decode
// step's inputs, states and outputs (models.NameAttr).
const NameAttr = "rlx.name"

func (o Options) resolved() (Options, error) {
	if o.Align == 0 {
		o.Align = DefaultAlign
	}
	if o.Align < 16 || o.Align&(o.Align-1) != 0 {
		return o, fmt.Errorf("align %d is not a power of two of at least 16", o.Align)
	}
	if o.Guard < 0 {
		return o, fmt.Errorf("guard %d is negative", o.Guard)
	}
	o.Guard = alignUp(o.Guard, 16)
	return o, nil
}

// Build makes the plan of the func.func f, a function after hybrid-split:
// its body holds only mps.subgraph and thunk.call regions and func.return.
// man is the manifest codegen/metal emitted for f's module (nil when f has
// no thunk.call with target "metal"). Errors a user can cause (an op
// outside any region, a dynamic shape, a region the manifest lacks, a
// weight used with two types) are *ir.Diagnostic values located at the op.
func Build(f *ir.Operation, man *metal.Manifest, opts Options) (*Plan, error) {
	opts, err := opts.resolved()
	if err != nil {
		return nil, err
	}
	view, ok := fn.AsFunc(f)
	if !ok {
		return nil, ir.OpError(f, "is not a func.func")
	}
	if view.IsDeclaration() || f.Region(0).NumBlocks() != 1 {
		return nil, ir.OpError(f, "has no single-block body to plan")
	}
	b := &builder{
		p:       &Plan{Version: Version, Function: view.Name(), Align: opts.Align, Guard: opts.Guard},
		values:  map[*ir.Value]int{},
		weights: map[string]int{},
		regions: map[string]*metal.Region{},
		kernels: map[string]*metal.KernelInfo{},
	}
	if man != nil {
		for _, r := range man.Regions {
			b.regions[r.Function+"@"+r.Symbol] = r
		}
		for _, k := range man.Kernels {
			b.kernels[k.Name] = k
		}
	}
	body := view.Body()
	for i, a := range body.Arguments() {
		id, err := b.newValue(fmt.Sprintf("%%arg%d", i), KindInput, a.Type(), -1)
		if err != nil {
			return nil, ir.OpError(f, "argument #%d: %v", i, err)
		}
		b.values[a] = id
		b.p.Inputs = append(b.p.Inputs, Port{Name: attrName(view.ArgAttrs(i)), Type: a.Type().String(), Value: id})
	}
	results := 0 // the printer's number of the next op with results
	for op := range body.Ops() {
		if op.Name() == fn.ReturnName {
			for i, v := range op.Operands() {
				id, ok := b.values[v]
				if !ok {
					return nil, ir.OpError(op, "operand #%d is not an argument or a region result", i)
				}
				b.p.Outputs = append(b.p.Outputs, Port{Name: attrName(view.ResultAttrs(i)), Type: v.Type().String(), Value: id})
			}
			continue
		}
		name := "%" + strconv.Itoa(results)
		if op.NumResults() > 0 {
			results++
		}
		if op.Name() == graph.ParamName || op.Name() == graph.ConstantName {
			if err := b.leaf(op, name); err != nil {
				return nil, err
			}
			continue
		}
		if err := b.step(op, view.Name(), name); err != nil {
			return nil, err
		}
	}
	b.liveness()
	if opts.Carry {
		b.carry()
	}
	if err := b.allocate(); err != nil {
		return nil, err
	}
	b.layoutWeights()
	b.resolveBindings()
	if err := Check(b.p); err != nil {
		return nil, fmt.Errorf("internal error: the plan of @%s fails its check: %v", view.Name(), err)
	}
	return b.p, nil
}

type builder struct {
	p       *Plan
	values  map[*ir.Value]int
	weights map[string]int
	regions map[string]*metal.Region
	kernels map[string]*metal.KernelInfo
	// alias[i] is the value whose slot value i shares (a carried state),
	// or -1 for none.
	alias []int
}

func attrName(d *ir.DictAttr) string {
	if d == nil {
		return ""
	}
	if s, ok := d.Get(NameAttr).(*ir.StringAttr); ok {
		return s.Value
	}
	return ""
}

// typeBytes returns the bytes of a statically shaped tensor type, as a
// kernel stores it (i1 as one byte).
func typeBytes(t ir.Type) (int64, error) {
	rt, ok := t.(*ir.RankedTensorType)
	if !ok {
		return 0, fmt.Errorf("type %v is not a ranked tensor", t)
	}
	n := ir.NumElements(rt)
	if n < 0 {
		return 0, fmt.Errorf("type %v has a dynamic dim; a plan needs static shapes", t)
	}
	dt, err := tensor.ParseDType(rt.Elem.String())
	if err != nil {
		return 0, fmt.Errorf("type %v: %v", t, err)
	}
	return n * int64(dt.ByteSize()), nil
}

func (b *builder) newValue(name, kind string, t ir.Type, def int) (int, error) {
	n, err := typeBytes(t)
	if err != nil {
		return 0, err
	}
	return b.addValue(name, kind, t.String(), n, def), nil
}

func (b *builder) addValue(name, kind, typ string, bytes int64, def int) int {
	id := len(b.p.Values)
	b.p.Values = append(b.p.Values, &Value{ID: id, Name: name, Kind: kind, Type: typ, Bytes: bytes, Def: def, Last: def})
	b.alias = append(b.alias, -1)
	return id
}

// weight returns the ID of the param called name, adding it on first use.
func (b *builder) weight(at *ir.Operation, name string, t string, bytes int64) (int, error) {
	if id, ok := b.weights[name]; ok {
		if w := b.p.Weights[id]; w.Type != t {
			return 0, ir.OpError(at, "reads weight %q as %s, but another region reads it as %s", name, t, w.Type)
		}
		return id, nil
	}
	id := len(b.p.Weights)
	b.p.Weights = append(b.p.Weights, &Weight{ID: id, Name: name, Kind: WeightParam, Type: t, Bytes: bytes})
	b.weights[name] = id
	return id, nil
}

// step adds the step of one region op of f's body; name is the printer's
// name of its results.
func (b *builder) step(op *ir.Operation, fname, name string) error {
	kind := ""
	switch op.Name() {
	case mps.SubgraphName:
		kind = StepMPS
	case thunk.CallName:
		c, _ := thunk.AsCall(op)
		kind = StepHost
		if c.Target() == thunk.TargetMetal {
			kind = StepMetal
		}
	default:
		return ir.OpError(op, "is outside any region; plan a function after hybrid-split, whose body holds only mps.subgraph and thunk.call regions")
	}
	if v := regionop.Check(op); v != regionop.Outlined {
		return ir.OpError(op, "is not an outlined region op (%s)", v)
	}
	idx := len(b.p.Steps)
	st := &Step{Index: idx, Kind: kind, Symbol: ir.SymbolName(op), Loc: ir.FormatLoc(op.Loc()), Inputs: []int{}, Outputs: []int{}}
	for i, v := range op.Operands() {
		id, ok := b.values[v]
		if !ok {
			return ir.OpError(op, "operand #%d is not an argument or a region result", i)
		}
		st.Inputs = append(st.Inputs, id)
	}
	for i, r := range op.Results() {
		rn := name
		if op.NumResults() > 1 {
			rn += "#" + strconv.Itoa(i)
		}
		id, err := b.newValue(rn, KindResult, r.Type(), idx)
		if err != nil {
			return ir.OpError(op, "result #%d: %v", i, err)
		}
		b.values[r] = id
		st.Outputs = append(st.Outputs, id)
	}
	b.p.Steps = append(b.p.Steps, st)
	if kind == StepMetal {
		return b.metalStep(op, st, fname)
	}
	// MPS and host regions read their weights by name (graph.param, or
	// mps.placeholder after lower-to-mps).
	seen := map[int]bool{}
	for o := range op.Region(0).First().Ops() {
		if o.Name() != graph.ParamName && o.Name() != mps.PlaceholderName {
			continue
		}
		s, _ := o.Attr("name").(*ir.StringAttr)
		if s == nil {
			return ir.OpError(o, "has no name")
		}
		n, err := typeBytes(o.Result(0).Type())
		if err != nil {
			return ir.OpError(o, "%v", err)
		}
		id, err := b.weight(o, s.Value, o.Result(0).Type().String(), n)
		if err != nil {
			return err
		}
		if !seen[id] {
			seen[id] = true
			st.Weights = append(st.Weights, id)
		}
	}
	return nil
}

// metalStep fills a Metal step from its manifest region: region buffers
// become the step's values and weights, and each dispatch's bindings
// point at them.
func (b *builder) metalStep(op *ir.Operation, st *Step, fname string) error {
	reg := b.regions[fname+"@"+st.Symbol]
	if reg == nil {
		return ir.OpError(op, "has no region @%s in the Metal manifest; run codegen/metal on this module", st.Symbol)
	}
	type bound struct {
		buf string
		id  int
	}
	bufs := make([]bound, len(reg.Buffers))
	seen := map[int]bool{}
	for i, buf := range reg.Buffers {
		if buf.ID != i {
			return ir.OpError(op, "manifest region @%s: buffer %d has id %d", st.Symbol, i, buf.ID)
		}
		switch buf.Role {
		case metal.RoleInput, metal.RoleOutput:
			list := st.Inputs
			if buf.Role == metal.RoleOutput {
				list = st.Outputs
			}
			if buf.Index < 0 || buf.Index >= len(list) {
				return ir.OpError(op, "manifest region @%s: buffer %d is %s #%d of %d", st.Symbol, i, buf.Role, buf.Index, len(list))
			}
			v := b.p.Values[list[buf.Index]]
			if v.Type != buf.Type || v.Bytes != buf.Bytes {
				return ir.OpError(op, "manifest region @%s: buffer %d is %s (%d bytes), but %s #%d is %s (%d bytes)", st.Symbol, i, buf.Type, buf.Bytes, buf.Role, buf.Index, v.Type, v.Bytes)
			}
			bufs[i] = bound{BufArena, v.ID}
		case metal.RoleParam:
			id, err := b.weight(op, buf.Name, buf.Type, buf.Bytes)
			if err != nil {
				return err
			}
			bufs[i] = bound{BufWeights, id}
			if !seen[id] {
				seen[id] = true
				st.Weights = append(st.Weights, id)
			}
		case metal.RoleConstant:
			if int64(len(buf.Data)) != 2*buf.Bytes {
				return ir.OpError(op, "manifest region @%s: constant buffer %d holds %d hex digits for %d bytes", st.Symbol, i, len(buf.Data), buf.Bytes)
			}
			id := len(b.p.Weights)
			b.p.Weights = append(b.p.Weights, &Weight{ID: id, Name: fmt.Sprintf("@%s.c%d", st.Symbol, i), Kind: WeightConstant, Type: buf.Type, Bytes: buf.Bytes, Data: buf.Data})
			bufs[i] = bound{BufWeights, id}
			st.Weights = append(st.Weights, id)
		case metal.RoleTemp:
			id := b.addValue(fmt.Sprintf("@%s.t%d", st.Symbol, i), KindTemp, buf.Type, buf.Bytes, st.Index)
			bufs[i] = bound{BufArena, id}
			st.Temps = append(st.Temps, id)
		case metal.RoleStatus:
			// Status words are zeroed before the run and read after it.
			id := b.addValue(fmt.Sprintf("@%s.status", st.Symbol), KindStatus, "u32", buf.Bytes, -1)
			bufs[i] = bound{BufArena, id}
			st.Temps = append(st.Temps, id)
		default:
			return ir.OpError(op, "manifest region @%s: buffer %d has unknown role %q", st.Symbol, i, buf.Role)
		}
	}
	for _, d := range reg.Dispatches {
		k := b.kernels[d.Kernel]
		if k == nil {
			return ir.OpError(op, "manifest region @%s: kernel %s is not in the manifest", st.Symbol, d.Kernel)
		}
		if len(k.Bindings) != len(d.Buffers) {
			return ir.OpError(op, "manifest region @%s: kernel %s binds %d buffers, the dispatch %d", st.Symbol, d.Kernel, len(k.Bindings), len(d.Buffers))
		}
		pd := &Dispatch{Kernel: d.Kernel, Grid: k.Grid, Threadgroup: k.Threadgroup, ThreadgroupMemory: k.ThreadgroupMemory}
		for j, id := range d.Buffers {
			if id < 0 || id >= len(bufs) {
				return ir.OpError(op, "manifest region @%s: dispatch of %s binds missing buffer %d", st.Symbol, d.Kernel, id)
			}
			pd.Bindings = append(pd.Bindings, Binding{Buffer: bufs[id].buf, Value: bufs[id].id, Access: k.Bindings[j].Access})
		}
		st.Dispatches = append(st.Dispatches, pd)
	}
	return nil
}

// leaf adds a graph.param or graph.constant left in the function's body
// (hybrid-split leaves one there when the function returns it): its
// weight, and an arena value the host fills from it before step 0.
func (b *builder) leaf(op *ir.Operation, name string) error {
	r := op.Result(0)
	n, err := typeBytes(r.Type())
	if err != nil {
		return ir.OpError(op, "%v", err)
	}
	var w int
	if p, ok := graph.AsParam(op); ok {
		if w, err = b.weight(op, p.Name(), r.Type().String(), n); err != nil {
			return err
		}
	} else {
		data, err := constantBytes(op)
		if err != nil {
			return err
		}
		w = len(b.p.Weights)
		b.p.Weights = append(b.p.Weights, &Weight{ID: w, Name: name, Kind: WeightConstant, Type: r.Type().String(), Bytes: n, Data: hex.EncodeToString(data)})
	}
	id := b.addValue(name, KindLeaf, r.Type().String(), n, -1)
	b.values[r] = id
	b.p.Leaves = append(b.p.Leaves, Leaf{Value: id, Weight: w})
	return nil
}

// constantBytes returns a graph.constant's elements as a kernel stores
// them, computed by the reference interpreter so that every form of the
// attribute (splat, dense, dense_resource) means what it means there.
func constantBytes(op *ir.Operation) ([]byte, error) {
	ctx := op.Context()
	m := ir.NewOperation(ctx, &ir.OperationState{Name: ctx.OpName("builtin.module"), Loc: op.Loc(), NumRegions: 1})
	m.Region(0).AppendBlock(&ir.Block{})
	bl := ir.NewBuilder(ctx)
	bl.SetInsertionPointToEnd(m.Region(0).First())
	t := op.Result(0).Type()
	f := fn.NewFunc(bl, op.Loc(), "leaf", ctx.FunctionType(nil, []ir.Type{t}))
	bl.SetInsertionPointToEnd(f.Body())
	c := bl.Clone(op, ir.NewValueMap())
	bl.CreateOp(fn.ReturnName, op.Loc(), []*ir.Value{c.Result(0)}, nil)
	out, err := ref.RunModule(m, "leaf", nil, nil)
	if err != nil {
		return nil, err
	}
	return mslcpu.TensorBytes(out[0])
}

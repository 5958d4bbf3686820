package llvmir

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/rlx-compiler/rlx/runtime/abi"
	"github.com/rlx-compiler/rlx/runtime/backend"
	"github.com/rlx-compiler/rlx/runtime/plan"
)

// Input is what the host module is written from: a plan, the kernels it
// dispatches and the MPS regions' builders.
type Input struct {
	Plan *plan.Plan
	// Kernels are the names of the manifest's kernels: pipeline i is
	// Kernels[i].
	Kernels []string
	// Builders are the MPS regions' builders, by region symbol.
	Builders map[string]Builder
}

// Builder is an MPS region's builder function (codegen/mps) and the
// constants it takes from its dictionary.
type Builder struct {
	Function  string
	Weights   []string // placeholder names, in the builder's order
	Constants []Constant
}

// Constant is a constant passed to a builder.
type Constant struct {
	Key  string
	Data []byte
}

// host writes one module.
type host struct {
	in      *Input
	p       *plan.Plan
	m       *ir.Module
	prefix  string // rlx_<function>_
	strs    map[string]*ir.Global
	shapes  map[string]constant.Constant
	i8, i32 *types.IntType
	i64     *types.IntType
	i8p     *types.PointerType
	ctxT    types.Type
	ctxP    *types.PointerType
	bindT   *types.StructType
	tensT   *types.StructType
	constT  *types.StructType
	builder *types.PointerType // rlx_mps_builder
	loader  *types.PointerType // rlx_weight_loader
	abi     map[string]*ir.Func
	kernel  map[string]int
	region  map[int]int // step index -> MPS region id
	globals int
}

// Emit returns the host module of in.Plan: rlx_<f>_create,
// rlx_<f>_bind_weights and rlx_<f>_run (docs/apps.md), which call
// rlx_runtime.h's functions with the plan's offsets, grids and bindings as
// constants, and the ports rlx_<f>_inputs and rlx_<f>_outputs. Host steps
// have no AOT form: a plan with one is an error.
func Emit(in *Input) (*ir.Module, error) {
	p := in.Plan
	for _, st := range p.Steps {
		if st.Kind == plan.StepHost {
			return nil, fmt.Errorf("step %d (@%s) runs on the host: a host module sequences Metal and MPS steps only (split for a Metal target, not target=cpu)", st.Index, st.Symbol)
		}
	}
	h := &host{in: in, p: p, m: ir.NewModule(), prefix: "rlx_" + CName(p.Function) + "_", strs: map[string]*ir.Global{}, shapes: map[string]constant.Constant{},
		i8: types.I8, i32: types.I32, i64: types.I64, abi: map[string]*ir.Func{}, kernel: map[string]int{}, region: map[int]int{}}
	h.m.SourceFilename = "rlx host module of @" + p.Function
	h.types()
	h.declare()
	for i, k := range in.Kernels {
		h.kernel[k] = i
	}
	for _, st := range p.Steps {
		if st.Kind == plan.StepMPS {
			h.region[st.Index] = len(h.region)
			if _, ok := in.Builders[st.Symbol]; !ok {
				return nil, fmt.Errorf("no MPSGraph builder for region @%s", st.Symbol)
			}
		}
		for _, d := range st.Dispatches {
			if _, ok := h.kernel[d.Kernel]; !ok {
				return nil, fmt.Errorf("step %d dispatches %s, which is not among the kernels", st.Index, d.Kernel)
			}
		}
	}
	if err := h.create(); err != nil {
		return nil, err
	}
	h.bindWeights()
	h.run()
	h.ports()
	return h.m, nil
}

// CName turns a symbol into a C identifier: letters, digits and '_'.
func CName(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func (h *host) types() {
	h.i8p = types.NewPointer(types.I8)
	h.ctxT = h.m.NewTypeDef("rlx_context", types.NewStruct())
	h.ctxT.(*types.StructType).Opaque = true
	h.ctxP = types.NewPointer(h.ctxT)
	h.bindT = h.m.NewTypeDef("rlx_binding", types.NewStruct(types.I32, types.I32, types.I64, types.I64)).(*types.StructType)
	h.tensT = h.m.NewTypeDef("rlx_tensor", types.NewStruct(h.i8p, types.I32, types.I32, types.I64, types.I64, types.I32, types.NewPointer(types.I64))).(*types.StructType)
	h.constT = h.m.NewTypeDef("rlx_constant", types.NewStruct(h.i8p, h.i8p, types.I64)).(*types.StructType)
	h.builder = types.NewPointer(types.NewFunc(h.i8p, h.i8p, h.i8p, h.i8p, h.i8p))
	h.loader = types.NewPointer(types.NewFunc(types.I32, h.i8p, h.i8p, h.i8p, types.I64))
}

// declare declares the functions of rlx_runtime.h the module calls.
func (h *host) declare() {
	i32, i64, i8p, ctx := types.I32, types.I64, h.i8p, h.ctxP
	decl := func(name string, ret types.Type, params ...types.Type) {
		ps := make([]*ir.Param, len(params))
		for i, t := range params {
			ps[i] = ir.NewParam("", t)
		}
		h.abi[name] = h.m.NewFunc(name, ret, ps...)
	}
	decl("rlx_create", ctx, i64, i64, i8p)
	decl("rlx_kernel", i32, ctx, i32, i8p)
	decl("rlx_mps_region", i32, ctx, i32, i8p, h.builder, i32, types.NewPointer(h.tensT), i32, types.NewPointer(h.tensT), i32, types.NewPointer(h.tensT), i32, types.NewPointer(h.constT))
	decl("rlx_set_weight_loader", types.Void, ctx, h.loader, i8p)
	decl("rlx_bind_weight", i32, ctx, i8p, i64, i64)
	decl("rlx_set_weight_bytes", i32, ctx, i64, i64, i8p)
	decl("rlx_begin", i32, ctx)
	decl("rlx_fill_zero", i32, ctx, i64, i64)
	decl("rlx_copy_weight", i32, ctx, i64, i64, i64)
	decl("rlx_dispatch", i32, ctx, i32, i32, i32, i32, i32, i32, i32, i32, i32, types.NewPointer(h.bindT))
	decl("rlx_mps", i32, ctx, i32)
	decl("rlx_copy", i32, ctx, i64, i64, i64)
	decl("rlx_commit_and_wait", i32, ctx)
	decl("rlx_check_status", i32, ctx, i64, i64, i8p)
}

// global adds a private constant and returns it.
func (h *host) global(kind string, init constant.Constant) *ir.Global {
	g := h.m.NewGlobalDef(fmt.Sprintf("%s%s.%d", h.prefix, kind, h.globals), init)
	h.globals++
	g.Immutable = true
	g.Linkage = enum.LinkagePrivate
	g.UnnamedAddr = enum.UnnamedAddrUnnamedAddr
	return g
}

// str returns a pointer to the NUL-terminated string s.
func (h *host) str(s string) constant.Constant {
	g, ok := h.strs[s]
	if !ok {
		g = h.global("str", constant.NewCharArrayFromString(s+"\x00"))
		h.strs[s] = g
	}
	return first(g)
}

// first returns a pointer to the first element of an array global.
func first(g *ir.Global) constant.Constant {
	zero := constant.NewInt(types.I64, 0)
	return constant.NewGetElementPtr(g.ContentType, g, zero, zero)
}

// array returns a pointer to the first of elems in a new global array, or
// a null pointer of the element type when there are none.
func (h *host) array(kind string, elem types.Type, elems []constant.Constant) constant.Constant {
	if len(elems) == 0 {
		return constant.NewNull(types.NewPointer(elem))
	}
	return first(h.global(kind, constant.NewArray(types.NewArray(uint64(len(elems)), elem), elems...)))
}

func ci32(v int64) constant.Constant { return constant.NewInt(types.I32, v) }
func ci64(v int64) constant.Constant { return constant.NewInt(types.I64, v) }

// DType returns rlx_runtime.h's element type code of a tensor type string
// (abi.DType).
func DType(typ string) (int64, error) {
	dt, _, err := backend.ParseType(typ)
	if err != nil {
		return 0, err
	}
	c, ok := abi.DType(dt)
	if !ok {
		return 0, fmt.Errorf("%s: element type %v has no rlx_runtime.h code", typ, dt)
	}
	return int64(c), nil
}

// shape returns the dims of a tensor type string ("tensor<2x3xf32>").
func shape(typ string) []int64 {
	body := strings.TrimSuffix(strings.TrimPrefix(typ, "tensor<"), ">")
	parts := strings.Split(body, "x")
	dims := make([]int64, 0, len(parts)-1)
	for _, p := range parts[:len(parts)-1] {
		var d int64
		fmt.Sscan(p, &d)
		dims = append(dims, d)
	}
	return dims
}

// tensor returns an rlx_tensor constant.
func (h *host) tensor(name string, buffer int64, typ string, offset, bytes int64) constant.Constant {
	nameC := constant.Constant(constant.NewNull(h.i8p))
	if name != "" {
		nameC = h.str(name)
	}
	code, _ := DType(typ)
	dims := shape(typ)
	elems := make([]constant.Constant, len(dims))
	for i, d := range dims {
		elems[i] = ci64(d)
	}
	key := fmt.Sprint(dims)
	sh, ok := h.shapes[key]
	if !ok {
		sh = h.array("shape", types.I64, elems)
		h.shapes[key] = sh
	}
	return constant.NewStruct(h.tensT, nameC, ci32(buffer), ci32(code), ci64(offset), ci64(bytes), ci32(int64(len(dims))), sh)
}

func (h *host) valueTensor(name string, id int) constant.Constant {
	v := h.p.Values[id]
	return h.tensor(name, 0, v.Type, v.Offset, v.Bytes)
}

// fn is a function being written: calls whose result is nonzero branch to
// one block that returns it.
type fn struct {
	h    *host
	f    *ir.Func
	cur  *ir.Block
	fail *ir.Block
	incs []*ir.Incoming
	n    int
}

func (h *host) newFn(name string, ret types.Type, params ...*ir.Param) *fn {
	f := h.m.NewFunc(name, ret, params...)
	w := &fn{h: h, f: f}
	w.cur = f.NewBlock("entry")
	return w
}

// check calls callee and, unless it returns 0, returns its result.
func (w *fn) check(callee string, args ...value.Value) {
	r := w.cur.NewCall(w.h.abi[callee], args...)
	if w.fail == nil {
		w.fail = w.f.NewBlock("fail")
	}
	ok := w.cur.NewICmp(enum.IPredEQ, r, ci32(0))
	w.n++
	next := w.f.NewBlock(fmt.Sprintf("b%d", w.n))
	w.cur.NewCondBr(ok, next, w.fail)
	w.incs = append(w.incs, ir.NewIncoming(r, w.cur))
	w.cur = next
}

// done returns 0 from the current block and finishes the fail block.
func (w *fn) done() {
	w.cur.NewRet(ci32(0))
	if w.fail != nil {
		phi := w.fail.NewPhi(w.incs...)
		w.fail.NewRet(phi)
		// The fail block comes last, after every block that branches to it.
		blocks := w.f.Blocks
		for i, b := range blocks {
			if b == w.fail {
				w.f.Blocks = append(append(blocks[:i:i], blocks[i+1:]...), b)
				break
			}
		}
	}
}

// create writes rlx_<f>_create(library, out): the context, the pipelines
// and the MPS regions' executables.
func (h *host) create() error {
	lib := ir.NewParam("library", h.i8p)
	out := ir.NewParam("out", types.NewPointer(h.ctxP))
	w := h.newFn(h.prefix+"create", types.I32, lib, out)
	ctx := w.cur.NewCall(h.abi["rlx_create"], ci64(h.p.ArenaBytes), ci64(h.p.WeightBytes), lib)
	w.cur.NewStore(ctx, out)
	isNull := w.cur.NewICmp(enum.IPredEQ, ctx, constant.NewNull(h.ctxP))
	nullB, next := w.f.NewBlock("nodevice"), w.f.NewBlock("kernels")
	w.cur.NewCondBr(isNull, nullB, next)
	nullB.NewRet(ci32(1))
	w.cur = next
	for i, k := range h.in.Kernels {
		w.check("rlx_kernel", ctx, ci32(int64(i)), h.str(k))
	}
	byName := map[string]*plan.Weight{}
	for _, pw := range h.p.Weights {
		byName[pw.Name] = pw
	}
	for _, st := range h.p.Steps {
		if st.Kind != plan.StepMPS {
			continue
		}
		b := h.in.Builders[st.Symbol]
		var ins, outs, wts, cs []constant.Constant
		for _, id := range st.Inputs {
			ins = append(ins, h.valueTensor("", id))
		}
		for _, id := range st.Outputs {
			outs = append(outs, h.valueTensor("", id))
		}
		for _, name := range b.Weights {
			pw := byName[name]
			if pw == nil {
				return fmt.Errorf("region @%s: the builder's weight %q is not in the plan", st.Symbol, name)
			}
			wts = append(wts, h.tensor(name, 1, pw.Type, pw.Offset, pw.Bytes))
		}
		for _, c := range b.Constants {
			data := h.global("mpsconst", constant.NewCharArray(c.Data))
			cs = append(cs, constant.NewStruct(h.constT, h.str(c.Key), first(data), ci64(int64(len(c.Data)))))
		}
		fnc := h.m.NewFunc(b.Function, h.i8p, ir.NewParam("", h.i8p), ir.NewParam("", h.i8p), ir.NewParam("", h.i8p), ir.NewParam("", h.i8p))
		w.check("rlx_mps_region", ctx, ci32(int64(h.region[st.Index])), h.str(st.Symbol), fnc,
			ci32(int64(len(ins))), h.array("in", h.tensT, ins), ci32(int64(len(outs))), h.array("out", h.tensT, outs),
			ci32(int64(len(wts))), h.array("weights", h.tensT, wts), ci32(int64(len(cs))), h.array("consts", h.constT, cs))
	}
	w.done()
	return nil
}

// bindWeights writes rlx_<f>_bind_weights(ctx, load, user): every param
// through the loader, every kernel constant from the module's bytes.
func (h *host) bindWeights() {
	ctx := ir.NewParam("ctx", h.ctxP)
	load := ir.NewParam("load", h.loader)
	user := ir.NewParam("user", h.i8p)
	w := h.newFn(h.prefix+"bind_weights", types.I32, ctx, load, user)
	w.cur.NewCall(h.abi["rlx_set_weight_loader"], ctx, load, user)
	for _, pw := range h.p.Weights {
		if pw.Kind == plan.WeightParam {
			w.check("rlx_bind_weight", ctx, h.str(pw.Name), ci64(pw.Offset), ci64(pw.Bytes))
			continue
		}
		data := h.global("const", constant.NewCharArray(hexBytes(pw.Data)))
		w.check("rlx_set_weight_bytes", ctx, ci64(pw.Offset), ci64(pw.Bytes), first(data))
	}
	w.done()
}

// run writes rlx_<f>_run(ctx): the plan's command stream, then the status
// checks.
func (h *host) run() {
	ctx := ir.NewParam("ctx", h.ctxP)
	w := h.newFn(h.prefix+"run", types.I32, ctx)
	w.check("rlx_begin", ctx)
	for _, c := range h.p.Commands() {
		switch c.Kind {
		case plan.CmdFillZero:
			w.check("rlx_fill_zero", ctx, ci64(c.Dst), ci64(c.Bytes))
		case plan.CmdCopyWeight:
			w.check("rlx_copy_weight", ctx, ci64(c.Src), ci64(c.Dst), ci64(c.Bytes))
		case plan.CmdCopy:
			w.check("rlx_copy", ctx, ci64(c.Src), ci64(c.Dst), ci64(c.Bytes))
		case plan.CmdMPS:
			w.check("rlx_mps", ctx, ci32(int64(h.region[c.Step])))
		case plan.CmdCommitWait:
			w.check("rlx_commit_and_wait", ctx)
		case plan.CmdDispatch:
			d := h.p.Steps[c.Step].Dispatches[c.Index]
			binds := make([]constant.Constant, len(d.Bindings))
			for i, b := range d.Bindings {
				buf := int64(0)
				if b.Buffer == plan.BufWeights {
					buf = 1
				}
				binds[i] = constant.NewStruct(h.bindT, ci32(buf), ci32(accessCode(b.Access)), ci64(b.Offset), ci64(b.Bytes))
			}
			w.check("rlx_dispatch", ctx, ci32(int64(h.kernel[d.Kernel])),
				ci32(int64(d.Grid[0])), ci32(int64(d.Grid[1])), ci32(int64(d.Grid[2])),
				ci32(int64(d.Threadgroup[0])), ci32(int64(d.Threadgroup[1])), ci32(int64(d.Threadgroup[2])),
				ci32(int64(d.ThreadgroupMemory)), ci32(int64(len(binds))), h.array("bind", h.bindT, binds))
		}
	}
	for _, st := range h.p.Steps {
		for _, id := range st.Temps {
			if v := h.p.Values[id]; v.Kind == plan.KindStatus {
				w.check("rlx_check_status", ctx, ci64(v.Offset), ci64(v.Bytes), h.str(st.Symbol))
			}
		}
	}
	w.done()
}

func accessCode(a string) int64 {
	switch a {
	case "read":
		return 1
	case "write":
		return 2
	}
	return 3
}

// ports writes rlx_<f>_inputs and rlx_<f>_outputs (rlx_tensor arrays: a
// port's name, type and slot) and their counts, and the buffers' sizes.
func (h *host) ports() {
	for _, ps := range []struct {
		kind  string
		ports []plan.Port
	}{{"inputs", h.p.Inputs}, {"outputs", h.p.Outputs}} {
		elems := make([]constant.Constant, len(ps.ports))
		for i, port := range ps.ports {
			name := port.Name
			if name == "" {
				name = fmt.Sprintf("%s%d", strings.TrimSuffix(ps.kind, "s"), i)
			}
			elems[i] = h.valueTensor(name, port.Value)
		}
		var arr constant.Constant = constant.NewZeroInitializer(types.NewArray(0, h.tensT))
		if len(elems) > 0 {
			arr = constant.NewArray(types.NewArray(uint64(len(elems)), h.tensT), elems...)
		}
		g := h.m.NewGlobalDef(h.prefix+ps.kind, arr)
		g.Immutable = true
		n := h.m.NewGlobalDef(h.prefix+"num_"+ps.kind, ci32(int64(len(elems))))
		n.Immutable = true
	}
	for _, s := range []struct {
		name string
		v    int64
	}{{"arena_bytes", h.p.ArenaBytes}, {"weight_bytes", h.p.WeightBytes}} {
		g := h.m.NewGlobalDef(h.prefix+s.name, ci64(s.v))
		g.Immutable = true
	}
}

// hexBytes decodes a plan's constant (checked when the plan was).
func hexBytes(s string) []byte {
	b, _ := hex.DecodeString(s)
	return b
}

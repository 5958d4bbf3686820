package ref

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/dialect/regionop"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Program is a function compiled for the interpreter: a flat list of kernel
// calls over densely numbered value slots. Compile once, Run many times;
// a Program is immutable after Compile and safe for concurrent Runs.
type Program struct {
	ctx   *ir.Context
	fn    *ir.Operation
	name  string
	code  []instr
	slots int // number of value slots

	args     []Spec // one per function argument, Name "arg<i>"
	argSlots []int32
	results  []TensorType
	resSlots []int32
	params   []Spec   // distinct weights in first-use order
	kinds    []string // distinct op names, indexed by instr.kind
	maxIn    int
	maxOut   int
}

// instr is one kernel call: it reads the slots in, writes the slots out
// and then clears the slots in free, whose values have no later use.
type instr struct {
	op   *ir.Operation
	site *site // the chain of func.call sites that inlined op; nil at top
	in   []int32
	out  []int32
	outT []TensorType
	free []int32
	kind int32 // index of the op name in Program.kinds, for profiles
	exec execFn
}

// execFn runs one op: it reads in and fills out (one entry per result).
type execFn func(e *env, in, out []*tensor.Tensor) error

// site is a func.call through which an op was inlined, for error notes.
type site struct {
	call   *ir.Operation
	parent *site
}

// Name returns the compiled function's symbol name.
func (p *Program) Name() string { return p.name }

// where names the function for messages about several programs: "@main
// (a.mlir)", with the file of its location when it has one, since two
// programs are often the same function in two files.
func (p *Program) where() string {
	if file, _, _, ok := ir.LineCol(p.fn.Loc()); ok {
		return "@" + p.name + " (" + file + ")"
	}
	return "@" + p.name
}

// Func returns the compiled func.func op.
func (p *Program) Func() *ir.Operation { return p.fn }

// Args describes the function's arguments, in order: their types and, for
// integer arguments used as gather indices, the size of the indexed axis.
func (p *Program) Args() []Spec { return p.args }

// Results returns the types of the function's results.
func (p *Program) Results() []TensorType { return p.results }

// Params describes the weights (graph.param names) the program reads, in
// order of first use, each once.
func (p *Program) Params() []Spec { return p.params }

// NumOps returns the number of kernel calls in one run (leaves included,
// region ops and calls excluded since they cost nothing).
func (p *Program) NumOps() int { return len(p.code) }

// EntryFunc returns the func.func named entry in module (a builtin.module or
// any symbol table op). With entry "" it returns the only public function
// with a body, or an error that lists the candidates.
func EntryFunc(module *ir.Operation, entry string) (*ir.Operation, error) {
	if f, ok := fn.AsFunc(module); ok {
		if entry == "" || entry == f.Name() {
			return module, nil
		}
		return nil, fmt.Errorf("the input is function @%s, not @%s", f.Name(), entry)
	}
	if module.NumRegions() == 0 || module.Region(0).Empty() {
		return nil, fmt.Errorf("'%s' op holds no functions", module.Name())
	}
	var all, public []string
	var found *ir.Operation
	for op := range module.Region(0).First().Ops() {
		f, ok := fn.AsFunc(op)
		if !ok || f.IsDeclaration() {
			continue
		}
		all = append(all, "@"+f.Name())
		if entry != "" {
			if f.Name() == entry {
				return op, nil
			}
			continue
		}
		if f.Visibility() == "public" {
			public = append(public, "@"+f.Name())
			found = op
		}
	}
	switch {
	case entry != "":
		return nil, fmt.Errorf("no function named @%s (functions: %s)", entry, listOrNone(all))
	case len(public) == 1:
		return found, nil
	case len(public) == 0:
		return nil, fmt.Errorf("no public function to run (functions: %s): %w", listOrNone(all), ErrNoEntry)
	}
	return nil, fmt.Errorf("several public functions (%s): %w", strings.Join(public, ", "), ErrNoEntry)
}

// ErrNoEntry is wrapped by EntryFunc's error when no entry name was given
// and the module does not have exactly one public function.
var ErrNoEntry = errors.New("choose the function to run")

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// Compile compiles function entry of module (see EntryFunc; module may
// also be the func.func itself) for Run. Ops it cannot run are reported as
// located *ir.Diagnostic errors before anything runs.
func Compile(module *ir.Operation, entry string) (*Program, error) {
	f, err := EntryFunc(module, entry)
	if err != nil {
		return nil, err
	}
	return CompileFunc(f)
}

// CompileFunc compiles the func.func f. Calls resolve in the nearest symbol
// table above f.
func CompileFunc(f *ir.Operation) (*Program, error) {
	view, ok := fn.AsFunc(f)
	if !ok {
		return nil, ir.OpError(f, "is not a func.func")
	}
	c := &compiler{
		p:        &Program{ctx: f.Context(), fn: f, name: view.Name()},
		paramIdx: map[string]int{},
		kindIdx:  map[string]int32{},
		active:   map[*ir.Operation]bool{},
	}
	if parent := f.ParentOp(); parent != nil {
		if st := ir.NearestSymbolTable(parent); st != nil {
			c.symbols = ir.NewSymbolTable(st)
		}
	}
	body := view.Body()
	if body == nil {
		return nil, ir.OpError(f, "has no body to run")
	}
	for i, a := range body.Arguments() {
		t, err := tensorType(a.Type())
		if err != nil {
			return nil, ir.OpError(f, "argument #%d: %v", i, err)
		}
		s := Spec{Name: fmt.Sprintf("arg%d", i), Type: t}
		if t.DType.IsInt() && t.DType != tensor.UI8 {
			s.IndexBound = c.indexBound(a)
		}
		if t.DType == tensor.UI8 {
			s.Quant = c.quantUse(a)
		}
		c.p.args = append(c.p.args, s)
		c.p.argSlots = append(c.p.argSlots, c.newSlot())
	}
	res, err := c.function(f, c.p.argSlots, nil)
	if err != nil {
		return nil, err
	}
	c.p.resSlots = res
	for _, t := range view.Type().Results {
		tt, err := tensorType(t)
		if err != nil {
			return nil, ir.OpError(f, "result: %v", err)
		}
		c.p.results = append(c.p.results, tt)
	}
	c.p.liveness()
	return c.p, nil
}

type compiler struct {
	p        *Program
	symbols  *ir.SymbolTable
	paramIdx map[string]int
	kindIdx  map[string]int32
	active   map[*ir.Operation]bool // functions being inlined, for recursion
}

// scope maps the values of one inlined function body to slots.
type scope struct {
	slots map[*ir.Value]int32
	site  *site
}

func (c *compiler) newSlot() int32 {
	c.p.slots++
	return int32(c.p.slots - 1)
}

// function inlines the body of the func.func f with its arguments bound to
// args and returns the slots of its results.
func (c *compiler) function(f *ir.Operation, args []int32, at *site) ([]int32, error) {
	view, _ := fn.AsFunc(f)
	body := view.Body()
	if body == nil {
		return nil, ir.OpError(f, "has no body to run")
	}
	if f.Region(0).NumBlocks() != 1 {
		return nil, ir.OpError(f, "has %d blocks; the interpreter runs single-block functions", f.Region(0).NumBlocks())
	}
	if len(args) != body.NumArguments() {
		return nil, ir.OpError(f, "takes %d arguments, got %d", body.NumArguments(), len(args))
	}
	sc := &scope{slots: make(map[*ir.Value]int32, 2*body.NumArguments()), site: at}
	for i, a := range body.Arguments() {
		sc.slots[a] = args[i]
	}
	term := body.Last()
	if term == nil || term.Name() != fn.ReturnName {
		return nil, ir.OpError(f, "body does not end in func.return")
	}
	if err := c.ops(body, term, sc); err != nil {
		return nil, err
	}
	return c.operandSlots(term, sc)
}

// ops compiles the ops of b before stop.
func (c *compiler) ops(b *ir.Block, stop *ir.Operation, sc *scope) error {
	for op := b.First(); op != nil && op != stop; op = op.Next() {
		if err := c.op(op, sc); err != nil {
			return err
		}
	}
	return nil
}

func (c *compiler) operandSlots(op *ir.Operation, sc *scope) ([]int32, error) {
	out := make([]int32, op.NumOperands())
	for i := range out {
		s, ok := sc.slots[op.Operand(i)]
		if !ok {
			return nil, ir.OpError(op, "operand #%d is not defined before its use", i)
		}
		out[i] = s
	}
	return out, nil
}

func (c *compiler) op(op *ir.Operation, sc *scope) error {
	in, err := c.operandSlots(op, sc)
	if err != nil {
		return err
	}
	switch {
	case op.Name() == fn.CallName:
		return c.call(op, in, sc)
	case op.NumRegions() > 0:
		if err := regionOp(op); err != nil {
			return err
		}
		return c.region(op, in, sc)
	}
	inst := instr{op: op, site: sc.site, in: in, out: make([]int32, op.NumResults())}
	for i := range inst.out {
		t, err := tensorType(op.Result(i).Type())
		if err != nil {
			return ir.OpError(op, "result #%d: %v", i, err)
		}
		inst.outT = append(inst.outT, t)
		inst.out[i] = c.newSlot()
		sc.slots[op.Result(i)] = inst.out[i]
	}
	inT := make([]TensorType, len(in))
	for i := range in {
		t, err := tensorType(op.Operand(i).Type())
		if err != nil {
			return ir.OpError(op, "operand #%d: %v", i, err)
		}
		inT[i] = t
	}
	switch {
	case op.Name() == graph.ParamName || op.Name() == mps.PlaceholderName:
		inst.exec, err = c.param(op, inst.outT[0])
	case strings.HasPrefix(op.Name(), "mps."):
		inst.exec, err = buildMPS(op, inT, inst.outT)
	default:
		inst.exec, err = build(op, inT, inst.outT)
	}
	if err != nil {
		if d, ok := err.(*ir.Diagnostic); ok {
			return d
		}
		return ir.OpError(op, "%v", err)
	}
	k, ok := c.kindIdx[op.Name()]
	if !ok {
		k = int32(len(c.p.kinds))
		c.kindIdx[op.Name()] = k
		c.p.kinds = append(c.p.kinds, op.Name())
	}
	inst.kind = k
	c.p.maxIn = max(c.p.maxIn, len(inst.in))
	c.p.maxOut = max(c.p.maxOut, len(inst.out))
	c.p.code = append(c.p.code, inst)
	return nil
}

// call inlines the callee of a func.call.
func (c *compiler) call(op *ir.Operation, in []int32, sc *scope) error {
	ref, ok := op.Attr("callee").(*ir.SymbolRefAttr)
	if !ok || len(ref.Nested) > 0 || c.symbols == nil {
		return ir.OpError(op, "has no callee the interpreter can resolve")
	}
	callee := c.symbols.Lookup(ref.Root)
	if _, ok := fn.AsFunc(callee); !ok {
		return ir.OpError(op, "callee @%s is not a function in this module", ref.Root)
	}
	if c.active[callee] {
		return ir.OpError(op, "calls @%s recursively; the interpreter does not run recursive functions", ref.Root)
	}
	if ft := (fn.Func{Op: callee}).Type(); ft == nil || !slices.Equal(ft.Results, op.ResultTypes()) {
		return ir.OpError(op, "result types do not match the signature of @%s", ref.Root)
	}
	c.active[callee] = true
	res, err := c.function(callee, in, &site{call: op, parent: sc.site})
	delete(c.active, callee)
	if err != nil {
		return err
	}
	for i, r := range op.Results() {
		sc.slots[r] = res[i]
	}
	return nil
}

// region runs a region op's body in place: the block arguments take the
// op's operand slots and the op's results take the terminator's operand
// slots, so the op itself costs nothing at run time.
func (c *compiler) region(op *ir.Operation, in []int32, sc *scope) error {
	body := op.Region(0).First()
	for i, a := range body.Arguments() {
		sc.slots[a] = in[i]
	}
	term := body.Last()
	if err := c.ops(body, term, sc); err != nil {
		return err
	}
	res, err := c.operandSlots(term, sc)
	if err != nil {
		return err
	}
	for i, r := range op.Results() {
		sc.slots[r] = res[i]
	}
	return nil
}

// regionOp checks the region-op convention (regionop.Check): exactly one
// region holding one block, whose arguments match the op's operands one to
// one and whose terminator yields values matching its results.
func regionOp(op *ir.Operation) error {
	if v := regionop.Check(op); v != regionop.Outlined {
		return ir.OpError(op, "is not supported by the reference interpreter (%s)", v)
	}
	return nil
}

// liveness computes, in one backward pass, the slots each instruction is
// the last reader of (and results nobody reads), so Run can drop them.
func (p *Program) liveness() {
	seen := make([]bool, p.slots)
	for _, s := range p.resSlots {
		seen[s] = true
	}
	for _, s := range p.argSlots {
		seen[s] = true // the caller owns the inputs
	}
	for i := len(p.code) - 1; i >= 0; i-- {
		inst := &p.code[i]
		var free []int32
		for _, s := range inst.out {
			if !seen[s] {
				seen[s] = true
				free = append(free, s)
			}
		}
		for _, s := range inst.in {
			if !seen[s] {
				seen[s] = true
				free = append(free, s)
			}
		}
		inst.free = free
	}
}

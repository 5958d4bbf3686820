package ir

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// VerifyOptions select what Verify checks and how. The zero value checks
// everything, on one goroutine.
type VerifyOptions struct {
	// Shallow checks op's own invariants (its counts, traits, verifiers
	// and region verifiers, symbol table and isolation) and its symbol
	// uses, without descending into the nested ops or checking dominance.
	// It is what a pass manager runs after a nested pipeline, whose own
	// verification already covered the nested ops (MLIR's non-recursive
	// verify).
	Shallow bool
	// SkipSymbolUses leaves out the symbol-use checks, for passes that
	// verify one function of a module while others change concurrently.
	SkipSymbolUses bool
	// Workers spreads the work over up to this many goroutines, as MLIR's
	// verifier does: the isolated-from-above ops directly in op's regions
	// (the functions of a module) are verified concurrently, each with its
	// dominance, and so are the symbol uses of op's children. 0 or 1 is
	// one goroutine. The failure returned is the one a sequential run
	// returns: as in MLIR, the ops of non-isolated regions are judged
	// before the isolated ops beside them, which come in op order.
	Workers int
}

// Verify checks every structural invariant of op and everything nested in
// it: operands are set, blocks end in terminators where required,
// successors stay in their region, values dominate their uses in SSACFG
// regions, isolated-from-above regions use only their own values, symbol
// names are unique in symbol tables, each registered op's own verifier
// passes, and symbol references resolve. Unregistered ops are accepted
// only when the context allows them. It returns the first failure as a
// *Diagnostic. An options argument selects less (VerifyOptions.Shallow,
// SkipSymbolUses) or more goroutines (Workers); at most one may be given.
func Verify(op *Operation, opts ...VerifyOptions) error {
	var o VerifyOptions
	switch len(opts) {
	case 0:
	case 1:
		o = opts[0]
	default:
		panic("ir.Verify: more than one VerifyOptions")
	}
	workers := max(o.Workers, 1)
	switch {
	case o.Shallow:
		v := &verifier{ctx: op.name.ctx, shallow: true}
		if err := v.verifyOp(op); err != nil {
			return err
		}
		if o.SkipSymbolUses {
			return nil
		}
		return verifySymbolUsesParallel(op, workers)
	case workers > 1:
		return verifyParallel(op, workers, !o.SkipSymbolUses)
	}
	v := &verifier{ctx: op.name.ctx}
	if err := v.verifyOp(op); err != nil {
		return err
	}
	if err := v.verifyDominance(op); err != nil {
		return err
	}
	if o.SkipSymbolUses {
		return nil
	}
	return v.verifySymbolUses(op)
}

// verifyParallel is Verify on up to workers goroutines (VerifyOptions).
func verifyParallel(op *Operation, workers int, symbolUses bool) error {
	var isolated []*Operation
	forEachChild(op, func(o *Operation) {
		if o.HasTrait(TraitIsolatedFromAbove) {
			isolated = append(isolated, o)
		}
	})
	if len(isolated) < 2 {
		return Verify(op, VerifyOptions{SkipSymbolUses: !symbolUses})
	}
	errs := make([]error, len(isolated))
	parallelFor(len(isolated), workers, func() func(int) {
		return func(i int) { errs[i] = Verify(isolated[i], VerifyOptions{SkipSymbolUses: true}) }
	})
	// The sequential pass takes the isolated children's results from here,
	// in the order a sequential run reaches them.
	v := &verifier{ctx: op.name.ctx, isolatedErrs: make(map[*Operation]error, len(isolated))}
	for i, o := range isolated {
		v.isolatedErrs[o] = errs[i]
	}
	if err := v.verifyOp(op); err != nil {
		return err
	}
	if err := v.verifyDominance(op); err != nil {
		return err
	}
	if !symbolUses {
		return nil
	}
	return verifySymbolUsesParallel(op, workers)
}

// verifySymbolUsesParallel checks the symbol uses under op, those of
// different ops on up to workers goroutines; the failure returned is the
// one a sequential check returns.
func verifySymbolUsesParallel(op *Operation, workers int) error {
	users := symbolUsers(op)
	if workers <= 1 || len(users) < 2 {
		return (&verifier{ctx: op.name.ctx}).verifySymbolUses(op)
	}
	errs := make([]error, len(users))
	parallelFor(len(users), workers, func() func(int) {
		// A SymbolTableCollection is not safe for concurrent use.
		st := NewSymbolTableCollection()
		return func(i int) { errs[i] = users[i].name.def.VerifySymbolUses(users[i], st) }
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// symbolUsers lists the ops under top that check symbol uses
// (OpDef.VerifySymbolUses), in the order MLIR's verifier reaches them:
// top itself, then, for each symbol table, the ops of its regions taken
// region by region from a worklist (the last region found first, as MLIR's
// walkSymbolTable does), without entering nested symbol tables, whose
// users come first since MLIR checks them on leaving them.
func symbolUsers(top *Operation) []*Operation {
	var out []*Operation
	if def := top.name.def; def != nil && def.VerifySymbolUses != nil {
		out = append(out, top)
	}
	var walk func(root *Operation)
	walk = func(root *Operation) {
		var users, nested []*Operation
		var work []*Region
		for i := range root.regs() {
			work = append(work, &root.regs()[i])
		}
		for len(work) > 0 {
			r := work[len(work)-1]
			work = work[:len(work)-1]
			for b := r.first; b != nil; b = b.next {
				for o := b.first; o != nil; o = o.next {
					if def := o.name.def; def != nil && def.VerifySymbolUses != nil {
						users = append(users, o)
					}
					if o.HasTrait(TraitSymbolTable) {
						nested = append(nested, o)
						continue
					}
					for i := range o.regs() {
						work = append(work, &o.regs()[i])
					}
				}
			}
		}
		for _, n := range nested {
			walk(n)
		}
		out = append(out, users...)
	}
	walk(top)
	return out
}

// forEachChild calls fn for each op directly in op's regions.
func forEachChild(op *Operation, fn func(*Operation)) {
	for i := range op.regs() {
		for b := op.regs()[i].first; b != nil; b = b.next {
			for o := b.first; o != nil; o = o.next {
				fn(o)
			}
		}
	}
}

// parallelFor runs n items on up to workers goroutines; newWorker makes
// each goroutine's item function (and so its private state).
func parallelFor(n, workers int, newWorker func() func(int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			item := newWorker()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				item(i)
			}
		}()
	}
	wg.Wait()
}

type verifier struct {
	ctx     *Context
	dom     map[*Region]*domTree
	shallow bool // verify only the top op, not the ops nested in it
	// isolatedErrs, when set, holds the results of isolated ops verified
	// separately (Verify with Workers), whole with their dominance.
	isolatedErrs map[*Operation]error
	symbols      *SymbolTableCollection
}

// isolatedWithRegions reports whether o is verified after its siblings, as
// MLIR's verifier does with the isolated-from-above ops it verifies in
// parallel on leaving their parent.
func isolatedWithRegions(o *Operation) bool {
	return len(o.regs()) > 0 && o.HasTrait(TraitIsolatedFromAbove)
}

func (v *verifier) verifyOp(op *Operation) error {
	for i := range op.opnds() {
		if op.opnds()[i].value == nil {
			return OpErrorPlain(op, "null operand found")
		}
	}
	def := op.name.def
	if def != nil {
		if def.Traits&TraitTerminator != 0 && op.block != nil && op.block.last != op {
			return OpError(op, "must be the last operation in the parent block")
		}
		if def.Traits&TraitSingleBlock != 0 {
			for i := range op.regs() {
				if n := op.regs()[i].NumBlocks(); n > 1 {
					return OpError(op, "expects region #%d to have 0 or 1 blocks", i)
				}
			}
		}
		if def.Traits&TraitSymbol != 0 {
			a := op.Attr("sym_name")
			if a == nil {
				// The op's declared attribute is checked first, as ODS's
				// invariants come before the symbol interface's.
				return OpError(op, "requires attribute 'sym_name'")
			}
			s, ok := a.(*StringAttr)
			if !ok {
				return OpError(op, "requires string attribute 'sym_name'")
			}
			// MLIR accepts an empty name but cannot print it back.
			if s.Value == "" {
				return OpError(op, "requires a non-empty symbol name")
			}
		}
		if c := def.Counts; c != nil {
			if err := checkCounts(op, c); err != nil {
				return err
			}
		}
		if def.Verify != nil {
			if err := def.Verify(op); err != nil {
				return err
			}
		}
	}
	// As in MLIR, the nested ops are verified on the way down, except the
	// isolated-from-above ones, which come after all the others, each
	// with its dominance (MLIR verifies them in parallel on leaving op).
	var isolated []*Operation
	for i := range op.regs() {
		if v.shallow {
			break
		}
		r := &op.regs()[i]
		for b := r.first; b != nil; b = b.next {
			if err := v.verifyBlock(b); err != nil {
				return err
			}
			for o := b.first; o != nil; o = o.next {
				if isolatedWithRegions(o) {
					isolated = append(isolated, o)
					continue
				}
				if err := v.verifyOp(o); err != nil {
					return err
				}
			}
		}
	}
	for _, o := range isolated {
		if err, done := v.isolatedErrs[o]; done {
			if err != nil {
				return err
			}
			continue
		}
		if err := v.verifyOp(o); err != nil {
			return err
		}
		if err := v.verifyDominance(o); err != nil {
			return err
		}
	}
	if def != nil {
		if def.Traits&TraitSymbolTable != 0 {
			if err := verifySymbolTable(op); err != nil {
				return err
			}
		}
		if def.Traits&TraitIsolatedFromAbove != 0 {
			if err := verifyIsolated(op); err != nil {
				return err
			}
		}
		if def.VerifyRegions != nil {
			if err := def.VerifyRegions(op); err != nil {
				return err
			}
		}
		return nil
	}
	// An unregistered op is judged after the ops nested in it, as MLIR
	// does on leaving it. No registered dialect allows unknown ops, even
	// when unregistered dialects are allowed: MLIR's
	// allowsUnknownOperations is a property of the dialect.
	if d := op.name.dialect; d != "" && v.ctx.IsDialectRegistered(d) {
		return OpErrorPlain(op, "unregistered operation '%s' found in dialect ('%s') that does not allow unknown operations", op.name.name, d)
	}
	if !v.ctx.AllowUnregistered && !v.ctx.IsDialectRegistered(op.name.dialect) {
		return OpError(op, "created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used")
	}
	return nil
}

// mayBeValidWithoutTerminator mirrors MLIR: a block needs no terminator
// when it is alone in its region and the region's op is unregistered or
// has the NoTerminator trait.
func mayBeValidWithoutTerminator(b *Block) bool {
	r := b.parent
	if r == nil {
		return true
	}
	if !r.HasOneBlock() {
		return false
	}
	op := r.parent
	return op == nil || !op.IsRegistered() || op.HasTrait(TraitNoTerminator)
}

func (v *verifier) verifyBlock(b *Block) error {
	if b.first == nil {
		if mayBeValidWithoutTerminator(b) {
			return nil
		}
		return &Diagnostic{Severity: SeverityError, Loc: b.parent.parent.loc, Message: "empty block: expect at least a terminator", Op: b.parent.parent}
	}
	for o := b.first; o != nil; o = o.next {
		if len(o.succs()) != 0 && o != b.last {
			return OpErrorPlain(o, "operation with block successors must terminate its parent block")
		}
	}
	for i := range b.last.succs() {
		s := b.last.succs()[i].block
		if s == nil || s.parent != b.parent {
			return OpError(b.last, "branching to block of a different region")
		}
		if s == b.parent.first {
			// Reported on the region's op, as MLIR checks it there.
			if op := b.parent.parent; op != nil {
				return &Diagnostic{Severity: SeverityError, Loc: op.loc, Message: "entry block of region may not have predecessors"}
			}
			return OpError(b.last, "entry block of region may not have predecessors")
		}
	}
	if mayBeValidWithoutTerminator(b) {
		return nil
	}
	t := b.last
	if t.IsRegistered() && !t.HasTrait(TraitTerminator) {
		return OpErrorPlain(t, "block with no terminator, has %s", oneLine(t))
	}
	return nil
}

// oneLine prints an op in generic form for use inside a message.
func oneLine(op *Operation) string {
	var sb stringsBuilder
	_ = PrintOp(&sb, op, op.Context().MessagePrintOptions())
	return string(sb)
}

func verifySymbolTable(op *Operation) error {
	if op.NumRegions() == 0 {
		return nil
	}
	seen := map[string]*Operation{}
	for b := op.regs()[0].first; b != nil; b = b.next {
		for o := b.first; o != nil; o = o.next {
			n := SymbolName(o)
			if n == "" {
				continue
			}
			if prev, dup := seen[n]; dup {
				d := OpErrorPlain(o, "redefinition of symbol named '%s'", n)
				d.AttachNote(prev.loc, "see existing symbol definition here")
				return d
			}
			seen[n] = o
		}
	}
	return nil
}

// verifyIsolated checks that no op inside op's regions uses a value
// defined outside op.
func verifyIsolated(op *Operation) error {
	var err error
	for i := range op.regs() {
		reg := &op.regs()[i]
		reg.walkInterruptible(func(o *Operation) WalkResult {
			for j := range o.opnds() {
				val := o.opnds()[j].value
				defBlock := val.ParentBlock()
				if defBlock == nil {
					continue
				}
				r := defBlock.parent
				if r == nil || !reg.IsAncestor(r) && !regionWithin(op, r) {
					d := OpError(o, "using value defined outside the region")
					d.AttachNote(op.loc, "required by region isolation constraints")
					err = d
					return WalkInterrupt
				}
			}
			// A nested isolated op is checked by its own verification,
			// as in MLIR; nothing inside it can use op's values.
			if o.HasTrait(TraitIsolatedFromAbove) {
				return WalkSkip
			}
			return WalkAdvance
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// regionWithin reports whether r is one of op's regions or nested in one.
func regionWithin(op *Operation, r *Region) bool {
	for r != nil {
		p := r.parent
		if p == op {
			return true
		}
		if p == nil {
			return false
		}
		r = p.ParentRegion()
	}
	return false
}

// verifyDominance checks the uses in top's regions. The regions of the
// isolated-from-above ops nested in them are left out: verifyOp checked
// them when it verified those ops.
func (v *verifier) verifyDominance(top *Operation) error {
	var err error
	top.WalkInterruptible(func(o *Operation) WalkResult {
		if o == top {
			return WalkAdvance
		}
		for i := range o.opnds() {
			if e := v.checkUse(o, i); e != nil {
				err = e
				return WalkInterrupt
			}
		}
		if isolatedWithRegions(o) {
			return WalkSkip
		}
		return WalkAdvance
	})
	return err
}

func (v *verifier) checkUse(user *Operation, i int) error {
	val := user.opnds()[i].value
	defBlock := val.ParentBlock()
	if defBlock == nil || defBlock.parent == nil {
		return v.notDominated(user, i, val)
	}
	r := defBlock.parent
	anc := r.FindAncestorOpInRegion(user)
	if anc == nil {
		return v.notDominated(user, i, val)
	}
	if !r.HasSSADominance() {
		return nil
	}
	if anc.block == defBlock {
		if val.argBlock() != nil {
			return nil
		}
		if val.defOp() == anc || !val.defOp().IsBeforeInBlock(anc) {
			return v.notDominated(user, i, val)
		}
		return nil
	}
	if !v.domTreeOf(r).dominates(defBlock, anc.block) {
		return v.notDominated(user, i, val)
	}
	return nil
}

func (v *verifier) notDominated(user *Operation, i int, val *Value) error {
	d := OpErrorPlain(user, "operand #%d does not dominate this use", i)
	r1 := user.ParentRegion()
	// The relation of the definition's region to the user's, in MLIR's
	// words.
	relation := func(r2 *Region, same, parent, child, neither string) string {
		switch {
		case r2 == r1:
			return same
		case regionProperlyContains(r2, r1):
			return parent
		case regionProperlyContains(r1, r2):
			return child
		}
		return neither
	}
	if def := val.defOp(); def != nil {
		note := "operand defined here (op in the same block)"
		if def.block != user.block {
			var r2 *Region
			if def.block != nil {
				r2 = def.block.parent
			}
			note = relation(r2, "operand defined here (op in the same region)",
				"operand defined here (op in a parent region)",
				"operand defined here (op in a child region)",
				"operand defined here (op is neither in a parent nor in a child region)")
		}
		d.AttachNote(def.loc, note)
		return d
	}
	// A block argument: the note is at the op holding its block.
	b := val.OwnerBlock()
	loc := user.Context().UnknownLoc()
	if b != nil && b.ParentOp() != nil {
		loc = b.ParentOp().loc
	}
	if b == nil || b.parent == nil {
		d.AttachNote(loc, " (block without parent)")
		return d
	}
	index := 0
	for x := b.parent.first; x != nil && x != b; x = x.next {
		index++
	}
	d.AttachNote(loc, fmt.Sprintf("operand defined as a block argument (block #%d %s)", index,
		relation(b.parent, "in the same region", "in a parent region", "in a child region", "neither in a parent nor in a child region")))
	return d
}

// regionProperlyContains reports whether region a strictly contains
// region b (b is in an op nested somewhere inside a).
func regionProperlyContains(a, b *Region) bool {
	if a == nil || b == nil {
		return false
	}
	for op := b.parent; op != nil; {
		r := op.ParentRegion()
		if r == nil {
			return false
		}
		if r == a {
			return true
		}
		op = r.parent
	}
	return false
}

func (v *verifier) domTreeOf(r *Region) *domTree {
	if v.dom == nil {
		v.dom = map[*Region]*domTree{}
	}
	t := v.dom[r]
	if t == nil {
		t = newDomTree(r)
		v.dom[r] = t
	}
	return t
}

func (v *verifier) verifySymbolUses(top *Operation) error {
	st := v.symbols
	if st == nil {
		st = NewSymbolTableCollection()
	}
	for _, o := range symbolUsers(top) {
		if err := o.name.def.VerifySymbolUses(o, st); err != nil {
			return err
		}
	}
	return nil
}

// checkCounts verifies an op's fixed operand, result, region and successor
// counts with the messages of MLIR's traits (ZeroOperands, OneResult,
// OneRegion, NOperands, …).
func checkCounts(op *Operation, c *OpCounts) error {
	check := func(have, want int, what, whats string) error {
		if want == Variadic || have == want {
			return nil
		}
		switch want {
		case 0:
			return OpError(op, "requires zero %s", whats)
		case 1:
			if what == "operand" {
				return OpError(op, "requires a single operand")
			}
			return OpError(op, "requires one %s", what)
		}
		return OpError(op, "expected %d %s", want, whats)
	}
	if err := check(len(op.opnds()), c.Operands, "operand", "operands"); err != nil {
		return err
	}
	if err := check(len(op.ress()), c.Results, "result", "results"); err != nil {
		return err
	}
	if err := check(len(op.regs()), c.Regions, "region", "regions"); err != nil {
		return err
	}
	return check(len(op.succs()), c.Successors, "successor", "successors")
}

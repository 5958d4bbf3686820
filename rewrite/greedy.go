package rewrite

import "github.com/rlx-compiler/rlx/ir"

// NoLimit disables the iteration and rewrite limits of Config.
const NoLimit = -1

// SimplifyLevel selects the control-flow clean-up done between iterations.
type SimplifyLevel uint8

const (
	// SimplifyDisabled does no region simplification.
	SimplifyDisabled SimplifyLevel = iota
	// SimplifyNormal erases unreachable blocks, dead ops and dead block
	// arguments.
	SimplifyNormal
	// SimplifyAggressive also merges identical blocks.
	SimplifyAggressive
)

// Strictness limits the ops the driver puts on its worklist.
type Strictness uint8

const (
	// AnyOp processes every op that is created or changed.
	AnyOp Strictness = iota
	// ExistingAndNewOps processes the initial ops and the ops created
	// while rewriting.
	ExistingAndNewOps
	// ExistingOps processes only the initial ops.
	ExistingOps
)

// Config configures ApplyPatterns. Start from DefaultConfig: its zero
// value allows no iterations.
type Config struct {
	// TopDown seeds the worklist so that ops are first visited in program
	// order (pre-order); otherwise they are visited in reverse post-order
	// of a post-order walk, i.e. bottom-up.
	TopDown bool
	// MaxIterations bounds the rounds of worklist processing plus region
	// simplification; NoLimit removes the bound.
	MaxIterations int
	// MaxNumRewrites bounds the successful pattern applications within one
	// round; NoLimit removes the bound.
	MaxNumRewrites int
	// RegionSimplify is the clean-up done after each round.
	RegionSimplify SimplifyLevel
	// Fold lets the driver call op folders (OpDef.Fold).
	Fold bool
	// CSEConstants uniques constant ops and hoists them to the entry block
	// of their isolated region each time the worklist is seeded.
	CSEConstants bool
	// Strict limits the ops that are processed.
	Strict Strictness
	// Scope, when set, is the region outside which no op is put on the
	// worklist; by default it is the region being simplified (for
	// ApplyPatternsToOps: the innermost region holding all the ops).
	Scope *ir.Region
	// Listener, when set, is told about every change.
	Listener Listener
}

// DefaultConfig returns MLIR's default configuration: bottom-up, 10
// iterations, no rewrite limit, aggressive region simplification, folding
// and constant CSE on, any op.
func DefaultConfig() Config {
	return Config{
		MaxIterations:  10,
		MaxNumRewrites: NoLimit,
		RegionSimplify: SimplifyAggressive,
		Fold:           true,
		CSEConstants:   true,
	}
}

// Result reports what a driver did.
type Result struct {
	// Changed is set when the IR was changed.
	Changed bool
	// Converged is set when the last round found nothing to do (always
	// false when an iteration or rewrite limit stopped the driver early).
	Converged bool
	// Iterations is the number of rounds started.
	Iterations int
	// Rewrites counts successful pattern applications.
	Rewrites int
}

// ApplyPatterns applies set greedily to the ops nested in each region of
// op (op itself is not rewritten) until a fixed point, folding ops and
// erasing dead ones along the way. op should be isolated from above, so
// that the rewrites stay inside it.
func ApplyPatterns(op *ir.Operation, set *PatternSet, cfg Config) Result {
	res := Result{Converged: true}
	for i := 0; i < op.NumRegions(); i++ {
		r := ApplyPatternsToRegion(op.Region(i), set, cfg)
		res.Changed = res.Changed || r.Changed
		res.Converged = res.Converged && r.Converged
		res.Iterations = max(res.Iterations, r.Iterations)
		res.Rewrites += r.Rewrites
	}
	return res
}

// ApplyPatternsToRegion applies set greedily to the ops nested in reg.
func ApplyPatternsToRegion(reg *ir.Region, set *PatternSet, cfg Config) Result {
	if cfg.Scope == nil {
		cfg.Scope = reg
	}
	d := newDriver(reg.ParentOp().Context(), set, cfg)
	defer d.release()
	if cfg.Strict != AnyOp {
		reg.Walk(func(op *ir.Operation) { d.filtered[op] = true })
	}
	return d.simplifyRegion(reg)
}

// ApplyPatternsToOps applies set to ops, and (depending on cfg.Strict) to
// the ops that rewriting them creates or changes, with a single round and
// no region simplification. Converged reports whether the worklist was
// emptied.
func ApplyPatternsToOps(ops []*ir.Operation, set *PatternSet, cfg Config) Result {
	if len(ops) == 0 {
		return Result{Converged: true}
	}
	if cfg.Scope == nil {
		cfg.Scope = commonRegion(ops)
	}
	d := newDriver(ops[0].Context(), set, cfg)
	defer d.release()
	for _, op := range ops {
		if cfg.Strict != AnyOp {
			d.filtered[op] = true
		}
		d.addSingle(op)
	}
	changed := d.processWorklist()
	return Result{Changed: changed, Converged: d.wl.empty(), Iterations: 1, Rewrites: d.rewrites}
}

// commonRegion returns the innermost region that contains all ops.
func commonRegion(ops []*ir.Operation) *ir.Region {
	reg := ops[0].ParentRegion()
	for _, op := range ops[1:] {
		for reg != nil && !reg.IsAncestor(op.ParentRegion()) {
			p := reg.ParentOp()
			if p == nil {
				return nil
			}
			reg = p.ParentRegion()
		}
	}
	return reg
}

// driver is the greedy pattern driver; it listens to its own rewriter.
type driver struct {
	cfg      Config
	set      *PatternSet
	r        *Rewriter
	wl       *worklist
	folder   *constantFolder
	filtered map[*ir.Operation]bool // ops allowed on the worklist in strict modes
	rewrites int
	scratch  []*ir.Operation
}

func newDriver(ctx *ir.Context, set *PatternSet, cfg Config) *driver {
	d := &driver{cfg: cfg, set: set, wl: getWorklist(), folder: newConstantFolder(), filtered: map[*ir.Operation]bool{}}
	d.r = NewRewriter(ctx, d)
	return d
}

// release gives the driver's worklist back for reuse.
func (d *driver) release() {
	putWorklist(d.wl)
	d.wl = nil
}

func (d *driver) simplifyRegion(reg *ir.Region) Result {
	var res Result
	more := false
	for {
		if d.cfg.MaxIterations != NoLimit && res.Iterations >= d.cfg.MaxIterations {
			break
		}
		res.Iterations++
		d.wl.clear()
		d.seed(reg)
		more = d.processWorklist()
		if d.cfg.RegionSimplify != SimplifyDisabled {
			if SimplifyRegions(d.r, []*ir.Region{reg}, d.cfg.RegionSimplify == SimplifyAggressive) {
				more = true
			}
		}
		if !more {
			break
		}
	}
	// The first round changed something exactly when a second one ran.
	res.Changed = res.Iterations > 1 || more
	res.Converged = !more
	res.Rewrites = d.rewrites
	return res
}

// seed fills the worklist with the ops of reg, uniquing and hoisting known
// constants on the way.
func (d *driver) seed(reg *ir.Region) {
	if d.cfg.TopDown {
		walkPreOrder(reg, func(op *ir.Operation) bool {
			if d.knownConstantErased(op) {
				return false
			}
			d.addToWorklist(op)
			return true
		})
		d.wl.reverse()
		return
	}
	for b := range reg.Blocks() {
		for o := range b.Ops() {
			o.WalkPostOrder(func(op *ir.Operation) {
				if !d.knownConstantErased(op) {
					d.addToWorklist(op)
				}
			})
		}
	}
}

// knownConstantErased records a constant op with the folder and reports
// whether it was erased as a duplicate.
func (d *driver) knownConstantErased(op *ir.Operation) bool {
	if !d.cfg.CSEConstants {
		return false
	}
	v := ConstantValue(op)
	return v != nil && !d.folder.insert(d.r, op, v)
}

// walkPreOrder visits the ops nested in reg in pre-order; fn may erase or
// move the op it is given, and returns false to skip its regions.
func walkPreOrder(reg *ir.Region, fn func(*ir.Operation) bool) {
	for b := range reg.Blocks() {
		for o := range b.Ops() {
			if fn(o) {
				for i := 0; i < o.NumRegions(); i++ {
					walkPreOrder(o.Region(i), fn)
				}
			}
		}
	}
}

func (d *driver) processWorklist() bool {
	changed := false
	rewrites := 0
	for !d.wl.empty() && (d.cfg.MaxNumRewrites == NoLimit || rewrites < d.cfg.MaxNumRewrites) {
		op := d.wl.pop()
		if IsTriviallyDead(op) {
			d.r.EraseOp(op)
			changed = true
			continue
		}
		// Folding a constant would only rematerialize it.
		if d.cfg.Fold && !op.HasTrait(ir.TraitConstantLike) && Fold(d.r, op) {
			changed = true
			continue
		}
		if d.set.apply(op, d.r) {
			changed = true
			rewrites++
			d.rewrites++
		}
	}
	return changed
}

// addToWorklist adds op and its ancestors up to the scope region; ops
// outside the scope are ignored.
func (d *driver) addToWorklist(op *ir.Operation) {
	ancestors := d.scratch[:0]
	for op != nil {
		ancestors = append(ancestors, op)
		reg := op.ParentRegion()
		if reg == d.cfg.Scope {
			for _, a := range ancestors {
				d.addSingle(a)
			}
			break
		}
		if reg == nil {
			break
		}
		op = reg.ParentOp()
	}
	d.scratch = ancestors[:0]
}

func (d *driver) addSingle(op *ir.Operation) {
	if d.cfg.Strict == AnyOp || d.filtered[op] {
		d.wl.push(op)
	}
}

// addOperandsToWorklist revisits the producers of op's operands when op is
// erased and they are left with at most one other user: they may now be
// dead or foldable.
func (d *driver) addOperandsToWorklist(op *ir.Operation) {
	for i := 0; i < op.NumOperands(); i++ {
		v := op.Operand(i)
		if v == nil || v.DefiningOp() == nil {
			continue
		}
		var other *ir.Operation
		many := false
		for user := range v.Users() {
			if user == op || user == other {
				continue
			}
			if other != nil {
				many = true
				break
			}
			other = user
		}
		if !many {
			d.addToWorklist(v.DefiningOp())
		}
	}
}

func (d *driver) OpInserted(op *ir.Operation) {
	if d.cfg.Listener != nil {
		d.cfg.Listener.OpInserted(op)
	}
	if d.cfg.Strict == ExistingAndNewOps {
		d.filtered[op] = true
	}
	d.addToWorklist(op)
}

func (d *driver) OpModified(op *ir.Operation) {
	if d.cfg.Listener != nil {
		d.cfg.Listener.OpModified(op)
	}
	d.addToWorklist(op)
}

func (d *driver) OpReplaced(op *ir.Operation, values []*ir.Value) {
	if d.cfg.Listener != nil {
		d.cfg.Listener.OpReplaced(op, values)
	}
}

func (d *driver) OpErased(op *ir.Operation) {
	if d.cfg.Listener != nil {
		d.cfg.Listener.OpErased(op)
	}
	d.addOperandsToWorklist(op)
	d.wl.remove(op)
	d.folder.remove(op)
	delete(d.filtered, op)
}

func (d *driver) BlockInserted(b *ir.Block) {
	if d.cfg.Listener != nil {
		d.cfg.Listener.BlockInserted(b)
	}
}

func (d *driver) BlockErased(b *ir.Block) {
	if d.cfg.Listener != nil {
		d.cfg.Listener.BlockErased(b)
	}
}

func (d *driver) MatchFailure(op *ir.Operation, reason string) {
	if d.cfg.Listener != nil {
		d.cfg.Listener.MatchFailure(op, reason)
	}
}

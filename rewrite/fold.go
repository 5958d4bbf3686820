package rewrite

import "github.com/rlx-compiler/rlx/ir"

// ConstantValue returns the value held by a constant-like op (trait
// ConstantLike, no operands, one result): what its folder returns when
// given no operands or, for an op without a folder, its "value" attribute.
// It returns nil for every other op.
func ConstantValue(op *ir.Operation) ir.Attribute {
	if op == nil || op.NumOperands() != 0 || op.NumResults() != 1 || !op.HasTrait(ir.TraitConstantLike) {
		return nil
	}
	def := op.Def()
	if def.Fold == nil {
		return op.Attr("value")
	}
	res := def.Fold(op, nil)
	if len(res) != 1 {
		return nil
	}
	return res[0].Attr
}

// MatchConstant returns the constant v is defined to hold, or nil.
func MatchConstant(v *ir.Value) ir.Attribute { return ConstantValue(v.DefiningOp()) }

// foldOutcome is what an op's folder did.
type foldOutcome uint8

const (
	foldFailed foldOutcome = iota
	foldInPlace
	foldReplaced
)

// tryFold calls op's folder with the constants its operands hold. A folder
// that returns the op's own results changed the op in place; returning
// some of them and other values for the rest is not a valid fold.
func tryFold(op *ir.Operation) ([]ir.FoldResult, foldOutcome) {
	def := op.Def()
	if def == nil || def.Fold == nil {
		return nil, foldFailed
	}
	operands := make([]ir.Attribute, op.NumOperands())
	for i := range operands {
		operands[i] = MatchConstant(op.Operand(i))
	}
	res := def.Fold(op, operands)
	if len(res) == 0 || len(res) != op.NumResults() {
		return nil, foldFailed
	}
	own := 0
	for i, r := range res {
		if r.Attr == nil && r.Value == nil {
			return nil, foldFailed
		}
		if r.Value == op.Result(i) {
			own++
		}
	}
	switch own {
	case len(res):
		return nil, foldInPlace
	case 0:
		return res, foldReplaced
	}
	return nil, foldFailed
}

// Fold folds op through its OpDef.Fold: an op changed in place is reported
// as modified; an op folded to values or constants is replaced, with the
// constants materialized just before op by op's dialect. It reports
// whether the IR changed. When a constant cannot be materialized the
// constants already made are erased and op is left alone.
func Fold(r *Rewriter, op *ir.Operation) bool {
	res, outcome := tryFold(op)
	switch outcome {
	case foldFailed:
		return false
	case foldInPlace:
		if r.listener != nil {
			r.listener.OpModified(op)
		}
		return true
	}
	ip := r.SaveInsertionPoint()
	defer r.RestoreInsertionPoint(ip)
	r.SetInsertionPoint(op)
	values := make([]*ir.Value, len(res))
	var made []*ir.Operation
	for i, fr := range res {
		if fr.Value != nil {
			values[i] = fr.Value
			continue
		}
		c := materialize(r, op, fr.Attr, op.Result(i).Type())
		if c == nil {
			for _, m := range made {
				r.EraseOp(m)
			}
			return false
		}
		made = append(made, c)
		values[i] = c.Result(0)
	}
	r.ReplaceOp(op, values)
	return true
}

// materialize asks the dialect of op to make a constant op for value.
func materialize(r *Rewriter, op *ir.Operation, value ir.Attribute, t ir.Type) *ir.Operation {
	d := op.Context().Dialect(op.OpName().Dialect())
	if d == nil || d.Materialize == nil {
		return nil
	}
	c := d.Materialize(r.Builder, value, t, op.Loc())
	if c == nil {
		return nil
	}
	if c.NumResults() != 1 || c.Result(0).Type() != t || !c.HasTrait(ir.TraitConstantLike) {
		panic("rewrite: dialect " + d.Name + " materialized " + c.Name() + ", which is not a constant of type " + t.String())
	}
	return c
}

// constKey identifies a uniqued constant within one insertion region.
type constKey struct {
	dialect string
	value   ir.Attribute
	typ     ir.Type
}

// constantFolder uniques constant ops per insertion region and hoists them
// to the start of the region's entry block, like MLIR's OperationFolder.
type constantFolder struct {
	scopes map[*ir.Region]map[constKey]*ir.Operation
	owned  map[*ir.Operation]constKey
}

func newConstantFolder() *constantFolder {
	return &constantFolder{scopes: map[*ir.Region]map[constKey]*ir.Operation{}, owned: map[*ir.Operation]constKey{}}
}

// insertionRegion returns the region constants used in b are put in: the
// closest enclosing region of an op that might be isolated from above, or
// of a top-level op.
func insertionRegion(b *ir.Block) *ir.Region {
	for {
		reg := b.Parent()
		p := reg.ParentOp()
		if p == nil || MightHaveTrait(p, ir.TraitIsolatedFromAbove) || p.Block() == nil {
			return reg
		}
		b = p.Block()
	}
}

// insert records the constant op, holding value, as known. When an equal
// constant is already known op is replaced by it and insert returns false;
// otherwise op becomes the known constant, is moved to the front of its
// insertion region when needed, and insert returns true.
func (f *constantFolder) insert(r *Rewriter, op *ir.Operation, value ir.Attribute) bool {
	b := op.Block()
	if _, ok := f.owned[op]; ok {
		if b.First() != op && !f.isOwned(op.Prev()) {
			op.MoveBefore(b.First())
			op.SetLoc(op.Context().UnknownLoc())
		}
		return true
	}
	reg := insertionRegion(b)
	scope := f.scopes[reg]
	if scope == nil {
		scope = map[constKey]*ir.Operation{}
		f.scopes[reg] = scope
	}
	key := constKey{op.OpName().Dialect(), value, op.Result(0).Type()}
	if existing := scope[key]; existing != nil {
		r.ReplaceOp(op, existing.Results())
		existing.SetLoc(op.Context().UnknownLoc())
		return false
	}
	entry := reg.First()
	// Moves are not reported: the op is about to be put on the worklist
	// (or already is) in the order the driver chose.
	if b != entry || entry.First() != op && !f.isOwned(op.Prev()) {
		op.MoveBefore(entry.First())
		op.SetLoc(op.Context().UnknownLoc())
	}
	scope[key] = op
	f.owned[op] = key
	return true
}

func (f *constantFolder) isOwned(op *ir.Operation) bool {
	_, ok := f.owned[op]
	return ok
}

// remove forgets op when it is a known constant (it is being erased).
func (f *constantFolder) remove(op *ir.Operation) {
	key, ok := f.owned[op]
	if !ok {
		return
	}
	delete(f.owned, op)
	if op.Block() != nil {
		if scope := f.scopes[insertionRegion(op.Block())]; scope[key] == op {
			delete(scope, key)
		}
		return
	}
	for _, scope := range f.scopes {
		if scope[key] == op {
			delete(scope, key)
		}
	}
}

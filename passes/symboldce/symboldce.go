package symboldce

import (
	"github.com/rlx-compiler/rlx/ir"
)

// Run erases the dead symbols of the symbol table op and of the symbol
// tables nested in it, and returns how many it erased.
func Run(op *ir.Operation) (int, error) {
	if !op.HasTrait(ir.TraitSymbolTable) {
		return 0, ir.OpError(op, " was scheduled to run under SymbolDCE, but does not define a symbol table")
	}
	hidden := true
	if op.ParentOp() != nil && isSymbol(op) {
		hidden = visibility(op) == "private"
	}
	d := &dce{live: map[*ir.Operation]bool{}, tables: ir.NewSymbolTableCollection()}
	if err := d.liveness(op, hidden); err != nil {
		return 0, err
	}
	n := 0
	op.WalkPostOrder(func(table *ir.Operation) {
		if !table.HasTrait(ir.TraitSymbolTable) || table.NumRegions() == 0 {
			return
		}
		for b := range table.Region(0).Blocks() {
			for o := range b.Ops() {
				if isSymbol(o) && !d.live[o] && !isTerminator(o) {
					o.DropAllUses()
					o.Erase()
					n++
				}
			}
		}
	})
	return n, nil
}

type dce struct {
	live   map[*ir.Operation]bool
	tables *ir.SymbolTableCollection
}

// isSymbol reports whether op is a symbol: a registered symbol op, or an
// op that names itself with sym_name (builtin.module).
func isSymbol(op *ir.Operation) bool {
	if op.HasTrait(ir.TraitSymbol) {
		return true
	}
	return op.HasTrait(ir.TraitSymbolTable) && ir.SymbolName(op) != ""
}

func visibility(op *ir.Operation) string {
	if s, ok := op.Attr("sym_visibility").(*ir.StringAttr); ok {
		return s.Value
	}
	return "public"
}

func isTerminator(op *ir.Operation) bool {
	return op.HasTrait(ir.TraitTerminator) && op.Next() == nil
}

func (d *dce) liveness(table *ir.Operation, hidden bool) error {
	var work []*ir.Operation
	for b := range table.Region(0).Blocks() {
		for o := range b.Ops() {
			if isTerminator(o) {
				continue
			}
			if !isSymbol(o) {
				work = append(work, o)
				continue
			}
			vis := visibility(o)
			discardable := vis != "public" && (hidden || vis == "private")
			if !discardable && !d.live[o] {
				d.live[o] = true
				work = append(work, o)
			}
		}
	}
	for len(work) > 0 {
		o := work[len(work)-1]
		work = work[:len(work)-1]
		if o.HasTrait(ir.TraitSymbolTable) {
			nestedHidden := hidden || !isSymbol(o) || visibility(o) == "private"
			if err := d.liveness(o, nestedHidden); err != nil {
				return err
			}
		}
		refs, err := symbolUses(o)
		if err != nil {
			return err
		}
		// References are resolved in the symbol table holding o, which
		// is not table when o is a symbol of a nested table.
		for _, ref := range refs {
			for _, s := range d.resolve(o.ParentOp(), ref) {
				if !d.live[s] {
					d.live[s] = true
					work = append(work, s)
				}
			}
		}
	}
	return nil
}

// resolve returns the symbols each component of ref names, starting in
// table; nil when the reference does not resolve.
func (d *dce) resolve(table *ir.Operation, ref *ir.SymbolRefAttr) []*ir.Operation {
	if table == nil || !table.HasTrait(ir.TraitSymbolTable) {
		return nil
	}
	s := d.tables.Table(table).Lookup(ref.Root)
	if s == nil {
		return nil
	}
	out := []*ir.Operation{s}
	for _, n := range ref.Nested {
		if !s.HasTrait(ir.TraitSymbolTable) {
			return nil
		}
		s = d.tables.Table(s).Lookup(n)
		if s == nil {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// symbolUses returns the symbol references held by op and the ops nested
// in it, not looking inside nested symbol tables (their references are
// relative to them).
func symbolUses(op *ir.Operation) ([]*ir.SymbolRefAttr, error) {
	var refs []*ir.SymbolRefAttr
	var visit func(o *ir.Operation) error
	visit = func(o *ir.Operation) error {
		if !o.IsRegistered() && o.NumRegions() == 1 {
			// Reported on the op whose uses were asked for, as in MLIR.
			return ir.OpErrorPlain(op, "operation contains potentially unknown symbol table, meaning that we can't reliable compute symbol uses")
		}
		collectRefs(o.Props(), &refs)
		collectRefs(o.Attrs(), &refs)
		// References inside a symbol table are relative to it.
		if o.HasTrait(ir.TraitSymbolTable) {
			return nil
		}
		for i := 0; i < o.NumRegions(); i++ {
			for b := range o.Region(i).Blocks() {
				for n := range b.Ops() {
					if err := visit(n); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return refs, visit(op)
}

// collectRefs appends the symbol references nested in a. Only arrays and
// dictionaries are looked into: ir has no generic walk over the elements
// of other attribute kinds.
func collectRefs(a ir.Attribute, refs *[]*ir.SymbolRefAttr) {
	switch a := a.(type) {
	case nil:
	case *ir.SymbolRefAttr:
		*refs = append(*refs, a)
	case *ir.ArrayAttr:
		for _, e := range a.Elems {
			collectRefs(e, refs)
		}
	case *ir.DictAttr:
		if a == nil {
			return
		}
		for _, e := range a.Entries {
			collectRefs(e.Value, refs)
		}
	}
}

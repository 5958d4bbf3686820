package ir

// SymbolName returns the `sym_name` of a symbol op, or "".
func SymbolName(op *Operation) string {
	if s, ok := op.Attr("sym_name").(*StringAttr); ok {
		return s.Value
	}
	return ""
}

// SymbolTable indexes the symbols directly inside a symbol-table op.
type SymbolTable struct {
	op   *Operation
	syms map[string]*Operation
}

// NewSymbolTable indexes the symbols of op's first region.
func NewSymbolTable(op *Operation) *SymbolTable {
	t := &SymbolTable{op: op, syms: map[string]*Operation{}}
	if op.NumRegions() == 0 {
		return t
	}
	for b := op.regs()[0].first; b != nil; b = b.next {
		for o := b.first; o != nil; o = o.next {
			if n := SymbolName(o); n != "" {
				if _, dup := t.syms[n]; !dup {
					t.syms[n] = o
				}
			}
		}
	}
	return t
}

// Lookup returns the symbol with the given name, or nil.
func (t *SymbolTable) Lookup(name string) *Operation { return t.syms[name] }

// Insert adds op to the table (and to the end of the table op's body when
// it is detached). A clashing name gets a numeric suffix; the name used is
// returned.
func (t *SymbolTable) Insert(ctx *Context, op *Operation) string {
	name := SymbolName(op)
	if _, clash := t.syms[name]; clash {
		for i := 0; ; i++ {
			cand := name + "_" + itoa(i)
			if _, c := t.syms[cand]; !c {
				name = cand
				break
			}
		}
		op.SetAttr(ctx, "sym_name", ctx.StringAttr(name))
	}
	t.syms[name] = op
	if op.block == nil {
		t.op.regs()[0].first.Append(op)
	}
	return name
}

// Erase removes op from the table and the IR.
func (t *SymbolTable) Erase(op *Operation) {
	delete(t.syms, SymbolName(op))
	op.Erase()
}

// NearestSymbolTable returns the closest ancestor of op (or op itself) that
// is a symbol table.
func NearestSymbolTable(op *Operation) *Operation {
	for o := op; o != nil; o = o.ParentOp() {
		if o.HasTrait(TraitSymbolTable) {
			return o
		}
	}
	return nil
}

// SymbolTableCollection caches symbol tables while resolving many
// references.
type SymbolTableCollection struct {
	tables map[*Operation]*SymbolTable
}

// NewSymbolTableCollection returns an empty cache.
func NewSymbolTableCollection() *SymbolTableCollection {
	return &SymbolTableCollection{tables: map[*Operation]*SymbolTable{}}
}

// Table returns the (cached) table of a symbol-table op.
func (c *SymbolTableCollection) Table(op *Operation) *SymbolTable {
	t := c.tables[op]
	if t == nil {
		t = NewSymbolTable(op)
		c.tables[op] = t
	}
	return t
}

// Lookup resolves ref starting at the symbol-table op table.
func (c *SymbolTableCollection) Lookup(table *Operation, ref *SymbolRefAttr) *Operation {
	if table == nil {
		return nil
	}
	o := c.Table(table).Lookup(ref.Root)
	for _, n := range ref.Nested {
		if o == nil || !o.HasTrait(TraitSymbolTable) {
			return nil
		}
		o = c.Table(o).Lookup(n)
	}
	return o
}

// LookupNearest resolves ref from the symbol table enclosing from.
func (c *SymbolTableCollection) LookupNearest(from *Operation, ref *SymbolRefAttr) *Operation {
	return c.Lookup(NearestSymbolTable(from), ref)
}

package ir

// ValueMap maps values (and blocks) of an original to their copies.
type ValueMap struct {
	values map[*Value]*Value
	blocks map[*Block]*Block
}

// NewValueMap returns an empty map.
func NewValueMap() *ValueMap {
	return &ValueMap{values: map[*Value]*Value{}, blocks: map[*Block]*Block{}}
}

// Map records that from is replaced by to.
func (m *ValueMap) Map(from, to *Value) { m.values[from] = to }

// MapBlock records that block from is replaced by to.
func (m *ValueMap) MapBlock(from, to *Block) { m.blocks[from] = to }

// Lookup returns the replacement of v, or v itself when there is none.
func (m *ValueMap) Lookup(v *Value) *Value {
	if m != nil {
		if w, ok := m.values[v]; ok {
			return w
		}
	}
	return v
}

// LookupOrNil returns the replacement of v, or nil.
func (m *ValueMap) LookupOrNil(v *Value) *Value {
	if m == nil {
		return nil
	}
	return m.values[v]
}

// LookupBlock returns the replacement of b, or b itself.
func (m *ValueMap) LookupBlock(b *Block) *Block {
	if m != nil {
		if c, ok := m.blocks[b]; ok {
			return c
		}
	}
	return b
}

// Clone returns a detached deep copy of op. Operands are mapped through m
// (nil m keeps them), and the copies of results and nested block arguments
// are recorded in m when it is not nil.
func (op *Operation) Clone(m *ValueMap) *Operation {
	if m == nil {
		m = NewValueMap()
	}
	operands := make([]*Value, len(op.opnds()))
	for i := range op.opnds() {
		operands[i] = m.Lookup(op.opnds()[i].value)
	}
	succs := make([]*Block, len(op.succs()))
	for i := range op.succs() {
		succs[i] = m.LookupBlock(op.succs()[i].block)
	}
	st := &OperationState{
		Name:        op.name,
		Loc:         op.loc,
		Operands:    operands,
		ResultTypes: op.ResultTypes(),
		NumRegions:  len(op.regs()),
		Successors:  succs,
	}
	if op.ownsProps() {
		st.PropEntries = op.props.Entries
	} else {
		st.Props = op.Props()
	}
	c := NewOperation(op.name.ctx, st)
	c.attrs = op.attrs
	for i := range op.ress() {
		m.Map(&op.ress()[i], &c.ress()[i])
	}
	for i := range op.regs() {
		op.regs()[i].CloneInto(&c.regs()[i], m)
	}
	return c
}

// CloneInto appends copies of r's blocks to dst, mapping through m.
func (r *Region) CloneInto(dst *Region, m *ValueMap) {
	var newBlocks []*Block
	for b := r.first; b != nil; b = b.next {
		nb := &Block{}
		for i, a := range b.args {
			na := nb.AddArgument(a.typ, b.ArgumentLoc(i))
			m.Map(a, na)
		}
		m.MapBlock(b, nb)
		newBlocks = append(newBlocks, nb)
	}
	// Blocks first, then ops, so forward references to blocks and values
	// in later blocks resolve.
	i := 0
	for b := r.first; b != nil; b = b.next {
		nb := newBlocks[i]
		i++
		for o := b.first; o != nil; o = o.next {
			nb.Append(o.cloneShallowOperands(m))
		}
		dst.AppendBlock(nb)
	}
	// Remap operands that referred to values defined later (graph regions
	// and CFG back edges).
	for _, nb := range newBlocks {
		for o := nb.first; o != nil; o = o.next {
			o.remapOperands(m)
		}
	}
}

func (op *Operation) cloneShallowOperands(m *ValueMap) *Operation {
	return op.Clone(m)
}

func (op *Operation) remapOperands(m *ValueMap) {
	for i := range op.opnds() {
		v := op.opnds()[i].value
		if w := m.LookupOrNil(v); w != nil && w != v {
			op.opnds()[i].Set(w)
		}
	}
	for i := range op.succs() {
		op.succs()[i].block = m.LookupBlock(op.succs()[i].block)
	}
	for i := range op.regs() {
		for b := op.regs()[i].first; b != nil; b = b.next {
			for o := b.first; o != nil; o = o.next {
				o.remapOperands(m)
			}
		}
	}
}

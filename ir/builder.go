package ir

// Builder creates operations at an insertion point.
type Builder struct {
	Ctx   *Context
	block *Block
	// before is the op to insert before; nil inserts at the end of block.
	before *Operation
	// Listener, when set, is told about every op the builder creates.
	Listener func(*Operation)
}

// NewBuilder returns a builder with no insertion point.
func NewBuilder(ctx *Context) *Builder { return &Builder{Ctx: ctx} }

// InsertionPoint is a saved position of a builder.
type InsertionPoint struct {
	block  *Block
	before *Operation
}

// SetInsertionPointToEnd inserts at the end of b.
func (b *Builder) SetInsertionPointToEnd(blk *Block) { b.block, b.before = blk, nil }

// SetInsertionPointToStart inserts at the start of b.
func (b *Builder) SetInsertionPointToStart(blk *Block) { b.block, b.before = blk, blk.first }

// SetInsertionPoint inserts before op.
func (b *Builder) SetInsertionPoint(op *Operation) { b.block, b.before = op.block, op }

// SetInsertionPointAfter inserts after op.
func (b *Builder) SetInsertionPointAfter(op *Operation) { b.block, b.before = op.block, op.next }

// SaveInsertionPoint returns the current position.
func (b *Builder) SaveInsertionPoint() InsertionPoint { return InsertionPoint{b.block, b.before} }

// RestoreInsertionPoint returns to a saved position.
func (b *Builder) RestoreInsertionPoint(ip InsertionPoint) { b.block, b.before = ip.block, ip.before }

// InsertionBlock returns the block ops are inserted into.
func (b *Builder) InsertionBlock() *Block { return b.block }

// Insert places a detached op at the insertion point and returns it.
func (b *Builder) Insert(op *Operation) *Operation {
	if b.block != nil {
		b.block.insertBefore(op, b.before)
	}
	if b.Listener != nil {
		b.Listener(op)
	}
	return op
}

// Create makes an op from st and inserts it.
func (b *Builder) Create(st *OperationState) *Operation {
	return b.Insert(NewOperation(b.Ctx, st))
}

// CreateOp is a shorthand for ops without regions or successors.
func (b *Builder) CreateOp(name string, loc Location, operands []*Value, results []Type, attrs ...NamedAttr) *Operation {
	return b.Create(&OperationState{
		Name:        b.Ctx.OpName(name),
		Loc:         loc,
		Operands:    operands,
		ResultTypes: results,
		Attrs:       attrs,
	})
}

// CreateBlock appends a new block with the given argument types to r and
// moves the insertion point to its end.
func (b *Builder) CreateBlock(r *Region, types []Type, locs []Location) *Block {
	blk := NewBlock(types, locs)
	r.AppendBlock(blk)
	b.SetInsertionPointToEnd(blk)
	return blk
}

// Clone inserts a deep copy of op, mapping operands through m (values not
// in m are kept), and records the new results in m.
func (b *Builder) Clone(op *Operation, m *ValueMap) *Operation {
	return b.Insert(op.Clone(m))
}

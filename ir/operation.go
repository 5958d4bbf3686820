package ir

import "unsafe"

// Operation is the one generic IR node: a named op with operands, results,
// properties (inherent attributes), discardable attributes, regions,
// successors and a location. Ops of every dialect are Operations; dialect
// packages offer thin typed views over them.
//
// Operations live in a Block's intrusive list. Create one with
// NewOperation, insert it with a Builder or Block.Append, and remove it with
// Erase (which also drops its uses).
type Operation struct {
	name       *OpName
	block      *Block
	prev, next *Operation
	loc        Location
	props      *DictAttr // inherent attributes (properties)
	attrs      *DictAttr // discardable attributes
	// Operands and results are arrays stored with the op (or separately
	// for large counts); a pointer and a count keep the op small.
	opnd *OpOperand
	res  *Value
	// extra holds regions and successors, which most ops do not have.
	extra *opExtra
	nOpnd uint32
	nRes  uint32
	order uint32 // position in the block, valid while the block's orderValid is set
	// printID is the printer's number for the op's results, valid during
	// one printing session (see numberValues); it fills what would be
	// padding, so numbering a million ops needs no map.
	printID int32
}

type opExtra struct {
	regions    []Region
	successors []BlockOperand
	// rawProps holds properties that are not a dictionary, which only
	// unregistered ops written as `<attr>` have (props is then nil). When
	// it holds props itself, props is the op's own dictionary, not
	// uniqued in the context (OperationState.PropEntries), and PropsDict
	// uniques it on demand. Marking it so, rather than with a flag, keeps
	// opExtra in its size class.
	rawProps Attribute
}

// ownsProps reports whether op.props is the op's own dictionary.
func (op *Operation) ownsProps() bool {
	return op.props != nil && op.extra != nil && op.extra.rawProps == Attribute(op.props)
}

func (op *Operation) regs() []Region {
	if op.extra == nil {
		return nil
	}
	return op.extra.regions
}

func (op *Operation) succs() []BlockOperand {
	if op.extra == nil {
		return nil
	}
	return op.extra.successors
}

// BlockOperand is a successor of a terminator.
type BlockOperand struct {
	block *Block
	owner *Operation
}

// Block returns the successor block.
func (s *BlockOperand) Block() *Block { return s.block }

// OperationState collects what is needed to create an operation.
type OperationState struct {
	Name        *OpName
	Loc         Location
	Operands    []*Value
	ResultTypes []Type
	// Props holds the inherent attributes. For registered ops that declare
	// their inherent attribute names, attributes with those names in Attrs
	// are moved here by NewOperation.
	Props Attribute
	// PropEntries, when Props is nil, gives the properties as entries that
	// the op keeps in its own dictionary instead of one uniqued in the
	// context, as MLIR stores properties inline in the op. Use it for
	// properties unique to the op (a symbol name): uniquing those only
	// fills the context. Props and PropsDict still return a uniqued
	// dictionary, made when asked for, so comparing attributes by
	// identity keeps working. The entries are copied, sorted by name.
	PropEntries []NamedAttr
	Attrs       []NamedAttr
	// AttrDict, when set, is used as the discardable attributes as is
	// (Attrs must then be empty); parsers pass the dictionary they built.
	AttrDict   *DictAttr
	NumRegions int
	// Regions, when non-nil, are moved into the new operation (their blocks
	// are taken over); otherwise NumRegions empty regions are made.
	Regions    []*Region
	Successors []*Block
}

// NewOperation creates a detached operation from st. Attributes are sorted
// by name; duplicates keep the last value.
func NewOperation(ctx *Context, st *OperationState) *Operation {
	nreg := st.NumRegions
	if len(st.Regions) > nreg {
		nreg = len(st.Regions)
	}
	op := newOpStorage(len(st.Operands), len(st.ResultTypes), nreg)
	op.name = st.Name
	op.loc = st.Loc
	if op.loc == nil {
		op.loc = ctx.UnknownLoc()
	}
	for i, v := range st.Operands {
		o := &op.opnds()[i]
		o.owner = op
		o.link(v)
	}
	for i, t := range st.ResultTypes {
		r := &op.ress()[i]
		r.typ = t
		r.owner = unsafe.Pointer(op)
		r.index = int32(i)
	}
	for i := range op.regs() {
		op.regs()[i].parent = op
		if i < len(st.Regions) && st.Regions[i] != nil {
			op.regs()[i].takeBody(st.Regions[i])
		}
	}
	if len(st.Successors) > 0 {
		if op.extra == nil {
			op.extra = &opExtra{}
		}
		op.extra.successors = make([]BlockOperand, len(st.Successors))
		for i, b := range st.Successors {
			op.extra.successors[i] = BlockOperand{block: b, owner: op}
		}
	}
	props := st.Props
	attrs := st.Attrs
	dict := st.AttrDict
	def := st.Name.def
	if dict != nil && def != nil && len(def.InherentAttrs) > 0 {
		// A dictionary that is all inherent (or all discardable) is used
		// as is; only a mix is split.
		n := 0
		for _, e := range dict.Entries {
			if def.isInherent(e.Name) {
				n++
			}
		}
		switch {
		case n == 0:
		case n == len(dict.Entries) && props == nil:
			props, dict = dict, nil
		default:
			attrs, dict = dict.Entries, nil
		}
	}
	if def != nil && len(def.InherentAttrs) > 0 && len(attrs) > 0 {
		props, attrs = splitInherent(ctx, def, props, attrs)
	}
	op.SetProps(props)
	if props == nil && len(st.PropEntries) > 0 {
		op.props = &DictAttr{Entries: sortedEntries(st.PropEntries, false)}
		if op.extra == nil {
			op.extra = &opExtra{}
		}
		op.extra.rawProps = op.props
	}
	switch {
	case dict != nil && len(dict.Entries) > 0:
		op.attrs = dict
	case len(attrs) > 0:
		op.attrs = ctx.Dict(attrs)
	}
	return op
}

// splitInherent moves attributes named as inherent by def from attrs into
// the property dictionary, as MLIR does when it creates an op with
// properties from a plain attribute list.
func splitInherent(ctx *Context, def *OpDef, props Attribute, attrs []NamedAttr) (Attribute, []NamedAttr) {
	var inh, rest []NamedAttr
	for _, a := range attrs {
		if def.isInherent(a.Name) {
			inh = append(inh, a)
		} else {
			rest = append(rest, a)
		}
	}
	if len(inh) == 0 {
		return props, attrs
	}
	if pd, ok := props.(*DictAttr); ok && pd != nil {
		inh = append(append([]NamedAttr(nil), pd.Entries...), inh...)
	}
	return ctx.Dict(inh), rest
}

// The common shapes of ops (up to three operands, one result) are
// allocated in one piece, sized exactly, to save memory on large graphs.
type (
	opStorage00 struct{ op Operation }
	opStorage01 struct {
		op  Operation
		res [1]Value
	}
	opStorage11 struct {
		op  Operation
		res [1]Value
		opd [1]OpOperand
	}
	opStorage21 struct {
		op  Operation
		res [1]Value
		opd [2]OpOperand
	}
	opStorage31 struct {
		op  Operation
		res [1]Value
		opd [3]OpOperand
	}
	opStorage10 struct {
		op  Operation
		opd [1]OpOperand
	}
)

func newOpStorage(nOperands, nResults, nRegions int) *Operation {
	var op *Operation
	var res []Value
	var opd []OpOperand
	switch {
	case nResults == 0 && nOperands == 0:
		op = &new(opStorage00).op
	case nResults == 1 && nOperands == 0:
		s := new(opStorage01)
		op, res = &s.op, s.res[:]
	case nResults == 1 && nOperands == 1:
		s := new(opStorage11)
		op, res, opd = &s.op, s.res[:], s.opd[:]
	case nResults == 1 && nOperands == 2:
		s := new(opStorage21)
		op, res, opd = &s.op, s.res[:], s.opd[:]
	case nResults == 1 && nOperands == 3:
		s := new(opStorage31)
		op, res, opd = &s.op, s.res[:], s.opd[:]
	case nResults == 0 && nOperands == 1:
		s := new(opStorage10)
		op, opd = &s.op, s.opd[:]
	}
	if op != nil {
		op.setResults(res)
		op.setOperands(opd)
	} else {
		op = new(Operation)
		if nResults > 0 {
			op.setResults(make([]Value, nResults))
		}
		if nOperands > 0 {
			op.setOperands(make([]OpOperand, nOperands))
		}
	}
	if nRegions > 0 {
		op.extra = &opExtra{regions: make([]Region, nRegions)}
	}
	return op
}

// Context returns the context the op was created in.
func (op *Operation) Context() *Context { return op.name.ctx }

// Name returns the op's full name, e.g. "graph.add".
func (op *Operation) Name() string { return op.name.name }

// OpName returns the interned name, which carries the op definition.
func (op *Operation) OpName() *OpName { return op.name }

// Def returns the op's registered definition, or nil when unregistered.
func (op *Operation) Def() *OpDef { return op.name.def }

// IsRegistered reports whether the op has a definition.
func (op *Operation) IsRegistered() bool { return op.name.def != nil }

// HasTrait reports whether the op's definition has trait t. Unregistered
// ops have no traits.
func (op *Operation) HasTrait(t Trait) bool {
	return op.name.def != nil && op.name.def.Traits&t != 0
}

// Loc returns the op's location.
func (op *Operation) Loc() Location { return op.loc }

// SetLoc sets the op's location.
func (op *Operation) SetLoc(l Location) { op.loc = l }

// Block returns the block that holds the op, or nil when detached.
func (op *Operation) Block() *Block { return op.block }

// ParentRegion returns the region holding the op's block.
func (op *Operation) ParentRegion() *Region {
	if op.block == nil {
		return nil
	}
	return op.block.parent
}

// ParentOp returns the op whose region holds this op, or nil at the top.
func (op *Operation) ParentOp() *Operation {
	if r := op.ParentRegion(); r != nil {
		return r.parent
	}
	return nil
}

// Next returns the next op in the block, or nil.
func (op *Operation) Next() *Operation { return op.next }

// Prev returns the previous op in the block, or nil.
func (op *Operation) Prev() *Operation { return op.prev }

// NumOperands returns the number of operands.
func (op *Operation) NumOperands() int { return len(op.opnds()) }

// Operand returns operand i's value.
func (op *Operation) Operand(i int) *Value { return op.opnds()[i].value }

// OpOperand returns the use record of operand i.
func (op *Operation) OpOperand(i int) *OpOperand { return &op.opnds()[i] }

// Operands returns the operand values (a new slice).
func (op *Operation) Operands() []*Value {
	out := make([]*Value, len(op.opnds()))
	for i := range op.opnds() {
		out[i] = op.opnds()[i].value
	}
	return out
}

// SetOperand makes operand i use v.
func (op *Operation) SetOperand(i int, v *Value) { op.opnds()[i].Set(v) }

// SetOperands replaces all operands.
func (op *Operation) SetOperands(vs []*Value) {
	for i := range op.opnds() {
		op.opnds()[i].unlink()
	}
	if len(vs) != len(op.opnds()) {
		op.setOperands(make([]OpOperand, len(vs)))
	}
	for i, v := range vs {
		op.opnds()[i].owner = op
		op.opnds()[i].link(v)
	}
}

// NumResults returns the number of results.
func (op *Operation) NumResults() int { return len(op.ress()) }

// Result returns result i.
func (op *Operation) Result(i int) *Value { return &op.ress()[i] }

// Results returns the result values (a new slice).
func (op *Operation) Results() []*Value {
	out := make([]*Value, len(op.ress()))
	for i := range op.ress() {
		out[i] = &op.ress()[i]
	}
	return out
}

// ResultTypes returns the result types (a new slice).
func (op *Operation) ResultTypes() []Type {
	out := make([]Type, len(op.ress()))
	for i := range op.ress() {
		out[i] = op.ress()[i].typ
	}
	return out
}

// OperandTypes returns the operand types (a new slice).
func (op *Operation) OperandTypes() []Type {
	out := make([]Type, len(op.opnds()))
	for i := range op.opnds() {
		out[i] = op.opnds()[i].value.typ
	}
	return out
}

// NumRegions returns the number of regions.
func (op *Operation) NumRegions() int { return len(op.regs()) }

// Region returns region i.
func (op *Operation) Region(i int) *Region { return &op.regs()[i] }

// NumSuccessors returns the number of successors.
func (op *Operation) NumSuccessors() int { return len(op.succs()) }

// Successor returns successor i.
func (op *Operation) Successor(i int) *Block { return op.succs()[i].block }

// SetSuccessor changes successor i.
func (op *Operation) SetSuccessor(i int, b *Block) { op.succs()[i].block = b }

// Props returns the inherent attributes (properties), or nil.
func (op *Operation) Props() Attribute {
	if op.props != nil {
		return op.PropsDict()
	}
	if op.extra != nil && op.extra.rawProps != nil {
		return op.extra.rawProps
	}
	return nil
}

// setPropsDict sets the properties to the uniqued dictionary d (none when
// d is empty).
func (op *Operation) setPropsDict(d *DictAttr) {
	if d != nil && len(d.Entries) == 0 {
		d = nil
	}
	op.props = d
	if op.extra != nil {
		op.extra.rawProps = nil
	}
}

// SetProps replaces the properties.
func (op *Operation) SetProps(a Attribute) {
	op.setPropsDict(nil)
	switch a := a.(type) {
	case nil:
	case *DictAttr:
		op.props = a
	default:
		if op.extra == nil {
			op.extra = &opExtra{}
		}
		op.extra.rawProps = a
	}
}

// PropsDict returns the properties as a dictionary (nil when they are not
// a dictionary).
func (op *Operation) PropsDict() *DictAttr {
	if op.ownsProps() {
		return op.name.ctx.Dict(op.props.Entries)
	}
	return op.props
}

// PropEntries returns the properties' entries, sorted by name (nil when
// there are none or they are not a dictionary). Unlike PropsDict it never
// uniques the op's own dictionary; the caller must not modify the slice.
func (op *Operation) PropEntries() []NamedAttr {
	if op.props == nil {
		return nil
	}
	return op.props.Entries
}

// storedProps returns the properties as stored, for readers of their
// entries: the op's own dictionary is not uniqued.
func (op *Operation) storedProps() Attribute {
	if op.props != nil {
		return op.props
	}
	return op.Props()
}

// Attrs returns the discardable attributes (nil when none).
func (op *Operation) Attrs() *DictAttr { return op.attrs }

// SetAttrs replaces the discardable attributes.
func (op *Operation) SetAttrs(d *DictAttr) {
	if d != nil && len(d.Entries) == 0 {
		d = nil
	}
	op.attrs = d
}

// AllAttrs returns the properties and discardable attributes merged in
// one dictionary, as MLIR's getAttrs() does (custom printers list them).
func (op *Operation) AllAttrs() *DictAttr {
	if op.props == nil {
		return op.attrs
	}
	if op.attrs == nil {
		return op.PropsDict()
	}
	return op.name.ctx.Dict(op.AllAttrEntries())
}

// AllAttrEntries returns the entries of AllAttrs, sorted by name, without
// uniquing them in a dictionary; the caller must not modify the slice.
func (op *Operation) AllAttrEntries() []NamedAttr {
	switch {
	case op.attrs == nil:
		return op.PropEntries()
	case op.props == nil:
		return op.attrs.Entries
	}
	return sortedEntries(append(append([]NamedAttr(nil), op.props.Entries...), op.attrs.Entries...), true)
}

// Attr returns the named attribute, looking first at the properties and
// then at the discardable attributes; nil when absent.
func (op *Operation) Attr(name string) Attribute {
	if d := op.props; d != nil {
		if a := d.Get(name); a != nil {
			return a
		}
	}
	return op.attrs.Get(name)
}

// SetAttr sets an attribute: into the properties when the op's definition
// names it as inherent (or it is already a property), otherwise into the
// discardable attributes. A nil value removes it.
func (op *Operation) SetAttr(ctx *Context, name string, value Attribute) {
	pd := op.props
	inherent := pd.Get(name) != nil || (op.name.def != nil && op.name.def.isInherent(name))
	if inherent && (op.extra == nil || op.extra.rawProps == nil || op.ownsProps()) {
		op.setPropsDict(ctx.setInDict(pd, name, value))
		return
	}
	op.SetAttrs(ctx.setInDict(op.attrs, name, value))
}

// RemoveAttr removes the named attribute from properties and discardable
// attributes.
func (op *Operation) RemoveAttr(ctx *Context, name string) {
	if pd := op.props; pd.Get(name) != nil {
		op.setPropsDict(ctx.setInDict(pd, name, nil))
	}
	if op.attrs.Get(name) != nil {
		op.SetAttrs(ctx.setInDict(op.attrs, name, nil))
	}
}

// IsBeforeInBlock reports whether op comes before other in their common
// block. Positions are computed lazily and cached until the block changes.
func (op *Operation) IsBeforeInBlock(other *Operation) bool {
	b := op.block
	if !b.orderValid {
		b.recomputeOrder()
	}
	return op.order < other.order
}

// IsProperAncestor reports whether op strictly contains other.
func (op *Operation) IsProperAncestor(other *Operation) bool {
	for p := other.ParentOp(); p != nil; p = p.ParentOp() {
		if p == op {
			return true
		}
	}
	return false
}

// IsAncestor reports whether op is other or contains it.
func (op *Operation) IsAncestor(other *Operation) bool {
	return op == other || op.IsProperAncestor(other)
}

// Remove unlinks the op from its block without destroying it.
func (op *Operation) Remove() {
	if b := op.block; b != nil {
		b.unlinkOp(op)
	}
}

// DropAllUses removes every use of the op's results; the users are left
// with nil operands, which the caller must fix or erase.
func (op *Operation) DropAllUses() {
	for i := range op.ress() {
		r := &op.ress()[i]
		for r.uses != nil {
			r.uses.unlink()
		}
	}
}

// DropAllReferences drops the op's operands and successors, and those of
// every op nested in it, so that a group of ops can be erased in any order.
func (op *Operation) DropAllReferences() {
	for i := range op.opnds() {
		op.opnds()[i].unlink()
	}
	for i := range op.regs() {
		for b := op.regs()[i].first; b != nil; b = b.next {
			for o := b.first; o != nil; o = o.next {
				o.DropAllReferences()
			}
		}
	}
	if op.extra != nil {
		op.extra.successors = nil
	}
}

// Erase removes the op from its block and drops its operands. The results
// must have no uses (a bug in the caller otherwise).
func (op *Operation) Erase() {
	for i := range op.ress() {
		if op.ress()[i].uses != nil {
			panic("ir: erasing " + op.name.name + " whose result #" + itoa(i) + " still has uses")
		}
	}
	op.Remove()
	op.DropAllReferences()
}

// MoveBefore moves the op to just before other (possibly in another block).
func (op *Operation) MoveBefore(other *Operation) {
	op.Remove()
	other.block.insertBefore(op, other)
}

// MoveAfter moves the op to just after other.
func (op *Operation) MoveAfter(other *Operation) {
	op.Remove()
	other.block.insertAfter(op, other)
}

func (op *Operation) opnds() []OpOperand { return unsafe.Slice(op.opnd, op.nOpnd) }
func (op *Operation) ress() []Value      { return unsafe.Slice(op.res, op.nRes) }

func (op *Operation) setOperands(s []OpOperand) {
	op.opnd, op.nOpnd = unsafe.SliceData(s), uint32(len(s))
}

func (op *Operation) setResults(s []Value) {
	op.res, op.nRes = unsafe.SliceData(s), uint32(len(s))
}

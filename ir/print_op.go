package ir

import (
	"io"
	"sort"
	"strconv"
)

// OpPrinter prints operations. Custom-form print hooks (OpDef.Print)
// receive one and use its methods to print operands, types, attributes and
// regions.
type OpPrinter struct {
	*AsmPrinter
	names          *ssaNames
	ctx            *Context
	indent         int
	defaultDialect []string
}

// Print writes op (usually a builtin.module) the way mlir-opt does: aliases
// that cannot be deferred first, then the op, then deferred location
// aliases, then the file's resources, then a blank line. With
// opts.LocalScope it writes only the op and a newline.
func Print(w io.Writer, op *Operation, opts PrintOptions) error {
	p := newOpPrinter(w, op, &opts)
	p.printTopLevel(op)
	p.flush()
	return p.err
}

// Sprint returns op printed with opts.
func Sprint(op *Operation, opts PrintOptions) string {
	var sb stringsBuilder
	_ = Print(&sb, op, opts)
	return string(sb)
}

type stringsBuilder []byte

func (b *stringsBuilder) Write(p []byte) (int, error) {
	*b = append(*b, p...)
	return len(p), nil
}

func newOpPrinter(w io.Writer, op *Operation, opts *PrintOptions) *OpPrinter {
	p := newOpPrinterNoAliases(w, op, opts)
	if !opts.LocalScope {
		p.aliases = newAliasState(opts)
		av := aliasVisitor{s: p.aliases, opts: opts}
		av.visitOp(op)
	}
	return p
}

// newOpPrinterNoAliases makes a printer that numbers the values of root
// and prints attributes and types in full.
func newOpPrinterNoAliases(w io.Writer, root *Operation, opts *PrintOptions) *OpPrinter {
	ap := &AsmPrinter{w: w, opts: opts, typeCache: map[Type]string{}}
	p := &OpPrinter{AsmPrinter: ap, ctx: root.Context(), defaultDialect: []string{"builtin"}}
	p.names = numberValues(root, opts.Generic || opts.UniqueSSAIDs, !opts.Generic, opts.PrintValueUsers)
	return p
}

func (p *OpPrinter) printTopLevel(op *Operation) {
	var named []*aliasInfo
	if p.aliases != nil {
		named = p.aliases.finish()
		for _, info := range named {
			if !info.deferred {
				p.printAliasDef(info)
			}
		}
	}
	p.printOp(op)
	p.printUsersComment(op)
	p.buf = append(p.buf, '\n')
	if p.opts.LocalScope {
		// MLIR prints a local-scope op alone: no alias section, no
		// resources and no blank line after it.
		return
	}
	for _, info := range named {
		if info.deferred {
			p.printAliasDef(info)
		}
	}
	p.printResources(op)
	p.buf = append(p.buf, '\n')
}

func (p *OpPrinter) printAliasDef(info *aliasInfo) {
	p.WriteString(info.full)
	p.WriteString(" = ")
	if info.isType {
		p.printTypeImpl(info.sym.(Type))
	} else {
		p.printAttrImpl(info.sym.(Attribute), elideNever)
	}
	p.buf = append(p.buf, '\n')
}

// PrintOp prints a single op (and its regions) without the file-level
// aliases and resources; used for diagnostics and IR dumps of nested ops.
//
// Values are named as they would be when printing the op's closest
// isolated-from-above ancestor (so an op inside a function refers to
// `%arg0` and `%3`, as MLIR's diagnostics do). Attributes and types are
// printed without aliases.
func PrintOp(w io.Writer, op *Operation, opts PrintOptions) error {
	// Values are numbered from the nearest isolated-from-above op, as MLIR
	// does for a local-scope print (and, but for unique ids, for any).
	root := op
	for root.ParentOp() != nil && !root.HasTrait(TraitIsolatedFromAbove) {
		root = root.ParentOp()
	}
	p := newOpPrinterNoAliases(w, root, &opts)
	p.printOp(op)
	p.printUsersComment(op)
	p.flush()
	return p.err
}

// printOp prints one op with its results and trailing location, at the
// current indentation.
func (p *OpPrinter) printOp(op *Operation) {
	if n := len(op.ress()); n > 0 {
		p.printValueName(&op.ress()[0], false)
		if n > 1 {
			p.buf = append(p.buf, ':')
			p.WriteInt(int64(n))
		}
		p.WriteString(" = ")
	}
	def := op.name.def
	if !p.opts.Generic && def != nil && def.Print != nil {
		p.printOpName(op)
		def.Print(p, op)
	} else {
		p.printGenericOp(op)
	}
	if p.opts.DebugInfo {
		p.buf = append(p.buf, ' ')
		p.printLocation(op.loc, true)
	}
	p.maybeFlush()
}

func (p *OpPrinter) printOpName(op *Operation) {
	name := op.name.name
	dd := p.defaultDialect[len(p.defaultDialect)-1]
	if d := op.name.dialect; d != "" && d == dd {
		rest := name[len(d)+1:]
		if !containsByte(rest, '.') {
			name = rest
		}
	}
	p.WriteString(name)
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

func (p *OpPrinter) printGenericOp(op *Operation) {
	p.PrintString(op.name.name)
	p.buf = append(p.buf, '(')
	for i := range op.opnds() {
		if i > 0 {
			p.WriteString(", ")
		}
		p.PrintOperand(op.opnds()[i].value)
	}
	p.buf = append(p.buf, ')')
	if len(op.succs()) > 0 {
		p.buf = append(p.buf, '[')
		for i := range op.succs() {
			if i > 0 {
				p.WriteString(", ")
			}
			p.PrintBlockName(op.succs()[i].block)
		}
		p.buf = append(p.buf, ']')
	}
	if props := op.storedProps(); props != nil {
		p.WriteString(" <")
		if !propsCountForAliases(op) {
			// MLIR does not consider properties of unregistered ops for
			// aliases, so print them without.
			saved := p.aliases
			p.aliases = nil
			p.printAttrElided(props, elideNever)
			p.aliases = saved
		} else {
			p.PrintAttr(props)
		}
		p.buf = append(p.buf, '>')
	}
	if len(op.regs()) > 0 {
		p.WriteString(" (")
		for i := range op.regs() {
			if i > 0 {
				p.WriteString(", ")
			}
			p.printRegion(&op.regs()[i], true, true, true)
		}
		p.buf = append(p.buf, ')')
	}
	p.PrintOptionalAttrDict(op.attrs)
	p.WriteString(" : ")
	p.buf = append(p.buf, '(')
	for i := range op.opnds() {
		if i > 0 {
			p.WriteString(", ")
		}
		p.PrintType(op.opnds()[i].value.typ)
	}
	p.WriteString(") -> ")
	if len(op.ress()) == 1 {
		if _, isFn := op.ress()[0].typ.(*FunctionType); !isFn {
			p.PrintType(op.ress()[0].typ)
			return
		}
	}
	p.buf = append(p.buf, '(')
	for i := range op.ress() {
		if i > 0 {
			p.WriteString(", ")
		}
		p.PrintType(op.ress()[i].typ)
	}
	p.buf = append(p.buf, ')')
}

// PrintOptionalAttrDict prints ` {a = 1, …}` unless d is empty, leaving out
// the elided names.
func (p *OpPrinter) PrintOptionalAttrDict(d *DictAttr, elided ...string) {
	if d != nil {
		p.printAttrDict(d.Entries, false, elided)
	}
}

// PrintOptionalAttrs prints ` {…}` with entries (sorted by name) unless
// empty: PrintOptionalAttrDict for attributes that are not in one
// dictionary, such as an op's properties and discardable attributes.
func (p *OpPrinter) PrintOptionalAttrs(entries []NamedAttr, elided ...string) {
	p.printAttrDict(entries, false, elided)
}

// PrintOptionalAttrDictWithKeyword prints ` attributes {…}` unless empty.
func (p *OpPrinter) PrintOptionalAttrDictWithKeyword(d *DictAttr, elided ...string) {
	if d != nil {
		p.printAttrDict(d.Entries, true, elided)
	}
}

func (p *OpPrinter) printAttrDict(entries []NamedAttr, keyword bool, elided []string) {
	first := true
	for _, e := range entries {
		skip := false
		for _, n := range elided {
			if n == e.Name {
				skip = true
				break
			}
		}
		if skip {
			continue
		}
		if first {
			if keyword {
				p.WriteString(" attributes")
			}
			p.WriteString(" {")
			first = false
		} else {
			p.WriteString(", ")
		}
		p.printNamedAttr(e)
	}
	if !first {
		p.buf = append(p.buf, '}')
	}
}

// PrintOperand prints a value's name (`%0`, `%arg1`, `%2#1`).
func (p *OpPrinter) PrintOperand(v *Value) { p.printValueName(v, true) }

// PrintOperands prints a comma-separated list of value names.
func (p *OpPrinter) PrintOperands(vs []*Value) {
	for i, v := range vs {
		if i > 0 {
			p.WriteString(", ")
		}
		p.PrintOperand(v)
	}
}

// PrintTypes prints a comma-separated list of types.
func (p *OpPrinter) PrintTypes(ts []Type) { p.printTypeList(ts) }

// PrintFunctionalType prints `(operand types) -> result types` for op.
func (p *OpPrinter) PrintFunctionalType(op *Operation) {
	p.buf = append(p.buf, '(')
	for i := range op.opnds() {
		if i > 0 {
			p.WriteString(", ")
		}
		p.PrintType(op.opnds()[i].value.typ)
	}
	p.WriteString(") -> ")
	p.printResultTypes(op.ResultTypes())
}

// PrintArrowTypeList prints ` -> T` or ` -> (T, U)` (nothing when empty).
func (p *OpPrinter) PrintArrowTypeList(ts []Type) {
	if len(ts) == 0 {
		return
	}
	p.WriteString(" -> ")
	p.printResultTypes(ts)
}

func (p *OpPrinter) printValueName(v *Value, withResultNo bool) {
	if v == nil {
		p.WriteString("<<NULL VALUE>>")
		return
	}
	p.names.print(p.AsmPrinter, v, withResultNo)
}

// PrintBlockName prints `^bbN`.
func (p *OpPrinter) PrintBlockName(b *Block) {
	if id, ok := p.names.blocks[b]; ok {
		p.WriteString("^bb")
		p.WriteInt(int64(id))
		return
	}
	p.WriteString("^INVALIDBLOCK")
}

// PrintNewline starts a new line at the current indentation.
func (p *OpPrinter) PrintNewline() {
	p.buf = append(p.buf, '\n')
	p.writeIndent(p.indent)
}

func (p *OpPrinter) writeIndent(n int) {
	for i := 0; i < n; i++ {
		p.buf = append(p.buf, ' ')
	}
}

// PrintRegionArgument prints an argument as `%name: type {attrs} loc(…)`
// (attributes and location only when present/enabled).
func (p *OpPrinter) PrintRegionArgument(v *Value, attrs *DictAttr) {
	if p.rec != nil {
		p.rec.s.visitType(v.typ, false)
		if p.opts.DebugInfo && v.argBlock() != nil {
			p.rec.s.visitAttr(v.argBlock().printedArgLoc(int(v.index)), false, false)
		}
		return
	}
	p.PrintOperand(v)
	p.WriteString(": ")
	p.PrintType(v.typ)
	if attrs.Len() > 0 {
		p.PrintOptionalAttrDict(attrs)
	}
	if p.opts.DebugInfo && v.argBlock() != nil {
		p.buf = append(p.buf, ' ')
		// MLIR prints argument locations inline (its alias, if any, is
		// still defined at the top).
		p.printLocation(v.argBlock().printedArgLoc(int(v.index)), false)
	}
}

// PrintRegion prints a region in braces. printEntryArgs prints the entry
// block's header when it has arguments; printTerminators prints block
// terminators.
func (p *OpPrinter) PrintRegion(r *Region, printEntryArgs, printTerminators bool) {
	if p.rec != nil {
		if !p.opts.SkipRegions {
			p.rec.visitRegion(r, printEntryArgs, printTerminators)
		}
		return
	}
	p.printRegion(r, printEntryArgs, printTerminators, false)
}

func (p *OpPrinter) printRegion(r *Region, printEntryArgs, printTerminators, printEmptyBlock bool) {
	if p.opts.SkipRegions {
		p.WriteString("{...}")
		return
	}
	p.WriteString("{\n")
	if r.first != nil {
		pushed := false
		// As in MLIR's printer, an op's regions use its default dialect,
		// and ops that declare none (unregistered ones included) reset it.
		if !p.opts.Generic {
			dd := ""
			if def := r.parent.name.def; def != nil {
				dd = def.DefaultDialect
			}
			p.defaultDialect = append(p.defaultDialect, dd)
			pushed = true
		}
		preds := predecessors(r)
		entry := r.first
		header := (printEmptyBlock && entry.first == nil) || (printEntryArgs && len(entry.args) > 0)
		p.printBlock(entry, header, printTerminators, preds)
		for b := entry.next; b != nil; b = b.next {
			p.printBlock(b, true, true, preds)
		}
		if pushed {
			p.defaultDialect = p.defaultDialect[:len(p.defaultDialect)-1]
		}
	}
	p.writeIndent(p.indent)
	p.buf = append(p.buf, '}')
}

func predecessors(r *Region) map[*Block][]*Block {
	var preds map[*Block][]*Block
	for b := r.first; b != nil; b = b.next {
		if t := b.last; t != nil {
			for i := range t.succs() {
				if preds == nil {
					preds = map[*Block][]*Block{}
				}
				s := t.succs()[i].block
				preds[s] = append(preds[s], b)
			}
		}
	}
	return preds
}

func (p *OpPrinter) printBlock(b *Block, header, printTerminator bool, preds map[*Block][]*Block) {
	if header {
		p.writeIndent(p.indent)
		p.PrintBlockName(b)
		if len(b.args) > 0 {
			p.buf = append(p.buf, '(')
			for i, a := range b.args {
				if i > 0 {
					p.WriteString(", ")
				}
				p.PrintOperand(a)
				p.WriteString(": ")
				p.PrintType(a.typ)
				if p.opts.DebugInfo {
					p.buf = append(p.buf, ' ')
					p.printLocation(b.printedArgLoc(i), false)
				}
			}
			p.buf = append(p.buf, ')')
		}
		p.buf = append(p.buf, ':')
		ps := preds[b]
		switch {
		case len(ps) == 0:
			if !b.IsEntryBlock() {
				p.WriteString("  // no predecessors")
			}
		case len(ps) == 1:
			p.WriteString("  // pred: ")
			p.PrintBlockName(ps[0])
		default:
			ids := make([]int, len(ps))
			for i, pb := range ps {
				ids[i] = p.names.blocks[pb]
			}
			sort.Ints(ids)
			p.WriteString("  // ")
			p.WriteInt(int64(len(ids)))
			p.WriteString(" preds: ")
			for i, id := range ids {
				if i > 0 {
					p.WriteString(", ")
				}
				p.WriteString("^bb")
				p.WriteInt(int64(id))
			}
		}
		p.buf = append(p.buf, '\n')
	}
	p.indent += 2
	if p.opts.PrintValueUsers {
		for _, a := range b.args {
			p.writeIndent(p.indent)
			p.WriteString("// ")
			p.PrintOperand(a)
			if a.uses == nil {
				p.WriteString(" is unused")
			} else {
				p.WriteString(" is used by ")
				p.printValueUsers(a)
			}
			p.buf = append(p.buf, '\n')
		}
	}
	last := b.last
	if !printTerminator && last != nil && last.HasTrait(TraitTerminator) {
		last = last.prev
		if last == nil {
			p.indent -= 2
			return
		}
	} else {
		last = nil
	}
	for op := b.first; op != nil; op = op.next {
		p.writeIndent(p.indent)
		p.printOp(op)
		p.printUsersComment(op)
		p.buf = append(p.buf, '\n')
		if op == last {
			break
		}
	}
	p.indent -= 2
}

// ssaNames assigns printed names to values and blocks.
type ssaNames struct {
	// Op results are numbered in Operation.printID; these maps hold the
	// rest: block arguments, suggested names and blocks.
	ids    map[*Value]int32 // non-entry block arguments
	named  map[*Value]string
	args   map[*Value]int32 // entry block arguments (%argN)
	blocks map[*Block]int
	// root is the numbered op. When it is nested in other IR, ops outside
	// it carry stale printIDs, so uses are checked to be inside root.
	root       *Operation
	checkScope bool
}

func (n *ssaNames) print(p *AsmPrinter, v *Value, withResultNo bool) {
	lead := v
	if v.defOp() != nil && v.index != 0 {
		lead = &v.defOp().ress()[0]
	}
	if id, ok := n.args[v]; ok {
		p.WriteString("%arg")
		p.WriteInt(int64(id))
		return
	}
	if s, ok := n.named[lead]; ok {
		p.buf = append(p.buf, '%')
		p.WriteString(s)
	} else if id, ok := n.ids[lead]; ok {
		p.buf = append(p.buf, '%')
		p.WriteInt(int64(id))
	} else if def := lead.defOp(); def != nil && (!n.checkScope || n.root.IsAncestor(def)) {
		p.buf = append(p.buf, '%')
		p.WriteInt(int64(def.printID))
	} else {
		p.WriteString("<<UNKNOWN SSA VALUE>>")
		return
	}
	if withResultNo && v.defOp() != nil && len(v.defOp().ress()) > 1 {
		p.buf = append(p.buf, '#')
		p.WriteInt(int64(v.index))
	}
}

type nameCounters struct {
	value, arg, conflict int32
}

// numberValues numbers the values of op's regions like MLIR's SSANameState:
// regions are processed depth first from a stack; a region's block
// arguments and op results are numbered before its nested regions. With
// unique IDs the counters run on across regions; otherwise each nested
// region starts from the counters in effect when its parent was numbered,
// so isolated functions start again at %0.
// numberValues names the values printed under op: with unique, numbers
// run on across isolated regions (generic form, --mlir-print-unique-ssa-ids);
// with suggested, ops' suggested result names are used (custom form, even
// with unique ids, as in MLIR); with opIDs, ops without results get ids
// too (--mlir-print-value-users).
func numberValues(op *Operation, unique, suggested, opIDs bool) *ssaNames {
	nargs, nblocks := 0, 0
	op.Walk(func(o *Operation) {
		for _, r := range o.regs() {
			for b := r.first; b != nil; b = b.next {
				nblocks++
				nargs += len(b.args)
			}
		}
	})
	n := &ssaNames{
		ids:        map[*Value]int32{},
		args:       make(map[*Value]int32, nargs),
		blocks:     make(map[*Block]int, nblocks),
		root:       op,
		checkScope: op.ParentOp() != nil,
	}
	var c nameCounters
	// The root's own results come first, so a printed op that is not in a
	// region still names them.
	if len(op.ress()) > 0 {
		op.printID = c.value
		c.value++
	}
	type item struct {
		r    *Region
		c    nameCounters
		used *usedNames
	}
	root := &usedNames{}
	var stack []item
	// Like MLIR, regions are pushed in order and popped from the end, so
	// the last region (and the last function of a module) is numbered
	// first.
	for i := range op.regs() {
		stack = append(stack, item{&op.regs()[i], c, root})
	}
	// With value users shown, ops without results get an id from the same
	// counter (after the root's regions took theirs, as in MLIR).
	if opIDs && len(op.ress()) == 0 {
		op.printID = c.value
		c.value++
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !unique {
			c = it.c
		}
		scope := &usedNames{parent: it.used}
		r := it.r
		bid := 0
		for b := r.first; b != nil; b = b.next {
			n.blocks[b] = bid
			bid++
			entry := b == r.first
			for _, a := range b.args {
				if entry {
					n.args[a] = c.arg
					c.arg++
				} else {
					n.ids[a] = c.value
					c.value++
				}
			}
			for o := b.first; o != nil; o = o.next {
				if len(o.ress()) == 0 {
					if opIDs {
						o.printID = c.value
						c.value++
					}
					continue
				}
				if def := o.name.def; def != nil && def.ResultNames != nil && suggested {
					if names := def.ResultNames(o); len(names) > 0 && names[0] != "" {
						if n.named == nil {
							n.named = map[*Value]string{}
						}
						n.named[&o.ress()[0]] = scope.unique(names[0], &c.conflict)
						continue
					}
				}
				o.printID = c.value
				c.value++
			}
		}
		for b := r.first; b != nil; b = b.next {
			for o := b.first; o != nil; o = o.next {
				for i := range o.regs() {
					stack = append(stack, item{&o.regs()[i], c, scope})
				}
			}
		}
	}
	return n
}

type usedNames struct {
	parent *usedNames
	names  map[string]bool
}

func (u *usedNames) has(s string) bool {
	for x := u; x != nil; x = x.parent {
		if x.names[s] {
			return true
		}
	}
	return false
}

func (u *usedNames) unique(base string, conflict *int32) string {
	base = sanitizeValueName(base)
	name := base
	if u.has(base) {
		// MLIR probes base_N with a counter shared by all names.
		for {
			name = base + "_" + strconv.Itoa(int(*conflict))
			*conflict++
			if !u.has(name) {
				break
			}
		}
	}
	if u.names == nil {
		u.names = map[string]bool{}
	}
	u.names[name] = true
	return name
}

// sanitizeValueName makes a suggested result name a valid identifier: a
// leading digit gets a `_` prefix and characters other than letters,
// digits and `$._-` become their hex code.
func sanitizeValueName(name string) string {
	valid := func(c byte) bool {
		return isAlpha(c) || isDigit(c) || c == '$' || c == '.' || c == '_' || c == '-'
	}
	ok := !isDigit(name[0])
	for i := 0; i < len(name) && ok; i++ {
		ok = valid(name[i])
	}
	if ok {
		return name
	}
	var b []byte
	if isDigit(name[0]) {
		b = append(b, '_')
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case valid(c):
			b = append(b, c)
		case c == ' ':
			b = append(b, '_')
		default:
			b = append(b, []byte(strconv.FormatUint(uint64(c), 16))...)
		}
	}
	return string(b)
}

// printUsersComment ends an op's line with MLIR's value-users comment:
// `// id: %N` for an op without results (that has operands), `// unused`,
// or `// user(s): …` with each result's users.
func (p *OpPrinter) printUsersComment(op *Operation) {
	if !p.opts.PrintValueUsers {
		return
	}
	ress := op.ress()
	switch {
	case len(ress) == 0:
		if len(op.opnds()) > 0 {
			p.WriteString(" // id: ")
			p.printOpID(op)
		}
		return
	case !resultsUsed(ress):
		p.WriteString(" // unused")
		return
	}
	// "user" when the op has one result read by one op with at most one
	// result.
	seen := map[*Operation]bool{}
	usedInResults, usedInOps := 0, 0
	for i := range ress {
		for u := ress[i].uses; u != nil; u = u.next {
			if !seen[u.owner] {
				seen[u.owner] = true
				usedInOps++
				usedInResults += len(u.owner.ress())
			}
		}
	}
	if usedInResults <= 1 && usedInOps <= 1 && len(ress) == 1 {
		p.WriteString(" // user: ")
	} else {
		p.WriteString(" // users: ")
	}
	for i := range ress {
		if i > 0 {
			p.WriteString(", ")
		}
		if len(ress) > 1 {
			p.buf = append(p.buf, '(')
		}
		p.printValueUsers(&ress[i])
		if len(ress) > 1 {
			p.buf = append(p.buf, ')')
		}
	}
}

// printValueUsers lists the ops that use v, in use-list order, each once:
// its results, or its id when it has none. Like MLIR, the separator
// depends on the use's position, not on what was printed.
func (p *OpPrinter) printValueUsers(v *Value) {
	if v.uses == nil {
		p.WriteString("unused")
	}
	seen := map[*Operation]bool{}
	index := 0
	for u := v.uses; u != nil; u = u.next {
		if !seen[u.owner] {
			seen[u.owner] = true
			if index != 0 {
				p.WriteString(", ")
			}
			if rs := u.owner.ress(); len(rs) == 0 {
				p.printOpID(u.owner)
			} else {
				for i := range rs {
					if i > 0 {
						p.WriteString(", ")
					}
					p.printValueName(&rs[i], true)
				}
			}
		}
		index++
	}
}

// printOpID prints the id numberValues gave an op without results.
func (p *OpPrinter) printOpID(op *Operation) {
	p.buf = append(p.buf, '%')
	p.WriteInt(int64(op.printID))
}

func resultsUsed(ress []Value) bool {
	for i := range ress {
		if ress[i].uses != nil {
			return true
		}
	}
	return false
}

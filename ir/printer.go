package ir

import (
	"io"
	"math/big"
	"strconv"
)

// PrintOptions select how IR is printed. The zero value prints the custom
// form without locations, like mlir-opt with no printing flags.
type PrintOptions struct {
	// Generic prints every op in the generic form (--mlir-print-op-generic).
	Generic bool
	// DebugInfo prints locations (--mlir-print-debuginfo).
	DebugInfo bool
	// PrettyDebugInfo prints locations without `loc(…)`, in MLIR's
	// readable (not parseable) form (--mlir-pretty-debuginfo).
	PrettyDebugInfo bool
	// LocalScope prints without aliases and without numbering outside the
	// printed op (--mlir-print-local-scope).
	LocalScope bool
	// ElideElementsAttrsIfLarger elides elements attributes (not splats)
	// with more elements than this as `dense_resource<__elided__>`; 0
	// disables it unless ElideElementsAttrs is set
	// (--mlir-elide-elementsattrs-if-larger=0 elides every one).
	ElideElementsAttrsIfLarger int64
	ElideElementsAttrs         bool
	// HexIfLarger prints dense attributes with more elements than this as a
	// hex string; 0 means MLIR's default (100), a negative value never.
	HexIfLarger int64
	// SkipRegions prints `{...}` for regions.
	SkipRegions bool
	// UniqueSSAIDs numbers values across isolated regions too (implied by
	// Generic, as in MLIR).
	UniqueSSAIDs bool
	// ExternalResources are printed in the file's `external_resources`
	// section after a top-level op, as parsed (asm.File.External): mlir-opt
	// writes back the external resources no one consumed.
	ExternalResources []ResourceGroup
	// PrintValueUsers adds comments naming the users of every value, as
	// --mlir-print-value-users does; ops without results get an id.
	PrintValueUsers bool
	// ElideResourceStrings leaves out of the resource section every entry
	// whose printed value is longer than ResourceStringLimit characters
	// (--mlir-elide-resource-strings-if-larger).
	ElideResourceStrings bool
	ResourceStringLimit  int
}

func (o *PrintOptions) hexLimit() int64 {
	switch {
	case o.HexIfLarger == 0:
		return 100
	case o.HexIfLarger < 0:
		return -1
	}
	return o.HexIfLarger
}

// AsmPrinter prints types and attributes, substituting aliases when a
// printing session has chosen them. Dialect types and attributes receive an
// AsmPrinter in their PrintBody hooks.
type AsmPrinter struct {
	buf     []byte
	w       io.Writer
	err     error
	opts    *PrintOptions
	aliases *aliasState
	// typeCache holds the printed form of types (aliases included); types
	// are uniqued and print the same way throughout one session.
	typeCache map[Type]string
	distinct  *distinctState
	// rec, when set, makes the printer record what it would print for
	// alias selection instead of printing.
	rec *aliasVisitor
}

func newPlainPrinter(w io.Writer) *AsmPrinter {
	return &AsmPrinter{w: w, opts: &PrintOptions{HexIfLarger: -1}}
}

const flushThreshold = 64 << 10

func (p *AsmPrinter) maybeFlush() {
	if len(p.buf) >= flushThreshold {
		p.flush()
	}
}

func (p *AsmPrinter) flush() {
	if len(p.buf) == 0 || p.w == nil {
		return
	}
	if p.err == nil {
		_, p.err = p.w.Write(p.buf)
	}
	p.buf = p.buf[:0]
}

// WriteString writes raw text.
func (p *AsmPrinter) WriteString(s string) { p.buf = append(p.buf, s...) }

// WriteByte writes one byte.
func (p *AsmPrinter) WriteByte(c byte) error {
	p.buf = append(p.buf, c)
	return nil
}

// WriteInt writes a decimal integer.
func (p *AsmPrinter) WriteInt(v int64) { p.buf = strconv.AppendInt(p.buf, v, 10) }

// PrintString writes s as a quoted string with MLIR's escapes.
func (p *AsmPrinter) PrintString(s string) { p.buf = appendQuoted(p.buf, s) }

// appendQuoted appends s as a string literal.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendEscaped(b, s)
	return append(b, '"')
}

// appendEscaped escapes like llvm::printEscapedString: backslash doubled,
// printable ASCII other than '"' as is, everything else as \XX.
func appendEscaped(b []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			b = append(b, '\\', '\\')
		case c >= 0x20 && c <= 0x7E && c != '"':
			b = append(b, c)
		default:
			b = append(b, '\\', hex[c>>4], hex[c&15])
		}
	}
	return b
}

// IsBareIdentifier reports whether s can be printed without quotes as an
// attribute name or symbol.
func IsBareIdentifier(s string) bool {
	if s == "" || !(isAlpha(s[0]) || s[0] == '_') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(isAlpha(c) || isDigit(c) || c == '_' || c == '$' || c == '.') {
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// PrintKeywordOrString prints s bare when it is an identifier, else quoted.
func (p *AsmPrinter) PrintKeywordOrString(s string) {
	if IsBareIdentifier(s) {
		p.WriteString(s)
		return
	}
	p.PrintString(s)
}

// PrintSymbolName prints `@name`.
func (p *AsmPrinter) PrintSymbolName(s string) {
	if s == "" {
		p.WriteString("@<<INVALID EMPTY SYMBOL>>")
		return
	}
	p.buf = append(p.buf, '@')
	p.PrintKeywordOrString(s)
}

// PrintType prints a type, using its alias when one was chosen.
func (p *AsmPrinter) PrintType(t Type) {
	if p.rec != nil {
		if t != nil {
			p.rec.s.visitType(t, false)
		}
		return
	}
	if t == nil {
		p.WriteString("<<NULL TYPE>>")
		return
	}
	if p.typeCache != nil {
		if s, ok := p.typeCache[t]; ok {
			p.WriteString(s)
			return
		}
		start := len(p.buf)
		p.printTypeMaybeAlias(t)
		p.typeCache[t] = string(p.buf[start:])
		return
	}
	p.printTypeMaybeAlias(t)
}

func (p *AsmPrinter) printTypeMaybeAlias(t Type) {
	if p.aliases != nil && p.aliases.printAlias(p, t, nil) {
		return
	}
	p.printTypeImpl(t)
}

func (p *AsmPrinter) printTypeImpl(t Type) {
	switch t := t.(type) {
	case *IntegerType:
		switch t.Signedness {
		case Signed:
			p.buf = append(p.buf, 's')
		case Unsigned:
			p.buf = append(p.buf, 'u')
		}
		p.buf = append(p.buf, 'i')
		p.WriteInt(int64(t.Width))
	case *IndexType:
		p.WriteString("index")
	case *NoneType:
		p.WriteString("none")
	case *FloatType:
		p.WriteString(t.Sem.Name)
	case *ComplexType:
		p.WriteString("complex<")
		p.PrintType(t.Elem)
		p.buf = append(p.buf, '>')
	case *TupleType:
		p.WriteString("tuple<")
		for i, e := range t.Types {
			if i > 0 {
				p.WriteString(", ")
			}
			p.PrintType(e)
		}
		p.buf = append(p.buf, '>')
	case *FunctionType:
		p.buf = append(p.buf, '(')
		p.printTypeList(t.Inputs)
		p.WriteString(") -> ")
		p.printResultTypes(t.Results)
	case *VectorType:
		p.WriteString("vector<")
		for i, d := range t.Shape {
			sc := i < len(t.Scalable) && t.Scalable[i]
			if sc {
				p.buf = append(p.buf, '[')
			}
			p.WriteInt(d)
			if sc {
				p.buf = append(p.buf, ']')
			}
			p.buf = append(p.buf, 'x')
		}
		p.PrintType(t.Elem)
		p.buf = append(p.buf, '>')
	case *RankedTensorType:
		p.WriteString("tensor<")
		p.printDims(t.Shape)
		p.PrintType(t.Elem)
		if t.Encoding != nil {
			p.WriteString(", ")
			p.PrintAttr(t.Encoding)
		}
		p.buf = append(p.buf, '>')
	case *UnrankedTensorType:
		p.WriteString("tensor<*x")
		p.PrintType(t.Elem)
		p.buf = append(p.buf, '>')
	case *MemRefType:
		p.WriteString("memref<")
		p.printDims(t.Shape)
		p.PrintType(t.Elem)
		if t.Layout != nil {
			p.WriteString(", ")
			p.printAttrElided(t.Layout, elideMay)
		}
		if t.MemorySpace != nil {
			p.WriteString(", ")
			p.printAttrElided(t.MemorySpace, elideMay)
		}
		p.buf = append(p.buf, '>')
	case *UnrankedMemRefType:
		p.WriteString("memref<*x")
		p.PrintType(t.Elem)
		if t.MemorySpace != nil {
			p.WriteString(", ")
			p.printAttrElided(t.MemorySpace, elideMay)
		}
		p.buf = append(p.buf, '>')
	case *OpaqueType:
		p.printDialectSymbol('!', t.Dialect, t.Data)
	case DialectType:
		p.buf = append(p.buf, '!')
		p.WriteString(t.DialectNamespace())
		p.buf = append(p.buf, '.')
		t.PrintBody(p)
	default:
		p.WriteString("<<UNKNOWN TYPE>>")
	}
}

func (p *AsmPrinter) printDims(shape []int64) {
	for _, d := range shape {
		if d == Dynamic {
			p.buf = append(p.buf, '?')
		} else {
			p.WriteInt(d)
		}
		p.buf = append(p.buf, 'x')
	}
}

func (p *AsmPrinter) printTypeList(ts []Type) {
	for i, t := range ts {
		if i > 0 {
			p.WriteString(", ")
		}
		p.PrintType(t)
	}
}

// printResultTypes prints a single non-function type bare, else a
// parenthesized list.
func (p *AsmPrinter) printResultTypes(ts []Type) {
	if len(ts) == 1 {
		if _, isFn := ts[0].(*FunctionType); !isFn {
			p.PrintType(ts[0])
			return
		}
	}
	p.buf = append(p.buf, '(')
	p.printTypeList(ts)
	p.buf = append(p.buf, ')')
}

// printDialectSymbol prints `!dialect.body` when the body is simple enough,
// else `!dialect<body>`.
func (p *AsmPrinter) printDialectSymbol(prefix byte, dialect, body string) {
	p.buf = append(p.buf, prefix)
	p.WriteString(dialect)
	if dialectSymbolIsPretty(body) {
		p.buf = append(p.buf, '.')
		p.WriteString(body)
		return
	}
	p.buf = append(p.buf, '<')
	p.WriteString(body)
	p.buf = append(p.buf, '>')
}

func dialectSymbolIsPretty(s string) bool {
	if s == "" || !isAlpha(s[0]) {
		return false
	}
	i := 0
	for i < len(s) && (isAlpha(s[i]) || isDigit(s[i]) || s[i] == '.' || s[i] == '_') {
		i++
	}
	if i == len(s) {
		return true
	}
	return s[i] == '<' && s[len(s)-1] == '>'
}

type typeElision uint8

const (
	elideNever typeElision = iota
	elideMay
	elideMust
)

// PrintAttr prints an attribute with its type, using aliases.
func (p *AsmPrinter) PrintAttr(a Attribute) { p.printAttrElided(a, elideNever) }

// PrintAttrWithoutType prints an attribute, omitting its type suffix.
func (p *AsmPrinter) PrintAttrWithoutType(a Attribute) { p.printAttrElided(a, elideMust) }

func (p *AsmPrinter) printAttrElided(a Attribute, el typeElision) {
	if p.rec != nil {
		if a != nil {
			p.rec.s.visitAttr(a, false, el == elideMust)
		}
		return
	}
	if a == nil {
		p.WriteString("<<NULL ATTRIBUTE>>")
		return
	}
	if p.aliases != nil && p.aliases.printAlias(p, nil, a) {
		return
	}
	p.printAttrImpl(a, el)
}

func (p *AsmPrinter) printAttrImpl(a Attribute, el typeElision) {
	var typ Type
	switch a := a.(type) {
	case *OpaqueAttr:
		p.printDialectSymbol('#', a.Dialect, a.Data)
		typ = a.Type
	case *UnitAttr:
		p.WriteString("unit")
		return
	case *DistinctAttr:
		p.WriteString("distinct[")
		p.WriteInt(int64(p.distinctID(a)))
		p.WriteString("]<")
		if _, unit := a.Referenced.(*UnitAttr); !unit {
			p.PrintAttr(a.Referenced)
		}
		p.buf = append(p.buf, '>')
		return
	case *DictAttr:
		p.buf = append(p.buf, '{')
		for i, e := range a.Entries {
			if i > 0 {
				p.WriteString(", ")
			}
			p.printNamedAttr(e)
		}
		p.buf = append(p.buf, '}')
	case *IntegerAttr:
		if it, ok := a.Type.(*IntegerType); ok && it.Width == 1 && it.Signedness == Signless {
			if a.Value != 0 {
				p.WriteString("true")
			} else {
				p.WriteString("false")
			}
			return
		}
		p.printIntValue(a)
		if el == elideMay {
			if it, ok := a.Type.(*IntegerType); ok && it.Width == 64 && it.Signedness == Signless {
				return
			}
		}
		typ = a.Type
	case *FloatAttr:
		s, hex := a.text()
		p.WriteString(s)
		if el == elideMay && a.Type.Sem == semF64 && !hex {
			return
		}
		typ = a.Type
	case *StringAttr:
		p.PrintString(a.Value)
		typ = a.Type
	case *ArrayAttr:
		p.buf = append(p.buf, '[')
		for i, e := range a.Elems {
			if i > 0 {
				p.WriteString(", ")
			}
			p.printAttrElided(e, elideMay)
		}
		p.buf = append(p.buf, ']')
	case *TypeAttr:
		p.PrintType(a.Value)
	case *SymbolRefAttr:
		p.PrintSymbolName(a.Root)
		for _, n := range a.Nested {
			p.WriteString("::")
			p.PrintSymbolName(n)
		}
	case *DenseElementsAttr:
		if !a.Splat && p.shouldElide(a.NumElements()) {
			p.WriteString("dense_resource<__elided__>")
		} else {
			p.WriteString("dense<")
			p.printDense(a, true)
			p.buf = append(p.buf, '>')
		}
		typ = a.Type
	case *DenseStringElementsAttr:
		if !a.Splat && p.shouldElide(NumElements(a.Type)) {
			p.WriteString("dense_resource<__elided__>")
		} else {
			p.WriteString("dense<")
			p.printDenseStrings(a)
			p.buf = append(p.buf, '>')
		}
		typ = a.Type
	case *SparseElementsAttr:
		typ = a.Type
		if p.elideElements(a.Indices) || p.elideElements(a.Values) {
			p.WriteString("dense_resource<__elided__>")
			break
		}
		p.WriteString("sparse<")
		if idx, ok := a.Indices.(*DenseElementsAttr); ok && idx.NumElements() != 0 {
			p.printDense(idx, false)
			p.WriteString(", ")
			switch v := a.Values.(type) {
			case *DenseElementsAttr:
				p.printDense(v, true)
			case *DenseStringElementsAttr:
				p.printDenseStrings(v)
			}
		}
		p.buf = append(p.buf, '>')
		typ = a.Type
	case *StridedLayoutAttr:
		p.WriteString("strided<[")
		for i, s := range a.Strides {
			if i > 0 {
				p.WriteString(", ")
			}
			p.printIntOrQuestion(s)
		}
		p.buf = append(p.buf, ']')
		if a.Offset != 0 {
			p.WriteString(", offset: ")
			p.printIntOrQuestion(a.Offset)
		}
		p.buf = append(p.buf, '>')
		return
	case *DenseArrayAttr:
		p.WriteString("array<")
		p.PrintType(a.Elem)
		if a.Len() > 0 {
			p.WriteString(": ")
			p.printDenseArray(a)
		}
		p.buf = append(p.buf, '>')
		return
	case *DenseResourceElementsAttr:
		p.WriteString("dense_resource<")
		p.PrintKeywordOrString(a.Handle)
		p.buf = append(p.buf, '>')
		typ = a.Type
	case Location:
		p.printLocation(a, false)
		return
	case DialectAttr:
		p.buf = append(p.buf, '#')
		p.WriteString(a.DialectNamespace())
		p.buf = append(p.buf, '.')
		a.PrintBody(p)
		return
	default:
		if p.printExtraAttr(a) {
			return
		}
		p.WriteString("<<UNKNOWN ATTRIBUTE>>")
		return
	}
	if el != elideMust && typ != nil {
		if _, none := typ.(*NoneType); !none {
			p.WriteString(" : ")
			p.PrintType(typ)
		}
	}
}

func (p *AsmPrinter) printIntOrQuestion(v int64) {
	if v == Dynamic {
		p.buf = append(p.buf, '?')
		return
	}
	p.WriteInt(v)
}

func (p *AsmPrinter) printIntValue(a *IntegerAttr) {
	if a.Big != nil {
		p.WriteString(a.Big.String())
		return
	}
	if it, ok := a.Type.(*IntegerType); ok && it.Signedness == Unsigned && it.Width == 64 {
		p.buf = strconv.AppendUint(p.buf, uint64(a.Value), 10)
		return
	}
	p.WriteInt(a.Value)
}

func (p *AsmPrinter) printNamedAttr(e NamedAttr) {
	p.PrintKeywordOrString(e.Name)
	if _, unit := e.Value.(*UnitAttr); unit {
		return
	}
	p.WriteString(" = ")
	p.PrintAttr(e.Value)
}

// elideElements reports whether the indices or values of a sparse
// attribute make it print elided.
func (p *AsmPrinter) elideElements(a Attribute) bool {
	switch x := a.(type) {
	case *DenseElementsAttr:
		return !x.Splat && p.shouldElide(x.NumElements())
	case *DenseStringElementsAttr:
		return !x.Splat && p.shouldElide(NumElements(x.Type))
	}
	return false
}

// shouldElide reports whether an elements attribute of n elements that is
// not a splat prints elided (MLIR never elides splats).
func (p *AsmPrinter) shouldElide(n int64) bool {
	lim := p.opts.ElideElementsAttrsIfLarger
	return (p.opts.ElideElementsAttrs || lim > 0) && n > lim
}

func (p *AsmPrinter) printDense(a *DenseElementsAttr, allowHex bool) {
	if allowHex && !a.Splat {
		if lim := p.opts.hexLimit(); lim >= 0 && a.NumElements() > lim {
			p.printHex(a.data)
			return
		}
	}
	et := a.Type.ElementType()
	var fn func(i int64)
	switch t := et.(type) {
	case *ComplexType:
		if ft, ok := t.Elem.(*FloatType); ok {
			fn = func(i int64) {
				p.buf = append(p.buf, '(')
				s, _ := formatFloatMLIR(a.floatAt(i, 0, ft.Sem))
				p.WriteString(s)
				p.buf = append(p.buf, ',')
				s, _ = formatFloatMLIR(a.floatAt(i, 1, ft.Sem))
				p.WriteString(s)
				p.buf = append(p.buf, ')')
			}
		} else {
			it := t.Elem.(*IntegerType)
			fn = func(i int64) {
				p.buf = append(p.buf, '(')
				p.printDenseIntScalar(a, i, 0, it)
				p.buf = append(p.buf, ',')
				p.printDenseIntScalar(a, i, 1, it)
				p.buf = append(p.buf, ')')
			}
		}
	case *FloatType:
		fn = func(i int64) {
			s, _ := formatFloatMLIR(a.floatAt(i, 0, t.Sem))
			p.WriteString(s)
		}
	case *IntegerType:
		fn = func(i int64) { p.printDenseIntScalar(a, i, 0, t) }
	default: // index
		fn = func(i int64) { p.WriteInt(a.IntAt(i)) }
	}
	p.printDenseStructure(a.Splat, a.Type, fn)
}

func (p *AsmPrinter) printDenseIntScalar(a *DenseElementsAttr, i int64, k int, it *IntegerType) {
	off := a.elemOffset(i, k)
	sb := ElemBytes(it)
	v := readBits(a.data[off:off+sb], it.Width)
	if it.Width == 1 {
		if v.Sign() != 0 {
			p.WriteString("true")
		} else {
			p.WriteString("false")
		}
		return
	}
	if it.Signedness != Unsigned && v.Bit(it.Width-1) == 1 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(it.Width)))
	}
	p.buf = v.Append(p.buf, 10)
}

func (p *AsmPrinter) printDenseStrings(a *DenseStringElementsAttr) {
	p.printDenseStructure(a.Splat, a.Type, func(i int64) {
		if a.Splat {
			i = 0
		}
		p.PrintString(a.Values[i])
	})
}

// printDenseStructure prints nested brackets following the shape, calling
// fn for each element.
func (p *AsmPrinter) printDenseStructure(splat bool, t ShapedType, fn func(int64)) {
	if splat {
		fn(0)
		return
	}
	n := NumElements(t)
	if n <= 0 {
		return
	}
	shape := t.Dims()
	rank := len(shape)
	counter := make([]int64, rank)
	open := 0
	for idx := int64(0); idx < n; idx++ {
		if idx != 0 {
			p.WriteString(", ")
		}
		for open < rank {
			p.buf = append(p.buf, '[')
			open++
		}
		fn(idx)
		if rank > 0 {
			counter[rank-1]++
			for i := rank - 1; i > 0; i-- {
				if counter[i] >= shape[i] {
					counter[i] = 0
					counter[i-1]++
					open--
					p.buf = append(p.buf, ']')
				}
			}
		}
		p.maybeFlush()
	}
	for ; open > 0; open-- {
		p.buf = append(p.buf, ']')
	}
}

func (p *AsmPrinter) printHex(data []byte) {
	const hex = "0123456789ABCDEF"
	p.WriteString("\"0x")
	for _, c := range data {
		p.buf = append(p.buf, hex[c>>4], hex[c&15])
	}
	p.buf = append(p.buf, '"')
}

func (p *AsmPrinter) printDenseArray(a *DenseArrayAttr) {
	if a.Floats != nil {
		for i, f := range a.Floats {
			if i > 0 {
				p.WriteString(", ")
			}
			s, _ := formatFloatMLIR(f)
			p.WriteString(s)
		}
		return
	}
	it, _ := a.Elem.(*IntegerType)
	for i, v := range a.Ints {
		if i > 0 {
			p.WriteString(", ")
		}
		if it != nil && it.Width == 1 {
			if v != 0 {
				p.WriteString("true")
			} else {
				p.WriteString("false")
			}
			continue
		}
		p.WriteInt(v)
	}
}

// printLocation prints `loc(…)`; nested locations may use aliases.
func (p *AsmPrinter) printLocation(l Location, allowAlias bool) {
	if p.opts.PrettyDebugInfo {
		p.printLocationInternal(l, true)
		return
	}
	p.WriteString("loc(")
	if !(allowAlias && p.aliases != nil && p.aliases.printAlias(p, nil, l)) {
		p.printLocationInternal(l, true)
	}
	p.buf = append(p.buf, ')')
}

func (p *AsmPrinter) printLocationInternal(l Location, top bool) {
	if !top && p.aliases != nil && p.aliases.printAlias(p, nil, l) {
		return
	}
	pretty := p.opts.PrettyDebugInfo
	switch l := l.(type) {
	case *UnknownLoc:
		if pretty {
			p.WriteString("[unknown]")
		} else {
			p.WriteString("unknown")
		}
	case *FileLineColLoc:
		if pretty {
			p.WriteString(l.File)
		} else {
			p.PrintString(l.File)
		}
		p.buf = append(p.buf, ':')
		p.WriteInt(int64(l.Line))
		p.buf = append(p.buf, ':')
		p.WriteInt(int64(l.Col))
	case *NameLoc:
		p.PrintString(l.Name)
		if l.Child != nil {
			if _, unk := l.Child.(*UnknownLoc); !unk {
				p.buf = append(p.buf, '(')
				p.printLocationInternal(l.Child, false)
				p.buf = append(p.buf, ')')
			}
		}
	case *CallSiteLoc:
		if pretty {
			// A call of a named location from a file position stays on
			// one line; MLIR breaks the others.
			p.printLocationInternal(l.Callee, false)
			_, named := l.Callee.(*NameLoc)
			_, file := l.Caller.(*FileLineColLoc)
			if named && file {
				p.WriteString(" at ")
			} else {
				p.WriteString("\n at ")
			}
			p.printLocationInternal(l.Caller, false)
			break
		}
		p.WriteString("callsite(")
		p.printLocationInternal(l.Callee, false)
		p.WriteString(" at ")
		p.printLocationInternal(l.Caller, false)
		p.buf = append(p.buf, ')')
	case *FusedLoc:
		if !pretty {
			p.WriteString("fused")
		}
		if l.Metadata != nil {
			p.buf = append(p.buf, '<')
			p.PrintAttr(l.Metadata)
			p.buf = append(p.buf, '>')
		}
		p.buf = append(p.buf, '[')
		for i, c := range l.Locations {
			if i > 0 {
				p.WriteString(", ")
			}
			p.printLocationInternal(c, false)
		}
		p.buf = append(p.buf, ']')
	}
}

// distinctState numbers distinct attributes in the order they are printed.
type distinctState struct {
	ids map[*DistinctAttr]int
}

func (p *AsmPrinter) distinctID(a *DistinctAttr) int {
	if p.distinct == nil {
		p.distinct = &distinctState{ids: map[*DistinctAttr]int{}}
	}
	id, ok := p.distinct.ids[a]
	if !ok {
		id = len(p.distinct.ids)
		p.distinct.ids[a] = id
	}
	return id
}

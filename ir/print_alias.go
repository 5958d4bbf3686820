package ir

import (
	"sort"
	"strconv"
	"strings"
)

// aliasState holds the aliases chosen for one printing session. It mirrors
// MLIR's AliasInitializer: everything that will be printed is visited in
// print order, builtin kinds that MLIR aliases get a name (affine maps
// `#map`, integer sets `#set`, locations `#loc`, distinct attributes
// `#distinct`, tuples of more than 16 types `!tuple`), and aliases are
// numbered after sorting by nesting depth, kind (types first) and name.
// Aliases only reachable from op locations are "deferred": they are printed
// after the top-level op instead of before it.
type aliasState struct {
	infos map[any]*aliasInfo
	order []*aliasInfo // visitation order
	flags *PrintOptions
}

type aliasInfo struct {
	sym      any // Type or Attribute
	isType   bool
	name     string // base name; "" when the symbol has no alias
	full     string // printed alias including '#' or '!' and suffix
	depth    int
	deferred bool
	children []*aliasInfo
}

func newAliasState(flags *PrintOptions) *aliasState {
	return &aliasState{infos: map[any]*aliasInfo{}, flags: flags}
}

// printAlias prints the alias of t or a if it has one.
func (s *aliasState) printAlias(p *AsmPrinter, t Type, a Attribute) bool {
	var key any
	if t != nil {
		key = t
	} else {
		key = a
	}
	if builtinAliasName(key) == "" {
		return false
	}
	info := s.infos[key]
	if info == nil || info.full == "" {
		return false
	}
	p.WriteString(info.full)
	return true
}

// builtinAliasName returns the alias base name mlir-opt gives a symbol, or
// "": the name from an upstream dialect (print_alias_upstream.go) or else
// the builtin dialect's.
func builtinAliasName(sym any) string {
	if name := upstreamAliasName(sym); name != "" {
		return name
	}
	switch x := sym.(type) {
	case *AffineMapAttr:
		return "map"
	case *IntegerSetAttr:
		return "set"
	case *DistinctAttr:
		// MLIR leaves distinct[N]<> (a unit referenced attribute) inline.
		if _, unit := x.Referenced.(*UnitAttr); !unit {
			return "distinct"
		}
	case *TupleType:
		if len(x.Types) > 16 {
			return "tuple"
		}
	case Location:
		return "loc"
	}
	return ""
}

// visitType records t and its nested elements; it returns t's info.
func (s *aliasState) visitType(t Type, deferrable bool) *aliasInfo {
	return s.visit(t, true, deferrable, false)
}

func (s *aliasState) visitAttr(a Attribute, deferrable, elideType bool) *aliasInfo {
	if builtinAliasName(a) == "" && !mayNestAlias(a) {
		return leafInfo
	}
	return s.visit(a, false, deferrable, elideType)
}

// leafInfo stands for attributes that can neither have an alias nor
// contain one: they do not affect alias names or order, so they are not
// recorded (large graphs have many unique strings and dictionaries).
var leafInfo = &aliasInfo{}

// mayNestAlias reports whether an attribute without an alias of its own
// could contain something that has one, judged from its kind and, for
// dictionaries and arrays, its direct entries.
func mayNestAlias(a Attribute) bool {
	switch a := a.(type) {
	case *StringAttr:
		return a.Type != nil
	case *IntegerAttr, *FloatAttr, *UnitAttr, *SymbolRefAttr, *DenseArrayAttr, *StridedLayoutAttr:
		return false
	case *DictAttr:
		for _, e := range a.Entries {
			if builtinAliasName(e.Value) != "" || mayNestAlias(e.Value) {
				return true
			}
		}
		return false
	case *ArrayAttr:
		for _, e := range a.Elems {
			if builtinAliasName(e) != "" || mayNestAlias(e) {
				return true
			}
		}
		return false
	}
	return true
}

func (s *aliasState) visit(sym any, isType, deferrable, elideType bool) *aliasInfo {
	if info, ok := s.infos[sym]; ok {
		if !deferrable {
			markNonDeferrable(info)
		}
		return info
	}
	info := &aliasInfo{sym: sym, isType: isType, deferred: deferrable}
	s.infos[sym] = info
	s.order = append(s.order, info)
	if name := builtinAliasName(sym); name != "" {
		info.name = sanitizeAliasName(name)
		info.depth = 1
	}
	maxDepth := 0
	rec := func(c *aliasInfo) {
		info.children = append(info.children, c)
		if c.depth > maxDepth {
			maxDepth = c.depth
		}
	}
	visitT := func(t Type) { rec(s.visitType(t, deferrable)) }
	visitA := func(a Attribute) { rec(s.visitAttr(a, deferrable, false)) }
	if isType {
		t := sym.(Type)
		if m, ok := t.(*MemRefType); ok {
			visitT(m.Elem)
			if m.Layout != nil {
				visitA(m.Layout)
			}
			if m.MemorySpace != nil {
				visitA(m.MemorySpace)
			}
		} else {
			t.walkSubElements(visitT, visitA)
		}
	} else {
		s.visitAttrChildren(sym.(Attribute), elideType, visitT, visitA)
	}
	if maxDepth > 0 {
		info.depth = maxDepth + 1
	}
	return info
}

// visitAttrChildren visits what printing a would print, in order.
func (s *aliasState) visitAttrChildren(a Attribute, elideType bool, visitT func(Type), visitA func(Attribute)) {
	switch a := a.(type) {
	case *AffineMapAttr, *DenseArrayAttr, *FloatAttr, *IntegerAttr, *IntegerSetAttr, *UnitAttr:
		return
	case *DistinctAttr:
		visitA(a.Referenced)
	case *DictAttr:
		for _, e := range a.Entries {
			visitA(e.Value)
		}
	case *ArrayAttr:
		for _, e := range a.Elems {
			visitA(e)
		}
	case *TypeAttr:
		visitT(a.Value)
	case *NameLoc:
		if a.Child != nil {
			if _, unk := a.Child.(*UnknownLoc); !unk {
				visitA(a.Child)
			}
		}
	case *CallSiteLoc:
		visitA(a.Callee)
		visitA(a.Caller)
	case *FusedLoc:
		if a.Metadata != nil {
			visitA(a.Metadata)
		}
		for _, l := range a.Locations {
			visitA(l)
		}
	}
	if !elideType {
		if ta, ok := a.(TypedAttr); ok {
			if t := ta.AttrType(); t != nil {
				if _, none := t.(*NoneType); !none {
					visitT(t)
				}
			}
		}
		if sa, ok := a.(*StringAttr); ok && sa.Type != nil {
			if _, none := sa.Type.(*NoneType); !none {
				visitT(sa.Type)
			}
		}
		if oa, ok := a.(*OpaqueAttr); ok && oa.Type != nil {
			visitT(oa.Type)
		}
	}
}

func markNonDeferrable(info *aliasInfo) {
	if info == leafInfo || !info.deferred {
		return
	}
	info.deferred = false
	for _, c := range info.children {
		markNonDeferrable(c)
	}
}

// finish sorts the aliased symbols and assigns their printed names.
func (s *aliasState) finish() []*aliasInfo {
	var named []*aliasInfo
	for _, info := range s.order {
		if info.name != "" {
			named = append(named, info)
		}
	}
	sort.SliceStable(named, func(i, j int) bool {
		a, b := named[i], named[j]
		if a.depth != b.depth {
			return a.depth < b.depth
		}
		if a.isType != b.isType {
			return a.isType
		}
		return a.name < b.name
	})
	counts := map[string]int{}
	for _, info := range named {
		n := counts[info.name]
		counts[info.name]++
		prefix := "#"
		if info.isType {
			prefix = "!"
		}
		info.full = prefix + info.name
		if n > 0 {
			info.full += strconv.Itoa(n)
		}
	}
	return named
}

// sanitizeAliasName makes an alias name safe the way MLIR does: characters
// other than letters, digits and `$_-` become their hex code, a leading
// digit gets a `_` prefix and a trailing digit a `_` suffix.
func sanitizeAliasName(name string) string {
	valid := func(c byte) bool {
		return isAlpha(c) || isDigit(c) || c == '$' || c == '_' || c == '-'
	}
	copyName := func(sb *strings.Builder) {
		for i := 0; i < len(name); i++ {
			c := name[i]
			switch {
			case valid(c):
				sb.WriteByte(c)
			case c == ' ':
				sb.WriteByte('_')
			default:
				sb.WriteString(strings.ToUpper(strconv.FormatUint(uint64(c), 16)))
			}
		}
	}
	var sb strings.Builder
	if isDigit(name[0]) {
		sb.WriteByte('_')
		copyName(&sb)
		return sb.String()
	}
	if isDigit(name[len(name)-1]) {
		copyName(&sb)
		sb.WriteByte('_')
		return sb.String()
	}
	for i := 0; i < len(name); i++ {
		if !valid(name[i]) {
			copyName(&sb)
			// Escaping can put a digit first ("%test" gives "25test"); such a
			// name gets the underscore prefix too.
			if s := sb.String(); isDigit(s[0]) {
				return "_" + s
			}
			return sb.String()
		}
	}
	return name
}

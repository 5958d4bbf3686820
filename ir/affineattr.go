package ir

import "github.com/rlx-compiler/rlx/ir/affine"

// AffineMapAttr is `affine_map<(d0)[s0] -> (…)>`.
type AffineMapAttr struct {
	Map *affine.Map
}

// IntegerSetAttr is `affine_set<(d0)[s0] : (…)>`.
type IntegerSetAttr struct {
	Set *affine.Set
}

// AffineMap returns the uniqued attribute for m.
func (c *Context) AffineMap(m *affine.Map) *AffineMapAttr {
	return c.uniqueAttr(&AffineMapAttr{Map: m}).(*AffineMapAttr)
}

// IntegerSet returns the uniqued attribute for s.
func (c *Context) IntegerSet(s *affine.Set) *IntegerSetAttr {
	return c.uniqueAttr(&IntegerSetAttr{Set: s}).(*IntegerSetAttr)
}

func (a *AffineMapAttr) String() string  { return "affine_map<" + a.Map.String() + ">" }
func (a *IntegerSetAttr) String() string { return "affine_set<" + a.Set.String() + ">" }

func (a *AffineMapAttr) walkSubElements(func(Type), func(Attribute))  {}
func (a *IntegerSetAttr) walkSubElements(func(Type), func(Attribute)) {}

// printExtraAttr prints attribute kinds defined outside printer.go.
func (p *AsmPrinter) printExtraAttr(a Attribute) bool {
	switch a := a.(type) {
	case *AffineMapAttr:
		p.WriteString("affine_map<")
		p.WriteString(a.Map.String())
		p.buf = append(p.buf, '>')
	case *IntegerSetAttr:
		p.WriteString("affine_set<")
		p.WriteString(a.Set.String())
		p.buf = append(p.buf, '>')
	default:
		return false
	}
	return true
}

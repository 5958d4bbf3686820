package ir

// Location is where an operation or value came from. Locations are
// attributes: they are uniqued and may appear inside other attributes.
type Location interface {
	Attribute
	isLocation()
}

// UnknownLoc is `loc(unknown)`.
type UnknownLoc struct{}

// FileLineColLoc is `loc("file":line:col)`.
type FileLineColLoc struct {
	File string
	// Line and Col are 1-based; 32 bits, as in MLIR, keep the location of
	// every op of a large graph small.
	Line, Col int32
}

// NameLoc is `loc("name")` or `loc("name"(child))`; Child is nil when absent.
type NameLoc struct {
	Name  string
	Child Location
}

// CallSiteLoc is `loc(callsite(callee at caller))`.
type CallSiteLoc struct {
	Callee, Caller Location
}

// FusedLoc is `loc(fused<metadata>[a, b])`; Metadata is nil when absent.
type FusedLoc struct {
	Locations []Location
	Metadata  Attribute
}

func (*UnknownLoc) isLocation()     {}
func (*FileLineColLoc) isLocation() {}
func (*NameLoc) isLocation()        {}
func (*CallSiteLoc) isLocation()    {}
func (*FusedLoc) isLocation()       {}

func (l *UnknownLoc) String() string     { return "loc(unknown)" }
func (l *FileLineColLoc) String() string { return attrString(l) }
func (l *NameLoc) String() string        { return attrString(l) }
func (l *CallSiteLoc) String() string    { return attrString(l) }
func (l *FusedLoc) String() string       { return attrString(l) }

func (l *UnknownLoc) walkSubElements(func(Type), func(Attribute))     {}
func (l *FileLineColLoc) walkSubElements(func(Type), func(Attribute)) {}
func (l *NameLoc) walkSubElements(_ func(Type), fa func(Attribute)) {
	if l.Child != nil {
		fa(l.Child)
	}
}
func (l *CallSiteLoc) walkSubElements(_ func(Type), fa func(Attribute)) {
	fa(l.Callee)
	fa(l.Caller)
}
func (l *FusedLoc) walkSubElements(_ func(Type), fa func(Attribute)) {
	if l.Metadata != nil {
		fa(l.Metadata)
	}
	for _, c := range l.Locations {
		fa(c)
	}
}

// LineCol returns the file, line and column of the innermost file location
// inside l (following names, call sites' callees and the first fused
// location), or ok=false when there is none.
func LineCol(l Location) (file string, line, col int, ok bool) {
	for l != nil {
		switch x := l.(type) {
		case *FileLineColLoc:
			return x.File, int(x.Line), int(x.Col), true
		case *NameLoc:
			l = x.Child
		case *CallSiteLoc:
			l = x.Callee
		case *FusedLoc:
			for _, c := range x.Locations {
				if f, ln, c2, ok := LineCol(c); ok {
					return f, ln, c2, true
				}
			}
			return "", 0, 0, false
		default:
			return "", 0, 0, false
		}
	}
	return "", 0, 0, false
}

package affine

import "strings"

// Map is an affine map (d0, …)[s0, …] -> (results…). Results may refer to
// dimensions below NumDims and symbols below NumSymbols.
type Map struct {
	NumDims, NumSymbols int
	Results             []Expr
}

// Set is an integer set (d0, …)[s0, …] : (constraints…). Constraint i reads
// Constraints[i] == 0 if Eq[i] and Constraints[i] >= 0 otherwise; the two
// slices have the same length. The set with no written constraints is
// represented, as in MLIR, by the single constraint 0 == 0.
type Set struct {
	NumDims, NumSymbols int
	Constraints         []Expr
	Eq                  []bool
}

// String returns the map's body as MLIR prints it inside affine_map<…>,
// for example "(d0)[s0] -> (d0 + s0)".
func (m *Map) String() string {
	var b strings.Builder
	writeIDs(&b, m.NumDims, m.NumSymbols)
	b.WriteString(" -> (")
	for i, r := range m.Results {
		if i > 0 {
			b.WriteString(", ")
		}
		printExpr(&b, r, false)
	}
	b.WriteByte(')')
	return b.String()
}

// String returns the set's body as MLIR prints it inside affine_set<…>,
// for example "(d0)[s0] : (d0 >= 0, -d0 + s0 == 0)".
func (s *Set) String() string {
	var b strings.Builder
	writeIDs(&b, s.NumDims, s.NumSymbols)
	b.WriteString(" : (")
	for i, c := range s.Constraints {
		if i > 0 {
			b.WriteString(", ")
		}
		printExpr(&b, c, false)
		if i < len(s.Eq) && s.Eq[i] {
			b.WriteString(" == 0")
		} else {
			b.WriteString(" >= 0")
		}
	}
	b.WriteByte(')')
	return b.String()
}

// IsIdentity reports whether m is (d0, …, dn-1) -> (d0, …, dn-1). Like
// MLIR's AffineMap::isIdentity, which decides whether a memref layout is
// dropped when printing, it ignores the symbols: (d0)[s0] -> (d0) is an
// identity.
func (m *Map) IsIdentity() bool {
	if m.NumDims != len(m.Results) {
		return false
	}
	for i, r := range m.Results {
		if d, ok := r.(DimExpr); !ok || d.Pos != i {
			return false
		}
	}
	return true
}

// Equal reports whether m and o are the same map: the same numbers of
// dimensions and symbols and structurally equal results.
func (m *Map) Equal(o *Map) bool {
	if m == nil || o == nil {
		return m == o
	}
	if m.NumDims != o.NumDims || m.NumSymbols != o.NumSymbols || len(m.Results) != len(o.Results) {
		return false
	}
	for i := range m.Results {
		if m.Results[i] != o.Results[i] {
			return false
		}
	}
	return true
}

// Equal reports whether s and o are the same set: the same numbers of
// dimensions and symbols and the same constraints in the same order.
func (s *Set) Equal(o *Set) bool {
	if s == nil || o == nil {
		return s == o
	}
	if s.NumDims != o.NumDims || s.NumSymbols != o.NumSymbols ||
		len(s.Constraints) != len(o.Constraints) || len(s.Eq) != len(o.Eq) {
		return false
	}
	for i := range s.Constraints {
		if s.Constraints[i] != o.Constraints[i] {
			return false
		}
	}
	for i := range s.Eq {
		if s.Eq[i] != o.Eq[i] {
			return false
		}
	}
	return true
}

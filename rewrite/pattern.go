package rewrite

import (
	"sort"

	"github.com/rlx-compiler/rlx/ir"
)

// Pattern is one rewrite: when MatchAndRewrite finds its shape at op it
// changes the IR through r and returns true; otherwise it returns false
// without having changed anything (use r.NotifyMatchFailure to say why).
type Pattern struct {
	// Name identifies the pattern in enable/disable filters and traces,
	// e.g. "graph.TransposeOfTranspose".
	Name string
	// Labels are extra names the pattern can be filtered by.
	Labels []string
	// Root is the name of the op the pattern matches ("graph.add"); empty
	// means the pattern is tried on every op.
	Root string
	// Benefit orders the patterns tried on one op: higher first. Patterns
	// with equal benefit are tried in the order they were given.
	Benefit int
	// MatchAndRewrite tries the pattern on op. The rewriter's insertion
	// point is just before op.
	MatchAndRewrite func(op *ir.Operation, r *Rewriter) bool
}

// PatternSet is an immutable collection of patterns indexed by root op
// name and sorted by benefit. It is safe for concurrent use.
type PatternSet struct {
	byRoot map[string][]*Pattern
	anyOp  []*Pattern
	all    []*Pattern
}

// NewPatternSet indexes patterns (nil entries are skipped).
func NewPatternSet(patterns ...*Pattern) *PatternSet {
	s := &PatternSet{byRoot: map[string][]*Pattern{}}
	for _, p := range patterns {
		if p == nil {
			continue
		}
		if p.MatchAndRewrite == nil {
			panic("rewrite: pattern " + p.Name + " has no MatchAndRewrite")
		}
		s.all = append(s.all, p)
		if p.Root == "" {
			s.anyOp = append(s.anyOp, p)
		} else {
			s.byRoot[p.Root] = append(s.byRoot[p.Root], p)
		}
	}
	byBenefit := func(ps []*Pattern) {
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].Benefit > ps[j].Benefit })
	}
	for _, ps := range s.byRoot {
		byBenefit(ps)
	}
	byBenefit(s.anyOp)
	return s
}

// Len returns the number of patterns.
func (s *PatternSet) Len() int {
	if s == nil {
		return 0
	}
	return len(s.all)
}

// Patterns returns the patterns in the order they were given.
func (s *PatternSet) Patterns() []*Pattern {
	if s == nil {
		return nil
	}
	return append([]*Pattern(nil), s.all...)
}

// Filter returns the patterns that pass canonicalize's filters: when
// enable is not empty, only patterns whose name or one of whose labels is
// in enable; and never patterns whose name or a label is in disable.
func (s *PatternSet) Filter(enable, disable []string) *PatternSet {
	if len(enable) == 0 && len(disable) == 0 {
		return s
	}
	in := func(set map[string]bool, p *Pattern) bool {
		if set[p.Name] {
			return true
		}
		for _, l := range p.Labels {
			if set[l] {
				return true
			}
		}
		return false
	}
	en, dis := toSet(enable), toSet(disable)
	var keep []*Pattern
	for _, p := range s.Patterns() {
		if len(en) > 0 && !in(en, p) || in(dis, p) {
			continue
		}
		keep = append(keep, p)
	}
	return NewPatternSet(keep...)
}

func toSet(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// apply tries the patterns that can match op, highest benefit first
// (op-specific patterns before any-op patterns of equal benefit), and
// reports whether one applied.
func (s *PatternSet) apply(op *ir.Operation, r *Rewriter) bool {
	if s == nil {
		return false
	}
	specific := s.byRoot[op.Name()]
	i, j := 0, 0
	for i < len(specific) || j < len(s.anyOp) {
		var p *Pattern
		if i < len(specific) && (j >= len(s.anyOp) || specific[i].Benefit >= s.anyOp[j].Benefit) {
			p = specific[i]
			i++
		} else {
			p = s.anyOp[j]
			j++
		}
		r.SetInsertionPoint(op)
		if p.MatchAndRewrite(op, r) {
			return true
		}
	}
	return false
}

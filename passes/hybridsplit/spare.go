package hybridsplit

// spare keeps the int32 arrays a step of the pass is done with, so that
// later steps reuse them instead of allocating. On a large function new
// memory is what costs: the first touch of each page faults (what a fault
// costs is measured in docs/hybrid-split.md, Performance), and the more the pass allocates, the likelier a
// collection of the whole heap falls inside it. The steps run one after
// another, so the edge lists and the ready sets of the partitioning are
// free by the time the outliner needs its tables. An array given to put
// must not be used again by its giver.
type spare struct{ free [][]int32 }

// put hands arrays over for reuse.
func (s *spare) put(arrays ...[]int32) {
	for _, a := range arrays {
		if cap(a) > 0 {
			s.free = append(s.free, a)
		}
	}
}

// get returns a zeroed array of n entries: the front of the smallest
// spare array large enough, whose rest stays spare, or a new array.
func (s *spare) get(n int) []int32 {
	best := -1
	for i, a := range s.free {
		if cap(a) >= n && (best < 0 || cap(a) < cap(s.free[best])) {
			best = i
		}
	}
	if best < 0 {
		return make([]int32, n)
	}
	a := s.free[best][:cap(s.free[best])]
	if rest := a[n:]; len(rest) >= minSpare {
		s.free[best] = rest
	} else {
		last := len(s.free) - 1
		s.free[best], s.free[last] = s.free[last], nil
		s.free = s.free[:last]
	}
	a = a[:n:n]
	clear(a)
	return a
}

// minSpare is the smallest rest of an array that get keeps (4 KB).
const minSpare = 1024

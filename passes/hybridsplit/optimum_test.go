package hybridsplit

// Independent computations of the fewest regions, for the property tests.
// They work on the snapshot (the function before the split), not on the
// pass's own data structures.

// deps returns, for each compute op of s, the bit mask of the compute ops
// its operands come from (leaves and arguments constrain nothing).
func deps(s *snapshot) []uint64 {
	out := make([]uint64, len(s.ops))
	for i := range s.ops {
		for _, r := range s.operands[i] {
			if r.op != nil {
				out[i] |= 1 << uint(s.index[r.op])
			}
		}
	}
	return out
}

// exactOptimum is the fewest regions of any valid split, by breadth-first
// search over the downward-closed sets of ops ("what has run so far"): a
// region of one kind takes the set S to S ∪ X, where X is any non-empty set
// of ops of that kind such that S ∪ X is again downward closed (X is then
// convex, and every region before it is done). Every sequence of convex
// regions without cycles between them is such a path, so the first time
// the search reaches all ops it has found the optimum. The cost is about
// 3^n; callers keep n small.
func exactOptimum(s *snapshot) int {
	n := len(s.ops)
	if n == 0 {
		return 0
	}
	pred := deps(s)
	full := uint64(1)<<uint(n) - 1
	dist := map[uint64]int{0: 0}
	queue := []uint64{0}
	for len(queue) > 0 {
		S := queue[0]
		queue = queue[1:]
		if S == full {
			return dist[S]
		}
		for _, native := range []bool{false, true} {
			// avail: ops of this kind not yet run whose predecessors have
			// run or are themselves available (ops are in a topological
			// order, so one pass finds them all).
			var avail uint64
			for i := 0; i < n; i++ {
				if S&(1<<uint(i)) == 0 && s.native[i] == native && pred[i]&^(S|avail) == 0 {
					avail |= 1 << uint(i)
				}
			}
			for X := avail; X != 0; X = (X - 1) & avail {
				closed := true
				for i := 0; i < n && closed; i++ {
					if X&(1<<uint(i)) != 0 && pred[i]&^(S|X) != 0 {
						closed = false
					}
				}
				if !closed {
					continue
				}
				T := S | X
				if _, ok := dist[T]; !ok {
					dist[T] = dist[S] + 1
					queue = append(queue, T)
				}
			}
		}
	}
	panic("exactOptimum: unreachable")
}

// pathBound is one more than the largest number of kind changes along any
// dependency path: every change needs a later region, so no split has
// fewer regions.
func pathBound(s *snapshot) int {
	if len(s.ops) == 0 {
		return 0
	}
	alt := make([]int, len(s.ops))
	best := 0
	for i := range s.ops {
		for _, r := range s.operands[i] {
			if r.op == nil {
				continue
			}
			j := s.index[r.op]
			a := alt[j]
			if s.native[j] != s.native[i] {
				a++
			}
			alt[i] = max(alt[i], a)
		}
		best = max(best, alt[i])
	}
	return best + 1
}

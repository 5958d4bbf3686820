package filecheck

// LLVM matches every CHECK-DAG of a group by searching from the start of
// the group, so a group of G directives whose matches spread over S bytes
// costs O(G·S). For the common case of fixed-string directives, dagIndex
// finds the first occurrence of all of them in a single Aho-Corasick pass,
// lazily extended only as far as the furthest answer needed, which brings
// large groups down to O(S). Directives with regular expressions, and
// retries after an overlap, still search directly.

// minIndexedDAGs is the group size from which an index pays off.
const minIndexedDAGs = 8

type acEdge struct {
	b  byte
	to int32
}

// dagIndex answers "first occurrence at or after the group start" for a
// set of fixed strings.
type dagIndex struct {
	text     string
	base     int // the group start; queries from elsewhere are not indexed
	end      int
	scan     int // next byte to feed the automaton
	state    int32
	icase    bool
	root     [256]int32
	edges    [][]acEdge // children of the nodes other than the root
	fail     []int32
	out      [][]int32 // ids of the strings ending at a node
	dict     []int32   // nearest proper suffix node with outputs, -1 if none
	lens     []int
	first    []int // first occurrence start; -1 not found yet
	pending  int
	finished bool
}

// newDAGIndex indexes pats (fixed strings, by id) for a search of
// text[base:end].
func newDAGIndex(text string, base, end int, pats []string, icase bool) *dagIndex {
	x := &dagIndex{text: text, base: base, end: end, scan: base, icase: icase}
	for i := range x.root {
		x.root[i] = -1
	}
	x.newNode() // node 0 is the root
	for id, p := range pats {
		n := int32(0)
		for i := 0; i < len(p); i++ {
			c := x.norm(p[i])
			next := x.child(n, c)
			if next < 0 {
				next = x.newNode()
				if n == 0 {
					x.root[c] = next
				} else {
					x.edges[n] = append(x.edges[n], acEdge{c, next})
				}
			}
			n = next
		}
		x.out[n] = append(x.out[n], int32(id))
		x.lens = append(x.lens, len(p))
		x.first = append(x.first, -1)
	}
	x.pending = len(pats)
	x.link()
	return x
}

func (x *dagIndex) norm(c byte) byte {
	if x.icase {
		return lowerASCII(c)
	}
	return c
}

func (x *dagIndex) newNode() int32 {
	x.edges = append(x.edges, nil)
	x.fail = append(x.fail, 0)
	x.out = append(x.out, nil)
	x.dict = append(x.dict, -1)
	return int32(len(x.edges) - 1)
}

func (x *dagIndex) child(n int32, c byte) int32 {
	if n == 0 {
		return x.root[c]
	}
	for _, e := range x.edges[n] {
		if e.b == c {
			return e.to
		}
	}
	return -1
}

// link computes failure and dictionary links breadth-first.
func (x *dagIndex) link() {
	var queue []int32
	for c := 0; c < 256; c++ {
		if n := x.root[c]; n >= 0 {
			queue = append(queue, n)
		}
	}
	visit := func(parent int32, c byte, n int32) {
		f := x.fail[parent]
		for f != 0 && x.child(f, c) < 0 {
			f = x.fail[f]
		}
		if t := x.child(f, c); t >= 0 {
			x.fail[n] = t
		}
		if fn := x.fail[n]; len(x.out[fn]) > 0 {
			x.dict[n] = fn
		} else {
			x.dict[n] = x.dict[fn]
		}
		queue = append(queue, n)
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range x.edges[n] {
			visit(n, e.b, e.to)
		}
	}
}

// firstAt returns the start of the first occurrence of pattern id in
// text[from:end], or -1. ok is false if from is not the indexed start.
func (x *dagIndex) firstAt(id, from int) (pos int, ok bool) {
	if from != x.base {
		return 0, false
	}
	for x.first[id] < 0 && !x.finished {
		x.step()
	}
	return x.first[id], true
}

// step feeds the automaton one byte.
func (x *dagIndex) step() {
	if x.scan >= x.end || x.pending == 0 {
		x.finished = true
		return
	}
	c := x.norm(x.text[x.scan])
	x.scan++
	s := x.state
	for {
		if t := x.child(s, c); t >= 0 {
			s = t
			break
		}
		if s == 0 {
			break
		}
		s = x.fail[s]
	}
	x.state = s
	for n := s; n > 0; n = x.dict[n] {
		for _, id := range x.out[n] {
			if x.first[id] < 0 {
				x.first[id] = x.scan - x.lens[id]
				x.pending--
			}
		}
	}
}

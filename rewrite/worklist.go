package rewrite

import "github.com/rlx-compiler/rlx/ir"

// worklist is a LIFO of unique ops with O(1) removal: removed entries
// become nil holes that pop skips.
type worklist struct {
	list   []*ir.Operation
	pos    map[*ir.Operation]int
	pushes int // since it came from the pool (see putWorklist)
}

// push adds op unless it is already present (its place is then kept).
func (w *worklist) push(op *ir.Operation) {
	if _, ok := w.pos[op]; ok {
		return
	}
	w.pos[op] = len(w.list)
	w.list = append(w.list, op)
	w.pushes++
}

// pop removes and returns the most recently pushed op, or nil.
func (w *worklist) pop() *ir.Operation {
	w.trim()
	if len(w.list) == 0 {
		return nil
	}
	op := w.list[len(w.list)-1]
	w.list = w.list[:len(w.list)-1]
	delete(w.pos, op)
	w.trim()
	return op
}

func (w *worklist) trim() {
	for len(w.list) > 0 && w.list[len(w.list)-1] == nil {
		w.list = w.list[:len(w.list)-1]
	}
}

func (w *worklist) empty() bool {
	w.trim()
	return len(w.list) == 0
}

func (w *worklist) remove(op *ir.Operation) {
	if i, ok := w.pos[op]; ok {
		w.list[i] = nil
		delete(w.pos, op)
	}
}

func (w *worklist) clear() {
	w.list = w.list[:0]
	clear(w.pos)
}

// reverse reverses the order, so that ops pushed in program order are
// popped in program order.
func (w *worklist) reverse() {
	l := w.list
	for i, j := 0, len(l)-1; i < j; i, j = i+1, j-1 {
		l[i], l[j] = l[j], l[i]
	}
	for i, op := range l {
		if op != nil {
			w.pos[op] = i
		}
	}
}

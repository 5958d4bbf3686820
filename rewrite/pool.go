package rewrite

import (
	"sync"

	"github.com/rlx-compiler/rlx/ir"
)

// The driver's worklist and RegionDCE's liveness sets are reused from run
// to run: a pass over a thousand small functions would otherwise regrow
// the same maps a thousand times, and on several workers the garbage
// collector, not the rewriting, would set the pace. Sets that grew very
// large are dropped instead of kept, so one huge function does not make
// every later clear slow.
const maxPooled = 1 << 15

var (
	worklistPool = sync.Pool{New: func() any { return &worklist{pos: map[*ir.Operation]int{}} }}
	livenessPool = sync.Pool{New: func() any {
		return &liveness{ops: map[*ir.Operation]bool{}, values: map[*ir.Value]bool{}}
	}}
)

func getWorklist() *worklist { return worklistPool.Get().(*worklist) }

func putWorklist(w *worklist) {
	if w.pushes > maxPooled {
		return
	}
	w.clear()
	w.pushes = 0
	worklistPool.Put(w)
}

func getLiveness() *liveness { return livenessPool.Get().(*liveness) }

func putLiveness(l *liveness) {
	if len(l.ops)+len(l.values) > maxPooled {
		return
	}
	clear(l.ops)
	clear(l.values)
	l.changed = false
	livenessPool.Put(l)
}

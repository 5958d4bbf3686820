package pipeline

import (
	"io"
	"runtime"
	"sync"

	"github.com/rlx-compiler/rlx/ir"
)

// nextItem hands out work indices to parallel workers.
type nextItem struct {
	mu        sync.Mutex
	next      int
	firstFail int
}

func (n *nextItem) take() (int, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.next > n.firstFail {
		return 0, false
	}
	i := n.next
	n.next++
	return i, true
}

func (n *nextItem) fail(i int) {
	n.mu.Lock()
	if i < n.firstFail {
		n.firstFail = i
	}
	n.mu.Unlock()
}

// runParallel runs the nested pipelines on ws with up to ex.workers
// goroutines. Output and diagnostics of each op are buffered and replayed
// in op order afterwards, so a parallel run reports exactly what a
// sequential one does: everything up to and including the first op (in
// order) whose pipeline failed.
func (ex *executor) runParallel(a *adaptor, ws []work, am *AnalysisManager) error {
	n := len(ws)
	items := make([]*runItem, n)
	errs := make([]error, n)
	sched := &nextItem{firstFail: n}
	for i := range items {
		items[i] = &runItem{index: i}
		ex.ops.Store(ws[i].op, items[i])
	}
	pop := ex.ctx.Diags().PushHandler(ex.parallelDiag)
	nw := min(ex.workers, n)
	var wg sync.WaitGroup
	for w := 1; w <= nw; w++ {
		wg.Add(1)
		go func(worker int) {
			defer wg.Done()
			id := goid()
			for {
				i, ok := sched.take()
				if !ok || i >= n {
					return
				}
				it := items[i]
				it.worker = worker
				ex.gids.Store(id, it)
				cam := am.Nest(ws[i].op)
				err := ex.runPipeline(ws[i].pm, ws[i].op, cam, it, a)
				am.forget(ws[i].op)
				ex.gids.Delete(id)
				if err != nil {
					errs[i] = err
					sched.fail(i)
				}
			}
		}(w)
	}
	wg.Wait()
	pop()
	for i := range items {
		ex.ops.Delete(ws[i].op)
	}
	limit := sched.firstFail
	for i := 0; i < n && i <= limit; i++ {
		items[i].replay(ex)
	}
	ex.mu.Lock()
	stray := ex.stray
	ex.stray = nil
	ex.mu.Unlock()
	for _, d := range stray {
		ex.emitNow(d)
	}
	if limit < n {
		return errs[limit]
	}
	return nil
}

// parallelDiag receives diagnostics emitted through the context during a
// parallel section and files them under the op being processed.
func (ex *executor) parallelDiag(d *ir.Diagnostic) {
	if it, ok := ex.gids.Load(goid()); ok {
		it.(*runItem).addDiag(d)
		return
	}
	for o := d.Op; o != nil; o = o.ParentOp() {
		if it, ok := ex.ops.Load(o); ok {
			it.(*runItem).addDiag(d)
			return
		}
	}
	ex.mu.Lock()
	ex.stray = append(ex.stray, d)
	ex.mu.Unlock()
}

// runItem is one op of a parallel section: its worker and the output and
// diagnostics it produced, in order.
type runItem struct {
	index  int
	worker int

	mu     sync.Mutex
	events []itemEvent
}

type itemEvent struct {
	w    io.Writer
	data []byte
	diag *ir.Diagnostic
}

func (it *runItem) workerID() int {
	if it == nil {
		return 0
	}
	return it.worker
}

func (it *runItem) addDiag(d *ir.Diagnostic) {
	it.mu.Lock()
	it.events = append(it.events, itemEvent{diag: d})
	it.mu.Unlock()
}

func (it *runItem) writer(w io.Writer) io.Writer {
	if it == nil {
		return w
	}
	return itemWriter{it, w}
}

func (it *runItem) replay(ex *executor) {
	for _, e := range it.events {
		if e.diag != nil {
			ex.emitNow(e.diag)
		} else {
			_, _ = e.w.Write(e.data)
		}
	}
	it.events = nil
}

type itemWriter struct {
	it *runItem
	w  io.Writer
}

func (iw itemWriter) Write(p []byte) (int, error) {
	iw.it.mu.Lock()
	iw.it.events = append(iw.it.events, itemEvent{w: iw.w, data: append([]byte(nil), p...)})
	iw.it.mu.Unlock()
	return len(p), nil
}

// goid returns the current goroutine's id. Go has no goroutine-local
// storage; the id lets the diagnostic handler of a parallel section file
// each diagnostic under the op its goroutine is working on (MLIR's
// ParallelDiagnosticHandler keys on the thread id the same way).
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = b[len("goroutine "):]
	var id uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id
}

package pipeline

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
)

// Timing collects a tree of timers: rlx-opt's Parser and Output phases and,
// through Instrumentation, every pass, nested pipeline and analysis. It
// reports them like mlir-opt --mlir-timing. User time is the sum over all
// goroutines; wall time is the longest single goroutine's share.
type Timing struct {
	mu    sync.Mutex
	root  *Timer
	start time.Time
}

// Timer is one node of a Timing tree. Timers are merged by key: starting
// the same key twice under one parent accumulates into one timer.
type Timer struct {
	t        *Timing
	name     string
	hidden   bool // shown in the list display only (pipeline collections)
	children []*Timer
	byKey    map[any]*Timer
	user     time.Duration
	wall     map[int]time.Duration
}

// NewTiming starts a timing tree; the total runs from now until Report.
func NewTiming() *Timing {
	t := &Timing{start: time.Now()}
	t.root = &Timer{t: t, name: "root"}
	return t
}

// Root returns the root timer.
func (t *Timing) Root() *Timer { return t.root }

// Nest returns the child timer identified by key, creating it with name.
func (tm *Timer) Nest(key any, name string) *Timer {
	tm.t.mu.Lock()
	defer tm.t.mu.Unlock()
	return tm.nestLocked(key, name)
}

func (tm *Timer) nestLocked(key any, name string) *Timer {
	if c := tm.byKey[key]; c != nil {
		return c
	}
	if tm.byKey == nil {
		tm.byKey = map[any]*Timer{}
	}
	c := &Timer{t: tm.t, name: name}
	tm.byKey[key] = c
	tm.children = append(tm.children, c)
	return c
}

// Add records d spent by worker (0 for the main goroutine).
func (tm *Timer) Add(worker int, d time.Duration) {
	tm.t.mu.Lock()
	tm.user += d
	if tm.wall == nil {
		tm.wall = map[int]time.Duration{}
	}
	tm.wall[worker] += d
	tm.t.mu.Unlock()
}

// Time runs fn and records its duration on the main goroutine.
func (tm *Timer) Time(fn func()) {
	start := time.Now()
	fn()
	tm.Add(0, time.Since(start))
}

func (tm *Timer) wallTime() time.Duration {
	var w time.Duration
	for _, d := range tm.wall {
		w = max(w, d)
	}
	return w
}

// Instrumentation returns an instrumentation that times passes, nested
// pipelines and analyses under parent (nil means the root).
func (t *Timing) Instrumentation(parent *Timer) Instrumentation {
	if parent == nil {
		parent = t.root
	}
	return &timingInstr{t: t, base: parent, starts: map[any]time.Time{}, owners: map[*OpPassManager]*Timer{}, passes: map[Pass]*Timer{}}
}

type timingInstr struct {
	t      *Timing
	base   *Timer
	mu     sync.Mutex
	starts map[any]time.Time
	owners map[*OpPassManager]*Timer // manager -> its pipeline timer
	passes map[Pass]*Timer
}

func (ti *timingInstr) start(key any) {
	ti.mu.Lock()
	ti.starts[key] = time.Now()
	ti.mu.Unlock()
}

func (ti *timingInstr) stop(key any) time.Duration {
	now := time.Now()
	ti.mu.Lock()
	s := ti.starts[key]
	delete(ti.starts, key)
	ti.mu.Unlock()
	return now.Sub(s)
}

// parentTimer returns the timer under which passes of pm hang.
func (ti *timingInstr) parentTimer(pm *OpPassManager) *Timer {
	if pm == nil {
		return ti.base
	}
	ti.mu.Lock()
	defer ti.mu.Unlock()
	if tm := ti.owners[pm]; tm != nil {
		return tm
	}
	return ti.base
}

func (ti *timingInstr) BeforePipeline(ev *PipelineEvent) {
	parent := ti.parentTimer(ev.ParentManager)
	tm := parent.Nest(timerKey{ev.Index, "'" + ev.Manager.Anchor() + "' Pipeline"}, "'"+ev.Manager.Anchor()+"' Pipeline")
	ti.mu.Lock()
	ti.owners[ev.Manager] = tm
	ti.mu.Unlock()
	ti.start(ev)
}

func (ti *timingInstr) AfterPipeline(ev *PipelineEvent) {
	d := ti.stop(ev)
	ti.parentTimer(ev.Manager).Add(ev.Worker, d)
}

func (ti *timingInstr) BeforePass(ev *PassEvent) {
	ti.passTimer(ev)
	ti.start(ev)
}

func (ti *timingInstr) AfterPass(ev *PassEvent) {
	d := ti.stop(ev)
	ti.passTimer(ev).Add(ev.Worker, d)
}

func (ti *timingInstr) AfterPassFailed(ev *PassEvent) { ti.AfterPass(ev) }

// timerKey identifies a pass's timer under its parent by position, so
// that the passes of pipelines rebuilt for each input chunk accumulate.
type timerKey struct {
	index int
	name  string
}

func (ti *timingInstr) passTimer(ev *PassEvent) *Timer {
	p := ev.Pass
	ti.mu.Lock()
	tm := ti.passes[p]
	ti.mu.Unlock()
	if tm != nil {
		return tm
	}
	pt := ti.parentTimer(ev.Parent)
	name := p.Info().DisplayName()
	ti.t.mu.Lock()
	tm = pt.nestLocked(timerKey{ev.Index, name}, name)
	if _, ok := p.(*adaptor); ok {
		tm.hidden = true
	}
	ti.t.mu.Unlock()
	ti.mu.Lock()
	ti.passes[p] = tm
	ti.mu.Unlock()
	return tm
}

type analysisKey struct {
	pass Pass
	name string
}

func (ti *timingInstr) BeforeAnalysis(ev *AnalysisEvent) { ti.start(ev) }

func (ti *timingInstr) AfterAnalysis(ev *AnalysisEvent) {
	d := ti.stop(ev)
	parent := ti.base
	if ev.Pass != nil {
		parent = ti.passTimerOf(ev.Pass)
	}
	parent.Nest(analysisKey{ev.Pass, ev.Name}, "(A) "+ev.Name).Add(ev.Worker, d)
}

func (ti *timingInstr) passTimerOf(p Pass) *Timer {
	ti.mu.Lock()
	tm := ti.passes[p]
	ti.mu.Unlock()
	if tm == nil {
		return ti.base
	}
	return tm
}

// TimingDisplay selects how Report lays out the timers.
type TimingDisplay string

const (
	// DisplayTree nests timers under their parents (the default).
	DisplayTree TimingDisplay = "tree"
	// DisplayList merges timers of the same name and sorts them by time.
	DisplayList TimingDisplay = "list"
)

type timingRow struct {
	name       string
	user, wall time.Duration
	depth      int
	children   []*timingRow
}

// Report writes the timing report. showUser adds the user-time column (as
// mlir-opt does when threading is enabled); json selects JSON output.
func (t *Timing) Report(w io.Writer, display TimingDisplay, showUser, json bool) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	total := time.Since(t.start)
	var rows []*timingRow
	var sumUser, sumWall time.Duration
	for _, c := range t.root.children {
		sumUser += c.user
		sumWall += c.wallTime()
	}
	if display == DisplayList {
		rows = t.listRows()
		// MLIR's list merges every timer by name, its root timer too.
		rows = append([]*timingRow{{name: "root", user: sumUser + max(total-sumWall, 0), wall: total}}, rows...)
	} else {
		rows = treeRows(t.root.children, 0)
	}
	rest := max(total-sumWall, 0)
	totalUser := sumUser + rest
	// As in MLIR, the user-time column shows only when work ran on other
	// threads, so that it differs from the wall time.
	showUser = showUser && totalUser != total
	rows = append(rows,
		&timingRow{name: "Rest", user: rest, wall: rest},
		&timingRow{name: "Total", user: totalUser, wall: total})
	if json {
		return writeTimingJSON(w, rows, totalUser, total, showUser)
	}
	var sb strings.Builder
	sb.WriteString(reportBanner("... Execution time report ..."))
	fmt.Fprintf(&sb, "  Total Execution Time: %.4f seconds\n\n", total.Seconds())
	if showUser {
		sb.WriteString("  ----User Time----")
	}
	sb.WriteString("  ----Wall Time----  ----Name----\n")
	var emit func(r *timingRow)
	emit = func(r *timingRow) {
		if showUser {
			fmt.Fprintf(&sb, "  %8.4f (%5.1f%%)", r.user.Seconds(), pct(r.user, totalUser))
		}
		fmt.Fprintf(&sb, "  %8.4f (%5.1f%%)  %s%s\n", r.wall.Seconds(), pct(r.wall, total), strings.Repeat("  ", r.depth), r.name)
		for _, c := range r.children {
			emit(c)
		}
	}
	for _, r := range rows {
		emit(r)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

func reportBanner(title string) string {
	line := "===" + strings.Repeat("-", 73) + "===\n"
	return line + strings.Repeat(" ", (80-len(title))/2) + title + "\n" + line
}

func pct(d, total time.Duration) float64 {
	if total <= 0 {
		return 0
	}
	return 100 * float64(d) / float64(total)
}

func treeRows(ts []*Timer, depth int) []*timingRow {
	var out []*timingRow
	for _, c := range ts {
		if c.hidden {
			out = append(out, treeRows(c.children, depth)...)
			continue
		}
		r := &timingRow{name: c.name, user: c.user, wall: c.wallTime(), depth: depth}
		r.children = treeRows(c.children, depth+1)
		out = append(out, r)
	}
	return out
}

func (t *Timing) listRows() []*timingRow {
	byName := map[string]*timingRow{}
	var order []*timingRow
	var walk func(ts []*Timer)
	walk = func(ts []*Timer) {
		for _, c := range ts {
			r := byName[c.name]
			if r == nil {
				r = &timingRow{name: c.name}
				byName[c.name] = r
				order = append(order, r)
			}
			r.user += c.user
			r.wall += c.wallTime()
			walk(c.children)
		}
	}
	walk(t.root.children)
	sort.SliceStable(order, func(i, j int) bool { return order[i].wall > order[j].wall })
	return order
}

func writeTimingJSON(w io.Writer, rows []*timingRow, totalUser, total time.Duration, showUser bool) error {
	var sb strings.Builder
	var emit func(r *timingRow, indent string, last bool)
	emit = func(r *timingRow, indent string, last bool) {
		sb.WriteString(indent + "{")
		if showUser {
			fmt.Fprintf(&sb, `"user": {"duration": %.4f, "percentage": %.1f}, `, r.user.Seconds(), pct(r.user, totalUser))
		}
		fmt.Fprintf(&sb, `"wall": {"duration": %.4f, "percentage": %.1f}, "name": %q`, r.wall.Seconds(), pct(r.wall, total), r.name)
		if len(r.children) > 0 {
			sb.WriteString(`, "passes": [` + "\n")
			for i, c := range r.children {
				emit(c, indent+"  ", i == len(r.children)-1)
			}
			sb.WriteString(indent + "]")
		}
		sb.WriteString("}")
		if !last {
			sb.WriteString(",")
		}
		sb.WriteString("\n")
	}
	sb.WriteString("[\n")
	for i, r := range rows {
		emit(r, "", i == len(rows)-1)
	}
	sb.WriteString("]\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

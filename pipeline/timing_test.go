package pipeline

import (
	"strings"
	"testing"
	"time"
)

// TestTimingUserColumn checks MLIR's rule for the user-time column: it
// shows only when work on other threads made user time differ from wall
// time, and the list display starts with the root timer.
func TestTimingUserColumn(t *testing.T) {
	report := func(workers ...int) string {
		tm := NewTiming()
		p := tm.Root().Nest("p", "'func.func' Pipeline")
		for _, w := range workers {
			p.Add(w, 10*time.Millisecond)
		}
		// The report's total is the real time since NewTiming.
		time.Sleep(30 * time.Millisecond)
		var sb strings.Builder
		if err := tm.Report(&sb, DisplayList, true, false); err != nil {
			t.Fatal(err)
		}
		return sb.String()
	}
	seq := report(0, 0)
	if strings.Contains(seq, "User Time") {
		t.Errorf("one worker: unexpected user-time column\n%s", seq)
	}
	par := report(1, 2)
	if !strings.Contains(par, "----User Time----  ----Wall Time----  ----Name----") {
		t.Errorf("two workers: no user-time column\n%s", par)
	}
	for _, r := range []string{seq, par} {
		_, after, _ := strings.Cut(r, "----Name----\n")
		if first, _, _ := strings.Cut(after, "\n"); !strings.HasSuffix(first, "(100.0%)  root") {
			t.Errorf("list does not start with the root timer: %q", first)
		}
	}
}

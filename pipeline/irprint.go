package pipeline

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/rlx-compiler/rlx/internal/outfile"
	"github.com/rlx-compiler/rlx/ir"
)

// IRPrinting configures the IR-dump instrumentation (mlir-opt's
// --mlir-print-ir-* flags).
type IRPrinting struct {
	// Before and After list pass arguments to dump the IR before/after.
	Before, After []string
	// BeforeAll and AfterAll dump around every pass.
	BeforeAll, AfterAll bool
	// AfterChange dumps after a pass only when it changed the IR.
	AfterChange bool
	// AfterFailure dumps after a pass that failed (also on its own).
	AfterFailure bool
	// ModuleScope prints the whole top-level op instead of the op the pass
	// ran on. A PassManager with such a printer runs without threads.
	ModuleScope bool
	// TreeDir, when set, writes each dump to a file in a directory tree
	// that mirrors the op nesting instead of to Out.
	TreeDir string
	// Print selects the printing form.
	Print ir.PrintOptions
	// Out receives the dumps (typically stderr).
	Out io.Writer
}

// Enabled reports whether any dump is requested.
func (c *IRPrinting) Enabled() bool {
	return c.BeforeAll || c.AfterAll || c.AfterFailure || len(c.Before) > 0 || len(c.After) > 0
}

// NewIRPrinter returns an instrumentation that dumps IR around passes with
// mlir-opt's headers, e.g. `// -----// IR Dump After CSE (cse) //----- //`.
func NewIRPrinter(cfg IRPrinting) Instrumentation {
	return &irPrinter{cfg: cfg, hashes: map[*PassEvent]uint64{}, counters: map[*ir.Operation]int{}}
}

type irPrinter struct {
	BaseInstrumentation
	cfg IRPrinting

	mu       sync.Mutex
	hashes   map[*PassEvent]uint64
	counters map[*ir.Operation]int
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (pr *irPrinter) printBefore(p Pass) bool {
	return pr.cfg.BeforeAll || contains(pr.cfg.Before, p.Info().Argument)
}

func (pr *irPrinter) printAfter(p Pass) bool {
	return pr.cfg.AfterAll || contains(pr.cfg.After, p.Info().Argument)
}

// countPipeline advances the tree-dir counter of the op a nested
// pipeline ran on, as mlir-opt numbers its dump files.
func (pr *irPrinter) countPipeline(ev *PassEvent) {
	if pr.cfg.TreeDir != "" {
		pr.mu.Lock()
		pr.counters[ev.Op]++
		pr.mu.Unlock()
	}
}

func (pr *irPrinter) BeforePass(ev *PassEvent) {
	if ev.IsPipeline() {
		return
	}
	if pr.cfg.AfterChange && pr.printAfter(ev.Pass) {
		h := fingerprint(ev.Op)
		pr.mu.Lock()
		pr.hashes[ev] = h
		pr.mu.Unlock()
	}
	if pr.printBefore(ev.Pass) {
		pr.dump(ev, "Before", "")
	}
}

func (pr *irPrinter) AfterPass(ev *PassEvent) {
	if ev.IsPipeline() {
		pr.countPipeline(ev)
		return
	}
	pr.mu.Lock()
	h, hadHash := pr.hashes[ev]
	delete(pr.hashes, ev)
	pr.mu.Unlock()
	if pr.cfg.AfterFailure || !pr.printAfter(ev.Pass) {
		return
	}
	if pr.cfg.AfterChange && hadHash && fingerprint(ev.Op) == h {
		return
	}
	pr.dump(ev, "After", "")
}

func (pr *irPrinter) AfterPassFailed(ev *PassEvent) {
	if ev.IsPipeline() {
		pr.countPipeline(ev)
		return
	}
	pr.mu.Lock()
	delete(pr.hashes, ev)
	pr.mu.Unlock()
	if pr.cfg.AfterFailure || pr.printAfter(ev.Pass) {
		pr.dump(ev, "After", " Failed")
	}
}

func (pr *irPrinter) dump(ev *PassEvent, when, failed string) {
	info := ev.Pass.Info()
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "// -----// IR Dump %s %s%s (%s)", when, info.DisplayName(), failed, info.Argument)
	if pr.cfg.ModuleScope {
		fmt.Fprintf(&buf, " (%s)", describeOp(ev.Op))
	}
	buf.WriteString(" //----- //\n")
	op := ev.Op
	if pr.cfg.ModuleScope {
		for op.ParentOp() != nil {
			op = op.ParentOp()
		}
	}
	opts := pr.cfg.Print
	if op.ParentOp() == nil {
		if ir.Verify(op) != nil {
			opts.Generic = true
		}
		_ = ir.Print(&buf, op, opts)
		buf.WriteString("\n")
	} else {
		if ir.Verify(op, ir.VerifyOptions{SkipSymbolUses: true}) != nil {
			opts.Generic = true
		}
		_ = ir.PrintOp(&buf, op, opts)
		buf.WriteString("\n\n")
	}
	if pr.cfg.TreeDir != "" {
		pr.writeTree(ev, buf.Bytes())
		return
	}
	out := pr.cfg.Out
	if out == nil {
		out = os.Stderr
	}
	_, _ = ev.Output(out).Write(buf.Bytes())
}

// writeTree appends the dump to
// TreeDir/<top op>/<nested op>/…/<counters>_<pass>.mlir as mlir-opt does.
func (pr *irPrinter) writeTree(ev *PassEvent, data []byte) {
	var chain []*ir.Operation
	for op := ev.Op; op != nil; op = op.ParentOp() {
		chain = append(chain, op)
	}
	dirs := []string{pr.cfg.TreeDir}
	var counters []string
	pr.mu.Lock()
	for i := len(chain) - 1; i >= 0; i-- {
		op := chain[i]
		sym := ir.SymbolName(op)
		if sym == "" {
			sym = "no-symbol-name"
		}
		dirs = append(dirs, sanitizePath(strings.ReplaceAll(op.Name(), ".", "_")+"_"+sym))
		counters = append(counters, strconv.Itoa(pr.counters[op]))
	}
	pr.counters[ev.Op]++
	pr.mu.Unlock()
	dir := filepath.Join(dirs...)
	name := strings.Join(counters, "_") + "_" + sanitizePath(ev.Pass.Info().Argument) + ".mlir"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	// Each dump replaces its file whole, as mlir-opt writes it, so a rerun
	// into the same directory does not append to an earlier run's dump.
	_ = outfile.WriteFile(filepath.Join(dir, name), data)
}

func sanitizePath(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, s)
}

// fingerprint hashes the generic form of op with locations, to detect
// whether a pass changed it.
func fingerprint(op *ir.Operation) uint64 {
	h := fnv.New64a()
	_ = ir.PrintOp(h, op, ir.PrintOptions{Generic: true, DebugInfo: true})
	return h.Sum64()
}

package optdriver

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"strings"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/codegen/translation"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/internal/outfile"
	"github.com/rlx-compiler/rlx/internal/splitinput"
	"github.com/rlx-compiler/rlx/internal/srcline"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes"
	"github.com/rlx-compiler/rlx/pipeline"
)

// Config is what a tool built on the driver registers: its passes, named
// pipelines and dialects.
type Config struct {
	// ToolName is used in messages ("rlx-opt").
	ToolName string
	// Passes are available as flags (--cse) and in pipelines.
	Passes []*pipeline.PassInfo
	// Pipelines are named pass pipelines.
	Pipelines []*pipeline.PipelineInfo
	// RegisterDialects registers the dialects in each new context.
	RegisterDialects func(*ir.Context)
}

// DefaultConfig is rlx-opt's configuration: rlx's passes and every
// dialect. The test passes of package testpass are added by the rlx-opt
// command when it is built with the rlxtest tag, as the lit suite builds
// it, and by this package's tests.
func DefaultConfig() Config {
	return Config{
		ToolName:         "rlx-opt",
		Passes:           passes.All(),
		RegisterDialects: dialect.RegisterAll,
	}
}

// Main runs rlx-opt with DefaultConfig. args exclude the program name; the
// result is the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return MainWith(DefaultConfig(), args, stdin, stdout, stderr)
}

type driver struct {
	cfg    Config
	name   string
	reg    *pipeline.Registry
	flags  []*flagSpec
	o      *Options
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	timing *pipeline.Timing
	// release hands parsed input back to the kernel (whole-file runs only).
	release func(upTo int)
	// translation is the translation rlx-translate runs instead of a
	// pipeline, and aux the files it writes beside its output.
	translation *translation.Translation
	aux         *auxFiles
}

// MainWith runs an mlir-opt-like tool with cfg: it parses the input (whole
// or split into chunks), verifies it, runs the pipeline and prints the
// result, with mlir-opt's flags and exit codes (0 on success, 1 on any
// failure).
func MainWith(cfg Config, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	d, err := newDriver(cfg, stdin, stdout, stderr)
	if err == nil {
		d.o, err = d.parseArgs(args)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", d.name, err)
		return 1
	}
	if d.printInfo() {
		return 0
	}
	if !d.checkPipeline() {
		return 1
	}
	return d.run()
}

// newDriver makes the driver of cfg (with its defaults filled in) and
// registers its passes and named pipelines. The driver is returned even
// with an error, to name the tool in the message.
func newDriver(cfg Config, stdin io.Reader, stdout, stderr io.Writer) (*driver, error) {
	if cfg.ToolName == "" {
		cfg.ToolName = "rlx-opt"
	}
	if cfg.RegisterDialects == nil {
		cfg.RegisterDialects = dialect.RegisterAll
	}
	d := &driver{cfg: cfg, name: cfg.ToolName, flags: generalFlags(), stdin: stdin, stdout: stdout, stderr: stderr}
	d.reg = pipeline.NewRegistry()
	for _, p := range cfg.Passes {
		if err := d.reg.Register(p); err != nil {
			return d, err
		}
	}
	for _, p := range cfg.Pipelines {
		if err := d.reg.RegisterPipeline(p); err != nil {
			return d, err
		}
	}
	return d, nil
}

// printInfo answers --help, --version, --list-passes and --show-dialects
// on stdout, reporting whether one of them was asked for.
func (d *driver) printInfo() bool {
	switch o := d.o; {
	case o.Help:
		d.printHelp(d.stdout)
	case o.Version:
		d.printVersion(d.stdout)
	case o.ListPasses:
		d.printPassList(d.stdout)
	case o.ShowDialects:
		d.printDialects(d.stdout)
	default:
		return false
	}
	return true
}

// checkPipeline validates the pipeline flags before any input is read, so
// that a typo is reported at once, with a caret.
func (d *driver) checkPipeline() bool {
	o := d.o
	// The pass lists of the IR printing flags name registered passes (or
	// pass pipelines), as LLVM's command line checks them.
	for _, l := range []struct {
		flag  string
		names []string
	}{{"mlir-print-ir-before", o.IRPrinting.Before}, {"mlir-print-ir-after", o.IRPrinting.After}} {
		for _, n := range l.names {
			if d.reg.Lookup(n) == nil && d.reg.LookupPipeline(n) == nil {
				fmt.Fprintf(d.stderr, "%s: for the --%s option: Cannot find option named '%s'!\n", d.name, l.flag, n)
				return false
			}
		}
	}
	if o.PassPipelineSet && len(o.PassFlags) > 0 {
		// mlir-opt's words, reported without a location.
		fmt.Fprintf(d.stderr, "<unknown>:0: error: '-pass-pipeline' option can't be used with individual pass options\n")
		return false
	}
	if o.PassPipelineSet {
		if _, err := pipeline.Parse(d.reg, o.PassPipeline); err != nil {
			d.printPipelineError(err)
			return false
		}
		return true
	}
	if _, err := d.buildFromFlags("builtin.module"); err != nil {
		d.printPipelineError(err)
		return false
	}
	return true
}

func (d *driver) printPipelineError(err error) {
	var se *pipeline.SyntaxError
	if errors.As(err, &se) {
		io.WriteString(d.stderr, se.Render())
		return
	}
	fmt.Fprintf(d.stderr, "%s: error: %v\n", d.name, err)
}

// buildFromFlags makes the pipeline of the pass flags, nesting each pass
// under its anchor as needed (mlir-opt's implicit nesting).
func (d *driver) buildFromFlags(anchor string) (*pipeline.OpPassManager, error) {
	pm := pipeline.NewOpPassManager(anchor)
	for _, f := range d.o.PassFlags {
		if pl := d.reg.LookupPipeline(f.name); pl != nil {
			if f.hasOpts && f.options != "" {
				return nil, &pipeline.SyntaxError{Text: f.arg, Pos: f.optPos, Msg: fmt.Sprintf("pass pipeline '%s' takes no options", f.name), Source: "<command-line>"}
			}
			if err := pl.Build(pm); err != nil {
				return nil, err
			}
			continue
		}
		p := pipeline.NewPass(d.reg.Lookup(f.name))
		if f.hasOpts {
			if err := pipeline.ParseOptionsIn(p, f.arg, f.optPos, len(f.arg), "<command-line>"); err != nil {
				return nil, err
			}
		}
		pm.AddPassImplicit(p)
	}
	return pm, pm.Err()
}

func (d *driver) run() int {
	o := d.o
	name := o.Input
	if name == "-" {
		name = "<stdin>"
	}
	// Files are mapped, not copied; see asm.ReadSource. The output is
	// written beside its target and renamed over it only on success
	// (outfile), so -o naming the input rewrites it in place, and a
	// failing run leaves the old file as it was.
	source, err := asm.ReadSource(o.Input, d.stdin)
	if err != nil {
		fmt.Fprintf(d.stderr, "cannot open input file '%s': %s\n", o.Input, describeIOError(err))
		return 1
	}
	defer source.Close()
	src := source.Data
	var w io.Writer = d.stdout
	var outFile *outfile.File
	if o.Output != "" && o.Output != "-" {
		outFile, err = outfile.Create(o.Output)
		if err != nil {
			fmt.Fprintf(d.stderr, "cannot open output file '%s': %s\n", o.Output, describeIOError(err))
			return 1
		}
		defer outFile.Discard()
		w = outFile
	}
	if o.Timing {
		d.timing = pipeline.NewTiming()
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	ok := true
	if o.SplitInputFile {
		chunks, misses := splitinput.Split(name, src, o.SplitMarker)
		for _, m := range misses {
			fmt.Fprintf(d.stderr, "%s:%d:%d: warning: near miss with file split marker\n%s\n%s^\n", name, m.Line, m.Col, m.Text, strings.Repeat(" ", m.Col-1))
		}
		for i, c := range chunks {
			if i > 0 {
				bw.WriteString(o.OutputSplitMarker + "\n")
			}
			if !d.processChunk(c.Name, c.Src, bw) {
				ok = false
			}
			if outFile == nil {
				// Each chunk's output before the next chunk's messages.
				bw.Flush()
			}
		}
	} else {
		d.release = source.Release
		ok = d.processChunk(name, src, bw)
	}
	if err := bw.Flush(); err != nil && ok {
		fmt.Fprintf(d.stderr, "%s: error writing '%s': %v\n", d.name, o.Output, err)
		ok = false
	}
	if ok {
		ok = d.commitAux()
	}
	if outFile != nil && ok {
		if err := outFile.Commit(); err != nil {
			fmt.Fprintf(d.stderr, "%s: error writing '%s': %v\n", d.name, o.Output, err)
			ok = false
		}
	}
	if d.timing != nil {
		_ = d.timing.Report(d.stderr, pipeline.TimingDisplay(o.TimingDisplay), !d.threadingOff(), o.OutputFormat == "json")
	}
	if !ok {
		return 1
	}
	return 0
}

func describeIOError(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func (d *driver) threadingOff() bool {
	return d.o.DisableThreading || d.o.IRPrinting.ModuleScope
}

func (d *driver) printOptions() ir.PrintOptions {
	o := d.o
	return ir.PrintOptions{
		Generic:                    o.Generic,
		DebugInfo:                  o.DebugInfo,
		LocalScope:                 o.LocalScope,
		ElideElementsAttrsIfLarger: o.ElideIfLarger,
		ElideElementsAttrs:         o.ElideSet,
		HexIfLarger:                o.HexIfLarger,
		SkipRegions:                o.SkipRegions,
		UniqueSSAIDs:               o.UniqueSSAIDs,
		PrintValueUsers:            o.ValueUsers,
		PrettyDebugInfo:            o.PrettyDebugInfo,
		ElideResourceStrings:       o.ElideResources,
		ResourceStringLimit:        int(o.ResourceLimit),
	}
}

// processChunk handles one input buffer (the whole file, or one split
// chunk) and appends its output to out. It reports success; with
// --verify-diagnostics success means every expectation was met.
func (d *driver) processChunk(name string, src []byte, out io.Writer) bool {
	o := d.o
	ctx := ir.NewContext()
	ctx.AllowUnregistered = o.AllowUnregistered
	ctx.SetMessagePrintOptions(d.printOptions())
	d.cfg.RegisterDialects(ctx)
	sm := asm.NewSourceMgr()
	sm.PrintOpOnDiagnostic = false
	sm.AddFile(name, src)
	printOpNote := o.PrintOpOnDiag && !o.VerifyDiagnostics
	var v *diagVerifier
	if o.VerifyDiagnostics {
		exps, errs := ParseExpected(src)
		v = &diagVerifier{file: name, expected: exps, onlyExpected: o.OnlyExpected,
			report: func(diag *ir.Diagnostic) { io.WriteString(d.stderr, sm.Render(diag)) },
			reportAt: func(line, col, width int, msg string) {
				d.renderRange(name, src, line, col, width, msg)
			}}
		for _, e := range errs {
			v.failed = true
			v.reportAt(e.Line, e.Col, e.Width, e.Msg)
		}
	}
	handle := func(diag *ir.Diagnostic) {
		if v != nil {
			v.handle(diag)
			return
		}
		if printOpNote && diag.Op != nil && diag.Severity != ir.SeverityNote {
			diag = d.withOpNote(diag)
		}
		io.WriteString(d.stderr, sm.Render(diag))
	}
	pop := ctx.Diags().PushHandler(handle)
	ok := d.runChunk(ctx, name, src, out, handle)
	pop()
	if v != nil {
		v.finish()
		return !v.failed
	}
	return ok
}

// withOpNote returns d with mlir-opt's "see current operation" note first.
// Like MLIR, errors print the op in generic form; warnings and remarks
// with the output's printing flags.
func (d *driver) withOpNote(diag *ir.Diagnostic) *ir.Diagnostic {
	var sb strings.Builder
	po := diag.Op.Context().MessagePrintOptions()
	if diag.Severity != ir.SeverityError {
		po.Generic = d.o.Generic
	}
	_ = ir.PrintOp(&sb, diag.Op, po)
	text := sb.String()
	if strings.Contains(text, "\n") {
		text = "\n" + text
	}
	c := *diag
	note := &ir.Diagnostic{Severity: ir.SeverityNote, Loc: diag.Op.Loc(), Message: "see current operation: " + text}
	c.Notes = append([]*ir.Diagnostic{note}, diag.Notes...)
	return &c
}

// renderRange prints an error at line:col of a buffer with the source line
// and `^~~~` under width characters, as LLVM's SourceMgr does for ranges.
func (d *driver) renderRange(name string, src []byte, line, col, width int, msg string) {
	lines := strings.Split(string(src), "\n")
	fmt.Fprintf(d.stderr, "%s:%d:%d: error: %s\n", name, line, col, msg)
	if line < 1 || line > len(lines) {
		return
	}
	text := strings.TrimRight(lines[line-1], "\r")
	shown, caret := srcline.Lines(text, col, srcline.Range{Start: col - 1, End: col - 1 + width})
	fmt.Fprintf(d.stderr, "%s\n", shown)
	if caret != "" {
		fmt.Fprintf(d.stderr, "%s\n", caret)
	}
}

func (d *driver) timer(name string) *pipeline.Timer {
	if d.timing == nil {
		return nil
	}
	return d.timing.Root().Nest(name, name)
}

func (d *driver) timed(name string, fn func()) {
	if t := d.timer(name); t != nil {
		t.Time(fn)
		return
	}
	fn()
}

// parse reads and verifies one input buffer, reporting errors to
// handle.
func (d *driver) parse(ctx *ir.Context, name string, src []byte, handle func(*ir.Diagnostic)) (*asm.File, bool) {
	var f *asm.File
	var err error
	d.timed("Parser", func() {
		f, err = asm.Parse(ctx, name, src, asm.Options{NoImplicitModule: d.o.NoImplicitModule, Release: d.release})
		if d.release != nil {
			// Done with the text; diagnostics read released pages back.
			d.release(len(src))
		}
		if err == nil {
			// Like mlir-opt, the functions of a module are verified in
			// parallel unless threading is off.
			workers := runtime.GOMAXPROCS(0)
			if d.threadingOff() {
				workers = 1
			}
			err = ir.Verify(f.Op, ir.VerifyOptions{Workers: workers})
		}
		if err == nil && len(src) > 4<<20 {
			// The parser's and the verifier's tables are garbage now, and
			// the IR is what stays live. Collecting here sets the
			// collector's next goal from the IR alone, so the rest of the
			// run adds little to the peak; and the passes start from a
			// collected heap, so the first one reuses the memory freed
			// instead of faulting in fresh pages, and its time does not
			// depend on where parsing left the collector (measured in
			// docs/hybrid-split.md, Performance: "A collected heap before
			// the passes").
			runtime.GC()
		}
	})
	if err != nil {
		for _, diag := range asm.ErrorDiagnostics(ctx, err) {
			handle(diag)
		}
		return nil, false
	}
	return f, true
}

func (d *driver) runChunk(ctx *ir.Context, name string, src []byte, out io.Writer, handle func(*ir.Diagnostic)) bool {
	o := d.o
	f, ok := d.parse(ctx, name, src, handle)
	if !ok {
		return false
	}
	if d.translation != nil {
		return d.translate(f, out, handle)
	}
	if o.VerifyRoundTrip {
		if diag := d.verifyRoundTrip(f.Op); diag != nil {
			handle(diag)
			return false
		}
	}
	opm, rs, ok := d.chunkPipeline(f, handle)
	if !ok {
		return false
	}
	outOpts := d.outputOptions(f)
	pm := d.newPassManager(ctx, opm, rs, outOpts)
	runErr := pm.Run(f.Op)
	if o.Statistics {
		display := pipeline.StatsDisplay(o.StatsDisplay)
		_ = pipeline.ReportStatistics(d.stderr, pm.Pipeline(), display, o.OutputFormat == "json")
	}
	if runErr != nil {
		var fail *pipeline.Failure
		if !errors.As(runErr, &fail) {
			d.printPipelineError(runErr)
		}
		return false
	}
	if o.GenReproducer != "" && !d.generateReproducer(f, opm, outOpts) {
		return false
	}
	d.timed("Output", func() {
		po := outOpts
		// Like MLIR's printer, fall back to the generic form for IR that
		// does not verify, unless told it does.
		if !rs.verifyEach && !o.AssumeVerified && ir.Verify(f.Op) != nil {
			po.Generic = true
		}
		_ = ir.Print(out, f.Op, po)
	})
	return true
}

// runSettings are the settings of one chunk's pipeline run: the flags',
// or those stored in the input with --run-reproducer.
type runSettings struct {
	disableThreading, verifyEach bool
}

// chunkPipeline builds the pipeline to run on a chunk: from
// --pass-pipeline, from the pass flags (nested under the chunk's top op),
// or from the input's mlir_reproducer resource with --run-reproducer.
func (d *driver) chunkPipeline(f *asm.File, handle func(*ir.Diagnostic)) (*pipeline.OpPassManager, runSettings, bool) {
	o := d.o
	text, textSet := o.PassPipeline, o.PassPipelineSet
	rs := runSettings{disableThreading: d.threadingOff(), verifyEach: o.VerifyEach}
	if o.RunReproducer {
		r, found, err := pipeline.ReadReproducer(f)
		if err == nil && !found {
			err = errors.New("no mlir_reproducer configuration found in the input (expected {-# external_resources: {mlir_reproducer: {pipeline: \"...\"}} #-})")
		}
		if err != nil {
			handle(ir.NewError(f.Op.Loc(), "%v", err))
			return nil, rs, false
		}
		text, textSet = r.Pipeline, true
		rs.disableThreading = rs.disableThreading || r.DisableThreading
		rs.verifyEach = r.VerifyEach
	}
	var opm *pipeline.OpPassManager
	var err error
	if textSet {
		opm, err = pipeline.Parse(d.reg, text)
	} else {
		opm, err = d.buildFromFlags(f.Op.Name())
	}
	if err != nil {
		d.printPipelineError(err)
		return nil, rs, false
	}
	return opm, rs, true
}

// outputOptions are the printing options of the output and of
// reproducers: the flags', plus the external resources no one consumed
// (the reproducer's own with --run-reproducer). IR printing around passes
// shows the IR alone, as in MLIR.
func (d *driver) outputOptions(f *asm.File) ir.PrintOptions {
	po := d.printOptions()
	for _, g := range f.External {
		if !(d.o.RunReproducer && g.Name == pipeline.ReproducerResource) {
			po.ExternalResources = append(po.ExternalResources, g)
		}
	}
	return po
}

// newPassManager makes the manager that runs opm on a chunk, with the
// instrumentations the flags ask for: timing, IR printing and crash
// reproducers.
func (d *driver) newPassManager(ctx *ir.Context, opm *pipeline.OpPassManager, rs runSettings, outOpts ir.PrintOptions) *pipeline.PassManager {
	o := d.o
	pm := pipeline.NewWith(ctx, opm)
	pm.VerifyEach = rs.verifyEach
	pm.DisableThreading = rs.disableThreading
	if o.DumpPassPipeline {
		fmt.Fprintf(d.stderr, "Pass Manager with %d passes:\n%s\n\n", pm.Len(), pm.String())
	}
	if d.timing != nil {
		pm.AddInstrumentation(d.timing.Instrumentation(nil))
	}
	if o.IRPrinting.Enabled() {
		cfg := o.IRPrinting
		cfg.Print = d.printOptions()
		cfg.Out = d.stderr
		pm.AddInstrumentation(pipeline.NewIRPrinter(cfg))
	}
	if o.CrashReproducer != "" {
		if o.LocalReproducer {
			pm.EnableLocalCrashReproducer(o.CrashReproducer, outOpts)
		} else {
			pm.EnableCrashReproducer(o.CrashReproducer, outOpts)
		}
	}
	return pm
}

// generateReproducer writes --mlir-generate-reproducer's file after a
// successful run, as mlir-opt 19 does: the IR the passes left and the
// pipeline's passes under an `any` anchor, with threading and verification
// at their defaults.
func (d *driver) generateReproducer(f *asm.File, opm *pipeline.OpPassManager, outOpts ir.PrintOptions) bool {
	r := &pipeline.Reproducer{Pipeline: f.Op.Name() + "(any(" + opm.PassesString() + "))"}
	if err := writeReproducer(d.o.GenReproducer, r, f.Op, outOpts); err != nil {
		fmt.Fprintf(d.stderr, "%s: error: failed to write reproducer '%s': %v\n", d.name, d.o.GenReproducer, err)
		return false
	}
	return true
}

// writeReproducer writes a reproducer file through outfile, so a failed
// write leaves no half file and the file may be the input itself.
func writeReproducer(path string, r *pipeline.Reproducer, op *ir.Operation, po ir.PrintOptions) error {
	f, err := outfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Discard()
	if err := r.Write(f, op, po); err != nil {
		return err
	}
	return f.Commit()
}

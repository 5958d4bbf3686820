package optdriver

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/internal/suggest"
	"github.com/rlx-compiler/rlx/pipeline"
)

// Options are the parsed command-line flags.
type Options struct {
	Input  string
	Output string

	// Parsing and printing.
	AllowUnregistered bool
	NoImplicitModule  bool
	Generic           bool
	DebugInfo         bool
	LocalScope        bool
	AssumeVerified    bool
	PrettyDebugInfo   bool
	ValueUsers        bool
	ElideResources    bool
	ResourceLimit     int64
	UniqueSSAIDs      bool
	SkipRegions       bool
	ElideIfLarger     int64
	ElideSet          bool
	HexIfLarger       int64
	PrintOpOnDiag     bool

	// Splitting and diagnostics checking.
	SplitInputFile    bool
	SplitMarker       string
	OutputSplitMarker string
	VerifyDiagnostics bool
	VerifyRoundTrip   bool
	OnlyExpected      bool

	// The pipeline.
	PassPipeline     string
	PassPipelineSet  bool
	PassFlags        []passFlag
	DumpPassPipeline bool
	VerifyEach       bool
	DisableThreading bool

	// Instrumentation.
	Timing          bool
	TimingDisplay   string
	OutputFormat    string
	Statistics      bool
	StatsDisplay    string
	IRPrinting      pipeline.IRPrinting
	CrashReproducer string
	LocalReproducer bool
	GenReproducer   string
	RunReproducer   bool

	// rlx-translate: the translations asked for (one is allowed) and the
	// values of their options.
	Translations    []string
	TranslationOpts map[string]string

	// Informational.
	Help         bool
	HelpHidden   bool
	Version      bool
	ListPasses   bool
	ShowDialects bool
}

// passFlag is a pass or named pipeline given as a flag (`--cse`,
// `--canonicalize=max-iterations=3`), with the argument as written for
// error carets.
type passFlag struct {
	name    string
	options string
	hasOpts bool
	arg     string // the whole command-line argument
	optPos  int    // offset of the options in arg
}

type flagKind int

const (
	flagBool     flagKind = iota // --x, --x=true|false
	flagValue                    // --x=v or --x v (value required)
	flagOptional                 // --x or --x=v (value optional, never the next argument)
)

// flagSpec is one general flag of rlx-opt.
type flagSpec struct {
	name    string
	alias   string
	kind    flagKind
	value   string // value name shown by --help: "<filename>"
	help    string
	enum    []pipeline.EnumValue
	set     func(o *Options, v string, has bool) error
	setBool func(o *Options, b bool)
	// translation marks rlx-translate's flags that name a translation,
	// which --help lists apart.
	translation bool
}

func boolFlag(name, help string, set func(o *Options, b bool)) *flagSpec {
	return &flagSpec{name: name, kind: flagBool, help: help, setBool: set}
}

func strFlag(name, value, help string, set func(o *Options, v string)) *flagSpec {
	return &flagSpec{name: name, kind: flagValue, value: value, help: help,
		set: func(o *Options, v string, _ bool) error { set(o, v); return nil }}
}

// longFlag is a signed 64-bit flag (LLVM's cl::opt<int64_t>, shown as
// `=<long>`).
func longFlag(name, help string, set func(o *Options, v int64)) *flagSpec {
	return numFlag(name, "long", "long", help, func(v string) (int64, error) { return strconv.ParseInt(v, 0, 64) }, set)
}

// uintFlag is intFlag for LLVM's unsigned options, which reject negative
// values.
func uintFlag(name, help string, set func(o *Options, v int64)) *flagSpec {
	return numFlag(name, "uint", "uint", help, func(v string) (int64, error) {
		n, err := strconv.ParseUint(v, 0, 63)
		return int64(n), err
	}, set)
}

// numFlag is a numeric flag shown as `=<kind>`; a value parse rejects is
// reported as LLVM's command line reports it for an argument of that noun.
func numFlag(name, kind, noun, help string, parse func(string) (int64, error), set func(o *Options, v int64)) *flagSpec {
	return &flagSpec{name: name, kind: flagValue, value: "<" + kind + ">", help: help,
		set: func(o *Options, v string, _ bool) error {
			n, err := parse(v)
			if err != nil {
				return clError("'" + v + "' value invalid for " + noun + " argument!")
			}
			set(o, n)
			return nil
		}}
}

func enumFlag(name, help string, values []pipeline.EnumValue, set func(o *Options, v string)) *flagSpec {
	return &flagSpec{name: name, kind: flagValue, value: "<value>", help: help, enum: values,
		set: func(o *Options, v string, _ bool) error {
			for _, e := range values {
				if e.Name == v {
					set(o, v)
					return nil
				}
			}
			return clError("Cannot find option named '" + v + "'!")
		}}
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// generalFlags returns rlx-opt's flags (other than the pass flags), sorted
// by name.
func generalFlags() []*flagSpec {
	fs := []*flagSpec{
		{name: "o", kind: flagValue, value: "<filename>", help: "Output filename",
			set: func(o *Options, v string, _ bool) error { o.Output = v; return nil }},
		boolFlag("allow-unregistered-dialect", "Allow operation with no registered dialects", func(o *Options, b bool) { o.AllowUnregistered = b }),
		boolFlag("no-implicit-module", "Disable implicit addition of a top-level module op during parsing", func(o *Options, b bool) { o.NoImplicitModule = b }),
		boolFlag("mlir-print-op-generic", "Print the generic op form", func(o *Options, b bool) { o.Generic = b }),
		boolFlag("mlir-print-debuginfo", "Print debug info in MLIR output", func(o *Options, b bool) { o.DebugInfo = b }),
		boolFlag("mlir-pretty-debuginfo", "Print pretty debug info in MLIR output", func(o *Options, b bool) { o.PrettyDebugInfo = b }),
		boolFlag("mlir-print-assume-verified", "Skip op verification when using custom printers", func(o *Options, b bool) { o.AssumeVerified = b }),
		boolFlag("mlir-print-value-users", "Print users of operation results and block arguments as a comment", func(o *Options, b bool) { o.ValueUsers = b }),
		boolFlag("mlir-print-local-scope", "Print with local scope and inline information (eliding aliases for attributes, types, and locations)", func(o *Options, b bool) { o.LocalScope = b }),
		boolFlag("mlir-print-unique-ssa-ids", "Print unique SSA ID numbers for values, block arguments and naming conflicts across all regions", func(o *Options, b bool) { o.UniqueSSAIDs = b }),
		boolFlag("mlir-print-skip-regions", "Skip regions when printing ops.", func(o *Options, b bool) { o.SkipRegions = b }),
		uintFlag("mlir-elide-resource-strings-if-larger", "Elide printing value of resources if string is too long in chars.", func(o *Options, v int64) { o.ElideResources, o.ResourceLimit = true, v }),
		uintFlag("mlir-elide-elementsattrs-if-larger", "Elide ElementsAttrs with \"...\" that have more elements than the given upper limit", func(o *Options, v int64) { o.ElideIfLarger, o.ElideSet = v, true }),
		longFlag("mlir-print-elementsattrs-with-hex-if-larger", "Print DenseElementsAttrs with a hex string that have more elements than the given upper limit (use -1 to disable)", func(o *Options, v int64) { o.HexIfLarger = v }),
		boolFlag("mlir-print-op-on-diagnostic", "When a diagnostic is emitted on an operation, also print the operation as an attached note", func(o *Options, b bool) { o.PrintOpOnDiag = b }),
		{name: "split-input-file", kind: flagOptional, value: "<string>", help: "Split the input file into chunks using the given or default marker and process each chunk independently",
			set: func(o *Options, v string, has bool) error {
				o.SplitInputFile = true
				o.SplitMarker = defaultMarker
				if has {
					o.SplitMarker = v
					if v == "" {
						o.SplitInputFile = false
					}
				}
				return nil
			}},
		strFlag("output-split-marker", "<string>", "Split marker to use for merging the output", func(o *Options, v string) { o.OutputSplitMarker = v }),
		{name: "verify-diagnostics", kind: flagOptional, value: "<value>", help: "Check that emitted diagnostics match expected-* lines on the corresponding line",
			enum: []pipeline.EnumValue{{Name: "all", Help: "Check all diagnostics (expected, unexpected, near-misses)"}, {Name: "only-expected", Help: "Check only expected diagnostics"}},
			set: func(o *Options, v string, has bool) error {
				o.VerifyDiagnostics = true
				switch {
				case !has || v == "all" || v == "true" || v == "1":
					o.OnlyExpected = false
				case v == "only-expected":
					o.OnlyExpected = true
				case v == "false" || v == "0":
					o.VerifyDiagnostics = false
				default:
					return clError("Cannot find option named '" + v + "'!")
				}
				return nil
			}},
		{name: "pass-pipeline", alias: "p", kind: flagValue, value: "<string>", help: "Textual description of the pass pipeline to run",
			set: func(o *Options, v string, _ bool) error { o.PassPipeline, o.PassPipelineSet = v, true; return nil }},
		boolFlag("dump-pass-pipeline", "Print the pipeline that will be run", func(o *Options, b bool) { o.DumpPassPipeline = b }),
		boolFlag("verify-roundtrip", "Round-trip the IR after parsing and ensure it succeeds", func(o *Options, b bool) { o.VerifyRoundTrip = b }),
		boolFlag("verify-each", "Run the verifier after each transformation pass (default: true)", func(o *Options, b bool) { o.VerifyEach = b }),
		boolFlag("mlir-disable-threading", "Disable multi-threading within MLIR: run nested pipelines on one op after another", func(o *Options, b bool) { o.DisableThreading = b }),
		boolFlag("mlir-timing", "Display execution times", func(o *Options, b bool) { o.Timing = b }),
		enumFlag("mlir-timing-display", "Display method for timing data", []pipeline.EnumValue{
			{Name: "list", Help: "display the results in a list sorted by total time"},
			{Name: "tree", Help: "display the results ina with a nested tree view"}}, func(o *Options, v string) { o.TimingDisplay = v }),
		enumFlag("mlir-output-format", "Output format for timing data and statistics", []pipeline.EnumValue{
			{Name: "text", Help: "display the results in text format"},
			{Name: "json", Help: "display the results in JSON format"}}, func(o *Options, v string) { o.OutputFormat = v }),
		boolFlag("mlir-pass-statistics", "Display the statistics of each pass", func(o *Options, b bool) { o.Statistics = b }),
		enumFlag("mlir-pass-statistics-display", "Display method for pass statistics", []pipeline.EnumValue{
			{Name: "list", Help: "display the results in a merged list sorted by pass name"},
			{Name: "pipeline", Help: "display the results with a nested pipeline view"}}, func(o *Options, v string) { o.StatsDisplay = v }),
		strFlag("mlir-print-ir-before", "<pass-arg>", "Print IR before specified passes", func(o *Options, v string) {
			o.IRPrinting.Before = append(o.IRPrinting.Before, splitList(v)...)
		}),
		strFlag("mlir-print-ir-after", "<pass-arg>", "Print IR after specified passes", func(o *Options, v string) {
			o.IRPrinting.After = append(o.IRPrinting.After, splitList(v)...)
		}),
		boolFlag("mlir-print-ir-before-all", "Print IR before each pass", func(o *Options, b bool) { o.IRPrinting.BeforeAll = b }),
		boolFlag("mlir-print-ir-after-all", "Print IR after each pass", func(o *Options, b bool) { o.IRPrinting.AfterAll = b }),
		boolFlag("mlir-print-ir-after-change", "When printing the IR after a pass, only print if the IR changed", func(o *Options, b bool) { o.IRPrinting.AfterChange = b }),
		boolFlag("mlir-print-ir-after-failure", "When printing the IR after a pass, only print if the pass failed", func(o *Options, b bool) { o.IRPrinting.AfterFailure = b }),
		boolFlag("mlir-print-ir-module-scope", "When printing IR for print-ir-[before|after]{-all} always print the top-level operation (turns threading off)", func(o *Options, b bool) { o.IRPrinting.ModuleScope = b }),
		strFlag("mlir-print-ir-tree-dir", "<string>", "When printing the IR before/after a pass, print file tree rooted at this directory", func(o *Options, v string) { o.IRPrinting.TreeDir = v }),
		strFlag("mlir-pass-pipeline-crash-reproducer", "<string>", "Generate a .mlir reproducer file at the given output path if the pass manager crashes or fails", func(o *Options, v string) { o.CrashReproducer = v }),
		boolFlag("mlir-pass-pipeline-local-reproducer", "When generating a crash reproducer, attempt to generate a reproducer with the smallest pipeline (the IR just before the failing pass, and only that pass)", func(o *Options, b bool) { o.LocalReproducer = b }),
		strFlag("mlir-generate-reproducer", "<filename>", "Generate an mlir reproducer at the provided filename (no crash required)", func(o *Options, v string) { o.GenReproducer = v }),
		boolFlag("run-reproducer", "Run the pipeline stored in the reproducer", func(o *Options, b bool) { o.RunReproducer = b }),
		boolFlag("list-passes", "Print every registered pass with its anchor, options and defaults, and exit", func(o *Options, b bool) { o.ListPasses = b }),
		boolFlag("show-dialects", "Print the list of registered dialects and exit", func(o *Options, b bool) { o.ShowDialects = b }),
		{name: "help", alias: "h", kind: flagBool, help: "Display available options (--help-hidden for more)", setBool: func(o *Options, b bool) { o.Help = b }},
		{name: "help-hidden", kind: flagBool, help: "Display all available options", setBool: func(o *Options, b bool) { o.Help, o.HelpHidden = b, b }},
		boolFlag("version", "Display the version of this program", func(o *Options, b bool) { o.Version = b }),
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].name < fs[j].name })
	return fs
}

const defaultMarker = "// -----"

// clError is a flag value error worded as LLVM's command-line library
// words it.
type clError string

func (e clError) Error() string { return string(e) }

// flagError is a command-line error; its text is printed after the tool
// name, as LLVM's command-line library does.
type flagError struct{ msg string }

func (e *flagError) Error() string { return e.msg }

// parseArgs parses args in LLVM's cl style: `-x`, `--x`, `--x=v`, `-x v`
// for flags that take a value, positional input anywhere, `--` ends the
// flags.
func (d *driver) parseArgs(args []string) (*Options, error) {
	o := &Options{
		Input:             "-",
		VerifyEach:        true,
		PrintOpOnDiag:     true,
		OutputSplitMarker: defaultMarker,
		TimingDisplay:     "tree",
		OutputFormat:      "text",
		StatsDisplay:      "pipeline",
	}
	flags := map[string]*flagSpec{}
	for _, f := range d.flags {
		flags[f.name] = f
		if f.alias != "" {
			flags[f.alias] = f
		}
	}
	inputSet := false
	positional := func(a string) error {
		if inputSet {
			return &flagError{"Too many positional arguments specified!\nCan specify at most 1 positional arguments: See: " + d.name + " --help"}
		}
		o.Input, inputSet = a, true
		return nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			for _, rest := range args[i+1:] {
				if err := positional(rest); err != nil {
					return nil, err
				}
			}
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			if err := positional(a); err != nil {
				return nil, err
			}
			continue
		}
		body := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		name, val, has := body, "", false
		if eq := strings.IndexByte(body, '='); eq >= 0 {
			name, val, has = body[:eq], body[eq+1:], true
		}
		f := flags[name]
		if f == nil {
			if pi := d.reg.Lookup(name); pi != nil || d.reg.LookupPipeline(name) != nil {
				pf := passFlag{name: name, options: val, hasOpts: has, arg: a}
				if has {
					pf.optPos = len(a) - len(val)
				}
				o.PassFlags = append(o.PassFlags, pf)
				continue
			}
			msg := fmt.Sprintf("Unknown command line argument '%s'.  Try: '%s --help'", a, d.name)
			if s := d.suggestFlag(name); s != "" {
				msg += fmt.Sprintf("\n%s: Did you mean '--%s'?", d.name, s)
			}
			return nil, &flagError{msg}
		}
		switch f.kind {
		case flagBool:
			b := true
			if has {
				switch val {
				case "true", "TRUE", "True", "1":
				case "false", "FALSE", "False", "0":
					b = false
				default:
					return nil, &flagError{fmt.Sprintf("for the %s option: '%s' is invalid value for boolean argument! Try 0 or 1", dashed(f.name), val)}
				}
			}
			f.setBool(o, b)
		case flagValue:
			if !has {
				if i+1 >= len(args) {
					return nil, &flagError{fmt.Sprintf("for the %s option: requires a value!", dashed(f.name))}
				}
				i++
				val = args[i]
			}
			if err := f.set(o, val, true); err != nil {
				return nil, &flagError{fmt.Sprintf("for the %s option: %v", dashed(f.name), err)}
			}
		case flagOptional:
			if err := f.set(o, val, has); err != nil {
				return nil, &flagError{fmt.Sprintf("for the %s option: %v", dashed(f.name), err)}
			}
		}
	}
	return o, nil
}

// dashed returns a flag name with its dashes as LLVM prints it.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// suggestFlag returns the flag or pass name nearest to name, if close.
func (d *driver) suggestFlag(name string) string {
	var cands []string
	for _, f := range d.flags {
		cands = append(cands, f.name)
	}
	for _, p := range d.reg.Passes() {
		cands = append(cands, p.Argument)
	}
	for _, p := range d.reg.Pipelines() {
		cands = append(cands, p.Argument)
	}
	return suggest.Closest(name, cands)
}

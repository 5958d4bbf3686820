package optdriver

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/codegen"
	"github.com/rlx-compiler/rlx/codegen/translation"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/internal/outfile"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
)

// TranslateConfig is what a translation tool built on the driver
// registers: its translations and dialects.
type TranslateConfig struct {
	// ToolName is used in messages ("rlx-translate").
	ToolName string
	// Translations are available as flags (--mlir-to-dot).
	Translations []*translation.Translation
	// RegisterDialects registers the dialects in each new context.
	RegisterDialects func(*ir.Context)
}

// DefaultTranslateConfig is rlx-translate's configuration: codegen.All
// and every dialect.
func DefaultTranslateConfig() TranslateConfig {
	return TranslateConfig{ToolName: "rlx-translate", Translations: codegen.All(), RegisterDialects: dialect.RegisterAll}
}

// TranslateMain runs rlx-translate with DefaultTranslateConfig. args
// exclude the program name; the result is the exit code.
func TranslateMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return TranslateMainWith(DefaultTranslateConfig(), args, stdin, stdout, stderr)
}

// TranslateMainWith runs an mlir-translate-like tool with cfg: it parses
// the input (whole or split into chunks), verifies it and runs the one
// translation asked for, with rlx-opt's input, output, splitting and
// diagnostics flags and exit codes (0 on success, 1 on any failure).
func TranslateMainWith(cfg TranslateConfig, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if cfg.ToolName == "" {
		cfg.ToolName = "rlx-translate"
	}
	if cfg.RegisterDialects == nil {
		cfg.RegisterDialects = dialect.RegisterAll
	}
	reg, err := translation.NewRegistry(cfg.Translations...)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cfg.ToolName, err)
		return 1
	}
	d := &driver{
		cfg:    Config{ToolName: cfg.ToolName, RegisterDialects: cfg.RegisterDialects},
		name:   cfg.ToolName,
		reg:    pipeline.NewRegistry(),
		flags:  translateFlags(reg),
		stdin:  stdin,
		stdout: stdout,
		stderr: stderr,
	}
	o, err := d.parseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", d.name, err)
		return 1
	}
	d.o = o
	switch {
	case o.Help:
		d.printTranslateHelp(stdout, reg)
		return 0
	case o.Version:
		d.printVersion(stdout)
		return 0
	}
	switch len(o.Translations) {
	case 0:
		fmt.Fprintf(stderr, "%s: Translations to perform option: must be specified at least once!\n", d.name)
		return 1
	case 1:
	default:
		fmt.Fprintf(stderr, "%s: Translations to perform option: may only occur zero or one times! (--%s and --%s given)\n",
			d.name, o.Translations[0], o.Translations[1])
		return 1
	}
	d.translation = reg.Lookup(o.Translations[0])
	for name := range o.TranslationOpts {
		if _, owner := reg.Option(name); owner != d.translation {
			fmt.Fprintf(stderr, "%s: for the --%s option: it is an option of --%s, not of --%s\n", d.name, name, owner.Name, d.translation.Name)
			return 1
		}
	}
	d.aux = &auxFiles{marker: o.OutputSplitMarker}
	if o.Output != "" && o.Output != "-" {
		d.aux.base = strings.TrimSuffix(o.Output, filepath.Ext(o.Output))
	}
	return d.run()
}

// translateFlags returns rlx-translate's flags: the input, output,
// splitting and diagnostics flags of rlx-opt, one flag per translation
// and one per translation option, sorted by name.
func translateFlags(reg *translation.Registry) []*flagSpec {
	keep := map[string]bool{
		"o": true, "allow-unregistered-dialect": true, "no-implicit-module": true,
		"split-input-file": true, "output-split-marker": true, "verify-diagnostics": true,
		"mlir-print-op-on-diagnostic": true, "help": true, "help-hidden": true, "version": true,
	}
	var fs []*flagSpec
	for _, f := range generalFlags() {
		if keep[f.name] {
			fs = append(fs, f)
		}
	}
	for _, t := range reg.Translations() {
		name := t.Name
		fs = append(fs, &flagSpec{name: name, kind: flagBool, help: t.Summary, translation: true,
			setBool: func(o *Options, b bool) {
				if b {
					o.Translations = append(o.Translations, name)
				}
			}})
		for _, opt := range t.Options {
			opt := opt
			fs = append(fs, &flagSpec{name: opt.Name, kind: flagValue, value: opt.Value, help: opt.Help + " (--" + name + ", default: " + opt.Default + ")",
				set: func(o *Options, v string, _ bool) error {
					if opt.Check != nil {
						if err := opt.Check(v); err != nil {
							return err
						}
					}
					if o.TranslationOpts == nil {
						o.TranslationOpts = map[string]string{}
					}
					o.TranslationOpts[opt.Name] = v
					return nil
				}})
		}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].name < fs[j].name })
	return fs
}

func (d *driver) printTranslateHelp(w io.Writer, reg *translation.Registry) {
	fmt.Fprintf(w, "OVERVIEW: rlx translation driver\n\n")
	fmt.Fprintf(w, "Available Dialects: %s\n", strings.Join(d.dialectNames(), ", "))
	fmt.Fprintf(w, "USAGE: %s [options] <input file>\n\nOPTIONS:\n\nGeneral options:\n\n", d.name)
	for _, f := range d.flags {
		if !f.translation {
			d.helpFlag(w, f)
		}
	}
	fmt.Fprintf(w, "\n  Translations to perform\n")
	for _, t := range reg.Translations() {
		helpLine(w, 6, "--"+t.Name, "  "+t.Summary)
	}
}

// translate runs the translation on one parsed module, writing to out.
func (d *driver) translate(f *asm.File, out io.Writer, handle func(*ir.Diagnostic)) bool {
	d.aux.startChunk()
	var aux func(string) (io.Writer, error)
	if d.aux.base != "" {
		aux = d.aux.open
	}
	req := translation.NewRequest(d.translation, f.Op, out, d.o.TranslationOpts, aux)
	err := d.translation.Run(req)
	if err == nil {
		return true
	}
	diag, ok := err.(*ir.Diagnostic)
	if !ok {
		diag = ir.NewError(f.Op.Loc(), "%v", err)
	}
	handle(diag)
	return false
}

// auxFiles collects the files a translation writes beside its output, one
// buffer per suffix; with --split-input-file each chunk's part follows the
// output split marker, as the main output's does.
type auxFiles struct {
	base   string // the output's path without its extension
	marker string
	chunk  int // the chunk being translated, from 0
	files  map[string]*auxFile
	order  []string
}

type auxFile struct {
	buf   bytes.Buffer
	chunk int // the last chunk that wrote to it
}

func (a *auxFiles) startChunk() { a.chunk++ }

func (a *auxFiles) open(suffix string) (io.Writer, error) {
	if strings.ContainsAny(suffix, "/\\") {
		return nil, fmt.Errorf("aux file suffix %q names a directory", suffix)
	}
	if a.files == nil {
		a.files = map[string]*auxFile{}
	}
	f := a.files[suffix]
	if f == nil {
		f = &auxFile{}
		a.files[suffix] = f
		a.order = append(a.order, suffix)
	} else if f.chunk != a.chunk {
		f.buf.WriteString(a.marker + "\n")
	}
	f.chunk = a.chunk
	return &f.buf, nil
}

// commitAux writes the aux files, each atomically, after a successful
// run. It reports success.
func (d *driver) commitAux() bool {
	if d.aux == nil {
		return true
	}
	for _, suffix := range d.aux.order {
		path := d.aux.base + suffix
		if err := outfile.WriteFile(path, d.aux.files[suffix].buf.Bytes()); err != nil {
			fmt.Fprintf(d.stderr, "%s: error writing '%s': %v\n", d.name, path, err)
			return false
		}
	}
	return true
}

package optdriver

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline"
)

// helpColumn is where descriptions start in --help, as in LLVM's output.
const helpColumn = 45

func helpLine(w io.Writer, indent int, left, desc string) {
	pad := helpColumn - indent - len(left)
	if pad < 1 {
		pad = 1
	}
	fmt.Fprintf(w, "%s%s%s- %s\n", strings.Repeat(" ", indent), left, strings.Repeat(" ", pad), desc)
}

func (d *driver) printHelp(w io.Writer) {
	fmt.Fprintf(w, "OVERVIEW: rlx modular optimizer driver\n\n")
	fmt.Fprintf(w, "Available Dialects: %s\n", strings.Join(d.dialectNames(), ", "))
	fmt.Fprintf(w, "USAGE: %s [options] <input file>\n\nOPTIONS:\n\nGeneral options:\n\n", d.name)
	for _, f := range d.flags {
		d.helpFlag(w, f)
	}
	fmt.Fprintf(w, "  Compiler passes to run\n    Passes:\n")
	for _, pi := range d.reg.Passes() {
		helpLine(w, 6, "--"+pi.Argument, "  "+pi.Summary+" (on "+anchorText(pi)+")")
		for _, o := range pipeline.DefaultOptions(pi) {
			left := "--" + o.Name
			if !o.IsBool() {
				left += "=<" + o.Type + ">"
			}
			helpLine(w, 8, left, o.Help+" (default: "+defaultText(o)+")")
			for _, e := range o.Enum {
				helpLine(w, 10, "="+e.Name, "  "+e.Help)
			}
		}
	}
	if pls := d.reg.Pipelines(); len(pls) > 0 {
		fmt.Fprintf(w, "    Pass Pipelines:\n")
		for _, pl := range pls {
			helpLine(w, 6, "--"+pl.Argument, "  "+pl.Summary)
		}
	}
}

// helpFlag prints one general flag as LLVM's --help does.
func (d *driver) helpFlag(w io.Writer, f *flagSpec) {
	left := "--" + f.name
	if len(f.name) == 1 {
		left = "-" + f.name
	}
	switch f.kind {
	case flagValue:
		if f.name == "o" {
			left += " " + f.value
		} else {
			left += "=" + f.value
		}
	case flagOptional:
		left += "[=" + f.value + "]"
	}
	help := f.help
	if f.alias != "" {
		help += " (alias: -" + f.alias + ")"
	}
	helpLine(w, 2, left, help)
	for _, e := range f.enum {
		helpLine(w, 4, "="+e.Name, "  "+e.Help)
	}
}

func anchorText(pi *pipeline.PassInfo) string {
	if a := pi.AnchorName(); a != pipeline.AnyOp {
		return "'" + a + "'"
	}
	return "any op"
}

func defaultText(o *pipeline.Option) string {
	if o.Default == "" {
		if o.List {
			return "empty"
		}
		return `""`
	}
	return o.Default
}

// printPassList writes --list-passes: every pass with its anchor, summary
// and options with their types and defaults.
func (d *driver) printPassList(w io.Writer) {
	passes := d.reg.Passes()
	width := 0
	for _, pi := range passes {
		width = max(width, len(pi.Argument))
	}
	for _, pi := range passes {
		fmt.Fprintf(w, "%-*s  on %-16s  %s\n", width, pi.Argument, anchorText(pi), pi.Summary)
		for _, o := range pipeline.DefaultOptions(pi) {
			fmt.Fprintf(w, "    %s=<%s>  %s (default: %s)\n", o.Name, o.Type, o.Help, defaultText(o))
			if len(o.Enum) > 0 {
				var vals []string
				for _, e := range o.Enum {
					vals = append(vals, e.Name)
				}
				fmt.Fprintf(w, "        values: %s\n", strings.Join(vals, ", "))
			}
		}
	}
	for _, pl := range d.reg.Pipelines() {
		fmt.Fprintf(w, "%-*s  pipeline%-12s  %s\n", width, pl.Argument, "", pl.Summary)
	}
}

func (d *driver) printVersion(w io.Writer) {
	version := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				version += " " + s.Value[:12]
			}
		}
	}
	fmt.Fprintf(w, "rlx-opt version %s\n  Built with %s for %s/%s.\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func (d *driver) printDialects(w io.Writer) {
	fmt.Fprintf(w, "Available Dialects: %s\n", strings.Join(d.dialectNames(), ","))
}

// dialectNames returns the names of the dialects the configuration
// registers, in the order ctx.Dialects gives them.
func (d *driver) dialectNames() []string {
	ctx := ir.NewContext()
	d.cfg.RegisterDialects(ctx)
	var names []string
	for _, dl := range ctx.Dialects() {
		names = append(names, dl.Name)
	}
	return names
}

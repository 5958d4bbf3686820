package optdriver

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
)

// Options are the parsed command-line flags.
type Options struct {
	Input             string
	Output            string
	Generic           bool
	DebugInfo         bool
	AllowUnregistered bool
	NoImplicitModule  bool
	LocalScope        bool
}

// Main runs rlx-opt with args (without the program name) and returns the
// exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, err := parseFlags(args)
	if err != nil {
		fmt.Fprintf(stderr, "rlx-opt: %v\n", err)
		return 1
	}
	src, err := readInput(opts.Input, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "Could not open input file '%s': %v\n", opts.Input, err)
		return 1
	}
	ctx := ir.NewContext()
	ctx.AllowUnregistered = opts.AllowUnregistered
	dialect.RegisterAll(ctx)
	sm := asm.NewSourceMgr()
	name := opts.Input
	if name == "-" {
		name = "<stdin>"
	}
	sm.AddFile(name, src)
	f, err := asm.Parse(ctx, name, src, asm.Options{NoImplicitModule: opts.NoImplicitModule})
	if err != nil {
		sm.Print(stderr, asm.ErrorDiagnostic(ctx, err))
		return 1
	}
	if err := ir.Verify(f.Op); err != nil {
		sm.Print(stderr, asm.ErrorDiagnostic(ctx, err))
		return 1
	}
	var out io.Writer = stdout
	if opts.Output != "" && opts.Output != "-" {
		file, err := os.Create(opts.Output)
		if err != nil {
			fmt.Fprintf(stderr, "rlx-opt: %v\n", err)
			return 1
		}
		defer file.Close()
		out = file
	}
	bw := bufio.NewWriterSize(out, 1<<16)
	err = ir.Print(bw, f.Op, ir.PrintOptions{Generic: opts.Generic, DebugInfo: opts.DebugInfo, LocalScope: opts.LocalScope})
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		fmt.Fprintf(stderr, "rlx-opt: %v\n", err)
		return 1
	}
	return 0
}

func readInput(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(name)
}

func parseFlags(args []string) (*Options, error) {
	o := &Options{Input: "-"}
	inputSet := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-" || !strings.HasPrefix(a, "-") {
			if inputSet {
				return nil, fmt.Errorf("too many positional arguments specified (%q)", a)
			}
			o.Input, inputSet = a, true
			continue
		}
		name := strings.TrimLeft(a, "-")
		val, hasVal := "", false
		if eq := strings.IndexByte(name, '='); eq >= 0 {
			name, val, hasVal = name[:eq], name[eq+1:], true
		}
		boolFlag := func(dst *bool) error {
			if !hasVal {
				*dst = true
				return nil
			}
			switch val {
			case "true", "1":
				*dst = true
			case "false", "0":
				*dst = false
			default:
				return fmt.Errorf("invalid boolean value %q for --%s", val, name)
			}
			return nil
		}
		var err error
		switch name {
		case "o":
			if !hasVal {
				if i+1 >= len(args) {
					return nil, fmt.Errorf("missing value for -o")
				}
				i++
				val = args[i]
			}
			o.Output = val
		case "mlir-print-op-generic":
			err = boolFlag(&o.Generic)
		case "mlir-print-debuginfo":
			err = boolFlag(&o.DebugInfo)
		case "allow-unregistered-dialect":
			err = boolFlag(&o.AllowUnregistered)
		case "no-implicit-module":
			err = boolFlag(&o.NoImplicitModule)
		case "mlir-print-local-scope":
			err = boolFlag(&o.LocalScope)
		default:
			return nil, fmt.Errorf("unknown command line argument '%s'", a)
		}
		if err != nil {
			return nil, err
		}
	}
	return o, nil
}

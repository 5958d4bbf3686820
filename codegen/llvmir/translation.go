package llvmir

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/rlx-compiler/rlx/codegen/translation"
	"github.com/rlx-compiler/rlx/runtime/plan"
)

// Translation returns mlir-to-llvmir: the host module of a function after
// hybrid-split, and beside -o its C header (out.h for out.ll).
func Translation() *translation.Translation {
	return &translation.Translation{
		Name:    "mlir-to-llvmir",
		Summary: "Emit the LLVM IR host module that runs a split function's plan through rlx_runtime.h (and its C header beside -o)",
		Options: []translation.Option{
			{Name: "function", Value: "<name>", Help: "The function to compile (default: the only public one)"},
			{
				Name: "arena-align", Value: "<n>", Default: strconv.Itoa(plan.DefaultAlign),
				Help:  "Alignment of the plan's slots in bytes (a power of two, at least 16)",
				Check: checkAlign,
			},
			{
				Name: "carry-states", Value: "<bool>", Default: "false",
				Help: "Keep decode states (arguments and results of one rlx.name) in the arena between runs",
				Check: func(v string) error {
					if _, err := strconv.ParseBool(v); err != nil {
						return errors.New("'" + v + "' is invalid value for boolean argument! Try 0 or 1")
					}
					return nil
				},
			},
		},
		Run: runTranslation,
	}
}

func checkAlign(v string) error {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 16 || n&(n-1) != 0 {
		return fmt.Errorf("'%s' is not a power of two of at least 16", v)
	}
	return nil
}

// TranslationOptions reads Options from a request's flags.
func TranslationOptions(req *translation.Request) Options {
	align, _ := strconv.ParseInt(req.Opt("arena-align"), 10, 64)
	carry, _ := strconv.ParseBool(req.Opt("carry-states"))
	var o Options
	o.Function = req.Opt("function")
	o.Backend.Plan = plan.Options{Align: align, Carry: carry}
	return o
}

func runTranslation(req *translation.Request) error {
	out, err := Compile(req.Module, TranslationOptions(req))
	if err != nil {
		return err
	}
	if _, err := io.WriteString(req.Out, out.Host.String()); err != nil {
		return err
	}
	h, err := req.Aux(".h")
	if errors.Is(err, translation.ErrNoAux) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = io.WriteString(h, out.Header)
	return err
}

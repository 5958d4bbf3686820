package pipeline

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/ir"
)

// Reproducer is the configuration stored with the IR in a reproducer file,
// in MLIR's format:
//
//	{-#
//	  external_resources: {
//	    mlir_reproducer: {
//	      pipeline: "builtin.module(func.func(cse))",
//	      disable_threading: false,
//	      verify_each: true
//	    }
//	  }
//	#-}
type Reproducer struct {
	Pipeline         string
	DisableThreading bool
	VerifyEach       bool
}

// Write prints op with print followed by the reproducer section.
func (r *Reproducer) Write(w io.Writer, op *ir.Operation, print ir.PrintOptions) error {
	bw := bufio.NewWriter(w)
	if err := ir.Print(bw, op, print); err != nil {
		return err
	}
	fmt.Fprintf(bw, "{-#\n  external_resources: {\n    mlir_reproducer: {\n      pipeline: \"%s\",\n      disable_threading: %t,\n      verify_each: %t\n    }\n  }\n#-}\n",
		escapeString(r.Pipeline), r.DisableThreading, r.VerifyEach)
	return bw.Flush()
}

// ReadReproducer extracts the reproducer configuration from a parsed
// file. It reports ok=false when the file has no mlir_reproducer section.
func ReadReproducer(f *asm.File) (r *Reproducer, ok bool, err error) {
	entries, ok := f.External["mlir_reproducer"]
	if !ok {
		return nil, false, nil
	}
	r = &Reproducer{VerifyEach: true}
	for _, e := range entries {
		switch e.Key {
		case "pipeline":
			if !e.IsStr {
				return nil, true, fmt.Errorf("expected string value for 'pipeline' in mlir_reproducer")
			}
			r.Pipeline = e.Str
		case "disable_threading":
			r.DisableThreading = e.Bool
		case "verify_each":
			r.VerifyEach = e.Bool
		default:
			return nil, true, fmt.Errorf("unknown 'mlir_reproducer' resource key '%s'", e.Key)
		}
	}
	if r.Pipeline == "" {
		return nil, true, fmt.Errorf("expected 'pipeline' in mlir_reproducer")
	}
	return r, true, nil
}

// escapeString escapes s as MLIR prints string literals.
func escapeString(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			sb.WriteString(`\\`)
		case c == '"' || c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&sb, `\%02X`, c)
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

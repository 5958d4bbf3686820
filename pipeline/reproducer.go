package pipeline

import (
	"bytes"
	"fmt"
	"io"

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

// ReproducerResource names the external resource group of a reproducer.
const ReproducerResource = "mlir_reproducer"

// Write prints op with print, its external resources ending with the
// reproducer's group (replacing one the input had).
func (r *Reproducer) Write(w io.Writer, op *ir.Operation, print ir.PrintOptions) error {
	var groups []ir.ResourceGroup
	for _, g := range print.ExternalResources {
		if g.Name != ReproducerResource {
			groups = append(groups, g)
		}
	}
	print.ExternalResources = append(groups, ir.ResourceGroup{Name: ReproducerResource, Entries: []ir.ResourceEntry{
		{Key: "pipeline", Str: r.Pipeline, IsStr: true},
		{Key: "disable_threading", Bool: r.DisableThreading},
		{Key: "verify_each", Bool: r.VerifyEach},
	}})
	// MLIR writes the op's print alone, without the newline its tools add
	// after a printed module.
	var buf bytes.Buffer
	if err := ir.Print(&buf, op, print); err != nil {
		return err
	}
	_, err := w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return err
}

// ReadReproducer extracts the reproducer configuration from a parsed
// file. It reports ok=false when the file has no mlir_reproducer section.
func ReadReproducer(f *asm.File) (r *Reproducer, ok bool, err error) {
	entries, ok := f.ExternalGroup(ReproducerResource)
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

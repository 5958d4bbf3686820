package rlximport

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/models/importer"
)

const usage = `usage: rlx-import CHECKPOINT [-o model.mlir] [flags]

Imports a Hugging Face checkpoint directory (config.json and safetensors
files) or a llama.cpp GGUF file and prints its decode step (one token
through the model, caches and states as arguments and results) in the graph
dialect. The weights stay in the checkpoint: run the module with
rlx-run model.mlir --weights CHECKPOINT --tokens 1,2,3.

Architectures: %s (GGUF: %s).

flags:
  -o FILE            output file (default: stdout)
  --max-tokens N     cache capacity: the most tokens one sequence holds (default %d)
  --q6k-columns      read q6_k projections as q6_k_c16, the GPU GEMV's columns
                     (rlx-run's binder rearranges the blocks at load)
  --generic          print the generic form
  --weights-list     print the names of the weights the module binds to stderr
`

// Main runs rlx-import with args (without the program name) and returns
// the exit code: 0 on success, 1 on any error.
func Main(args []string, stdout, stderr io.Writer) int {
	err := run(args, stdout, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintf(stdout, usage, strings.Join(importer.Architectures(), ", "), strings.Join(importer.GGUFArchitectures(), ", "), importer.DefaultMaxTokens)
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "rlx-import: error: %v\n", err)
		return 1
	}
	return 0
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("rlx-import", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "-", "")
	maxTokens := fs.Int("max-tokens", importer.DefaultMaxTokens, "")
	generic := fs.Bool("generic", false, "")
	columns := fs.Bool("q6k-columns", false, "")
	list := fs.Bool("weights-list", false, "")
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return fmt.Errorf("%v (see rlx-import --help)", err)
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch {
	case len(pos) == 0:
		return errors.New("no checkpoint (see rlx-import --help)")
	case len(pos) > 1:
		return fmt.Errorf("one checkpoint expected, got %s", strings.Join(pos, " "))
	case *maxTokens < 1:
		return fmt.Errorf("--max-tokens must be positive, got %d", *maxTokens)
	}
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := importer.Import(ctx, pos[0], importer.Options{MaxTokens: *maxTokens, Q6KColumns: *columns})
	if err != nil {
		return err
	}
	defer m.Source.Close()
	if *list {
		for _, w := range m.Weights {
			fmt.Fprintln(stderr, w)
		}
	}
	var widened []string
	for _, b := range m.Weights {
		for _, name := range m.Source.Expand(b) {
			if i, _ := m.Source.Info(name); i.Widened {
				widened = append(widened, name)
			}
		}
	}
	if n := len(widened); n > 0 {
		fmt.Fprintf(stderr, "rlx-import: warning: %d quantised matrices of the checkpoint are read as BF16, 2 bytes a weight, since no q4_0, q5_0 or q8_0 block holds their values exactly (a desc_act column order, groups not a multiple of 32, scales that are not f16s, or 8-bit zero points; docs/import.md), the first %q\n", n, widened[0])
	}
	for _, n := range m.Notes {
		fmt.Fprintf(stderr, "rlx-import: note: %s\n", n)
	}
	if n := len(m.Unused); n > 0 {
		fmt.Fprintf(stderr, "rlx-import: warning: the model does not read %d tensors of the checkpoint (a text decode step does not use them: a vision tower, a multi-token-prediction head), the first %q\n", n, m.Unused[0])
	}
	print := func(w io.Writer) error { return ir.Print(w, m.Module, ir.PrintOptions{Generic: *generic}) }
	if *out == "-" {
		bw := bufio.NewWriter(stdout)
		if err := print(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := print(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

package bundle

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/codegen/llvmir"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/runtime/abi"
	"github.com/rlx-compiler/rlx/runtime/backend/metal"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// File is one file of a bundle.
type File struct {
	Name string
	Data []byte
}

// WeightLayout is weights.json: where each weight goes in the weight
// buffer (rlx_<f>_bind_weights asks the app's loader for each param by
// name; constants are in the host module).
type WeightLayout struct {
	Version     int             `json:"version"`
	Function    string          `json:"function"`
	ArenaBytes  int64           `json:"arena_bytes"`
	WeightBytes int64           `json:"weight_bytes"`
	Weights     []WeightLayoutW `json:"weights"`
}

// WeightLayoutW is one weight of WeightLayout.
type WeightLayoutW struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Type   string `json:"type"`
	Offset int64  `json:"offset"`
	Bytes  int64  `json:"bytes"`
	// Packed says, for a ui8 weight that a graph.dequant_matmul reads, the
	// blocks the kernels expect: the loader must supply them in that
	// format, so a q6_k_c16 weight is a checkpoint's q6_k rearranged
	// (gguf.Convert, or rlx-run --save-weights; docs/apps.md).
	Packed *PackedW `json:"packed,omitempty"`
}

// PackedW is a packed weight's format: Matrices [N, K] matrices (an expert
// stack holds several), each packed on its own.
type PackedW struct {
	Format   string `json:"format"`
	N        int    `json:"n"`
	K        int    `json:"k"`
	Matrices int    `json:"matrices"`
}

// Files returns the bundle of the function of module (after
// hybrid-split) that opts select.
func Files(module *ir.Operation, opts llvmir.Options) ([]File, error) {
	out, err := llvmir.Compile(module, opts)
	if err != nil {
		return nil, err
	}
	c := out.Compiled
	p := c.Plan
	f := llvmir.CName(p.Function)
	var files []File
	add := func(name string, data []byte) { files = append(files, File{name, data}) }
	add("kernels.metal", []byte(c.MSL.Source))
	var man bytes.Buffer
	if err := c.MSL.Manifest.WriteJSON(&man); err != nil {
		return nil, err
	}
	add("kernels.manifest.json", man.Bytes())
	if out.MPS != nil {
		add(f+"_builders.m", out.MPS.Source)
		add(f+"_builders.h", out.MPS.Header)
	}
	add("host.ll", []byte(out.Host.String()))
	add("rlx_"+f+".h", []byte(out.Header))
	h, err := abi.Source(abi.Header)
	if err != nil {
		return nil, err
	}
	add(abi.Header, h)
	add("rlx_runtime_metal.m", metal.RuntimeSource())
	var pj bytes.Buffer
	if err := p.WriteJSON(&pj); err != nil {
		return nil, err
	}
	add("plan.json", pj.Bytes())
	packed, err := packedWeights(module, p.Function)
	if err != nil {
		return nil, err
	}
	wl := WeightLayout{Version: plan.Version, Function: p.Function, ArenaBytes: p.ArenaBytes, WeightBytes: p.WeightBytes}
	for _, w := range p.Weights {
		lw := WeightLayoutW{Name: w.Name, Kind: w.Kind, Type: w.Type, Offset: w.Offset, Bytes: w.Bytes}
		if w.Kind == plan.WeightParam {
			lw.Packed = packed[w.Name]
		}
		wl.Weights = append(wl.Weights, lw)
	}
	var wj bytes.Buffer
	enc := json.NewEncoder(&wj)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(wl); err != nil {
		return nil, err
	}
	add("weights.json", wj.Bytes())
	return files, nil
}

// packedWeights returns the packed format of every param of function f
// that a graph.dequant_matmul reads, by name, as the reference
// interpreter finds it (through regions, and through an expert stack's
// reshape, gather and slice).
func packedWeights(module *ir.Operation, f string) (map[string]*PackedW, error) {
	prog, err := ref.Compile(module, f)
	if err != nil {
		return nil, err
	}
	out := map[string]*PackedW{}
	for _, s := range prog.Params() {
		q := s.Quant
		if q == nil || q.Partial {
			continue
		}
		m, err := q.Matrices(tensor.NumElements(s.Type.Shape))
		if err != nil {
			return nil, fmt.Errorf("weight %q: %v", s.Name, err)
		}
		out[s.Name] = &PackedW{Format: q.Format.String(), N: q.N, K: q.K, Matrices: m}
	}
	return out, nil
}

// Write writes files into dir, creating it.
func Write(dir string, files []File) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

const usage = `usage: rlx-compile [flags] file.mlir -o DIR

Writes the bundle an app needs to run a function after --hybrid-split
without Go: kernels.metal (and its manifest), the MPSGraph builders, the
LLVM IR host module (host.ll) and its header, rlx_runtime.h and its Metal
implementation, plan.json and weights.json (docs/apps.md).

flags:
  -o DIR               the bundle's directory (created)
  --function NAME      the function (default: the only public one)
  --hybrid-split       split the function first (dependency mode, macOS 14)
  --arena-align N      alignment of the plan's slots (default 256)
  --carry-states       keep decode states in the arena between runs
`

// Main runs rlx-compile with args (without the program name) and returns
// the exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rlx-compile", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "", "")
	fn := fs.String("function", "", "")
	split := fs.Bool("hybrid-split", false, "")
	align := fs.Int64("arena-align", plan.DefaultAlign, "")
	carry := fs.Bool("carry-states", false, "")
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				io.WriteString(stdout, usage)
				return 0
			}
			fmt.Fprintf(stderr, "rlx-compile: error: %v (see rlx-compile --help)\n", err)
			return 1
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) != 1 || *out == "" {
		fmt.Fprintf(stderr, "rlx-compile: error: one input file and -o DIR expected (see rlx-compile --help)\n")
		return 1
	}
	sm := asm.NewSourceMgr()
	sm.PrintOpOnDiagnostic = false
	fail := func(err error) int {
		var ds ir.Diagnostics
		var d *ir.Diagnostic
		switch {
		case errors.As(err, &ds):
			for _, d := range ds {
				sm.Print(stderr, d)
			}
		case errors.As(err, &d):
			sm.Print(stderr, d)
		default:
			fmt.Fprintf(stderr, "rlx-compile: error: %v\n", err)
		}
		return 1
	}
	src, err := os.ReadFile(pos[0])
	if err != nil {
		return fail(fmt.Errorf("cannot open input file '%s': %v", pos[0], strings.TrimPrefix(err.Error(), "open "+pos[0]+": ")))
	}
	sm.AddFile(pos[0], src)
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := asm.Parse(ctx, pos[0], src, asm.Options{})
	if err == nil {
		err = ir.Verify(m.Op)
	}
	if err != nil {
		return fail(ir.Diagnostics(asm.ErrorDiagnostics(ctx, err)))
	}
	if *split {
		f, err := ref.EntryFunc(m.Op, *fn)
		if err != nil {
			return fail(err)
		}
		if _, err := hybridsplit.Split(f, hybridsplit.Options{}); err != nil {
			return fail(err)
		}
	}
	opts := llvmir.Options{Function: *fn}
	opts.Backend.Plan = plan.Options{Align: *align, Carry: *carry}
	files, err := Files(m.Op, opts)
	if err != nil {
		return fail(err)
	}
	if err := Write(*out, files); err != nil {
		return fail(err)
	}
	for _, f := range files {
		fmt.Fprintf(stdout, "%s/%s (%d bytes)\n", *out, f.Name, len(f.Data))
	}
	return 0
}

package rlxgen

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/internal/outfile"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/models"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// generator binds one model's flags to its configuration and builds it.
type generator struct {
	name, summary string
	// flags registers the model's knobs on fs and returns the builder.
	flags func(fs *flag.FlagSet) func(ctx *ir.Context) (*models.Model, error)
}

func generators() []generator {
	return []generator{
		{"qwen35", "Qwen3.5-like: gated delta net layers, every third layer full attention", func(fs *flag.FlagSet) func(*ir.Context) (*models.Model, error) {
			c := models.DefaultQwen35()
			common(fs, &c.Common, true)
			fs.IntVar(&c.RotaryDim, "rotary-dim", 0, "rotated dims per attention head (0: head-dim/4)")
			fs.IntVar(&c.GDNHeads, "gdn-heads", 0, "gated delta net value heads (0: heads)")
			fs.IntVar(&c.GDNKeyHeads, "gdn-key-heads", 0, "gated delta net q/k heads (0: kv-heads)")
			fs.IntVar(&c.GDNHeadDim, "gdn-head-dim", 0, "gated delta net head size N (0: head-dim)")
			fs.IntVar(&c.ConvKernel, "conv-kernel", c.ConvKernel, "causal conv kernel size")
			fs.IntVar(&c.FullAttentionEvery, "full-attn-every", c.FullAttentionEvery, "layer i is full attention iff (i+1) % N == 0")
			return func(ctx *ir.Context) (*models.Model, error) { return models.Qwen35(ctx, c) }
		}},
		{"zonos", "Zonos-like GQA decoder: fused QKV, gptj RoPE, custom mask, GELU MLP, CFG", func(fs *flag.FlagSet) func(*ir.Context) (*models.Model, error) {
			c := models.DefaultZonos()
			common(fs, &c.Common, true)
			fs.IntVar(&c.Batch, "batch", c.Batch, "batch: 1, or 2 for a classifier-free guidance pair")
			fs.IntVar(&c.RotaryDim, "rotary-dim", 0, "rotated dims per head (0: head-dim)")
			fs.IntVar(&c.Codebooks, "codebooks", c.Codebooks, "audio codebooks")
			fs.IntVar(&c.CondLen, "cond-len", c.CondLen, "conditioning memory length")
			fs.IntVar(&c.CondQueries, "cond-queries", c.CondQueries, "learned resampler queries")
			fs.IntVar(&c.FourierDim, "fourier-dim", c.FourierDim, "Fourier features of the speaking rate (even)")
			fs.Float64Var(&c.CFGScale, "cfg-scale", c.CFGScale, "classifier-free guidance scale (batch 2)")
			return func(ctx *ir.Context) (*models.Model, error) { return models.Zonos(ctx, c) }
		}},
		{"kimi", "Kimi-like stack: KDA layers (per-channel gates), every fourth layer MLA", func(fs *flag.FlagSet) func(*ir.Context) (*models.Model, error) {
			c := models.DefaultKimi()
			common(fs, &c.Common, false)
			fs.IntVar(&c.KDAHeadDim, "kda-head-dim", 0, "KDA head size N (0: head-dim)")
			fs.IntVar(&c.GateRank, "gate-rank", 0, "rank of the KDA gate projection (0: kda-head-dim)")
			fs.IntVar(&c.ConvKernel, "conv-kernel", c.ConvKernel, "causal conv kernel size")
			fs.Float64Var(&c.GateLowerBound, "gate-lower-bound", c.GateLowerBound, "lower clamp of the KDA gate (< 0)")
			fs.IntVar(&c.MLAEvery, "mla-every", c.MLAEvery, "layer i is MLA iff (i+1) % N == 0")
			fs.IntVar(&c.QLoRA, "q-lora", 0, "MLA query latent size (0: hidden/2)")
			fs.IntVar(&c.KVLoRA, "kv-lora", 0, "MLA key/value latent size (0: hidden/4)")
			fs.IntVar(&c.NoPEDim, "nope-dim", 0, "MLA per-head key dims from the latent (0: head-dim)")
			fs.IntVar(&c.RoPEDim, "rope-dim", 0, "MLA key dims shared by all heads (0: head-dim/2)")
			fs.IntVar(&c.VHeadDim, "v-head-dim", 0, "MLA value head size (0: head-dim)")
			return func(ctx *ir.Context) (*models.Model, error) { return models.Kimi(ctx, c) }
		}},
	}
}

// quantFlag is the --quant value: a GGUF format or "none".
type quantFlag struct{ q *graph.QuantFormat }

func (f quantFlag) String() string {
	if f.q == nil || *f.q == "" {
		return "none"
	}
	return string(*f.q)
}

func (f quantFlag) Set(s string) error {
	if s == "none" || s == "" {
		*f.q = ""
		return nil
	}
	q := graph.QuantFormat(s)
	if _, _, ok := q.Block(); !ok {
		return errors.New("want none, q4_0, q8_0, q4_k, q5_k, q6_k, q6_k_c16, q2_k, q3_k, q4_1, q5_0, q5_1, iq4_nl, iq4_xs or mxfp4")
	}
	*f.q = q
	return nil
}

func common(fs *flag.FlagSet, c *models.Common, tokens bool) {
	fs.IntVar(&c.Layers, "layers", c.Layers, "decoder layers")
	fs.IntVar(&c.Hidden, "hidden", c.Hidden, "model width")
	fs.IntVar(&c.Heads, "heads", c.Heads, "attention heads")
	if tokens {
		fs.IntVar(&c.KVHeads, "kv-heads", c.KVHeads, "key/value heads (divides heads)")
		fs.IntVar(&c.Vocab, "vocab", c.Vocab, "vocabulary size")
	}
	fs.IntVar(&c.HeadDim, "head-dim", 0, "attention head size (0: hidden/heads)")
	fs.IntVar(&c.FFN, "ffn", 0, "feed-forward inner size (0: 3·hidden)")
	fs.IntVar(&c.Past, "past", c.Past, "cached positions before the decoded token")
	fs.Var(quantFlag{&c.Quant}, "quant", "projection weights as GGUF blocks: none, q4_0, q8_0, q4_k, q6_k, or q6_k_c16 (q6_k in the GPU GEMV's columns)")
	dt := c.DType
	if dt == "" {
		dt = "f32"
	}
	fs.StringVar(&c.DType, "dtype", dt, "dense projection weights: f32, or f16/bf16 with casts around each projection")
}

// Main runs rlx-gen with args (without the program name) and returns the
// exit code: 0 on success, 1 on any error.
func Main(args []string, stdout, stderr io.Writer) int {
	if err := run(args, stdout, stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "rlx-gen: %v\n", err)
			return 1
		}
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: rlx-gen MODEL [flags] > out.mlir")
	fmt.Fprintln(w, "\nPrints the decode step of a model in the graph dialect. Models:")
	for _, g := range generators() {
		fmt.Fprintf(w, "  %-7s %s\n", g.name, g.summary)
	}
	fmt.Fprintln(w, "\n`rlx-gen MODEL --help` lists the model's flags.")
}

// modelArg finds the model name in args: the first argument that is not a
// flag or a flag's value, so flags may come before it (`rlx-gen --layers 2
// qwen35`). It returns its index, or -1.
func modelArg(args []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			return i
		}
		name := strings.TrimLeft(a, "-")
		if a == "--" {
			if i+1 < len(args) {
				return i + 1
			}
			return -1
		}
		// A flag without "=" takes the next argument as its value, except
		// the boolean ones.
		switch name {
		case "generic", "stats", "h", "help":
		default:
			if !strings.Contains(name, "=") {
				i++
			}
		}
	}
	return -1
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		if a := args[0]; a == "-h" || a == "-help" || a == "--help" || a == "help" {
			usage(stdout)
			return nil
		}
	}
	mi := modelArg(args)
	if mi < 0 {
		return errors.New("missing the model name (qwen35, zonos or kimi; see rlx-gen --help)")
	}
	var gen *generator
	var names []string
	for _, g := range generators() {
		names = append(names, g.name)
		if g.name == args[mi] {
			gen = &g
		}
	}
	if gen == nil {
		return fmt.Errorf("unknown model %q (want %s)", args[mi], strings.Join(names, ", "))
	}
	args = append(append([]string{gen.name}, args[:mi]...), args[mi+1:]...)
	fs := flag.NewFlagSet("rlx-gen "+gen.name, flag.ContinueOnError)
	// Errors are one line, prefixed with rlx-gen:; only --help prints the
	// flags.
	fs.SetOutput(io.Discard)
	buildModel := gen.flags(fs)
	generic := fs.Bool("generic", false, "print the generic form")
	out := fs.String("o", "-", "output file (- is stdout)")
	weights := fs.String("weights", "", "also write random weights for every graph.param to this safetensors file")
	inputs := fs.String("inputs", "", "also write random valid inputs to DIR/in0.npy, DIR/in1.npy, … (one per function argument)")
	seed := fs.Uint64("seed", 1, "seed of the random weights and inputs")
	stats := fs.Bool("stats", false, "print the op counts to stderr")
	fs.Usage = func() {}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fmt.Fprintf(stdout, "usage: rlx-gen %s [flags]\n\n%s.\n\nFlags:\n", gen.name, gen.summary)
			fs.PrintDefaults()
			return err
		}
		return fmt.Errorf("%s: %v (see rlx-gen %s --help)", gen.name, err, gen.name)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q", gen.name, fs.Arg(0))
	}
	// --quant and --dtype exclude each other; the default of the one not
	// given follows the one given (qwen35 quantises by default, zonos uses
	// f16).
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["dtype"] && !set["quant"] && fs.Lookup("dtype").Value.String() != "f32":
		_ = fs.Set("quant", "none")
	case set["quant"] && !set["dtype"] && fs.Lookup("quant").Value.String() != "none":
		_ = fs.Set("dtype", "f32")
	}
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := buildModel(ctx)
	if err != nil {
		return err
	}
	if *stats {
		printStats(stderr, m)
	}
	if *weights != "" {
		st, err := m.RandomWeights(*seed)
		if err != nil {
			return err
		}
		if err := writeFile(*weights, func(w io.Writer) error { return tensor.WriteSafetensors(w, st) }); err != nil {
			return err
		}
	}
	if *inputs != "" {
		ts, err := m.RandomInputs(*seed)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(*inputs, 0o755); err != nil {
			return err
		}
		for i, t := range ts {
			if err := writeFile(filepath.Join(*inputs, fmt.Sprintf("in%d.npy", i)), func(w io.Writer) error { return tensor.WriteNPY(w, t) }); err != nil {
				return err
			}
		}
	}
	print := func(w io.Writer) error { return ir.Print(w, m.Module, ir.PrintOptions{Generic: *generic}) }
	if *out == "-" {
		bw := bufio.NewWriter(stdout)
		if err := print(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	return writeFile(*out, print)
}

func printStats(w io.Writer, m *models.Model) {
	counts, total := m.OpCounts()
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	fmt.Fprintf(w, "%s: %d ops, %d inputs, %d outputs, %d params\n", m.Name, total, len(m.Inputs), len(m.Outputs), len(m.Params))
	for _, n := range names {
		fmt.Fprintf(w, "  %6d %s\n", counts[n], n)
	}
}

// writeFile writes path through outfile: beside it, renamed over it when
// complete, so a failed run never leaves a truncated file.
func writeFile(path string, write func(io.Writer) error) error {
	return outfile.WriteWith(path, write)
}

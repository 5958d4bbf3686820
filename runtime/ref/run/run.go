package run

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/internal/outfile"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/kernels"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

const usage = `usage: rlx-run [flags] file.mlir

Runs a function of an MLIR file through rlx's reference interpreter and
prints each result's type, checksum (FNV-1a 64 of its little-endian bytes)
and first values.

flags:
  --entry NAME            function to run (default: the only public one)
  --weights FILE          bind graph.param ops from a safetensors file, a
                          checkpoint directory (model.safetensors or shards
                          with model.safetensors.index.json) or a GGUF file
                          (default: weights generated from --seed)
  --inputs A.npy,B.npy    one .npy file per function argument, in order,
                          or a directory holding in0.npy, in1.npy, ... (as
                          --save-inputs and rlx-gen --inputs write them)
                          (default: inputs generated from --seed)
  --seed N                seed of generated weights and inputs, and of
                          --generate's sampling (default 0)
  --out-dir DIR           also write the results to DIR/out0.npy, out1.npy, ...
  --compare-with FILE     run FILE's function on the same inputs and weights
                          and report the largest difference per result
  --tolerance X           with --compare-with: the largest accepted absolute
                          difference (default 0: bits must be identical)
  --num-values N          values printed per result (default 8)
  --save-inputs DIR       write the inputs used to DIR/in0.npy, in1.npy, ...
  --save-weights FILE     write the weights used to a safetensors file
  --max-memory SIZE       refuse, before allocating, a run that would hold
                          more than SIZE bytes at once (suffixes K, M, G, T:
                          powers of 1024; 0: no limit; default: half of the
                          physical memory)
  --profile               print the time spent per op kind to stderr
  --allow-unregistered-dialect
                          accept ops of unregistered dialects

runtime (a function after hybrid-split; docs/rlx-run.md):
  --backend NAME          run the function's plan through a runtime
                          backend: ref, sim (the Metal kernels as C++ on
                          the CPU; needs clang++-19) or metal (macOS)
  --compare-backend NAME  with --compare-with: run that file through NAME
  --plan                  print the function's plan and exit
  --plan-json FILE        write the plan as JSON and exit
  --align N               alignment of the plan's slots in bytes (a power
                          of two, at least 16; default 256)
  --guard N               N bytes free after every arena value, filled
                          before each step and checked after (default 0)
  --carry                 keep decode states in the arena between runs

decoding (a decode-step function, as rlx-import writes them):
  --tokens 1,17,42        run the tokens one step at a time, carrying caches
                          and states, and print each step's arg-max
  --prompt TEXT           the tokens of TEXT in the vocabulary (with the
                          special tokens its template adds), for --tokens
  --chat TEXT             a user message, laid out by the checkpoint's chat
                          template with the assistant's turn opened, for
                          --tokens (apply_chat_template's tokens); prints
                          the reply's text after --generate
  --system TEXT           with --chat or --interactive: a system message
                          first
  --messages FILE.json    a conversation for the chat template instead:
                          [{"role": "user", "content": "..."}, ...]
  --interactive           a conversation on standard input: each line a
                          user message (a trailing \ continues it; after
                          --messages or --system),
                          each reply streamed to stdout as it is
                          generated, feeding only the new tokens each
                          turn; --generate N bounds a reply (default: an
                          end-of-sequence token or the model's capacity)
  --chat-template PATH    the template: a .jinja file, a checkpoint directory
                          or a GGUF file (default: --vocab, else --weights)
  --tools FILE.json       with --chat, --messages or --interactive: the
                          tools (function schemas) the template offers
  --chat-var NAME=JSON    with --chat, --messages or --interactive: a
                          variable for the template, such as
                          enable_thinking=false (repeatable)
  --vocab PATH            the vocabulary: a tokenizer.json, a checkpoint
                          directory or a GGUF file (default: --weights)
  --logits FILE.npy       write every step's logits as one [T, vocab] f32 .npy
  --max-tokens N          refuse more than N tokens (the model's cache
                          capacity, rlx.max_tokens, bounds them too)
  --generate N            after the tokens, feed N more, each the arg-max
                          of the step before (greedy decoding), stopping
                          at the checkpoint's end-of-sequence tokens
  --ignore-eos            with --generate: go on past end-of-sequence tokens
  --temperature T         with --generate: sample at temperature T (default 0,
                          greedy), as transformers' generate(do_sample=True)
  --top-k K               with --temperature: keep the K most likely tokens
  --top-p P               with --temperature: keep the most likely tokens
                          whose probabilities reach P (default 1: all)
  --min-p P               with --temperature: keep the tokens at least P
                          times as likely as the most likely (default 0: all)
  --generation-config     with --generate: sample as the checkpoint's
                          generation_config.json (a GGUF's general.sampling.*)
                          says, as transformers' generate does by default
                          (the flags above and below override it)
  --repetition-penalty R  with --generate: divide the positive logits of the
                          tokens already in the sequence by R and multiply
                          the negative ones (default 1: none), greedy or not
`

type options struct {
	input, entry, weights, inputs, outDir, compareWith string
	saveInputs, saveWeights                            string
	tokens, logits, prompt, vocab                      string
	chat, system, messages, chatTemplate, tools        string
	chatVars                                           []string
	seed                                               uint64
	tolerance, temperature, topP, minP, penalty        float64
	numValues, maxTokens, generate, topK               int
	allowUnregistered, profile, ignoreEOS, genConfig   bool
	interactive                                        bool
	// given names the flags given on the command line.
	given                             map[string]bool
	backend, compareBackend, planJSON string
	plan, carry                       bool
	align, guard                      int64
	// maxMemory is the --max-memory budget in bytes (0: none).
	maxMemory int64
}

// Main runs rlx-run with args (without the program name) and returns the
// exit code: 0 on success, 1 on any error or when compared results differ
// beyond the tolerance.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseArgs(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		io.WriteString(stdout, usage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "rlx-run: error: %v\n", err)
		return 1
	}
	r := &runner{o: o, stdin: stdin, stdout: stdout, stderr: stderr, sm: asm.NewSourceMgr(), ctx: ir.NewContext()}
	r.sm.PrintOpOnDiagnostic = false
	r.ctx.AllowUnregistered = o.allowUnregistered
	dialect.RegisterAll(r.ctx)
	return r.main()
}

// newFlags returns rlx-run's flags, bound to o; usage documents each.
func newFlags(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("rlx-run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.entry, "entry", "", "")
	fs.StringVar(&o.weights, "weights", "", "")
	fs.StringVar(&o.inputs, "inputs", "", "")
	fs.Uint64Var(&o.seed, "seed", 0, "")
	fs.StringVar(&o.outDir, "out-dir", "", "")
	fs.StringVar(&o.compareWith, "compare-with", "", "")
	fs.Float64Var(&o.tolerance, "tolerance", 0, "")
	fs.IntVar(&o.numValues, "num-values", 8, "")
	fs.StringVar(&o.saveInputs, "save-inputs", "", "")
	fs.StringVar(&o.saveWeights, "save-weights", "", "")
	fs.BoolVar(&o.allowUnregistered, "allow-unregistered-dialect", false, "")
	fs.BoolVar(&o.profile, "profile", false, "")
	fs.StringVar(&o.backend, "backend", "", "")
	fs.StringVar(&o.compareBackend, "compare-backend", "", "")
	fs.BoolVar(&o.plan, "plan", false, "")
	fs.StringVar(&o.planJSON, "plan-json", "", "")
	fs.Int64Var(&o.align, "align", plan.DefaultAlign, "")
	fs.Int64Var(&o.guard, "guard", 0, "")
	fs.BoolVar(&o.carry, "carry", false, "")
	fs.StringVar(&o.tokens, "tokens", "", "")
	fs.StringVar(&o.prompt, "prompt", "", "")
	fs.StringVar(&o.vocab, "vocab", "", "")
	fs.StringVar(&o.chat, "chat", "", "")
	fs.StringVar(&o.system, "system", "", "")
	fs.StringVar(&o.messages, "messages", "", "")
	fs.StringVar(&o.chatTemplate, "chat-template", "", "")
	fs.BoolVar(&o.interactive, "interactive", false, "")
	fs.StringVar(&o.tools, "tools", "", "")
	fs.Func("chat-var", "", func(v string) error {
		o.chatVars = append(o.chatVars, v)
		return nil
	})
	fs.StringVar(&o.logits, "logits", "", "")
	fs.IntVar(&o.maxTokens, "max-tokens", 0, "")
	fs.IntVar(&o.generate, "generate", 0, "")
	fs.BoolVar(&o.ignoreEOS, "ignore-eos", false, "")
	fs.Float64Var(&o.temperature, "temperature", 0, "")
	fs.IntVar(&o.topK, "top-k", 0, "")
	fs.Float64Var(&o.topP, "top-p", 1, "")
	fs.Float64Var(&o.minP, "min-p", 0, "")
	fs.Float64Var(&o.penalty, "repetition-penalty", 1, "")
	fs.BoolVar(&o.genConfig, "generation-config", false, "")
	o.maxMemory = physicalMemory() / 2
	fs.Func("max-memory", "", func(v string) (err error) {
		o.maxMemory, err = parseSize(v)
		return err
	})
	return fs
}

// sources counts the ways of giving tokens to decode that are given
// (--chat "" is an empty message, given).
func (o *options) sources() int {
	n := 0
	for _, name := range []string{"tokens", "prompt", "chat", "messages"} {
		if o.given[name] {
			n++
		}
	}
	return n
}

// chats says the tokens come from the chat template.
func (o *options) chats() bool { return o.given["chat"] || o.given["messages"] || o.interactive }

// generates says tokens are generated: --generate, or --interactive's
// replies.
func (o *options) generates() bool { return o.generate > 0 || o.interactive }

func parseArgs(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := newFlags(o)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, fmt.Errorf("%v (see rlx-run --help)", err)
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	o.given = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.given[f.Name] = true })
	switch {
	case len(pos) == 0:
		return nil, errors.New("no input file (see rlx-run --help)")
	case len(pos) > 1:
		return nil, fmt.Errorf("one input file expected, got %s", strings.Join(pos, " "))
	case o.tolerance < 0 || math.IsNaN(o.tolerance):
		return nil, fmt.Errorf("--tolerance must be a non-negative number, got %v", o.tolerance)
	case o.numValues < 0:
		return nil, fmt.Errorf("--num-values must not be negative, got %d", o.numValues)
	case o.maxTokens < 0:
		return nil, fmt.Errorf("--max-tokens must not be negative, got %d", o.maxTokens)
	case o.generate < 0:
		return nil, fmt.Errorf("--generate must not be negative, got %d", o.generate)
	case o.ignoreEOS && !o.generates():
		return nil, errors.New("--ignore-eos applies to --generate, which is not given")
	case o.temperature != 0 && !o.generates():
		return nil, errors.New("--temperature applies to --generate, which is not given")
	case o.penalty != 1 && !o.generates():
		return nil, errors.New("--repetition-penalty applies to --generate, which is not given")
	case o.genConfig && !o.generates():
		return nil, errors.New("--generation-config applies to --generate, which is not given")
	case (o.given["top-k"] || o.given["top-p"] || o.given["min-p"]) && o.temperature == 0 && !o.genConfig:
		return nil, errors.New("--top-k, --top-p and --min-p apply to sampling: give --temperature too")
	case o.interactive && (o.given["tokens"] || o.given["prompt"] || o.given["chat"]):
		return nil, errors.New("--interactive reads the user's messages from standard input: give no --tokens, --prompt or --chat (--messages and --system may begin the conversation)")
	case o.interactive && (o.logits != "" || o.compareWith != ""):
		return nil, errors.New("--interactive takes no --logits or --compare-with")
	case o.sources() > 1:
		return nil, errors.New("give one of --tokens, --prompt, --chat and --messages")
	case o.sources() == 0 && !o.interactive && (o.logits != "" || o.maxTokens != 0 || o.generate != 0 || o.vocab != ""):
		return nil, errors.New("--logits, --max-tokens, --generate and --vocab need --tokens, --prompt, --chat or --messages")
	case o.given["system"] && !o.given["chat"] && !o.interactive:
		return nil, errors.New("--system applies to --chat and --interactive, which are not given")
	case o.given["system"] && o.given["messages"]:
		return nil, errors.New("--system and --messages: give the system message in --messages")
	case (o.chatTemplate != "" || o.tools != "" || len(o.chatVars) > 0) && !o.chats():
		return nil, errors.New("--chat-template, --tools and --chat-var apply to --chat, --messages and --interactive, which are not given")
	case o.sources() > 0 && (o.inputs != "" || o.outDir != "" || o.saveInputs != "" || o.profile):
		return nil, errors.New("--tokens, --prompt, --chat and --messages decode from zero states: they take no --inputs, --out-dir, --save-inputs or --profile")
	case (o.given["prompt"] || o.chats()) && o.vocab == "" && o.weights == "":
		return nil, errors.New("--prompt, --chat and --messages need a vocabulary: --weights with one (a tokenizer.json beside the safetensors) or --vocab")
	}
	set := o.given
	switch {
	case set["tolerance"] && o.compareWith == "":
		return nil, errors.New("--tolerance applies to --compare-with, which is not given")
	case o.compareBackend != "" && o.compareWith == "":
		return nil, errors.New("--compare-backend applies to --compare-with, which is not given")
	case set["inputs"] && o.inputs == "":
		return nil, errors.New("--inputs names no files (leave it out to generate inputs from --seed)")
	}
	if err := checkBackend(o.backend, "backend"); err != nil {
		return nil, err
	}
	if err := checkBackend(o.compareBackend, "compare-backend"); err != nil {
		return nil, err
	}
	o.input = pos[0]
	return o, nil
}

type runner struct {
	o      *options
	stdout io.Writer
	stderr io.Writer
	stdin  io.Reader
	sm     *asm.SourceMgr
	ctx    *ir.Context
}

// fail prints err, located when it is a diagnostic (each of them for
// several), and returns exit code 1.
func (r *runner) fail(err error) int {
	var ds ir.Diagnostics
	var d *ir.Diagnostic
	switch {
	case errors.As(err, &ds):
		for _, d := range ds {
			r.sm.Print(r.stderr, d)
		}
	case errors.As(err, &d):
		r.sm.Print(r.stderr, d)
	default:
		fmt.Fprintf(r.stderr, "rlx-run: error: %v\n", err)
	}
	return 1
}

func (r *runner) main() int {
	o := r.o
	p, err := r.load(o.input)
	if err != nil {
		return r.fail(err)
	}
	if o.plan || o.planJSON != "" {
		return r.printPlan(p)
	}
	progs := []*ref.Program{p}
	var q *ref.Program
	if o.compareWith != "" {
		if q, err = r.load(o.compareWith); err != nil {
			return r.fail(err)
		}
		progs = append(progs, q)
	}
	if err := r.checkMemory(progs); err != nil {
		return r.fail(err)
	}
	if o.interactive {
		return r.converse(p)
	}
	if o.sources() > 0 {
		return r.decode(progs)
	}
	inputs, err := r.inputs(progs)
	if err != nil {
		return r.fail(err)
	}
	w, err := r.weights(progs)
	if err != nil {
		return r.fail(err)
	}
	res, err := r.run(o.backend, p, inputs, w)
	if err != nil {
		return r.fail(err)
	}
	if o.outDir != "" {
		if err := writeAll(o.outDir, "out", res); err != nil {
			return r.fail(err)
		}
	}
	if q == nil {
		for i, t := range res {
			fmt.Fprintf(r.stdout, "result %d: %s checksum %016x %s\n", i, t.Type(), ref.Checksum(t), values(t, o.numValues))
		}
		return 0
	}
	other, err := r.run(o.compareBackend, q, inputs, w)
	if err != nil {
		return r.fail(err)
	}
	return r.compare(res, other)
}

// run runs p, through the interpreter or a backend, with a profile on
// stderr when asked.
func (r *runner) run(backend string, p *ref.Program, inputs []*tensor.Tensor, w ref.Weights) ([]*tensor.Tensor, error) {
	if backend != "" {
		return r.runBackend(backend, p, inputs, w)
	}
	if !r.o.profile {
		return p.Run(inputs, w)
	}
	prof := p.NewProfile()
	start := time.Now()
	res, err := p.RunProfile(inputs, w, prof)
	total := time.Since(start)
	fmt.Fprintf(r.stderr, "profile of @%s (%d ops, %v):\n", p.Name(), p.NumOps(), total.Round(time.Microsecond))
	for _, e := range prof.Entries() {
		fmt.Fprintf(r.stderr, "  %-24s %6d calls %12v %5.1f%%\n", e.Op, e.Calls, e.Time.Round(time.Microsecond), 100*e.Time.Seconds()/total.Seconds())
	}
	return res, err
}

// load parses, verifies and compiles the entry function of one file.
func (r *runner) load(path string) (*ref.Program, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open input file '%s': %v", path, unwrapPath(err))
	}
	r.sm.AddFile(path, src)
	f, err := asm.Parse(r.ctx, path, src, asm.Options{})
	if err == nil {
		err = ir.Verify(f.Op)
	}
	if err != nil {
		// A parse error can be several (every unresolved forward reference).
		return nil, ir.Diagnostics(asm.ErrorDiagnostics(r.ctx, err))
	}
	fop, err := ref.EntryFunc(f.Op, r.o.entry)
	if errors.Is(err, ref.ErrNoEntry) {
		return nil, fmt.Errorf("%s: %v with --entry", path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return ref.CompileFunc(fop)
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkMemory refuses, before anything is allocated, a program whose run
// would hold more than --max-memory bytes at once. Weights read from a file
// or materialised for several programs stay in memory for the whole run.
func (r *runner) checkMemory(progs []*ref.Program) error {
	// Without a limit, a run whose size does not even fit in 64 bits is
	// still refused.
	budget := r.o.maxMemory
	if budget <= 0 {
		budget = math.MaxInt64 - 1
	}
	resident := r.o.weights != "" || len(progs) > 1 || r.o.saveWeights != ""
	for _, p := range progs {
		if err := p.CheckMemory(budget, resident); err != nil {
			if d, ok := err.(*ir.Diagnostic); ok && r.o.maxMemory > 0 {
				d.AttachNote(p.Func().Loc(), "the budget is --max-memory (default: half of the physical memory)")
			}
			return err
		}
	}
	return nil
}

// parseSize reads a --max-memory value: bytes, or a number with one of the
// suffixes K, M, G, T (powers of 1024, optionally followed by "iB" or "B").
func parseSize(v string) (int64, error) {
	s := strings.TrimSuffix(strings.TrimSuffix(v, "B"), "i")
	shift := 0
	if n := len(s); n > 0 {
		if i := strings.IndexByte("KMGT", s[n-1]); i >= 0 {
			shift, s = 10*(i+1), s[:n-1]
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("want a size in bytes, with an optional suffix K, M, G or T (16G), got %q", v)
	}
	return n << shift, nil
}

// inputs reads --inputs or generates seeded inputs that suit every program.
func (r *runner) inputs(progs []*ref.Program) ([]*tensor.Tensor, error) {
	p := progs[0]
	var inputs []*tensor.Tensor
	if r.o.inputs == "" {
		var err error
		if inputs, err = ref.SeededInputs(r.o.seed, progs...); err != nil {
			return nil, ir.OpErrorPlain(p.Func(), "%v; pass --inputs", err)
		}
	} else {
		files := strings.Split(r.o.inputs, ",")
		if st, err := os.Stat(r.o.inputs); err == nil && st.IsDir() {
			// A directory of in0.npy, in1.npy, …, one per argument.
			files = files[:0]
			for i := range p.Args() {
				files = append(files, filepath.Join(r.o.inputs, fmt.Sprintf("in%d.npy", i)))
			}
		}
		if len(files) != len(p.Args()) {
			return nil, ir.OpErrorPlain(p.Func(), "@%s takes %d arguments, but --inputs names %d files", p.Name(), len(p.Args()), len(files))
		}
		for i, name := range files {
			t, err := readNPY(name)
			if err != nil {
				return nil, err
			}
			// NumPy has no bf16: an f32 file feeds a bf16 argument, rounded.
			if want := p.Args()[i].Type.DType; want == tensor.BF16 && t.DType() == tensor.F32 {
				if t, err = kernels.Cast(t, tensor.BF16); err != nil {
					return nil, err
				}
			}
			if !p.Args()[i].Type.Matches(t) {
				return nil, ir.OpErrorPlain(p.Func(), "input %s is %s, but argument #%d of @%s is %v", name, t.Type(), i, p.Name(), p.Args()[i].Type)
			}
			inputs = append(inputs, t)
		}
	}
	if r.o.saveInputs != "" {
		if err := writeAll(r.o.saveInputs, "in", inputs); err != nil {
			return nil, err
		}
	}
	return inputs, nil
}

func readNPY(name string) (*tensor.Tensor, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("cannot open input file '%s': %v", name, unwrapPath(err))
	}
	defer f.Close()
	t, err := tensor.ReadNPY(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return t, nil
}

// weights opens --weights, or seeded weights. With several programs, or
// when they are saved, the weights are materialised once so that every
// program reads the same tensors.
func (r *runner) weights(progs []*ref.Program) (ref.Weights, error) {
	var w ref.Weights
	if r.o.weights != "" {
		src, err := weights.Open(r.o.weights)
		if err != nil {
			return nil, fmt.Errorf("cannot read weights: %v", unwrapPath(err))
		}
		w = src
	} else {
		w = ref.Seeded(r.o.seed)
		if len(progs) > 1 || r.o.saveWeights != "" {
			tw, err := ref.Materialize(w, progs...)
			if err != nil {
				return nil, ir.OpErrorPlain(progs[0].Func(), "%v", err)
			}
			w = tw
		}
	}
	if r.o.saveWeights != "" {
		tw, err := ref.Materialize(w, progs...)
		if err != nil {
			return nil, ir.OpErrorPlain(progs[0].Func(), "%v", err)
		}
		if err := ref.WriteWeights(r.o.saveWeights, tw); err != nil {
			return nil, fmt.Errorf("cannot write weights: %v", err)
		}
	}
	return w, nil
}

// compare prints one line per result and the verdict; the exit code is 1
// when any result differs beyond the tolerance (with tolerance 0: when any
// bit differs).
func (r *runner) compare(a, b []*tensor.Tensor) int {
	if len(a) != len(b) {
		return r.fail(fmt.Errorf("%s has %d results, %s has %d", r.o.input, len(a), r.o.compareWith, len(b)))
	}
	identical, within := true, true
	for i := range a {
		d := ref.Compare(a[i], b[i])
		if !d.SameType {
			fmt.Fprintf(r.stdout, "result %d: %s vs %s: types differ\n", i, a[i].Type(), b[i].Type())
			identical, within = false, false
			continue
		}
		verdict := "bit-identical"
		if !d.BitIdentical {
			verdict = fmt.Sprintf("%d of %d elements differ", d.Count, a[i].Len())
		}
		fmt.Fprintf(r.stdout, "result %d: %s checksums %016x %016x max-abs-diff %s (%s)\n",
			i, a[i].Type(), ref.Checksum(a[i]), ref.Checksum(b[i]), strconv.FormatFloat(d.MaxAbs, 'g', -1, 64), verdict)
		identical = identical && d.BitIdentical
		if r.o.tolerance == 0 {
			within = within && d.BitIdentical
		} else {
			within = within && d.MaxAbs <= r.o.tolerance
		}
	}
	yes := map[bool]string{true: "yes", false: "no"}
	fmt.Fprintf(r.stdout, "bit-identical: %s\n", yes[identical])
	if !within {
		fmt.Fprintf(r.stderr, "rlx-run: error: results differ beyond --tolerance %s\n", strconv.FormatFloat(r.o.tolerance, 'g', -1, 64))
		return 1
	}
	return 0
}

// values formats the first n elements: floats in the shortest form that
// reads back to the same float32, integers in decimal.
func values(t *tensor.Tensor, n int) string {
	var sb strings.Builder
	sb.WriteByte('[')
	fl, in, by := t.Floats(), t.Ints(), t.Bytes()
	for i := 0; i < t.Len() && i < n; i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		switch {
		case fl != nil:
			sb.WriteString(strconv.FormatFloat(float64(fl[i]), 'g', -1, 32))
		case in != nil:
			sb.WriteString(strconv.FormatInt(in[i], 10))
		default:
			sb.WriteString(strconv.Itoa(int(by[i])))
		}
	}
	if t.Len() > n {
		if n > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString("...")
	}
	sb.WriteByte(']')
	return sb.String()
}

// writeAll writes ts to dir/<prefix><i>.npy, creating dir. NumPy has no
// bf16, so bf16 tensors are written as f32 (exactly).
func writeAll(dir, prefix string, ts []*tensor.Tensor) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("cannot create directory: %v", err)
	}
	for i, t := range ts {
		if t.DType() == tensor.BF16 {
			var err error
			if t, err = kernels.Cast(t, tensor.F32); err != nil {
				return err
			}
		}
		// Each file is written beside its name and renamed into place, so
		// a failed run leaves no truncated file, and an input named like
		// an output is read whole before it is replaced.
		name := filepath.Join(dir, fmt.Sprintf("%s%d.npy", prefix, i))
		if err := outfile.WriteWith(name, func(w io.Writer) error { return tensor.WriteNPY(w, t) }); err != nil {
			return fmt.Errorf("cannot write %s: %v", name, unwrapPath(err))
		}
	}
	return nil
}

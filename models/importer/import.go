package importer

import (
	"fmt"
	"os"
	"slices"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

// DefaultMaxTokens is the cache capacity when Options.MaxTokens is 0.
const DefaultMaxTokens = 256

// Options tune an import.
type Options struct {
	// MaxTokens is the capacity of the KV caches: the most tokens one
	// sequence can hold. 0 means DefaultMaxTokens.
	MaxTokens int
	// Q6KColumns reads the projections stored as q6_k, dense and MoE
	// experts, as q6_k_c16: the same bytes in the columns the GPU GEMV
	// reads (dequant_gemv_q6_k_c16), which the weights binder rearranges
	// them into when it loads them (an expert stack expert by expert).
	Q6KColumns bool
}

// Model is an imported checkpoint.
type Model struct {
	// Module is the builtin.module holding @decode, verified.
	Module *ir.Operation
	// Arch is the architecture as the checkpoint names it
	// ("Qwen3ForCausalLM", or the GGUF's general.architecture).
	Arch string
	// Weights are the tensor names the module binds, in order of first
	// use: tensor names of the checkpoint, or `*` stacks of them.
	Weights []string
	// Unused are the checkpoint's tensors the module does not read
	// (multi-token-prediction heads, say), which transformers ignores too.
	Unused []string
	// Source is the open checkpoint: what rlx-run --weights would bind.
	Source *weights.Source
	// MaxTokens is the cache capacity.
	MaxTokens int
	// Notes say where the module follows one reference implementation
	// of the checkpoint's architecture over another that computes
	// differently (a Mamba-2 gated norm over the whole width, as
	// transformers, where mamba_ssm and llama.cpp normalise each group).
	Notes []string
}

// Import imports a Hugging Face checkpoint directory or a GGUF file
// (recognised by its magic).
func Import(ctx *ir.Context, path string, opts Options) (*Model, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return ImportHF(ctx, path, opts)
	}
	return ImportGGUF(ctx, path, opts)
}

func (o Options) maxTokens() (int, error) {
	switch {
	case o.MaxTokens == 0:
		return DefaultMaxTokens, nil
	case o.MaxTokens < 0:
		return 0, fmt.Errorf("the cache capacity must be positive, got %d", o.MaxTokens)
	}
	return o.MaxTokens, nil
}

// ImportHF imports the Hugging Face checkpoint in dir: config.json and its
// safetensors files.
func ImportHF(ctx *ir.Context, dir string, opts Options) (*Model, error) {
	mt, err := opts.maxTokens()
	if err != nil {
		return nil, err
	}
	s, err := specFromConfig(dir, mt)
	if err != nil {
		return nil, err
	}
	src, err := weights.Open(dir)
	if err != nil {
		return nil, err
	}
	// transformers' layouts: the fused Qwen3-Next projections, A_log.
	s.aIsLog = true
	s.fusedQKVZ = s.arch == "Qwen3NextForCausalLM"
	s.fusedBA = s.fusedQKVZ
	s.q6Columns = opts.Q6KColumns
	return finish(ctx, s, hfNamesFor(s.arch, src), src)
}

func finish(ctx *ir.Context, s *spec, n naming, src *weights.Source) (*Model, error) {
	m, bound, err := build(ctx, s, n, src)
	if err != nil {
		src.Close()
		return nil, err
	}
	// Read at import, constants of the module.
	used := map[string]bool{"rope_freqs.weight": true, "rope_factors_short.weight": true, "rope_factors_long.weight": true}
	for _, b := range bound {
		for _, name := range src.Expand(b) {
			used[name] = true
		}
	}
	// A tensor's second forms (weights.Info.Alt) count as read where it
	// or another of them is.
	base := func(name string) string {
		if i, _ := src.Info(name); i.Alt != "" {
			return i.Alt
		}
		return name
	}
	read := map[string]bool{}
	for name := range used {
		read[base(name)] = true
	}
	var unused []string
	for _, name := range src.Names() {
		if !used[name] && !read[base(name)] {
			unused = append(unused, name)
		}
	}
	return &Model{Module: m, Arch: s.arch, Weights: bound, Unused: unused, Source: src, MaxTokens: s.maxTokens, Notes: s.notes()}, nil
}

// notes are the Model.Notes of the spec.
func (s *spec) notes() []string {
	var notes []string
	if slices.Contains(s.layerTypes, mambaLayer) && !s.ssmV1 && !s.ssmGroupNorm && s.ssmGroups > 1 {
		notes = append(notes, fmt.Sprintf("each Mamba-2 mixer's gated norm normalises its whole width, as transformers' Mamba2Mixer does; mamba_ssm and llama.cpp normalise each of its %d groups apart, which gives other logits", s.ssmGroups))
	}
	return notes
}

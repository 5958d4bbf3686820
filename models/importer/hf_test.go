package importer

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/decode"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// fixture is one checkpoint made by tools/hf-fixtures/make_fixtures.py.
type fixture struct {
	name, dir string
	Arch      string  `json:"arch"`
	Tokens    []int   `json:"tokens"`
	RefDType  string  `json:"reference_dtype"`
	MinGap    float64 `json:"min_top2_gap"`
	// WeightsFrom names the fixture whose safetensors this one shares
	// (tools/hf-fixtures/share_weights.py): only its config differs.
	WeightsFrom string `json:"weights_from"`
	ref         *tensor.Tensor
}

var fixtureNames = []string{"llama", "qwen3", "qwen3_5", "qwen3_next",
	// Stop 56, from run 37d: stop 55's architectures and stop 56's rope
	// scaling, windows and Gemma 2.
	"qwen2", "mistral", "mixtral", "phi3", "qwen2_moe", "qwen3_moe", "gemma3", "llama_bias",
	"phi3_longrope_short", "phi3_longrope_long", "qwen2_yarn", "mistral_window", "gemma2",
	// Stop 60, from runs 41d, 41f and 41h: SmolLM3's NoPE layers,
	// Granite's multipliers, OLMo 2's norms.
	"smollm3", "granite", "olmo2",
	// Stop 61, from run 42a: OLMo 3's windows, GLM-4's norms and rope,
	// EXAONE 4's hybrid attention, ERNIE 4.5, Cohere and Cohere 2.
	"olmo3", "glm4", "exaone4", "ernie4_5", "cohere", "cohere2",
	// Run 42b: Qwen2.5-VL's and Qwen3-VL's text, LFM2.
	"qwen2_5_vl", "qwen3_vl", "lfm2",
	// Run 42c: OLMoE, Seed-OSS, Arcee.
	"olmoe", "seed_oss", "arcee",
	// Stop 62, from run 43a: StarCoder2, Phi-2, StableLM 2 (two forms),
	// GPT-NeoX, Granite MoE (and Shared), Nemotron, Command R+, Gemma,
	// GLM-4.5 and Qwen3-VL-MoE.
	"starcoder2", "phi", "stablelm", "stablelm_qk", "gpt_neox", "granitemoe", "granitemoeshared", "nemotron", "cohere_qk",
	"gemma", "glm4_moe", "qwen3_vl_moe",
	// Run 43b: gpt-oss (eager attention, its sinks).
	"gpt_oss",
	// Stop 67, from run 48a: Llama 4 (three forms) and DeepSeek-V3 (two).
	"llama4", "llama4_k2", "llama4_vl", "deepseek_v3", "deepseek_v3_q",
	// Stop 68, from run 49a: DeepSeek-V2 (two); from run 52a: Qwen3 in
	// transformers' fine-grained FP8.
	"deepseek_v2", "deepseek_v2_lite", "qwen3_fp8",
	// Stop 70, from run 54c: the state-space models.
	"mamba2", "mamba", "falcon_mamba", "granitemoehybrid", "granitemoehybrid_dense", "bamba", "nemotron_h",
	// Stop 71, from run 55a: Jamba, Nemotron 3 (experts, and in a
	// latent), Falcon-H1 (two), LFM2-MoE, ERNIE-4.5-MoE, MiniMax-M2,
	// Apertus.
	"jamba", "nemotron_h_moe", "nemotron_h_latent", "falcon_h1", "falcon_h1_norm", "lfm2_moe", "ernie4_5_moe", "minimax_m2", "apertus",
	// Stop 72, from run 56a: Zamba2 (two shared blocks with attention
	// adapters and rope; one without).
	"zamba2", "zamba2_one",
	// Stop 73, from run 57a: Kimi Linear as Moonshot publishes it,
	// Ministral 3 (cos and sin unscaled, and scaled by mscale_all_dim 0).
	"kimi_linear", "ministral3", "ministral3_scaled"}

// loadFixture reads a fixture. Its reference is transformers' decoding
// one token at a time (incremental.npy) where the fixture has it, as
// rlx's decode step runs, else the full pass (reference.npy): the two
// agree to 1e-15 but where the rope depends on the sequence's length
// (LongRoPE past its original context, phi3_longrope_long). A fixture
// that shares another's weights is put together in a temporary
// directory: its config.json beside links to the other's tensors.
func loadFixture(t testing.TB, name string) *fixture {
	t.Helper()
	f := &fixture{name: name, dir: filepath.Join("testdata", "hf", name)}
	data, err := os.ReadFile(filepath.Join(f.dir, "fixture.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, f); err != nil {
		t.Fatal(err)
	}
	src := f.dir
	if f.WeightsFrom != "" {
		f.dir = t.TempDir()
		config, err := os.ReadFile(filepath.Join(src, "config.json"))
		if err != nil {
			t.Fatal(err)
		}
		linkFixture(t, f.dir, config, filepath.Join("testdata", "hf", f.WeightsFrom))
	}
	refName := "incremental.npy"
	if _, err := os.Stat(filepath.Join(src, refName)); err != nil {
		refName = "reference.npy"
	}
	r, err := os.Open(filepath.Join(src, refName))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if f.ref, err = tensor.ReadNPY(r); err != nil {
		t.Fatal(err)
	}
	return f
}

// fixtureWeights is the directory holding fixture name's safetensors:
// its own, or those of the fixture it shares them with.
func fixtureWeights(t testing.TB, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "hf", name, "fixture.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f fixture
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if f.WeightsFrom != "" {
		name = f.WeightsFrom
	}
	return filepath.Join("testdata", "hf", name)
}

// linkFixture fills dir with config.json holding config and links to the
// safetensors (and their index) in weights.
func linkFixture(t testing.TB, dir string, config []byte, weights string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "config.json"), config, 0o644); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(weights)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if filepath.Ext(e.Name()) == ".safetensors" || e.Name() == "model.safetensors.index.json" {
			abs, err := filepath.Abs(filepath.Join(weights, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(abs, filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func newContext() *ir.Context {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	return ctx
}

// decodeModule decodes tokens with the module's @decode and weights w.
func decodeModule(t testing.TB, m *ir.Operation, w ref.Weights, tokens []int) *tensor.Tensor {
	t.Helper()
	p, err := ref.Compile(m, "decode")
	if err != nil {
		t.Fatal(err)
	}
	d, err := decode.New(p)
	if err != nil {
		t.Fatal(err)
	}
	logits, err := d.Run(tokens, w)
	if err != nil {
		t.Fatal(err)
	}
	return logits
}

// agreement returns max |Δ| / max |ref| and the steps whose arg-max
// differs.
func agreement(got, want *tensor.Tensor) (rel float64, argmaxDiff []int) {
	g, w := got.Floats(), want.Floats()
	var maxDiff, maxRef float64
	for i := range w {
		maxDiff = math.Max(maxDiff, math.Abs(float64(g[i])-float64(w[i])))
		maxRef = math.Max(maxRef, math.Abs(float64(w[i])))
	}
	steps, vocab := want.Shape()[0], want.Shape()[1]
	for s := range steps {
		if argmax(g[s*vocab:(s+1)*vocab]) != argmax(w[s*vocab:(s+1)*vocab]) {
			argmaxDiff = append(argmaxDiff, s)
		}
	}
	return maxDiff / maxRef, argmaxDiff
}

func argmax(v []float32) int {
	best := 0
	for i, x := range v {
		if x > v[best] {
			best = i
		}
	}
	return best
}

// TestTransformersAgreement imports each fixture, decodes its tokens one
// step at a time through the interpreter, and compares every step's
// logits with transformers' (float64 references: max |Δ| / max |logit| ≤
// 1e-4; float32: 1e-3) and the arg-max token of every step.
func TestTransformersAgreement(t *testing.T) {
	for _, name := range fixtureNames {
		t.Run(name, func(t *testing.T) {
			f := loadFixture(t, name)
			m, err := ImportHF(newContext(), f.dir, Options{MaxTokens: 16})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Source.Close()
			if m.Arch != f.Arch {
				t.Errorf("arch %q, fixture says %q", m.Arch, f.Arch)
			}
			// The vision-language fixtures' towers and projectors: text
			// never reaches them.
			if unused := slices.DeleteFunc(slices.Clone(m.Unused), func(n string) bool {
				n = strings.TrimPrefix(n, "model.")
				return strings.HasPrefix(n, "visual.") || strings.HasPrefix(n, "vision_model.") || strings.HasPrefix(n, "multi_modal_projector.")
			}); len(unused) > 0 {
				t.Errorf("the module does not read %v", unused)
			}
			got := decodeModule(t, m.Module, m.Source, f.Tokens)
			rel, bad := agreement(got, f.ref)
			tol := 1e-4
			if f.RefDType != "torch.float64" {
				tol = 1e-3
			}
			t.Logf("%s: max |Δ| / max |logit| = %.3g over %d steps (tolerance %g)", f.Arch, rel, len(f.Tokens), tol)
			if rel > tol || len(bad) > 0 {
				t.Errorf("%s: max |Δ| / max |logit| = %.3g (tolerance %g), arg-max differs at steps %v", f.Arch, rel, tol, bad)
			}
		})
	}
}

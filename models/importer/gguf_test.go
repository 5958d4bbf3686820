package importer

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// q8Bound is the largest max |Δ| / max |logit| accepted between a fixture
// decoded from its Q8_0 GGUF and from its safetensors. The error is the
// quantisation's own (TestGGUFAgreement checks that the Q8_0 file computes
// what an F32 file of the dequantised weights computes); these tiny random
// models amplify it: measured 0.018 (Llama), 0.017 (Qwen3), 0.104
// (Qwen3.5, growing over the steps through the delta-net state) and 0.116
// (Qwen3-Next, where it also flips expert choices), 0.237 (deepseek_v3_q,
// an expert choice flipped), 0.438 (kimi_linear, whose logits reach only
// 2.39: quantising token_embd alone moves them by 0.429 of that, the
// attention projections alone by 0.154, the experts alone by 0.0093;
// measured at stop 73), 0.018 and 0.030 (ministral3, ministral3_scaled).
var q8Bound = map[string]float64{"llama": 0.03, "qwen3": 0.03, "qwen3_5": 0.15, "qwen3_next": 0.15,
	"qwen2": 0.03, "mistral": 0.03, "mixtral": 0.15, "phi3": 0.03, "qwen2_moe": 0.15, "qwen3_moe": 0.15, "gemma3": 0.03, "llama_bias": 0.03,
	"phi3_longrope_short": 0.03, "phi3_longrope_long": 0.03, "qwen2_yarn": 0.03, "smollm3": 0.05, "granite": 0.05, "olmo2": 0.05,
	"olmo3": 0.05, "glm4": 0.05, "exaone4": 0.05, "ernie4_5": 0.05, "cohere": 0.05, "cohere2": 0.05,
	"qwen2_5_vl": 0.05, "qwen3_vl": 0.05, "lfm2": 0.05,
	"olmoe": 0.15, "seed_oss": 0.05, "arcee": 0.05,
	"starcoder2": 0.05, "phi": 0.05, "stablelm": 0.05, "stablelm_qk": 0.05, "gpt_neox": 0.05, "granitemoe": 0.15,
	"granitemoeshared": 0.15, "nemotron": 0.05, "cohere_qk": 0.05, "gemma": 0.05, "glm4_moe": 0.15, "qwen3_vl_moe": 0.15, "gpt_oss": 0.15,
	"deepseek_v3": 0.15, "deepseek_v3_q": 0.3, "deepseek_v2": 0.15, "deepseek_v2_lite": 0.15, "qwen3_fp8": 0.03,
	"mamba": 0.03, "granitemoehybrid": 0.15, "nemotron_h": 0.05,
	"jamba": 0.15, "nemotron_h_moe": 0.1, "nemotron_h_latent": 0.1, "falcon_h1": 0.05, "falcon_h1_norm": 0.15, "minimax_m2": 0.05,
	"apertus": 0.05, "kimi_linear": 0.5, "ministral3": 0.05, "ministral3_scaled": 0.05}

// ggufCannot are the fixtures whose config a GGUF file as llama.cpp's
// converter writes it cannot hold: their GGUF import must differ from
// the safetensors' (≥ 1e-3 of max |logit|), which shows the fixture
// exercises what the file lacks; the quantised files are still checked
// against their dequantised F32 files.
var ggufCannot = map[string]string{
	"gemma3":                 "llama.cpp's gemma3 takes every sixth layer global and scores × 1/√head_dim; the fixture has layer_types of period 2 and query_pre_attn_scalar 24",
	"gemma2":                 "llama.cpp's gemma2 scores × 1/√head_dim; the fixture has query_pre_attn_scalar 24",
	"mistral_window":         "llama.cpp's llama files carry no sliding window",
	"exaone4":                "llama.cpp's exaone4 slides only the 64-layer 32B; the fixture's 4 layers slide in 0-2",
	"gemma":                  "llama.cpp's gemma always gates with tanh's gelu; the fixture's hidden_act is silu, which transformers 5 reads",
	"gpt_oss":                "llama.cpp's YaRN truncates its correction range; transformers' gpt-oss (truncate false) does not (TestGptOSSGGUF: with truncate true the two agree)",
	"deepseek_v2":            "transformers' DeepSeek-V2 leaves norm_topk_prob (true in the fixture) unread and ranks a group by its best expert; the converter writes expert_weights_norm, and llama.cpp's deepseek2 renormalises and ranks a group by its two best (TestDeepseek2GGUF: without either the two agree)",
	"llama4":                 "llama.cpp's llama4 fixes the chunks at 8192 and the temperature tuning's floor_scale at 8192; the fixture's are 3 and 2 (TestLlama4GGUF: at 8192 the two agree)",
	"llama4_k2":              "llama.cpp's llama4 fixes the temperature tuning's floor_scale at 8192; the fixture's is 2",
	"llama4_vl":              "as llama4 (the same config under text_config)",
	"deepseek_v2_lite":       "transformers' DeepSeek-V2 leaves norm_topk_prob (true in the fixture) unread; the converter writes expert_weights_norm, which llama.cpp's deepseek2 applies (TestDeepseek2GGUF: without it the two agree)",
	"mamba2":                 "llama.cpp's mamba2 normalises each of the fixture's 2 groups apart in the gated norm, transformers' Mamba2Mixer the whole width (TestMambaGGUF: against the grouped norm the two agree)",
	"falcon_mamba":           "llama.cpp normalises Falcon-Mamba's dt, B and C with the layers' epsilon (1e-5 in the fixture), transformers with mixer_rms_eps (1e-6) (TestFalconMambaGGUF: with the two equal the two agree)",
	"granitemoehybrid_dense": "the converter writes granitehybrid's rope only for Bamba (rope.scaling.finetuned), so llama.cpp's Granite 4.0 with Mamba-2 layers never rotates; the fixture's position_embedding_type is rope",
	"lfm2_moe":               "llama.cpp's lfm2moe builder never scales the routed weights; the fixture's routed_scaling_factor is 1.5 (TestLfm2MoE: at 1 the two agree)",
}

// ggufNot are the fixtures rlx reads no GGUF form of: the GGUF import
// is refused with the message given.
// noGGUF are the architectures llama.cpp has no form of: their fixtures
// are not converted.
var noGGUF = map[string]string{
	"Zamba2ForCausalLM": "llama.cpp has no zamba2 architecture",
}

var ggufNot = map[string]string{
	"bamba": "granitehybrid.rope.dimension_count = 8 of 16: rlx reads granitehybrid's rope over whole heads only",
	// The converter writes the shared experts' width as intermediate_size
	// ÷ num_key_value_heads (96 ÷ 2 here), not moe_intermediate_size ×
	// moe_num_shared_experts (64): the file contradicts its tensors, as
	// llama.cpp's loader would find too (TestErnie45MoE: where the two
	// agree, the file decodes as the safetensors).
	"ernie4_5_moe": `tensor "blk.1.ffn_gate_shexp.weight" is F32 [64, 64], expected shape [48, 64]`,
}

// TestGGUFAgreement converts each fixture to GGUF as llama.cpp's converter
// does, imports the file and decodes the same tokens:
//   - an F32 file gives the safetensors import's logits up to the float32
//     rounding of converted tensors (llama.cpp's ssm_a = −exp(A_log) and
//     folded `1 + w`): ≤ 1e-5 of max |logit|, the same arg-max everywhere;
//   - a Q8_0 file, whose matrices run through graph.dequant_matmul, gives
//     what an F32 file of the same dequantised weights gives, ≤ 1e-5, and
//     stays within q8Bound of the safetensors import; a Q4_0 file gives
//     what its dequantised F32 file gives, ≤ 1e-5.
func TestGGUFAgreement(t *testing.T) {
	for _, name := range fixtureNames {
		t.Run(name, func(t *testing.T) {
			f := loadFixture(t, name)
			if why, ok := noGGUF[f.Arch]; ok {
				t.Logf("no GGUF form: %s", why)
				return
			}
			if why, ok := ggufNot[name]; ok {
				_, err := ImportGGUF(newContext(), writeGGUF(t, f, 0, false), Options{MaxTokens: 16})
				if err == nil || !strings.Contains(err.Error(), why) {
					t.Errorf("GGUF import: %v, want the refusal %q", err, why)
				}
				return
			}
			hf, err := ImportHF(newContext(), f.dir, Options{MaxTokens: 16})
			if err != nil {
				t.Fatal(err)
			}
			defer hf.Source.Close()
			want := decodeModule(t, hf.Module, hf.Source, f.Tokens)
			run := func(format gguf.Format, dequantised bool) (string, *tensor.Tensor) {
				path := writeGGUF(t, f, format, dequantised)
				if format.Valid() && !dequantised && tensorsOfType(t, path, gguf.TypeOf(format)) == 0 {
					t.Fatalf("the %v file holds no %v tensor: nothing would be compared", format, format)
				}
				m, err := ImportGGUF(newContext(), path, Options{MaxTokens: 16})
				if err != nil {
					t.Fatal(err)
				}
				defer m.Source.Close()
				return m.Arch, decodeModule(t, m.Module, m.Source, f.Tokens)
			}
			arch, f32 := run(0, false)
			_, q8 := run(gguf.Q8_0, false)
			_, dq := run(gguf.Q8_0, true)
			rel, bad := agreement(f32, want)
			t.Logf("%s F32 GGUF against safetensors: %.3g", arch, rel)
			cannot := ggufCannot[name]
			switch {
			case cannot != "" && rel < 1e-3:
				t.Errorf("%s F32 GGUF agrees with safetensors (%.3g), though %s: take it out of ggufCannot", arch, rel, cannot)
			case cannot != "":
				t.Logf("the GGUF form differs, as expected: %s", cannot)
			case rel > 1e-5 || len(bad) > 0:
				t.Errorf("%s F32 GGUF: max |Δ| / max |logit| against safetensors = %.3g (tolerance 1e-5), arg-max differs at %v", arch, rel, bad)
			}
			rel, _ = agreement(q8, dq)
			t.Logf("%s Q8_0 GGUF against F32 of its dequantised weights: %.3g", arch, rel)
			if rel > 1e-5 {
				t.Errorf("%s Q8_0 GGUF: max |Δ| / max |logit| against the dequantised F32 file = %.3g (tolerance 1e-5)", arch, rel)
			}
			// Q4_0 the same way (the fixtures' rows, 64 and 96 weights,
			// are whole Q4_0 blocks; the K-quants' 256 are not, so those
			// files would hold no quantised matrix).
			_, q4 := run(gguf.Q4_0, false)
			_, dq4 := run(gguf.Q4_0, true)
			rel, _ = agreement(q4, dq4)
			t.Logf("%s Q4_0 GGUF against F32 of its dequantised weights: %.3g", arch, rel)
			if rel > 1e-5 {
				t.Errorf("%s Q4_0 GGUF: max |Δ| / max |logit| against the dequantised F32 file = %.3g (tolerance 1e-5)", arch, rel)
			}
			rel, bad = agreement(q8, want)
			t.Logf("%s Q8_0 GGUF against safetensors: %.3g (arg-max differs at %v)", arch, rel, bad)
			if cannot == "" && rel > q8Bound[name] {
				t.Errorf("%s Q8_0 GGUF: max |Δ| / max |logit| against safetensors = %.3g, bound %g", arch, rel, q8Bound[name])
			}
		})
	}
}

// tensorsOfType counts the tensors of type typ in the GGUF file at path.
func tensorsOfType(t testing.TB, path string, typ gguf.TensorType) int {
	t.Helper()
	f, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for _, ti := range f.Tensors {
		if ti.Type == typ {
			n++
		}
	}
	return n
}

package importer

import (
	"testing"

	"github.com/rlx-compiler/rlx/internal/qckpt"
)

// DrawnCheckpoints writes the drawn checkpoints of the architectures no
// fixture had when they were written (Llama 4's, DeepSeek-V3's,
// DeepSeek-V2's), and the qwen3 fixture as a GPTQ checkpoint in
// desc_act's order, for the external tests, by name.
func DrawnCheckpoints(t testing.TB) map[string]string {
	return map[string]string{
		"llama4":      drawCheckpoint(t, llama4Config(nil), llama4Tensors([]bool{false, true, false, true}, "model.", "lm_head.weight")),
		"deepseek_v3": drawCheckpoint(t, deepseekConfig(nil), deepseekTensors(24)),
		"deepseek_v2": drawCheckpoint(t, deepseekV2Config(map[string]any{"topk_group": 1}), latentTensors(24, false)),
		// GPTQ in desc_act's order: x gathered by a weight, q5_0 blocks.
		"qwen3_gptq_desc_act": gptqCheckpoint(t, &qckpt.GPTQ{Bits: 4, Group: 32, Shuffle: true}),
		// Mamba-2: the causal conv, the state's update per head and
		// group, dt clamped to time_step_limit.
		"mamba2": mamba2Dir(t),
		// Granite 4.0 H: Mamba-2 and attention without rope, experts
		// and a shared MLP.
		"granite_hybrid": drawnGraniteHybrid(t),
		// Mamba: a state per channel, dt through x_proj and dt_proj.
		"mamba": drawnMamba(t),
		// Nemotron-H: Mamba-2 with grouped norms, attention without
		// rope, an MLP layer.
		"nemotron_h": drawnNemotronH(t),
		// Nemotron 3: relu² experts in a latent, a relu² shared expert.
		"nemotron_h_moe": drawnNemotronHOf(t, "E*ME", 24),
		// Falcon-H1: attention and Mamba-2 side by side in every
		// layer, µP multipliers everywhere.
		"falcon_h1": func() string { dir, _ := drawnFalconH1(t, falconH1Variant{2, true, false}); return dir }(),
		// LFM2-MoE: short convolutions, σ-routed experts with an expert
		// bias, renormalised with 1e-6, scaled.
		"lfm2_moe": writeLfm2MoE(t, true, 1.5),
		// Apertus: xIELU with each layer's parameters.
		"apertus": drawCheckpoint(t, apertusConfig(nil), apertusTensors(true)),
		// Jamba: Mamba with weighted dt, B and C norms and experts.
		"jamba": drawnJamba(t),
		// Kimi Linear: Kimi delta attention (a decay a key channel),
		// latent attention without rope, σ-routed experts in groups.
		"kimi_linear": drawCheckpoint(t, kimiConfig(nil), kimiTensors()),
		// Zamba2: two shared blocks (attention on x ‖ x₀ with adapters
		// and rope, an MLP with adapters) feeding Mamba-2 mixers.
		"zamba2": drawCheckpoint(t, zambaConfig(nil), zambaTensors([]string{"mamba", "hybrid", "mamba", "hybrid"}, 2, false, true)),
		// Ministral 3: YaRN, and q scaled by position in every layer.
		"ministral3": drawCheckpoint(t, ministral3Config(nil, nil), ministral3Tensors("model.", "lm_head.weight")),
	}
}

package importer

import "testing"

// DrawnCheckpoints writes the drawn checkpoints of the architectures no
// fixture had when they were written (Llama 4's, DeepSeek-V3's,
// DeepSeek-V2's) for the external tests, by name.
func DrawnCheckpoints(t testing.TB) map[string]string {
	v2 := deepseekConfig(map[string]any{"architectures": []string{"DeepseekV2ForCausalLM"}, "topk_method": "group_limited_greedy",
		"scoring_func": "softmax", "topk_group": 1})
	delete(v2, "rope_interleave")
	return map[string]string{
		"llama4":      drawCheckpoint(t, llama4Config(nil), llama4Tensors([]bool{false, true, false, true}, "model.", "lm_head.weight")),
		"deepseek_v3": drawCheckpoint(t, deepseekConfig(nil), deepseekTensors(24)),
		"deepseek_v2": drawCheckpoint(t, v2, latentTensors(24, false)),
	}
}

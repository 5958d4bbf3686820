package importer

import "testing"

// DrawnCheckpoints writes the drawn checkpoints of the architectures no
// fixture had when they were written (Llama 4's, DeepSeek-V3's,
// DeepSeek-V2's) for the external tests, by name.
func DrawnCheckpoints(t testing.TB) map[string]string {
	return map[string]string{
		"llama4":      drawCheckpoint(t, llama4Config(nil), llama4Tensors([]bool{false, true, false, true}, "model.", "lm_head.weight")),
		"deepseek_v3": drawCheckpoint(t, deepseekConfig(nil), deepseekTensors(24)),
		"deepseek_v2": drawCheckpoint(t, deepseekV2Config(map[string]any{"topk_group": 1}), latentTensors(24, false)),
	}
}

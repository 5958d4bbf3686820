package importer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
)

// TestLlama4GGUF: Llama 4 checkpoints converted as llama.cpp's converter
// writes llama4 decode from GGUF as from safetensors where the config
// has what llama.cpp's loader fixes (chunks of 8192, the temperature
// tuning's floor_scale 8192 and attn_scale 0.1, every fourth layer
// without rope; q/k norms unless 128 experts), ≤ 1e-5 of max |logit|:
// the llama4 and llama4_k2 fixtures' weights (transformers' own
// checkpoints) with their chunk and floor_scale set to 8192, and the
// vision-language one as published; a drawn Maverick-like checkpoint of
// 128 experts without q/k norms. Their Q8_0 files give what their
// dequantised F32 files give. (With the fixtures' own chunk of 3 and
// floor_scale of 2 the files differ: TestGGUFAgreement's ggufCannot.
// The chunks of 8192 and the tuning's floor are beyond these 16-token
// caches, as in TestLlama4.)
func TestLlama4GGUF(t *testing.T) {
	for _, name := range []string{"llama4", "llama4_k2", "llama4_vl"} {
		t.Run(name, func(t *testing.T) {
			f := loadFixture(t, name)
			data, err := os.ReadFile(filepath.Join(f.dir, "config.json"))
			if err != nil {
				t.Fatal(err)
			}
			var cfg map[string]any
			if err := json.Unmarshal(data, &cfg); err != nil {
				t.Fatal(err)
			}
			text := cfg
			if tc, ok := cfg["text_config"].(map[string]any); ok {
				text = tc
			}
			text["attention_chunk_size"], text["floor_scale"] = 8192, 8192
			edited, err := json.Marshal(cfg)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			linkFixture(t, dir, edited, fixtureWeights(t, name))
			llama4GGUFAgrees(t, dir, f.Tokens)
		})
	}
	t.Run("maverick", func(t *testing.T) {
		moe := []bool{false, true, false, true}
		dir := drawCheckpoint(t, llama4Config(map[string]any{"num_local_experts": 128, "use_qk_norm": false, "attention_chunk_size": 8192,
			"floor_scale": 8192}), llama4TensorsOf(moe, "model.", "lm_head.weight", 128))
		file := llama4GGUFAgrees(t, dir, []int{1, 17, 42, 200, 5, 99, 255, 128})
		// The same file read as 16 experts' (q/k norms) would differ:
		// llama.cpp decides the norms by the expert count alone.
		s, err := ggufSpec(t, file)
		if err != nil || s.qkL2Norm {
			t.Errorf("128 experts: q/k norms %v (%v), want none", s != nil && s.qkL2Norm, err)
		}
	})
	// What the llama4 reader refuses.
	file := convertToGGUF(t, loadFixture(t, "llama4_k2").dir, 0, false)
	refusesGGUF(t, file, []ggufRefusal{
		{map[string]any{"llama4.interleave_moe_layer_step": nil}, "missing metadata key llama4.interleave_moe_layer_step"},
		{map[string]any{"llama4.interleave_moe_layer_step": uint32(0)}, "interleave_moe_layer_step"},
		{map[string]any{"llama4.expert_used_count": uint32(9)}, "expert_used_count 9 must be in [1, expert_count 8]"},
		{map[string]any{"llama4.attention.sliding_window": uint32(0)}, "llama4.attention.sliding_window = 0: rlx reads llama4 with llama.cpp's chunked attention"},
	})
}

// llama4GGUFAgrees checks that the checkpoint in dir decodes tokens from
// its F32 GGUF as from its safetensors, and from its Q8_0 GGUF as from
// that file's dequantised F32 one; it returns the F32 file's path.
func llama4GGUFAgrees(t *testing.T, dir string, tokens []int) string {
	t.Helper()
	want, _ := decodeHF(t, dir, tokens)
	write := func(format gguf.Format, dequantised bool) string {
		path := filepath.Join(t.TempDir(), "m.gguf")
		if err := os.WriteFile(path, convertToGGUF(t, dir, format, dequantised), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	f32 := write(0, false)
	got, unused := decodeGGUF(t, f32, tokens)
	if len(unused) > 0 {
		t.Errorf("the module does not read %v", unused)
	}
	if rel, bad := agreement(got, want); rel > 1e-5 || len(bad) > 0 {
		t.Errorf("F32 GGUF against safetensors: %.3g (tolerance 1e-5), arg-max differs at %v", rel, bad)
	} else {
		t.Logf("F32 GGUF against safetensors: %.3g", rel)
	}
	q8, _ := decodeGGUF(t, write(gguf.Q8_0, false), tokens)
	dq, _ := decodeGGUF(t, write(gguf.Q8_0, true), tokens)
	if rel, _ := agreement(q8, dq); rel > 1e-5 {
		t.Errorf("Q8_0 GGUF against its dequantised F32 file: %.3g (tolerance 1e-5)", rel)
	}
	return f32
}

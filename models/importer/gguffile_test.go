package importer

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
)

var updateGGUF = flag.Bool("update-gguf", false, "rewrite the GGUF files under testdata/gguf")

// exampleGGUF is the Qwen3 fixture converted to Q8_0, committed so that
// docs/import.md's GGUF commands run as shown.
const exampleGGUF = "testdata/gguf/qwen3-q8_0.gguf"

// TestExampleGGUF checks that the committed GGUF files are what the
// converter writes today (rewritten with -update-gguf): the Qwen3 fixture
// in Q8_0, a Qwen2 (the llama fixture's tensors with TestAttentionBiases'
// q, k and v biases) and a Phi-3 (TestPhi3's, fused projections and a
// sliding window of 3) in Q8_0, which lit-tests/rlx-run/backend-sim.test
// runs through the Metal kernels.
func TestExampleGGUF(t *testing.T) {
	for _, tc := range []struct {
		path string
		dir  func() string
	}{
		{exampleGGUF, func() string { return filepath.Join("testdata", "hf", "qwen3") }},
		{"testdata/gguf/qwen2-q8_0.gguf", func() string {
			return variant(t, "llama", "Qwen2ForCausalLM", qwen2Config, qkvBiases, 0.5)
		}},
		{"testdata/gguf/phi3-q8_0.gguf", func() string {
			return variant(t, "llama", "Phi3ForCausalLM", mergeEdits(phi3Config, map[string]any{"sliding_window": 3}), nil, 0)
		}},
	} {
		got := convertToGGUF(t, tc.dir(), gguf.Q8_0, false)
		if *updateGGUF {
			if err := os.MkdirAll(filepath.Dir(tc.path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(tc.path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what the converter writes; run go test ./models/importer -run TestExampleGGUF -update-gguf", tc.path)
		}
	}
}

var updateSynthetic = flag.Bool("update-synthetic", false, "rewrite the checkpoints under testdata/synthetic")

// TestSyntheticCheckpoints checks that the committed safetensors
// checkpoints made from the fixtures are what the tests' builders write
// today (rewritten with -update-synthetic): TestGemma3's Gemma 3, which
// lit-tests/rlx-run/backend-sim.test runs through the Metal kernels
// (Gemma has no GGUF form here).
func TestSyntheticCheckpoints(t *testing.T) {
	dir := variant(t, "qwen3", "Gemma3ForCausalLM", gemma3Config, nil, 0)
	st := readTensors(t, dir)
	gemma3Tensors(t, st, 4, 64, "model.")
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), st)
	want := filepath.Join("testdata", "synthetic", "gemma3")
	for _, name := range []string{"config.json", "model.safetensors"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(want, name)
		if *updateSynthetic {
			if err := os.MkdirAll(want, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		have, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, have) {
			t.Errorf("%s is not what the builder writes; run go test ./models/importer -run TestSyntheticCheckpoints -update-synthetic", path)
		}
	}
}

package importer

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// gptOSSConfig is a tiny gpt-oss config: 8 experts of 32 rows, top 2,
// layer 0 sliding through a window of 3, layer 1 full, YaRN without
// truncation; limit is swiglu_limit (published 7).
func gptOSSConfig(limit float64) map[string]any {
	return map[string]any{
		"architectures": []string{"GptOssForCausalLM"}, "model_type": "gpt_oss", "vocab_size": 256, "hidden_size": 64,
		"intermediate_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
		"max_position_embeddings": 512, "rms_norm_eps": 1e-5, "hidden_act": "silu", "tie_word_embeddings": false,
		"attention_bias": true, "attention_dropout": 0.0, "num_local_experts": 8, "num_experts_per_tok": 2,
		"router_aux_loss_coef": 0.9, "output_router_logits": false, "swiglu_limit": limit, "sliding_window": 3,
		"layer_types": []string{"sliding_attention", "full_attention"},
		"rope_parameters": map[string]any{"rope_type": "yarn", "rope_theta": 150000.0, "factor": 32.0, "beta_fast": 32.0,
			"beta_slow": 1.0, "truncate": false, "original_max_position_embeddings": 64},
	}
}

func gptOSSTensors() []drawn {
	ts := []drawn{{"model.embed_tokens.weight", 0, 0.08, []int{256, 64}}, {"lm_head.weight", 0, 0.08, []int{256, 64}},
		{"model.norm.weight", 1, 0.08, []int{64}}}
	for l := range 2 {
		p := fmt.Sprintf("model.layers.%d.", l)
		ts = append(ts, drawn{p + "input_layernorm.weight", 1, 0.08, []int{64}}, drawn{p + "post_attention_layernorm.weight", 1, 0.08, []int{64}},
			drawn{p + "self_attn.sinks", 0, 1, []int{4}},
			drawn{p + "mlp.router.weight", 0, 0.3, []int{8, 64}}, drawn{p + "mlp.router.bias", 0, 0.3, []int{8}},
			drawn{p + "mlp.experts.gate_up_proj", 0, 0.08, []int{8, 64, 64}}, drawn{p + "mlp.experts.gate_up_proj_bias", 0, 0.3, []int{8, 64}},
			drawn{p + "mlp.experts.down_proj", 0, 0.08, []int{8, 32, 64}}, drawn{p + "mlp.experts.down_proj_bias", 0, 0.08, []int{8, 64}})
		ts = append(ts, linearOf(p+"self_attn.q_proj", 64, 64, true)...)
		ts = append(ts, linearOf(p+"self_attn.k_proj", 32, 64, true)...)
		ts = append(ts, linearOf(p+"self_attn.v_proj", 32, 64, true)...)
		ts = append(ts, linearOf(p+"self_attn.o_proj", 64, 64, true)...)
	}
	return ts
}

// TestGptOSS: a drawn gpt-oss checkpoint decodes as the oracle does
// (rlx's float64 reading of transformers' GptOss modeling: the sinks in
// each softmax's denominator, the router's bias and softmax over the
// chosen logits, the interleaved gate/up with their biases and clamps),
// reading every tensor, also with gate/up biases large enough that the
// clamps at 7 act (there the oracle's agreement is the check; that the
// logits move shows only that the larger draw took); the sinks and the
// router's bias each move the logits; a swiglu_limit other than
// transformers' constant 7 is refused.
func TestGptOSS(t *testing.T) {
	ts := gptOSSTensors()
	base, _ := importAndCheck(t, drawCheckpoint(t, gptOSSConfig(7), ts), lnTokens)
	for _, c := range []struct {
		what   string
		suffix string // a tensor drawn with its spread times scale
		scale  float64
	}{
		{"large gate/up biases (the clamps acting)", "gate_up_proj_bias", 40},
		{"the sinks", "self_attn.sinks", 4},
		{"the router's bias", "mlp.router.bias", 4},
	} {
		moved := append([]drawn(nil), ts...)
		for i := range moved {
			if strings.HasSuffix(moved[i].name, c.suffix) {
				moved[i].std *= c.scale
			}
		}
		got, _ := importAndCheck(t, drawCheckpoint(t, gptOSSConfig(7), moved), lnTokens)
		if rel, _ := agreement(got, base); rel < 1e-3 {
			t.Errorf("%s moves the logits by only %.3g", c.what, rel)
		}
	}
	if _, err := specFromConfig(drawCheckpoint(t, gptOSSConfig(8), nil), 16); err == nil || !strings.Contains(err.Error(), `"swiglu_limit" = 8 is not supported`) {
		t.Errorf("swiglu_limit 8: %v", err)
	}
}

// TestGptOSSMXFP4: gpt-oss's experts as its published checkpoints hold
// them, MXFP4 pairs (gate_up_proj_blocks [E, 2I, H/32, 16] and
// gate_up_proj_scales [E, 2I, H/32], down_proj's likewise, [E, out, in]),
// decode as the same checkpoint with the experts' values written out as
// transformers' parameters ([E, in, out], f32); the module reads the
// pairs (the weight source presents each as one bf16 tensor).
func TestGptOSSMXFP4(t *testing.T) {
	var dense []drawn
	for _, d := range gptOSSTensors() {
		if !strings.HasSuffix(d.name, "_proj") {
			dense = append(dense, d)
		}
	}
	rng := rand.New(rand.NewPCG(62, 1))
	fp4 := []float64{0, 0.5, 1, 1.5, 2, 3, 4, 6, 0, -0.5, -1, -1.5, -2, -3, -4, -6}
	// pair draws an MXFP4 pair of [8, out, in] and the same values as
	// an [8, in, out] f32 tensor.
	pair := func(out, in int) (blocks, scales, values *tensor.Tensor) {
		b := make([]byte, 8*out*in/2)
		sc := make([]byte, 8*out*in/32)
		v := make([]float32, 8*out*in)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		for i := range sc {
			sc[i] = byte(122 + rng.IntN(4)) // 2^-5 … 2^-2
		}
		for e := range 8 {
			for o := range out {
				for c := range in {
					g := (e*out+o)*in/32 + c/32
					nib := b[16*g+c%32/2] >> (4 * (c % 2)) & 0xF
					v[(e*in+c)*out+o] = float32(math.Ldexp(fp4[nib], int(sc[g])-127))
				}
			}
		}
		blocks, _ = tensor.FromBytes([]int{8, out, in / 32, 16}, b)
		scales, _ = tensor.FromBytes([]int{8, out, in / 32}, sc)
		values, _ = tensor.FromFloat32(tensor.F32, []int{8, in, out}, v)
		return blocks, scales, values
	}
	mx := drawCheckpoint(t, gptOSSConfig(7), dense)
	plain := drawCheckpoint(t, gptOSSConfig(7), dense)
	stMX, stPlain := readSafetensorsFile(t, mx), readSafetensorsFile(t, plain)
	for l := range 2 {
		for _, p := range []struct {
			name    string
			out, in int
		}{{"gate_up_proj", 64, 64}, {"down_proj", 64, 32}} {
			name := fmt.Sprintf("model.layers.%d.mlp.experts.%s", l, p.name)
			b, s, v := pair(p.out, p.in)
			stMX.Tensors[name+"_blocks"], stMX.Tensors[name+"_scales"] = b, s
			stPlain.Tensors[name] = v
		}
	}
	writeSafetensors(t, filepath.Join(mx, "model.safetensors"), stMX)
	writeSafetensors(t, filepath.Join(plain, "model.safetensors"), stPlain)
	want, _ := importAndCheck(t, plain, lnTokens)
	m, err := ImportHF(newContext(), mx, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Source.Close()
	if len(m.Unused) > 0 {
		t.Errorf("the module does not read %v", m.Unused)
	}
	if i, _ := m.Source.Info("model.layers.0.mlp.experts.gate_up_proj"); i.Type != "MXFP4" || !slices.Equal(i.Shape, []int{8, 64, 64}) {
		t.Errorf("the pair: %+v", i)
	}
	// Read in place: an mxfp4 dequant_matmul a chosen expert and
	// projection (gate_up, down) in each layer.
	if n := strings.Count(printed(t, m.Module), `format = "mxfp4"`); n == 0 || n%4 != 0 {
		t.Errorf("%d mxfp4 dequant_matmuls, want two chosen experts' two projections a layer", n)
	}
	got := decodeModule(t, m.Module, m.Source, lnTokens)
	if rel, bad := agreement(got, want); rel > 1e-5 || len(bad) > 0 {
		t.Errorf("MXFP4 experts against the same values as parameters: %.3g (tolerance 1e-5), arg-max differs at %v", rel, bad)
	}
}

// readSafetensorsFile reads dir/model.safetensors.
func readSafetensorsFile(t testing.TB, dir string) *tensor.Safetensors {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := tensor.ReadSafetensors(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestGptOSSGGUF: the gpt_oss fixture's GGUF form (llama.cpp's gpt-oss:
// its experts' gate and up apart and transposed, attn_sinks, the MoE's
// norm post_attention_norm, YaRN's keys) decodes as the fixture's
// checkpoint does once that checkpoint's YaRN truncates its correction
// range as llama.cpp's does (transformers' gpt-oss does not: ggufCannot),
// in F32 within 1e-5; and the module reads every tensor of the file.
func TestGptOSSGGUF(t *testing.T) {
	f := loadFixture(t, "gpt_oss")
	data, err := os.ReadFile(filepath.Join(f.dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	truncated := strings.Replace(string(data), `"truncate": false`, `"truncate": true`, 1)
	if truncated == string(data) {
		t.Fatal(`the fixture's config has no "truncate": false`)
	}
	dir := t.TempDir()
	linkFixture(t, dir, []byte(truncated), fixtureWeights(t, "gpt_oss"))
	m, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Source.Close()
	want := decodeModule(t, m.Module, m.Source, f.Tokens)
	got, unused := decodeGGUF(t, writeGGUF(t, f, 0, false), f.Tokens)
	if len(unused) > 0 {
		t.Errorf("the module does not read %v", unused)
	}
	if rel, bad := agreement(got, want); rel > 1e-5 || len(bad) > 0 {
		t.Errorf("F32 GGUF against the checkpoint with YaRN truncated: %.3g (tolerance 1e-5), arg-max differs at %v", rel, bad)
	}
	// What the gpt-oss reader refuses.
	file := convertToGGUF(t, f.dir, 0, false)
	refusesGGUF(t, file, []ggufRefusal{
		{map[string]any{"gpt-oss.expert_used_count": uint32(9)}, "expert_used_count 9 must be in [1, expert_count 8]"},
		{map[string]any{"gpt-oss.expert_feed_forward_length": nil}, "missing metadata key gpt-oss.expert_feed_forward_length"},
	})
}

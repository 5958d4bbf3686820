package importer

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// moeCase is a mixture-of-experts checkpoint made from a fixture's
// tensors: variant's config edits and attention biases, then in every
// layer but dense the MLP replaced by a router over experts of ffn rows
// (and a shared expert of shared rows where shared > 0), uniform in
// ±scale from a fixed seed. With asDense, expert 0 is the fixture's own
// MLP (ffn must be its rows).
type moeCase struct {
	base, arch           string
	edits                map[string]any
	biases               []string
	experts, ffn, shared int
	dense                []int
	scale                float64
	asDense              bool
}

func (mc moeCase) write(t testing.TB) string {
	t.Helper()
	dir := variant(t, mc.base, mc.arch, mc.edits, mc.biases, 0.5)
	s, err := specFromConfig(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	st := readTensors(t, dir)
	rng := rand.New(rand.NewPCG(3, 5))
	random := func(rows, cols int) *tensor.Tensor {
		v := make([]float32, rows*cols)
		for i := range v {
			v[i] = float32(mc.scale * (2*rng.Float64() - 1))
		}
		m, err := tensor.FromFloat32(tensor.F32, []int{rows, cols}, v)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	n := hfNamesOf(mc.arch)
	for l := range s.layers {
		if slices.Contains(mc.dense, l) {
			continue
		}
		mlp := map[string]*tensor.Tensor{}
		for _, role := range []string{roleGate, roleUp, roleDown} {
			mlp[role] = st.Tensors[n.of(l, role)]
			delete(st.Tensors, n.of(l, role))
		}
		st.Tensors[n.of(l, roleRouter)] = random(mc.experts, s.hidden)
		for e := range mc.experts {
			for _, p := range []struct {
				role, dense string
				rows, cols  int
			}{{roleExpertGate, roleGate, mc.ffn, s.hidden}, {roleExpertUp, roleUp, mc.ffn, s.hidden}, {roleExpertDown, roleDown, s.hidden, mc.ffn}} {
				name := strings.Replace(n.of(l, p.role), "*", fmt.Sprint(e), 1)
				if mc.asDense && e == 0 {
					st.Tensors[name] = mlp[p.dense]
				} else {
					st.Tensors[name] = random(p.rows, p.cols)
				}
			}
		}
		if mc.shared > 0 {
			st.Tensors[n.of(l, roleSharedGate)] = random(mc.shared, s.hidden)
			st.Tensors[n.of(l, roleSharedUp)] = random(mc.shared, s.hidden)
			st.Tensors[n.of(l, roleSharedDown)] = random(s.hidden, mc.shared)
			st.Tensors[n.of(l, roleSharedRouter)] = random(1, s.hidden)
		}
	}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), st)
	return dir
}

// TestMoE imports mixture-of-experts checkpoints made from the fixtures'
// tensors and decodes the fixture's tokens: each within 1e-5 of the
// float64 oracle, hybrid-split keeping the logits bit for bit, and its
// GGUF file (as llama.cpp's converter writes it) decoding as its
// safetensors (F32; Q8_0 as its dequantised F32 file):
//   - Qwen3-MoE: the qwen3 fixture's attention, 8 experts of 32 rows with
//     2 chosen and renormalised, layer 1 dense (mlp_only_layers); GGUF
//     qwen3moe;
//   - Mixtral: Mistral's attention (the llama fixture's), 4 experts of 96
//     rows in block_sparse_moe (w1, w3, w2), 2 chosen; GGUF llama with
//     expert_count;
//   - Qwen2-MoE: Qwen2's attention with q, k and v biases, 8 experts of
//     32 rows, 2 chosen and not renormalised (norm_topk_prob's default),
//     a shared expert of 48 rows under its sigmoid gate; GGUF qwen2moe.
//
// One expert of one, that expert the qwen3 fixture's dense MLP, gives the
// fixture's logits exactly.
func TestMoE(t *testing.T) {
	mistral := map[string]any{"mlp_bias": nil, "pretraining_tp": nil, "model_type": "mixtral", "sliding_window": nil,
		"num_local_experts": 4, "num_experts_per_tok": 2, "router_jitter_noise": 0.0}
	qwen2 := map[string]any{"model_type": "qwen2_moe", "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 32,
		"shared_expert_intermediate_size": 48, "decoder_sparse_step": 1, "mlp_only_layers": []int{}}
	for k, v := range qwen2Config {
		if k != "model_type" {
			qwen2[k] = v
		}
	}
	for _, tc := range []struct {
		name, gguf string
		moeCase
	}{
		{"qwen3moe", "qwen3moe", moeCase{base: "qwen3", arch: "Qwen3MoeForCausalLM", edits: map[string]any{"model_type": "qwen3_moe",
			"num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 32, "norm_topk_prob": true, "decoder_sparse_step": 1,
			"mlp_only_layers": []int{1}}, experts: 8, ffn: 32, dense: []int{1}, scale: 0.3}},
		{"mixtral", "llama", moeCase{base: "llama", arch: "MixtralForCausalLM", edits: mistral, experts: 4, ffn: 96, scale: 0.3}},
		{"qwen2moe", "qwen2moe", moeCase{base: "llama", arch: "Qwen2MoeForCausalLM", edits: qwen2, biases: qkvBiases, experts: 8, ffn: 32, shared: 48, scale: 0.3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tokens := loadFixture(t, tc.base).Tokens
			dir := tc.write(t)
			got, m := importAndCheck(t, dir, tokens)
			if m.Arch != tc.arch {
				t.Errorf("arch %q", m.Arch)
			}
			checkGGUF(t, dir, tc.gguf, tokens, got)
		})
	}

	f := loadFixture(t, "qwen3")
	one := moeCase{base: "qwen3", arch: "Qwen3MoeForCausalLM", edits: map[string]any{"model_type": "qwen3_moe", "num_experts": 1,
		"num_experts_per_tok": 1, "moe_intermediate_size": 96, "norm_topk_prob": true}, experts: 1, ffn: 96, scale: 0.3, asDense: true}
	m1, err := ImportHF(newContext(), one.write(t), Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer m1.Source.Close()
	q, err := ImportHF(newContext(), f.dir, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Source.Close()
	rel, bad := agreement(decodeModule(t, m1.Module, m1.Source, f.Tokens), decodeModule(t, q.Module, q.Source, f.Tokens))
	t.Logf("one expert of one, the dense MLP, against Qwen3: %.3g", rel)
	if rel > 1e-6 || len(bad) > 0 {
		t.Errorf("one expert (the dense MLP) of one: max |Δ| / max |logit| against the Qwen3 fixture = %.3g (tolerance 1e-6), arg-max differs at %v", rel, bad)
	}
}

// TestFusedExperts: transformers 5 saves a MoE layer's experts as two
// tables, mlp.experts.gate_up_proj [E, 2I, H] (each expert's gate rows,
// then its up rows) and mlp.experts.down_proj [E, H, I]; TestMoE's
// Qwen3-MoE with its experts so stored decodes as the per-expert form,
// bit for bit, and within 1e-5 of the oracle.
func TestFusedExperts(t *testing.T) {
	tokens := loadFixture(t, "qwen3").Tokens
	mc := moeCase{base: "qwen3", arch: "Qwen3MoeForCausalLM", edits: map[string]any{"model_type": "qwen3_moe",
		"num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 32, "norm_topk_prob": true, "decoder_sparse_step": 1,
		"mlp_only_layers": []int{1}}, experts: 8, ffn: 32, dense: []int{1}, scale: 0.3}
	dir := mc.write(t)
	want, _ := importAndCheck(t, dir, tokens)
	st := readTensors(t, dir)
	n := hfNamesOf(mc.arch)
	for l := range 4 {
		if slices.Contains(mc.dense, l) {
			continue
		}
		var gateUp, down []float32
		for e := range mc.experts {
			for _, role := range []string{roleExpertGate, roleExpertUp} {
				name := strings.Replace(n.of(l, role), "*", fmt.Sprint(e), 1)
				gateUp = append(gateUp, st.Tensors[name].Floats()...)
				delete(st.Tensors, name)
			}
			name := strings.Replace(n.of(l, roleExpertDown), "*", fmt.Sprint(e), 1)
			down = append(down, st.Tensors[name].Floats()...)
			delete(st.Tensors, name)
		}
		var err error
		if st.Tensors[n.of(l, roleExpertGateUpFused)], err = tensor.FromFloat32(tensor.F32, []int{mc.experts, 2 * mc.ffn, 64}, gateUp); err != nil {
			t.Fatal(err)
		}
		if st.Tensors[n.of(l, roleExpertDownFused)], err = tensor.FromFloat32(tensor.F32, []int{mc.experts, 64, mc.ffn}, down); err != nil {
			t.Fatal(err)
		}
	}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), st)
	got, m := importAndCheck(t, dir, tokens)
	if !tensor.BitsEqual(got, want) {
		rel, _ := agreement(got, want)
		t.Errorf("fused experts: %.3g from the per-expert form's logits, want bit-identical", rel)
	}
	if !slices.Contains(m.Weights, n.of(0, roleExpertGateUpFused)) {
		t.Errorf("the module binds %v, not the fused table", m.Weights)
	}
}

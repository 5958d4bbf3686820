package importer

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

// qwen3Moe writes the qwen3 fixture as a Qwen3MoeForCausalLM checkpoint:
// layers other than dense (mlp_only_layers) route over experts of ffn
// rows, the chosen topK renormalised; router and experts uniform in ±scale
// from a fixed seed. With asDense, expert 0 of every MoE layer is the
// fixture's dense MLP (ffn must be its 96 rows).
func qwen3Moe(t testing.TB, experts, topK, ffn int, dense []int, scale float64, asDense bool) string {
	t.Helper()
	edits := map[string]any{"model_type": "qwen3_moe", "num_experts": experts, "num_experts_per_tok": topK,
		"moe_intermediate_size": ffn, "norm_topk_prob": true, "decoder_sparse_step": 1, "mlp_only_layers": dense}
	dir := variant(t, "qwen3", "Qwen3MoeForCausalLM", edits, nil, 0)
	s, err := specFromConfig(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	src, err := weights.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	st := &tensor.Safetensors{Tensors: map[string]*tensor.Tensor{}}
	for _, name := range src.Names() {
		info, _ := src.Info(name)
		if st.Tensors[name], err = src.Weight(ref.Spec{Name: name, Type: ref.TensorType{DType: info.DType, Shape: info.Shape}}); err != nil {
			t.Fatal(err)
		}
	}
	src.Close()
	rng := rand.New(rand.NewPCG(3, 5))
	random := func(shape ...int) *tensor.Tensor {
		v := make([]float32, shape[0]*shape[1])
		for i := range v {
			v[i] = float32(scale * (2*rng.Float64() - 1))
		}
		m, err := tensor.FromFloat32(tensor.F32, shape, v)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	n := hfNames()
	for l := range s.layers {
		if slices.Contains(dense, l) {
			continue
		}
		mlp := map[string]*tensor.Tensor{}
		for _, role := range []string{roleGate, roleUp, roleDown} {
			mlp[role] = st.Tensors[n.of(l, role)]
			delete(st.Tensors, n.of(l, role))
		}
		st.Tensors[n.of(l, roleRouter)] = random(experts, s.hidden)
		for e := range experts {
			for _, p := range []struct {
				proj, dense string
				rows, cols  int
			}{{"gate", roleGate, ffn, s.hidden}, {"up", roleUp, ffn, s.hidden}, {"down", roleDown, s.hidden, ffn}} {
				name := fmt.Sprintf("model.layers.%d.mlp.experts.%d.%s_proj.weight", l, e, p.proj)
				if asDense && e == 0 {
					st.Tensors[name] = mlp[p.dense]
				} else {
					st.Tensors[name] = random(p.rows, p.cols)
				}
			}
		}
	}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), st)
	return dir
}

// TestQwen3Moe: a Qwen3MoeForCausalLM checkpoint (the qwen3 fixture's
// attention, 8 experts of 32 rows with 2 chosen in layers 0, 2 and 3, and
// layer 1 dense) decodes within 1e-5 of the float64 oracle; its qwen3moe GGUF file decodes as its
// safetensors (F32; Q8_0 as its dequantised F32 file); hybrid-split keeps
// its logits bit for bit. One expert chosen of one, that expert the
// fixture's dense MLP, gives the Qwen3 fixture's logits.
func TestQwen3Moe(t *testing.T) {
	f := loadFixture(t, "qwen3")
	dir := qwen3Moe(t, 8, 2, 32, []int{1}, 0.3, false)
	got, _ := importAndCheck(t, dir, f.Tokens)
	checkGGUF(t, dir, "qwen3moe", f.Tokens, got)

	one := qwen3Moe(t, 1, 1, 96, nil, 0.3, true)
	m1, err := ImportHF(newContext(), one, Options{MaxTokens: 16})
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

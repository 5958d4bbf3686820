package importer

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestDeepseek2GGUF: drawn DeepSeek checkpoints, converted as llama.cpp's
// converter writes deepseek2 (convertToGGUF), decode from GGUF as from
// their safetensors where llama.cpp's deepseek2 computes what
// transformers does, ≤ 1e-5 of max |logit|:
//   - V2's greedy softmax routing without norm_topk_prob, × 2, under
//     YaRN with mscale = mscale_all_dim (cos and sin unscaled, the
//     scores × mscale² from yarn_log_multiplier), q through its LoRA;
//   - V3 (sigmoid routing with its selection bias, 2 of 4 groups open)
//     with the latent, nope and v dims whole Q8_0 and Q4_0 blocks, so
//     that attn_k_b and attn_v_b are quantised: those files against
//     their dequantised F32 files;
//   - the older form, attn_kv_b whole with as many kv heads as heads
//     (llama.cpp's converter before 2025), in F32.
//
// Without yarn_log_multiplier or with k_b untransposed the logits move.
func TestDeepseek2GGUF(t *testing.T) {
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128}
	safetensors := func(dir string) *tensor.Tensor {
		got, _ := decodeHF(t, dir, tokens)
		return got
	}
	ggufOf := func(path string) *tensor.Tensor {
		got, unused := decodeGGUF(t, path, tokens)
		if len(unused) > 0 {
			t.Errorf("%s: the module does not read %v", filepath.Base(path), unused)
		}
		return got
	}
	agree := func(what string, got, want *tensor.Tensor) {
		t.Helper()
		rel, bad := agreement(got, want)
		t.Logf("%s: %.3g", what, rel)
		if rel > 1e-5 || len(bad) > 0 {
			t.Errorf("%s: max |Δ| / max |logit| = %.3g (tolerance 1e-5), arg-max differs at %v", what, rel, bad)
		}
	}
	file := func(dir string, format gguf.Format, dequantised bool) string {
		path := filepath.Join(t.TempDir(), "m.gguf")
		if err := os.WriteFile(path, convertToGGUF(t, dir, format, dequantised), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}

	v2 := drawCheckpoint(t, deepseekV2Config(map[string]any{"topk_method": "greedy", "n_group": nil, "topk_group": nil}), latentTensors(24, false))
	want := safetensors(v2)
	f32 := file(v2, 0, false)
	agree("V2 F32 GGUF against safetensors", ggufOf(f32), want)
	data, err := os.ReadFile(f32)
	if err != nil {
		t.Fatal(err)
	}
	if rel := agreementRel(ggufOf(editKV(t, data, map[string]any{"deepseek2.rope.scaling.yarn_log_multiplier": nil})), want); rel < 1e-3 {
		t.Errorf("without yarn_log_multiplier (no mscale² on the scores) the logits move by only %.3g", rel)
	}
	agree("V2, the older form (attn_kv_b), against safetensors", ggufOf(unsplitKVB(t, data, 0)), want)

	wide := latentDims{kvLora: 32, nope: 32, rope: 8, v: 32}
	v3 := drawCheckpoint(t, deepseekConfig(map[string]any{"q_lora_rank": 32, "kv_lora_rank": 32, "qk_nope_head_dim": 32, "v_head_dim": 32, "qk_head_dim": 40}),
		latentTensorsOf(wide, 32, true))
	want = safetensors(v3)
	agree("V3 F32 GGUF against safetensors", ggufOf(file(v3, 0, false)), want)
	for _, format := range []gguf.Format{gguf.Q8_0, gguf.Q4_0} {
		q := file(v3, format, false)
		for _, name := range []string{"blk.1.attn_k_b.weight", "blk.1.attn_v_b.weight"} {
			if typeOf(t, q, name) != gguf.TypeOf(format) {
				t.Fatalf("%v file: %s is not %v: the quantised per-head path would not run", format, name, format)
			}
		}
		agree(format.String()+" GGUF against its dequantised F32 file", ggufOf(q), ggufOf(file(v3, format, true)))
	}
	// The older form quantised: refused, naming the tensor.
	if _, err := ggufSpec(t, unsplitKVB(t, convertToGGUF(t, v3, 0, false), gguf.Q8_0)); err == nil ||
		!strings.Contains(err.Error(), `tensor "blk.0.attn_kv_b.weight" is Q8_0 [256, 32]: rlx reads the older form's attn_kv_b in F32, F16 or BF16 only`) {
		t.Errorf("the older form in Q8_0: %v", err)
	}
	// k_b as its transpose would be (the rows of a head's nope dims):
	// the logits move.
	transposed := rewriteGGUF(t, convertToGGUF(t, v3, 0, false), nil, func(w *gguf.Writer, name string, info *gguf.TensorInfo, b []byte) {
		if strings.HasSuffix(name, ".attn_k_b.weight") {
			shape := info.Shape()
			b = f32bytes(transposeLast(bytesF32(b), shape[0], shape[1], shape[2]))
		}
		if err := w.AddTensor(name, info.Type, info.Shape(), b); err != nil {
			t.Fatal(err)
		}
	})
	if rel := agreementRel(ggufOf(transposed), want); rel < 1e-3 {
		t.Errorf("attn_k_b's heads transposed move the logits by only %.3g", rel)
	}
}

// TestDeepseek2GGUFErrors: what the deepseek2 reader refuses, naming the
// key or tensor.
func TestDeepseek2GGUFErrors(t *testing.T) {
	dir := drawCheckpoint(t, deepseekV2Config(map[string]any{"topk_method": "greedy", "n_group": nil, "topk_group": nil}), latentTensors(24, false))
	data := convertToGGUF(t, dir, 0, false)
	refusesGGUF(t, data, []ggufRefusal{
		{map[string]any{"deepseek2.attention.kv_lora_rank": nil}, "missing metadata key deepseek2.attention.kv_lora_rank"},
		{map[string]any{"deepseek2.attention.head_count_kv": uint32(4)}, "the split form (with deepseek2.attention.key_length_mla) has one kv head"},
		{map[string]any{"deepseek2.attention.value_length": uint32(12)}, "the split form"},
		{map[string]any{"deepseek2.attention.key_length_mla": uint32(8)}, "rlx needs a latent and nope and v dims"},
		{map[string]any{"deepseek2.expert_gating_func": uint32(3)}, "deepseek2.expert_gating_func = 3 is not supported"},
		{map[string]any{"deepseek2.expert_group_count": uint32(3), "deepseek2.expert_group_used_count": uint32(1)},
			"deepseek2.expert_group_count = 3, deepseek2.expert_group_used_count = 1: rlx needs"},
		{map[string]any{"deepseek2.attention.key_length_mla": nil, "deepseek2.attention.value_length_mla": nil},
			"a file without deepseek2.attention.key_length_mla has as many kv heads as heads (4)"},
		// FuzzImportGGUF's: a multiplier of 1e30 made the scores' scale
		// +Inf and every logit NaN.
		{map[string]any{"deepseek2.rope.scaling.yarn_log_multiplier": float32(1e30)}, "rlx needs mscale > 0, mscale² in [1e-06, 1e+06]"},
	})
	// yarn_log_multiplier belongs to deepseek2's files only.
	qwen := convertToGGUF(t, loadFixture(t, "qwen2_yarn").dir, 0, false)
	if _, err := ggufSpec(t, editKV(t, qwen, map[string]any{"qwen2.rope.scaling.yarn_log_multiplier": float32(0.1)})); err == nil ||
		!strings.Contains(err.Error(), "qwen2.rope.scaling.yarn_log_multiplier = 0.1: rlx reads YaRN's mscale_all_dim in deepseek2 and mistral3 files only") {
		t.Errorf("a qwen2 file with yarn_log_multiplier: %v", err)
	}
}

// unsplitKVB rewrites a deepseek2 file in the split form (data) as
// llama.cpp's converter wrote it before 2025: attn_k_b and attn_v_b
// joined back into attn_kv_b [heads·(nope + v), latent], as many kv heads
// as heads, key_length and value_length a head's q·k and v dims, no
// *_mla keys; attn_kv_b in format where it is valid, else F32 (the
// split tensors must be F32).
func unsplitKVB(t *testing.T, data []byte, format gguf.Format) string {
	t.Helper()
	g, _ := openGGUFData(t, data)
	uint := func(k string) int {
		v, err := g.Uint("deepseek2." + k)
		if err != nil {
			t.Fatal(err)
		}
		return int(v)
	}
	heads, kMLA, vMLA := uint("attention.head_count"), uint("attention.key_length_mla"), uint("attention.value_length_mla")
	edits := map[string]any{"deepseek2.attention.head_count_kv": uint32(heads), "deepseek2.attention.key_length": uint32(kMLA),
		"deepseek2.attention.value_length": uint32(vMLA), "deepseek2.attention.key_length_mla": nil, "deepseek2.attention.value_length_mla": nil}
	kb := map[string][]float32{}
	layer := regexp.MustCompile(`^(blk\.\d+\.)attn_([kv])_b\.weight$`)
	return rewriteGGUF(t, data, edits, func(w *gguf.Writer, name string, info *gguf.TensorInfo, b []byte) {
		m := layer.FindStringSubmatch(name)
		if m == nil {
			if err := w.AddTensor(name, info.Type, info.Shape(), b); err != nil {
				t.Fatal(err)
			}
			return
		}
		if info.Type != gguf.TypeF32 {
			t.Fatalf("%s is %v: unsplitKVB joins F32 tensors only", name, info.Type)
		}
		kb[m[1]+m[2]] = bytesF32(b)
		k, v := kb[m[1]+"k"], kb[m[1]+"v"]
		if k == nil || v == nil {
			return
		}
		shape := info.Shape() // one of [heads, latent, nope] and [heads, v, latent]
		lat := shape[2]
		if m[2] == "k" {
			lat = shape[1]
		}
		nope := len(k) / heads / lat
		var kv []float32
		for h := range heads {
			// the head's nope rows (k_b's columns), then its v rows
			kv = append(kv, transposeLast(k[h*lat*nope:(h+1)*lat*nope], 1, lat, nope)...)
			kv = append(kv, v[h*vMLA*lat:(h+1)*vMLA*lat]...)
		}
		typ, raw := gguf.TypeF32, f32bytes(kv)
		if format.Valid() {
			q, err := gguf.Quantize(format, kv, len(kv)/lat, lat)
			if err != nil {
				t.Fatal(err)
			}
			typ, raw = gguf.TypeOf(format), q
		}
		if err := w.AddTensor(m[1]+"attn_kv_b.weight", typ, []int{heads * (nope + vMLA), lat}, raw); err != nil {
			t.Fatal(err)
		}
	})
}

// transposeLast transposes each of n [rows, cols] matrices in v.
func transposeLast(v []float32, n, rows, cols int) []float32 {
	out := make([]float32, 0, len(v))
	for i := range n {
		m := v[i*rows*cols : (i+1)*rows*cols]
		for c := range cols {
			for r := range rows {
				out = append(out, m[r*cols+c])
			}
		}
	}
	return out
}

// typeOf is the type of the tensor name in the GGUF file at path.
func typeOf(t *testing.T, path, name string) gguf.TensorType {
	t.Helper()
	f, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, ok := f.Tensor(name)
	if !ok {
		t.Fatalf("%s: no tensor %q", path, name)
	}
	return info.Type
}

// bytesF32 reads little-endian float32s (f32bytes's inverse).
func bytesF32(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

package importer

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/internal/ggufgen"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// FuzzImportHF imports each fixture's checkpoint under an arbitrary
// config.json: no panic and no runaway allocation (sizes are read before
// the weights are); an import that succeeds gives a module that verifies.
func FuzzImportHF(f *testing.F) {
	for i, name := range fixtureNames {
		data, err := os.ReadFile(filepath.Join("testdata/hf", name, "config.json"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), data)
		// Sizes that once allocated tens of GB before any weight was read.
		for _, field := range []string{"num_hidden_layers", "head_dim", "hidden_size"} {
			big := strings.Replace(string(data), `"`+field+`": `, `"`+field+`": 2147483646, "x_`+field+`": `, 1)
			f.Add(uint8(i), []byte(big))
		}
		// The architectures with no fixture of their own, on these
		// tensors (Phi-3's fused projections and Qwen2's biases are missing:
		// error paths).
		for _, arch := range []string{"MistralForCausalLM", "MixtralForCausalLM", "Phi3ForCausalLM", "Qwen2ForCausalLM", "Qwen2MoeForCausalLM", "Qwen3_5ForConditionalGeneration",
			"Olmo3ForCausalLM", "Glm4ForCausalLM", "Exaone4ForCausalLM", "Ernie4_5ForCausalLM", "CohereForCausalLM", "Cohere2ForCausalLM",
			// Stop 62's.
			"PhiForCausalLM", "StableLmForCausalLM", "GPTNeoXForCausalLM", "NemotronForCausalLM", "GraniteMoeForCausalLM",
			"GraniteMoeSharedForCausalLM", "GemmaForCausalLM", "GptOssForCausalLM",
			// Stop 71's.
			"FalconH1ForCausalLM", "Lfm2MoeForCausalLM", "Ernie4_5_MoeForCausalLM", "MiniMaxM2ForCausalLM", "ApertusForCausalLM"} {
			f.Add(uint8(i), []byte(strings.Replace(string(data), `"LlamaForCausalLM"`, `"`+arch+`"`, 1)))
		}
		if gemma := strings.Replace(string(data), `"Qwen3ForCausalLM"`, `"Gemma3ForCausalLM"`, 1); gemma != string(data) {
			f.Add(uint8(i), []byte(gemma))
		}
		if gemma := strings.Replace(string(data), `"LlamaForCausalLM"`, `"Gemma2ForCausalLM"`, 1); gemma != string(data) {
			f.Add(uint8(i), []byte(strings.Replace(gemma, `"vocab_size"`, `"attn_logit_softcapping": 0.5, "final_logit_softcapping": null, "vocab_size"`, 1)))
		}
		// YaRN and LongRoPE (stop 56).
		for _, rope := range []string{`"rope_scaling": {"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": 128, "beta_fast": 16}, "vocab_size"`,
			`"original_max_position_embeddings": 4, "rope_scaling": {"type": "longrope", "short_factor": [1, 1, 1, 1, 1, 1, 1, 2], "long_factor": [1, 2, 3, 4, 5, 6, 7, 8]}, "vocab_size"`} {
			f.Add(uint8(i), []byte(strings.Replace(strings.Replace(string(data), `"rope_parameters"`, `"rope_scaling"`, 1), `"vocab_size"`, rope, 1)))
		}
		if l4 := strings.Replace(string(data), `"LlamaForCausalLM"`, `"Llama4ForCausalLM"`, 1); l4 != string(data) {
			// Llama 4 on Llama's tensors: its routed layers' are missing.
			f.Add(uint8(i), []byte(strings.Replace(l4, `"vocab_size"`, `"intermediate_size_mlp": 96, "num_local_experts": 4, "interleave_moe_layer_step": 2,
			  "attention_chunk_size": 3, "floor_scale": 2, "attn_temperature_tuning": 4, "vocab_size"`, 1)))
		}
		if moe := strings.Replace(string(data), `"Qwen3ForCausalLM"`, `"Qwen3MoeForCausalLM"`, 1); moe != string(data) {
			f.Add(uint8(i), []byte(strings.Replace(moe, `"vocab_size"`, `"num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 32, "vocab_size"`, 1)))
		}
	}
	// Stop 72's Kimi Linear (its linear_attn_config) and Zamba2, on any fixture's weights.
	kimi, err := json.Marshal(kimiConfig(nil))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint8(0), kimi)
	zamba, err := json.Marshal(zambaConfig(nil))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint8(0), zamba)
	// Stop 73's Ministral 3 (q scaled by position, YaRN): on Llama's
	// tensors, and in its published form.
	for _, cfg := range []map[string]any{ministral3Config(nil, nil), {"architectures": []string{"Mistral3ForConditionalGeneration"},
		"text_config": ministral3Config(nil, map[string]any{"architectures": nil}), "vision_config": map[string]any{}}} {
		data, err := json.Marshal(cfg)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(0), data)
	}
	f.Fuzz(func(t *testing.T, which uint8, config []byte) {
		dir := t.TempDir()
		linkFixture(t, dir, config, fixtureWeights(t, fixtureNames[int(which)%len(fixtureNames)]))
		checkImport(t, func() (*Model, error) { return ImportHF(newContext(), dir, Options{MaxTokens: 8}) })
	})
}

// FuzzImportGGUF imports GGUF files whose metadata has one pair replaced
// (or one added) by a value of any of GGUF's kinds, and one tensor
// re-encoded in another of the types rlx reads: no panic and no
// runaway allocation; an import that succeeds gives a module that
// verifies. The files are the Qwen3 fixture, ggufgen's Qwen3-Next (gated
// DeltaNet keys and experts), and the committed Qwen2 (biases) and Phi-3
// (fused projections, a sliding window).
func FuzzImportGGUF(f *testing.F) {
	next, err := ggufgen.Qwen3Next(1)
	if err != nil {
		f.Fatal(err)
	}
	nextPath := filepath.Join(f.TempDir(), "qwen3next.gguf")
	if err := next.W.WriteFile(nextPath); err != nil {
		f.Fatal(err)
	}
	// Gemma 2's caps and Phi-3's LongRoPE tensors (stop 56), YaRN's
	// keys (stop 57), and stop 61's windows, LayerNorms and fused
	// projections (olmo2 with a window, cohere2, exaone4, glm4),
	// converted from their transformers fixtures.
	paths := []string{"testdata/gguf/qwen3-q8_0.gguf", nextPath, "testdata/gguf/qwen2-q8_0.gguf", "testdata/gguf/phi3-q8_0.gguf"}
	for _, name := range []string{"gemma2", "phi3_longrope_long", "qwen2_yarn", "olmo3", "cohere2", "exaone4", "glm4",
		// Stop 62's MoE readers; stop 68's deepseek2 and llama4.
		"glm4_moe", "qwen3_vl_moe", "gpt_oss", "granitemoeshared", "deepseek_v3", "deepseek_v2", "llama4_k2"} {
		path := filepath.Join(f.TempDir(), name+".gguf")
		if err := os.WriteFile(path, convertToGGUF(f, loadFixture(f, name).dir, gguf.Q8_0, false), 0o644); err != nil {
			f.Fatal(err)
		}
		paths = append(paths, path)
	}
	// Stop 62's LayerNorm families and Command R+, drawn.
	for i, m := range []layerNormModel{phi2Model(), stableLMModel(true, true), gptNeoXModel(true), nemotronModel(), commandRPlusModel()} {
		path := filepath.Join(f.TempDir(), fmt.Sprintf("drawn%d.gguf", i))
		if err := os.WriteFile(path, convertToGGUF(f, m.draw(f), gguf.Q8_0, false), 0o644); err != nil {
			f.Fatal(err)
		}
		paths = append(paths, path)
	}
	// Stop 70's state-space readers (granitehybrid, mamba2, mamba, nemotron_h, jamba)
	// stop 71's (nemotron_h_moe with a latent, falcon-h1, lfm2moe, ernie4_5-moe, minimax-m2, apertus)
	// and stop 72's kimi-linear, drawn.
	falconH1, _ := drawnFalconH1(f, falconH1Variant{2, true, false})
	for i, dir := range []string{drawnGraniteHybrid(f), mamba2Dir(f), drawnMamba(f), drawnNemotronH(f), drawnJamba(f),
		drawnNemotronHOf(f, "E*ME", 24), falconH1, writeLfm2MoE(f, true, 1), drawCheckpoint(f, ernieMoEConfig(1e-12), ernieMoETensors()),
		drawCheckpoint(f, miniMaxM2Config(), miniMaxM2Tensors()), drawCheckpoint(f, apertusConfig(nil), apertusTensors(true)),
		drawCheckpoint(f, kimiConfig(map[string]any{"num_expert_group": 1}), kimiTensors()),
		// stop 73's mistral3
		drawCheckpoint(f, ministral3Config(nil, nil), ministral3Tensors("model.", "lm_head.weight"))} {
		path := filepath.Join(f.TempDir(), fmt.Sprintf("ssm%d.gguf", i))
		if err := os.WriteFile(path, convertToGGUF(f, dir, gguf.Q8_0, false), 0o644); err != nil {
			f.Fatal(err)
		}
		paths = append(paths, path)
	}
	var files []*gguf.File
	for _, path := range paths {
		g, err := gguf.Open(path)
		if err != nil {
			f.Fatal(err)
		}
		defer g.Close()
		files = append(files, g)
	}
	const (
		noEdit = 255 // key: leave the metadata as it is
		same   = 7   // typ: leave the tensors as they are
	)
	for which, g := range files {
		f.Add(uint8(which), uint8(0), uint8(0), uint64(0), uint8(0), uint8(same))       // general.architecture := 0
		f.Add(uint8(which), uint8(5), uint8(1), uint64(1<<32-1), uint8(0), uint8(same)) // −1 as an int32
		f.Add(uint8(which), uint8(254), uint8(4), uint64(7), uint8(0), uint8(same))     // an added key
		// Sizes that once allocated tens of GB before any weight was read.
		arch, _ := g.String("general.architecture")
		for i, kv := range g.KV {
			switch strings.TrimPrefix(kv.Key, arch+".") {
			case "block_count", "attention.key_length", "rope.dimension_count":
				f.Add(uint8(which), uint8(i), uint8(0), uint64(1<<31-2), uint8(0), uint8(same))
			case "feed_forward_length":
				f.Add(uint8(which), uint8(i), uint8(6), uint64(1<<40), uint8(0), uint8(same))
			case "rope.scaling.factor", "rope.scaling.original_context_length", "rope.freq_base":
				// YaRN's ramp at extreme values (the bits of 1e30 and 1e-30).
				f.Add(uint8(which), uint8(i), uint8(3), uint64(math.Float32bits(1e30)), uint8(0), uint8(same))
				f.Add(uint8(which), uint8(i), uint8(3), uint64(math.Float32bits(1e-30)), uint8(0), uint8(same))
			}
		}
	}
	f.Add(uint8(0), uint8(noEdit), uint8(0), uint64(0), uint8(1), uint8(3))   // a tensor as q4_0
	f.Add(uint8(1), uint8(noEdit), uint8(0), uint64(0), uint8(12), uint8(1))  // an expert stack as f16
	f.Add(uint8(1), uint8(noEdit), uint8(0), uint64(0), uint8(12), uint8(12)) // an expert stack as q5_k
	f.Fuzz(func(t *testing.T, which, key, kind uint8, v uint64, tens, typ uint8) {
		g := files[int(which)%len(files)]
		var w gguf.Writer
		edit := int(key) % (len(g.KV) + 1)
		if key == noEdit {
			edit = -1
		}
		value := fuzzValue(kind, v)
		for i, kv := range g.KV {
			if i == edit {
				w.Add(kv.Key, value)
				continue
			}
			w.Add(kv.Key, kv.Value)
		}
		if edit == len(g.KV) {
			w.Add(g.KV[int(v)%len(g.KV)].Key+".x", value)
		}
		names := g.Names()
		for i, name := range names {
			info, _ := g.Tensor(name)
			data, err := g.TensorData(info)
			if err != nil {
				t.Fatal(err)
			}
			tt := info.Type
			if i == int(tens)%len(names) && typ%8 != same {
				tt, data = reencode(t, info, data, typ)
			}
			if err := w.AddTensor(name, tt, info.Shape(), data); err != nil {
				t.Fatal(err)
			}
		}
		path := filepath.Join(t.TempDir(), "m.gguf")
		if err := w.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		checkImport(t, func() (*Model, error) { return ImportGGUF(newContext(), path, Options{MaxTokens: 8}) })
	})
}

// reencode returns the tensor's values in the type typ picks among those
// rlx reads (f32, f16, bf16, q4_0, q8_0, q4_K, q6_K by typ % 7; q5_K in
// place of q4_K where typ has bit 3 set), or as they are when its rows
// do not split into that type's blocks.
func reencode(t *testing.T, info *gguf.TensorInfo, data []byte, typ uint8) (gguf.TensorType, []byte) {
	k := int(info.Dims[0])
	n := 1
	for _, d := range info.Dims[1:] {
		n *= int(d)
	}
	var w []float32
	if fm, ok := info.Type.Format(); ok {
		var err error
		if w, err = gguf.Dequantize(fm, data, n, k); err != nil {
			t.Fatal(err)
		}
	} else if info.Type == gguf.TypeF32 {
		w = make([]float32, n*k)
		for i := range w {
			w[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		}
	} else {
		return info.Type, data
	}
	tt := []gguf.TensorType{gguf.TypeF32, gguf.TypeF16, gguf.TypeBF16, gguf.TypeQ4_0, gguf.TypeQ8_0, gguf.TypeQ4_K, gguf.TypeQ6_K}[typ%7]
	if tt == gguf.TypeQ4_K && typ&8 != 0 {
		tt = gguf.TypeQ5_K
	}
	switch tt {
	case gguf.TypeF32, gguf.TypeF16, gguf.TypeBF16:
		size := 2
		if tt == gguf.TypeF32 {
			size = 4
		}
		out := make([]byte, size*len(w))
		for i, x := range w {
			switch tt {
			case gguf.TypeF32:
				binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(x))
			case gguf.TypeF16:
				binary.LittleEndian.PutUint16(out[2*i:], tensor.F32ToF16Bits(x))
			default:
				binary.LittleEndian.PutUint16(out[2*i:], tensor.F32ToBF16Bits(x))
			}
		}
		return tt, out
	default:
		fm, _ := tt.Format()
		if k%fm.BlockSize() != 0 {
			return info.Type, data
		}
		q, err := gguf.Quantize(fm, w, n, k)
		if err != nil {
			t.Fatal(err)
		}
		return tt, q
	}
}

// fuzzValue is a metadata value of one of GGUF's kinds made from v.
func fuzzValue(kind uint8, v uint64) any {
	switch kind % 8 {
	case 0:
		return uint32(v)
	case 1:
		return int32(v)
	case 2:
		return v
	case 3:
		return math.Float32frombits(uint32(v))
	case 4:
		return strings.Repeat("q", int(v%5))
	case 5:
		return v%2 == 1
	case 6:
		return []any{v, v >> 7}
	default:
		return []int32{int32(v), int32(v >> 32)}
	}
}

// checkImport runs an import: an error must say something; a module must
// verify and decode two tokens to finite logits (what the import accepts,
// the module must run).
func checkImport(t *testing.T, run func() (*Model, error)) {
	t.Helper()
	m, err := run()
	if err != nil {
		if err.Error() == "" {
			t.Fatal("empty error")
		}
		return
	}
	defer m.Source.Close()
	if err := ir.Verify(m.Module); err != nil {
		t.Fatalf("imported module does not verify: %v", err)
	}
	logits := decodeModule(t, m.Module, m.Source, []int{1, 2})
	for i, x := range logits.Floats() {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			t.Fatalf("logit %d of an accepted import is %g", i, x)
		}
	}
}

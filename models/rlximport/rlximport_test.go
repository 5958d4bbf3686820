package rlximport

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/internal/ggufgen"
	"github.com/rlx-compiler/rlx/internal/qckpt"
	"github.com/rlx-compiler/rlx/models/importer"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

const qwen3 = "../importer/testdata/hf/qwen3"

// checkpoint copies the Qwen3 fixture to a temporary directory, with its
// config.json edited by config and its tensors by tensors (either may be
// nil), and returns the directory.
func checkpoint(t *testing.T, config func(string) string, tensors func(map[string]*tensor.Tensor)) string {
	t.Helper()
	dir := t.TempDir()
	cfg, err := os.ReadFile(filepath.Join(qwen3, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if config != nil {
		cfg = []byte(config(string(cfg)))
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(qwen3, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := tensor.ReadSafetensors(f)
	if err != nil {
		t.Fatal(err)
	}
	if tensors != nil {
		tensors(st.Tensors)
	}
	var buf bytes.Buffer
	if err := tensor.WriteSafetensors(&buf, st); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "model.safetensors"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func rlxImport(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = Main(args, &o, &e)
	return code, o.String(), e.String()
}

func TestImports(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.mlir")
	code, _, stderr := rlxImport(qwen3, "-o", out, "--max-tokens", "8", "--weights-list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	mlir, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`func.func @decode(`, `{rlx.name = "token"}`, `rlx.max_tokens = 8 : i64`, `graph.param "model.layers.3.mlp.down_proj.weight" : tensor<64x96xf32>`} {
		if !strings.Contains(string(mlir), want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if !strings.Contains(stderr, "model.embed_tokens.weight\n") {
		t.Errorf("--weights-list printed %q", stderr)
	}
	if code, stdout, _ := rlxImport("--help"); code != 0 || !strings.Contains(stdout, "Qwen3NextForCausalLM") {
		t.Errorf("--help: exit %d, %q", code, stdout)
	}
	// A tensor the model does not read is a warning, as transformers
	// ignores it.
	extra := checkpoint(t, nil, func(m map[string]*tensor.Tensor) { m["mtp.fc.weight"] = tensor.Zeros(tensor.F32, 2, 2) })
	code, _, stderr = rlxImport(extra, "-o", out)
	if want := "rlx-import: warning: the model does not read 1 tensors of the checkpoint (a text decode step does not use them: a vision tower, a multi-token-prediction head), the first \"mtp.fc.weight\"\n"; code != 0 || stderr != want {
		t.Errorf("extra tensor: exit %d, stderr %q, want %q", code, stderr, want)
	}
}

// TestNotes: importing transformers' Mamba-2 fixture (2 groups) notes
// that the gated norm follows transformers' whole-width form; Granite
// 4.0 H's (1 group) notes nothing.
func TestNotes(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.mlir")
	dir := filepath.Join("..", "importer", "testdata", "hf")
	code, _, stderr := rlxImport(filepath.Join(dir, "mamba2"), "-o", out)
	want := "rlx-import: note: each Mamba-2 mixer's gated norm normalises its whole width, as transformers' Mamba2Mixer does; mamba_ssm and llama.cpp normalise each of its 2 groups apart, which gives other logits\n"
	if code != 0 || stderr != want {
		t.Errorf("mamba2: exit %d, stderr %q, want %q", code, stderr, want)
	}
	if code, _, stderr := rlxImport(filepath.Join(dir, "granitemoehybrid"), "-o", out); code != 0 || stderr != "" {
		t.Errorf("granitemoehybrid: exit %d, stderr %q", code, stderr)
	}
}

// TestWidened: a GPTQ checkpoint whose groups (16 columns) no gguf block
// holds is read as BF16, and rlx-import says so; with groups of 32 the
// blocks are kept and it says nothing.
func TestWidened(t *testing.T) {
	for _, tc := range []struct {
		group int
		want  string
	}{
		{32, ""},
		{16, "rlx-import: warning: 28 quantised matrices of the checkpoint are read as BF16, 2 bytes a weight, since no q4_0, q5_0 or q8_0 block holds their values exactly (a desc_act column order, groups not a multiple of 32, scales that are not f16s, or 8-bit zero points; docs/import.md), the first \"model.layers.0.self_attn.q_proj.weight\"\n"},
	} {
		g := qckpt.GPTQ{Bits: 4, Group: tc.group, Sym: true}
		q, err := json.Marshal(g.Config())
		if err != nil {
			t.Fatal(err)
		}
		dir := checkpoint(t, func(cfg string) string {
			return strings.Replace(cfg, "{", `{"quantization_config": `+string(q)+", ", 1)
		},
			func(m map[string]*tensor.Tensor) {
				for name, w := range m {
					module, ok := strings.CutSuffix(name, "proj.weight")
					if !ok || !strings.HasPrefix(name, "model.layers.") {
						continue
					}
					ts, _, err := g.Quantise(module+"proj", w.Floats(), w.Shape()[0], w.Shape()[1])
					if err != nil {
						t.Fatal(err)
					}
					delete(m, name)
					for k, v := range ts {
						m[k] = v
					}
				}
			})
		code, _, stderr := rlxImport(dir, "-o", filepath.Join(t.TempDir(), "m.mlir"))
		if code != 0 || stderr != tc.want {
			t.Errorf("groups of %d: exit %d, stderr %q, want %q", tc.group, code, stderr, tc.want)
		}
	}
}

// TestErrors checks that each unsupported or broken input is one clear
// error naming the file and the field or tensor, with exit status 1.
func TestErrors(t *testing.T) {
	drop := func(name string) func(map[string]*tensor.Tensor) {
		return func(m map[string]*tensor.Tensor) { delete(m, name) }
	}
	reshape := func(name string, shape ...int) func(map[string]*tensor.Tensor) {
		return func(m map[string]*tensor.Tensor) { m[name] = tensor.Zeros(tensor.F32, shape...) }
	}
	replace := func(old, new string) func(string) string {
		return func(s string) string { return strings.Replace(s, old, new, 1) }
	}
	truncated := checkpoint(t, nil, nil)
	st := filepath.Join(truncated, "model.safetensors")
	data, _ := os.ReadFile(st)
	os.WriteFile(st, data[:len(data)-1000], 0o644)

	var w gguf.Writer
	w.Add("general.architecture", "qwen3")
	var buf bytes.Buffer
	w.WriteTo(&buf)
	v4 := buf.Bytes()
	binary.LittleEndian.PutUint32(v4[4:], 4)
	v4path := filepath.Join(t.TempDir(), "v4.gguf")
	os.WriteFile(v4path, v4, 0o644)
	var wg gguf.Writer
	wg.Add("general.architecture", "falcon")
	buf.Reset()
	wg.WriteTo(&buf)
	falcon := filepath.Join(t.TempDir(), "falcon.gguf")
	os.WriteFile(falcon, buf.Bytes(), 0o644)
	empty := filepath.Join(t.TempDir(), "empty.gguf")
	os.WriteFile(empty, nil, 0o644)

	// ggufgen's Llama as edit leaves it, written to name.
	llama := func(name string, edit func(m *ggufgen.Model)) string {
		m, err := ggufgen.Llama(1)
		if err != nil {
			t.Fatal(err)
		}
		edit(m)
		path := filepath.Join(t.TempDir(), name)
		if err := m.W.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// Llama 3's rope_freqs with one divisor that is not finite and
	// positive (the frequency it divides would be wrong or infinite).
	ropeFreqs := func(bad float32) string {
		return llama("freqs.gguf", func(m *ggufgen.Model) { addRopeFreqs(t, m, bad) })
	}
	const freqsWant = `freqs.gguf: tensor "rope_freqs.weight" holds %s at 5; rlx needs finite positive divisors`
	scaling := func(kv ...any) string {
		return llama("scaling.gguf", func(m *ggufgen.Model) {
			for i := 0; i < len(kv); i += 2 {
				m.W.Add(kv[i].(string), kv[i+1])
			}
		})
	}
	// Linear scaling without its factor, another scaling type, one of LongRoPE's
	// factor tensors.
	longRope := llama("longrope.gguf", func(m *ggufgen.Model) {
		if err := m.W.AddTensor("rope_factors_long.weight", gguf.TypeF32, []int{64}, make([]byte, 4*64)); err != nil {
			t.Fatal(err)
		}
	})
	// Both of LongRoPE's tensors, all ones but long[0] = first, and the
	// metadata pairs kv.
	bothLongRope := func(first float32, kv ...any) string {
		return llama("longrope2.gguf", func(m *ggufgen.Model) {
			for _, name := range []string{"rope_factors_short.weight", "rope_factors_long.weight"} {
				v := make([]byte, 4*64)
				for i := range 64 {
					f := float32(1)
					if i == 0 && name == "rope_factors_long.weight" {
						f = first
					}
					binary.LittleEndian.PutUint32(v[4*i:], math.Float32bits(f))
				}
				if err := m.W.AddTensor(name, gguf.TypeF32, []int{64}, v); err != nil {
					t.Fatal(err)
				}
			}
			for i := 0; i < len(kv); i += 2 {
				m.W.Add(kv[i].(string), kv[i+1])
			}
		})
	}

	for _, tc := range []struct {
		name, path, want string
	}{
		{"rope_freqs zero", ropeFreqs(0), fmt.Sprintf(freqsWant, "0")},
		{"linear rope without a factor", scaling("llama.rope.scaling.type", "linear"),
			`scaling.gguf: llama.rope.scaling.factor = 0: linear rope scaling needs a finite positive factor`},
		{"yarn rope without its original context", scaling("llama.rope.scaling.type", "yarn", "llama.rope.scaling.factor", float32(4)),
			`scaling.gguf: YaRN needs the original context: llama.rope.scaling.original_context_length (else llama.context_length) is missing or 0`},
		{"dynamic rope", scaling("llama.rope.scaling.type", "dynamic"),
			`scaling.gguf: llama.rope.scaling.type = "dynamic" is not supported (rlx implements none, linear, yarn and longrope, and Llama 3's rope_freqs)`},
		{"LongRoPE", longRope, `longrope.gguf: LongRoPE needs both tensors rope_factors_short and rope_factors_long; the file has one`},
		{"LongRoPE zero factor", bothLongRope(0, "llama.rope.scaling.original_context_length", uint32(4096)),
			`longrope2.gguf: tensor "rope_factors_long.weight" holds 0 at 0; rlx needs finite positive divisors`},
		{"LongRoPE without its original context", bothLongRope(1),
			`longrope2.gguf: missing metadata key llama.rope.scaling.original_context_length`},
		{"LongRoPE zero attention factor", bothLongRope(1, "llama.rope.scaling.original_context_length", uint32(4096), "llama.rope.scaling.attn_factor", float32(0)),
			`longrope2.gguf: llama.rope.scaling.original_context_length = 4096, llama.rope.scaling.attn_factor = 0: LongRoPE needs a positive original context and a finite positive factor`},
		{"rope_freqs negative", ropeFreqs(-2), fmt.Sprintf(freqsWant, "-2")},
		{"rope_freqs NaN", ropeFreqs(float32(math.NaN())), fmt.Sprintf(freqsWant, "NaN")},
		{"rope_freqs infinite", ropeFreqs(float32(math.Inf(1))), fmt.Sprintf(freqsWant, "+Inf")},
		{"unknown architecture", checkpoint(t, replace(`"Qwen3ForCausalLM"`, `"FalconForCausalLM"`), nil),
			`config.json: architecture "FalconForCausalLM" is not supported (rlx imports ` + strings.Join(importer.Architectures(), ", ") + ")"},
		{"unsupported field value", checkpoint(t, replace(`"hidden_act": "silu"`, `"hidden_act": "gelu"`), nil),
			`config.json: field "hidden_act" = "gelu" is not supported (rlx implements "silu" only)`},
		{"bias missing", checkpoint(t, replace(`"attention_bias": false`, `"attention_bias": true`), nil),
			`: missing tensor "model.layers.0.self_attn.q_proj.bias" (Qwen3ForCausalLM needs it)`},
		{"unknown field", checkpoint(t, replace(`"vocab_size": 256`, `"vocab_size": 256, "logit_softcap": 30`), nil),
			`config.json: field "logit_softcap" is not supported for Qwen3ForCausalLM (rlx does not know what it changes)`},
		{"rope scaling", checkpoint(t, replace(`"rope_type": "default"`, `"rope_type": "ntk"`), nil),
			`config.json: field "rope_parameters" has rope_type "ntk", which is not supported (rlx implements "default", "linear", "llama3", "dynamic" within max_position_embeddings, "yarn", "longrope" and Qwen2-VL's "mrope" on text)`},
		{"missing tensor", checkpoint(t, nil, drop("model.layers.2.mlp.down_proj.weight")),
			`: missing tensor "model.layers.2.mlp.down_proj.weight" (Qwen3ForCausalLM needs it)`},
		{"wrong shape", checkpoint(t, nil, reshape("model.layers.1.self_attn.k_proj.weight", 64, 64)),
			`model.safetensors: tensor "model.layers.1.self_attn.k_proj.weight" is F32 [64, 64], expected shape [32, 64]`},
		{"truncated safetensors", truncated,
			`model.safetensors: truncated: tensor "model.layers.3.self_attn.v_proj.weight" needs bytes [556144, 564336) of the file, which has 563592`},
		{"GGUF version", v4path, `v4.gguf: unsupported GGUF version 4 (rlx reads versions 2 and 3)`},
		{"GGUF architecture", falcon, `falcon.gguf: general.architecture "falcon" is not supported (rlx imports ` + strings.Join(importer.GGUFArchitectures(), ", ") + ")"},
		{"no checkpoint", filepath.Join(t.TempDir(), "absent"), `absent: no such file or directory`},
		{"neither", filepath.Join(qwen3, "config.json"), `config.json: neither a checkpoint directory (config.json and safetensors files) nor a GGUF file (it starts "{\n  ", not GGUF's magic "GGUF")`},
		{"empty", empty, `empty.gguf: neither a checkpoint directory (config.json and safetensors files) nor a GGUF file (the file is empty)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := rlxImport(tc.path)
			if code != 1 || stdout != "" {
				t.Errorf("exit %d, stdout %q", code, stdout)
			}
			if !strings.HasPrefix(stderr, "rlx-import: error: ") || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr\n  %q\nwant one line containing\n  %q", stderr, tc.want)
			}
		})
	}
}

// TestQ6KColumnsFlag: --q6k-columns makes rlx-import read a GGUF's q6_k
// matrices, dense and expert stacks, as q6_k_c16; without it they read as
// stored.
func TestQ6KColumnsFlag(t *testing.T) {
	for _, build := range []func(uint64) (*ggufgen.Model, error){ggufgen.Llama, ggufgen.Qwen3Next} {
		m, err := build(1)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		path := filepath.Join(dir, "q6k.gguf")
		if err := m.W.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		for _, flag := range []bool{false, true} {
			args := []string{path, "-o", filepath.Join(dir, "m.mlir")}
			want, other := `format = "q6_k"`, `format = "q6_k_c16"`
			if flag {
				args = append(args, "--q6k-columns")
				want, other = other, want
			}
			code, _, stderr := rlxImport(args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			mlir, err := os.ReadFile(filepath.Join(dir, "m.mlir"))
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(mlir), want); n != m.Reads || strings.Contains(string(mlir), other) {
				t.Errorf("%v: %d reads %s, want %d and none %s", args, n, want, m.Reads, other)
			}
		}
	}
}

// addRopeFreqs adds Llama 3's rope_freqs.weight (head dim 128: 64
// divisors) with divisor 5 set to bad.
func addRopeFreqs(t *testing.T, m *ggufgen.Model, bad float32) {
	t.Helper()
	data := make([]byte, 4*64)
	for i := range 64 {
		v := float32(1 + i%3)
		if i == 5 {
			v = bad
		}
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(v))
	}
	if err := m.W.AddTensor("rope_freqs.weight", gguf.TypeF32, []int{64}, data); err != nil {
		t.Fatal(err)
	}
}

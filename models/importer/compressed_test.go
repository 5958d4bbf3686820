package importer

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/internal/qckpt"
	"github.com/rlx-compiler/rlx/runtime/tensor"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

// compressedCase is one compressed-tensors scheme over a fixture's
// projections: what each projection is read as (a gguf format, or
// "BF16"), and whether its values round to bf16 on the way.
type compressedCase struct {
	name   string
	scheme qckpt.Scheme
	readAs string
	// gptq, where set, writes GPTQ's or AWQ's layout instead of scheme's.
	gptq *qckpt.GPTQ
}

// config is the case's quantization_config.
func (tc compressedCase) config() map[string]any {
	if tc.gptq != nil {
		return tc.gptq.Config()
	}
	return tc.scheme.Config()
}

// quantise writes module's weight w [r, c] as the case says: its tensors,
// the names stored as F8_E4M3, and the values they stand for.
func (tc compressedCase) quantise(module string, w []float32, r, c int) (map[string]*tensor.Tensor, map[string]string, []float32, error) {
	if tc.gptq != nil {
		ts, vals, err := tc.gptq.Quantise(module, w, r, c)
		return ts, nil, vals, err
	}
	return qckpt.Quantise(module, w, r, c, tc.scheme)
}

var compressedCases = []compressedCase{
	{"float8 by channel", qckpt.Scheme{Bits: 8, Float: true, Strategy: "channel", Scale: tensor.BF16}, "BF16", nil},
	{"float8 by tensor", qckpt.Scheme{Bits: 8, Float: true, Strategy: "tensor"}, "BF16", nil},
	{"float8 in blocks of 48×40", qckpt.Scheme{Bits: 8, Float: true, Strategy: "block", Block: [2]int{48, 40}}, "BF16", nil},
	{"float8 in blocks of 48×40, padded", qckpt.Scheme{Bits: 8, Float: true, Strategy: "block", Block: [2]int{48, 40}, Pad: true}, "BF16", nil},
	{"int8 by channel", qckpt.Scheme{Bits: 8, Strategy: "channel", Scale: tensor.BF16}, "q8_0", nil},
	{"int8 by channel, f32 scales", qckpt.Scheme{Bits: 8, Strategy: "channel"}, "BF16", nil},
	{"int8 by channel, zero points", qckpt.Scheme{Bits: 8, Strategy: "channel", Asym: true, Scale: tensor.BF16}, "BF16", nil},
	{"int8 packed by group of 32", qckpt.Scheme{Bits: 8, Strategy: "group", Group: 32, Packed: true, Scale: tensor.F16}, "q8_0", nil},
	{"int4 by group of 32", qckpt.Scheme{Bits: 4, Strategy: "group", Group: 32, Packed: true, Scale: tensor.BF16}, "q4_0", nil},
	{"int4 by channel", qckpt.Scheme{Bits: 4, Strategy: "channel", Packed: true, Scale: tensor.BF16}, "q4_0", nil},
	{"int4 by group of 32, zero points", qckpt.Scheme{Bits: 4, Strategy: "group", Group: 32, Packed: true, Asym: true, Scale: tensor.BF16}, "q5_0", nil},
	{"int4 by group of 16", qckpt.Scheme{Bits: 4, Strategy: "group", Group: 16, Packed: true, Scale: tensor.BF16}, "BF16", nil},
	{"gptq 4-bit symmetric, groups of 32", qckpt.Scheme{}, "q4_0", &qckpt.GPTQ{Bits: 4, Group: 32, Sym: true}},
	{"gptq 4-bit, groups of 32", qckpt.Scheme{}, "q5_0", &qckpt.GPTQ{Bits: 4, Group: 32}},
	{"gptq_v2 8-bit symmetric, a row", qckpt.Scheme{}, "q8_0", &qckpt.GPTQ{Bits: 8, Group: -1, Sym: true, V2: true}},
	{"awq, groups of 32", qckpt.Scheme{}, "q5_0", &qckpt.GPTQ{AWQ: true, Bits: 4, Group: 32}},
}

// TestCompressedTensors: the qwen3 fixture with every projection
// quantised by each of compressedCases, as llm-compressor writes a
// compressed-tensors checkpoint (or AutoGPTQ a GPTQ one, AutoAWQ an AWQ
// one), imports and decodes as the F32
// checkpoint of the values its tensors stand for ((q − zero)·scale;
// rounded to bf16 where rlx reads the projection as BF16): bit for bit
// where read as BF16, within 1e-6 where read as gguf blocks (a
// dequant_matmul's sums against a matmul's), each projection read as
// the case says. The qwen3_moe fixture's experts as int4 (and in GPTQ's
// and AWQ's layouts) stack as blocks; the qwen2 fixture's attention
// biases stay beside their quantised projections. Every tensor is read
// (the scales, zero points and shapes with their weights).
func TestCompressedTensors(t *testing.T) {
	for _, fixture := range []string{"qwen3", "qwen3_moe", "qwen2"} {
		for _, tc := range compressedCases {
			if fixture != "qwen3" && tc.readAs != "q4_0" && tc.gptq == nil {
				continue
			}
			t.Run(fixture+"/"+tc.name, func(t *testing.T) {
				limit := 1e-6
				if tc.readAs == "BF16" {
					limit = 0
				}
				checkCompressed(t, fixture, tc.config(), func(string) compressedCase { return tc }, limit)
			})
		}
	}
}

// checkCompressed quantises the fixture's projections, each by its case
// (pick), writes that checkpoint with the quantization_config q and the
// F32 checkpoint of the values its tensors stand for, and checks that
// at least 20 projections are quantised, that each reads as its case
// says (checkReadAs), that the module reads every tensor, and that the
// two checkpoints decode alike: within limit, the same arg-max.
func checkCompressed(t *testing.T, fixture string, q map[string]any, pick func(name string) compressedCase, limit float64) {
	t.Helper()
	st := readSafetensorsFile(t, filepath.Join("testdata", "hf", fixture))
	quant, deq, n := compressFixture(t, st, pick)
	if n < 20 {
		t.Fatalf("only %d projections quantised", n)
	}
	qdir, ddir := t.TempDir(), t.TempDir()
	writeConfig(t, qdir, fixtureConfig(t, fixture, map[string]any{"quantization_config": q}))
	writeSafetensors(t, filepath.Join(qdir, "model.safetensors"), quant)
	writeConfig(t, ddir, fixtureConfig(t, fixture, nil))
	writeSafetensors(t, filepath.Join(ddir, "model.safetensors"), deq)
	checkReadAs(t, qdir, func(name string) string { return pick(name).readAs }, n)
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128}
	got, unused := decodeHF(t, qdir, tokens)
	if len(unused) > 0 {
		t.Errorf("the module does not read %v", unused)
	}
	want, _ := decodeHF(t, ddir, tokens)
	if rel, bad := agreement(got, want); rel > limit || len(bad) > 0 {
		t.Errorf("against the F32 checkpoint of its values: %.3g (limit %g), arg-max differs at %v", rel, limit, bad)
	}
}

// projection names the matrices a compressed-tensors checkpoint
// quantises in these fixtures: every Linear but lm_head and the router.
var projection = regexp.MustCompile(`^model\.layers\.\d+\.(self_attn|mlp)\.(experts\.\d+\.)?[a-z_]*proj\.weight$`)

// compressFixture quantises st's projections, each by the scheme of
// its case (pick); it returns the compressed checkpoint, the F32
// checkpoint of the values it stands for (rounded to bf16 where the
// case reads as BF16) and the number quantised.
func compressFixture(t testing.TB, st *tensor.Safetensors, pick func(name string) compressedCase) (quant, deq *tensor.Safetensors, n int) {
	t.Helper()
	quant = &tensor.Safetensors{Tensors: map[string]*tensor.Tensor{}, Stored: map[string]string{}}
	deq = &tensor.Safetensors{Tensors: map[string]*tensor.Tensor{}}
	for name, w := range st.Tensors {
		if !projection.MatchString(name) {
			quant.Tensors[name], deq.Tensors[name] = w, w
			continue
		}
		n++
		tc := pick(name)
		r, c := w.Shape()[0], w.Shape()[1]
		ts, stored, vals, err := tc.quantise(strings.TrimSuffix(name, ".weight"), w.Floats(), r, c)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range ts {
			quant.Tensors[k] = v
		}
		for k, v := range stored {
			quant.Stored[k] = v
		}
		if tc.readAs == "BF16" {
			for i, v := range vals {
				vals[i] = tensor.RoundBF16(v)
			}
		}
		if deq.Tensors[name], err = tensor.FromFloat32(tensor.F32, []int{r, c}, vals); err != nil {
			t.Fatal(err)
		}
	}
	return quant, deq, n
}

// checkReadAs checks that each of the n projections of the checkpoint in
// dir reads as readAs says (a gguf format, or "BF16"), and that the
// imported module's dequant_matmuls read those formats, one for each
// projection not read as BF16.
func checkReadAs(t *testing.T, dir string, readAs func(name string) string, n int) {
	t.Helper()
	src, err := weights.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	seen, blocks := 0, map[string]int{}
	for _, name := range src.Names() {
		if !projection.MatchString(name) {
			continue
		}
		seen++
		want := readAs(name)
		info, _ := src.Info(name)
		if after, ok := strings.CutPrefix(want, "ordered "); ok {
			want = after
			info, _ = src.Info(name + weights.Ordered)
		}
		as := info.Quant.String()
		if !info.Quant.Valid() {
			as = info.DType.String()
		} else {
			blocks[as]++
		}
		if !strings.EqualFold(as, want) {
			t.Errorf("%s reads as %s, want %s", name, as, readAs(name))
		}
	}
	if seen != n {
		t.Errorf("%d projections read, want %d", seen, n)
	}
	m, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Source.Close()
	total, text := countOps(m.Module, graph.DequantMatMulName), printed(t, m.Module)
	for f := range blocks {
		total -= strings.Count(text, `format = "`+f+`"`)
	}
	if total != 0 || (len(blocks) > 0 && countOps(m.Module, graph.DequantMatMulName) == 0) {
		t.Errorf("the module's dequant_matmuls do not read the formats %v of its projections", blocks)
	}
}

// TestCompressedMixedPrecision: a mixed-precision compressed-tensors
// checkpoint (llm-compressor's "mixed-precision" format: each config
// group names its own) of the qwen3 fixture, attention in float8 by
// channel and the MLP in int4 groups of 32 by regular expressions,
// reads each projection as its group says and decodes as the F32
// checkpoint of its values within 1e-6.
func TestCompressedMixedPrecision(t *testing.T) {
	fp8, int4 := compressedCases[0], compressedCases[8]
	if fp8.readAs != "BF16" || int4.readAs != "q4_0" {
		t.Fatalf("compressedCases changed: %v, %v", fp8, int4)
	}
	pick := func(name string) compressedCase {
		if strings.Contains(name, ".self_attn.") {
			return fp8
		}
		return int4
	}
	group := func(tc compressedCase, re string) map[string]any {
		return map[string]any{"targets": []string{re}, "weights": tc.scheme.Args(), "format": tc.scheme.Format(), "input_activations": nil}
	}
	q := fp8.scheme.Config()
	q["format"] = "mixed-precision"
	q["config_groups"] = map[string]any{"group_0": group(fp8, `re:.*self_attn\..*`), "group_1": group(int4, `re:.*mlp\..*`)}
	checkCompressed(t, "qwen3", q, pick, 1e-6)
}

// TestCompressedConfig: the importer reads a compressed-tensors, GPTQ
// or AWQ quantization_config as package weights does, and refuses what
// it refuses, naming config.json's field.
func TestCompressedConfig(t *testing.T) {
	ok := compressedCases[8].scheme.Config()
	nvfp4 := compressedCases[8].scheme.Config()
	nvfp4["format"] = "nvfp4-pack-quantized"
	for _, tc := range []struct {
		q    map[string]any
		want string
	}{
		{ok, ""},
		{nvfp4, `config.json: field "quantization_config": field "format" = "nvfp4-pack-quantized" is not supported`},
		{qckpt.GPTQ{Bits: 4, Group: 128, Sym: true}.Config(), ""},
		{qckpt.GPTQ{AWQ: true, Bits: 4, Group: 128}.Config(), ""},
		{qckpt.GPTQ{Bits: 3, Group: 128}.Config(), `config.json: field "quantization_config": field "bits" = 3 is not supported (rlx reads 4 and 8)`},
		// optimum's GPTQConfig as a -GPTQ-Int4 release writes it, and
		// transformers' AwqConfig as an -AWQ one does.
		{map[string]any{"batch_size": 1, "bits": 4, "block_name_to_quantize": nil, "cache_block_outputs": true, "damp_percent": 0.01,
			"dataset": nil, "desc_act": false, "exllama_config": map[string]any{"version": 1}, "group_size": 128, "max_input_length": nil,
			"model_seqlen": nil, "module_name_preceding_first_block": nil, "modules_in_block_to_quantize": nil, "pad_token_id": nil,
			"quant_method": "gptq", "sym": true, "tokenizer": nil, "true_sequential": true, "use_cuda_fp16": false, "use_exllama": true}, ""},
		{map[string]any{"bits": 4, "group_size": 128, "modules_to_not_convert": nil, "quant_method": "awq", "version": "gemm", "zero_point": true}, ""},
	} {
		d := t.TempDir()
		writeConfig(t, d, fixtureConfig(t, "qwen3", map[string]any{"quantization_config": tc.q}))
		_, err := specFromConfig(d, 16)
		if tc.want == "" && err != nil {
			t.Errorf("%v: %v", tc.q["format"], err)
		}
		if tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%v: %v, want an error containing %q", tc.q["format"], err, tc.want)
		}
	}
}

// TestGPTQDescAct: a GPTQ checkpoint in desc_act's order (g_idx
// scattering each group over the input columns) of the qwen3 and
// qwen3_moe fixtures: each dense projection reads its columns sorted by
// group as q4_0 (q5_0 with zero points) blocks, x's columns gathered in
// that order (weights.Ordered), and decodes as the F32 checkpoint of the
// values within 1e-6; the experts, stacked, read the BF16 form (their
// values rounded to bf16 in the reference; their down_proj, 32 columns
// and so one group, blocks in order). No tensor is left unread.
func TestGPTQDescAct(t *testing.T) {
	for _, g := range []*qckpt.GPTQ{{Bits: 4, Group: 32, Sym: true, Shuffle: true}, {Bits: 4, Group: 32, Shuffle: true}} {
		blocks := "q4_0"
		if !g.Sym {
			blocks = "q5_0"
		}
		for _, fixture := range []string{"qwen3", "qwen3_moe"} {
			t.Run(fixture+"/"+blocks, func(t *testing.T) {
				pick := func(name string) compressedCase {
					switch {
					case strings.Contains(name, ".experts.") && strings.Contains(name, "down_proj"):
						return compressedCase{readAs: blocks, gptq: g} // 32 columns: one group, in order
					case strings.Contains(name, ".experts."):
						return compressedCase{readAs: "BF16", gptq: g}
					}
					return compressedCase{readAs: "ordered " + blocks, gptq: g}
				}
				checkCompressed(t, fixture, g.Config(), pick, 1e-6)
			})
		}
	}
}

// gptqCheckpoint writes the qwen3 fixture quantised by g (every
// projection) into a new directory.
func gptqCheckpoint(t testing.TB, g *qckpt.GPTQ) string {
	st := readSafetensorsFile(t, filepath.Join("testdata", "hf", "qwen3"))
	quant, _, _ := compressFixture(t, st, func(string) compressedCase { return compressedCase{gptq: g} })
	dir := t.TempDir()
	writeConfig(t, dir, fixtureConfig(t, "qwen3", map[string]any{"quantization_config": g.Config()}))
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), quant)
	return dir
}

package importer

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

// TestFP8: a drawn DeepSeek-V3 checkpoint in transformers' fine-grained
// FP8, as DeepSeek publishes V3 and R1 (every projection matrix but the
// router's F8_E4M3 with its weight_scale_inv in blocks, here 16×16 so
// that edges hold partial blocks; quantization_config fp8), imports and
// decodes bit for bit as the BF16 checkpoint of its dequantised weights
// (code × block scale, rounded to bf16), and every tensor is read (the
// scales with their matrices). What readQuantization refuses it names.
func TestFP8(t *testing.T) {
	src := drawCheckpoint(t, deepseekConfig(nil), deepseekTensors(24))
	st := readSafetensorsFile(t, src)
	fp8 := &tensor.Safetensors{Tensors: map[string]*tensor.Tensor{}, Stored: map[string]string{}}
	bf16 := &tensor.Safetensors{Tensors: map[string]*tensor.Tensor{}}
	quantised := regexp.MustCompile(`^model\.layers\.\d+\.(self_attn|mlp)\..*(proj|proj_with_mqa)\.weight$`)
	const block = 16
	n := 0
	for name, w := range st.Tensors {
		if !quantised.MatchString(name) {
			fp8.Tensors[name], bf16.Tensors[name] = w, w
			continue
		}
		n++
		codes, scales, deq := fp8Blocks(t, w, block)
		fp8.Tensors[name], fp8.Stored[name] = codes, "F8_E4M3"
		fp8.Tensors[name+"_scale_inv"] = scales
		bf16.Tensors[name] = deq
	}
	if n < 20 {
		t.Fatalf("only %d matrices quantised", n)
	}
	dir := func(st *tensor.Safetensors, quant bool) string {
		d := t.TempDir()
		cfg := deepseekConfig(nil)
		if quant {
			cfg["quantization_config"] = map[string]any{"quant_method": "fp8", "fmt": "e4m3", "activation_scheme": "dynamic",
				"weight_block_size": []int{block, block}, "modules_to_not_convert": []string{"lm_head"}}
		}
		writeConfig(t, d, cfg)
		writeSafetensors(t, filepath.Join(d, "model.safetensors"), st)
		return d
	}
	tokens := []int{1, 17, 42, 200, 5, 99, 255, 128}
	decode := func(d string) *tensor.Tensor {
		got, unused := decodeHF(t, d, tokens)
		if len(unused) > 0 {
			t.Errorf("the module does not read %v", unused)
		}
		return got
	}
	got, want := decode(dir(fp8, true)), decode(dir(bf16, false))
	if rel, bad := agreement(got, want); rel != 0 || len(bad) > 0 {
		t.Errorf("FP8 against its dequantised BF16 checkpoint: %.3g, arg-max differs at %v; want bit for bit", rel, bad)
	}
	for _, tc := range []struct{ q, want string }{
		{`{"quant_method": "bitsandbytes", "load_in_4bit": true}`, `field "quantization_config" = {"quant_method": "bitsandbytes", "load_in_4bit": true} is not supported (rlx reads transformers' fine-grained FP8, quant_method "fp8", compressed-tensors, GPTQ and AWQ)`},
		{`{"quant_method": "fp8"}`, `field "weight_block_size" must give the FP8 blocks' two positive sizes`},
		{`{"quant_method": "fp8", "weight_block_size": [128, 128], "activation_scheme": "static"}`, `field "activation_scheme" = "static" is not supported`},
		{`{"quant_method": "fp8", "weight_block_size": [128, 128], "fmt": "e5m2"}`, `field "fmt" = "e5m2" is not supported`},
		{`{"quant_method": "fp8", "weight_block_size": [128, 128], "ignored_layers": []}`, `field "ignored_layers" is not supported`},
	} {
		d := t.TempDir()
		data, err := os.ReadFile(filepath.Join(src, "config.json"))
		if err != nil {
			t.Fatal(err)
		}
		cfg := strings.Replace(string(data), "{", `{"quantization_config": `+tc.q+`, `, 1)
		if err := os.WriteFile(filepath.Join(d, "config.json"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := specFromConfig(d, 16); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.q, err, tc.want)
		}
	}
}

// fp8Blocks quantises w [r, c] as DeepSeek's FP8 checkpoints hold a
// matrix: each block × block block's scale its largest magnitude / 448,
// each value the E4M3 code nearest value / scale. It returns the codes
// (U8 bytes), the scales (F32 [⌈r/block⌉, ⌈c/block⌉]) and the dequantised
// matrix in BF16 (code × scale, rounded).
func fp8Blocks(t *testing.T, w *tensor.Tensor, block int) (codes, scales, deq *tensor.Tensor) {
	t.Helper()
	r, c := w.Shape()[0], w.Shape()[1]
	br, bc := (r+block-1)/block, (c+block-1)/block
	v := w.Floats()
	sc := make([]float32, br*bc)
	for i := range r {
		for j := range c {
			b := i/block*bc + j/block
			sc[b] = float32(math.Max(float64(sc[b]), math.Abs(float64(v[i*c+j]))))
		}
	}
	for b := range sc {
		sc[b] /= 448
	}
	raw, d := make([]byte, r*c), make([]float32, r*c)
	for i := range r {
		for j := range c {
			s := sc[i/block*bc+j/block]
			raw[i*c+j] = weights.EncodeE4M3(v[i*c+j] / s)
			d[i*c+j] = tensor.RoundBF16(weights.DecodeE4M3(raw[i*c+j]) * s)
		}
	}
	var err error
	if codes, err = tensor.FromBytes([]int{r, c}, raw); err != nil {
		t.Fatal(err)
	}
	if scales, err = tensor.FromFloat32(tensor.F32, []int{br, bc}, sc); err != nil {
		t.Fatal(err)
	}
	if deq, err = tensor.FromFloat32(tensor.BF16, []int{r, c}, d); err != nil {
		t.Fatal(err)
	}
	return codes, scales, deq
}

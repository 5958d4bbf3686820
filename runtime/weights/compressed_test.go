package weights_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/internal/qckpt"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

// writeCompressed writes a checkpoint directory: config.json with the
// quantization_config q, and one model.safetensors of ts (stored: the
// names stored as F8_E4M3).
func writeCompressed(t *testing.T, q any, ts map[string]*tensor.Tensor, stored map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	cfg, err := json.Marshal(map[string]any{"quantization_config": q})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tensor.WriteSafetensors(&buf, &tensor.Safetensors{Tensors: ts, Stored: stored}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "model.safetensors"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// ramp is a [rows, cols] matrix of distinct values in (−1, 1), larger
// towards its corners, so that groups, blocks and channels have scales
// of their own.
func ramp(rows, cols int) []float32 {
	w := make([]float32, rows*cols)
	for i := range rows {
		for j := range cols {
			w[i*cols+j] = float32((i*cols+j)%37-18) / 19 * float32(1+i+j) / float32(rows+cols)
		}
	}
	return w
}

// TestCompressedModule: a module of 5 × 96 quantised by each scheme reads
// as one tensor NAME.weight of its values — the gguf blocks the scheme
// maps to, whose dequantised values are exactly (q − zero)·scale, or
// BF16 of them rounded — and the module's other tensors are gone.
func TestCompressedModule(t *testing.T) {
	const rows, cols = 5, 96
	w := ramp(rows, cols)
	for _, tc := range []struct {
		name   string
		s      qckpt.Scheme
		readAs string
	}{
		{"float8 by channel", qckpt.Scheme{Bits: 8, Float: true, Strategy: "channel"}, "BF16"},
		{"float8 in blocks of 2×40, padded", qckpt.Scheme{Bits: 8, Float: true, Strategy: "block", Block: [2]int{2, 40}, Pad: true, Scale: tensor.BF16}, "BF16"},
		{"int8 by group of 64", qckpt.Scheme{Bits: 8, Strategy: "group", Group: 64, Scale: tensor.BF16}, "q8_0"},
		{"int8 in blocks of 2×32", qckpt.Scheme{Bits: 8, Strategy: "block", Block: [2]int{2, 32}, Scale: tensor.F16}, "q8_0"},
		{"int8 by tensor, zero points", qckpt.Scheme{Bits: 8, Strategy: "tensor", Asym: true, Scale: tensor.BF16}, "BF16"},
		{"int4 by group of 32", qckpt.Scheme{Bits: 4, Strategy: "group", Group: 32, Packed: true, Scale: tensor.BF16}, "q4_0"},
		{"int4 by channel, zero points", qckpt.Scheme{Bits: 4, Strategy: "channel", Packed: true, Asym: true, Scale: tensor.BF16}, "q5_0"},
		{"int4 by group of 48, zero points", qckpt.Scheme{Bits: 4, Strategy: "group", Group: 48, Packed: true, Asym: true, Scale: tensor.BF16}, "BF16"},
		{"int8 packed by channel, f32 scales", qckpt.Scheme{Bits: 8, Strategy: "channel", Packed: true}, "BF16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts, stored, want, err := qckpt.Quantise("m", w, rows, cols, tc.s)
			if err != nil {
				t.Fatal(err)
			}
			s, err := weights.Open(writeCompressed(t, tc.s.Config(), ts, stored))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			checkModule(t, s, rows, cols, tc.readAs, want)
		})
	}
}

// TestCompressedErrors: what rlx does not read of a compressed-tensors
// checkpoint is refused when it is opened, naming the field or tensor.
func TestCompressedErrors(t *testing.T) {
	int4 := qckpt.Scheme{Bits: 4, Strategy: "group", Group: 32, Packed: true, Scale: tensor.BF16}
	with := func(edit func(q map[string]any)) map[string]any {
		q := int4.Config()
		edit(q)
		return q
	}
	args := func(edit func(a map[string]any)) map[string]any {
		return with(func(q map[string]any) {
			a := int4.Args()
			edit(a)
			q["config_groups"] = map[string]any{"group_0": map[string]any{"targets": []string{"Linear"}, "weights": a}}
		})
	}
	for _, tc := range []struct {
		name string
		q    map[string]any
		want string
	}{
		{"nvfp4", with(func(q map[string]any) { q["format"] = "nvfp4-pack-quantized" }), `field "format" = "nvfp4-pack-quantized" is not supported (rlx reads float-quantized (float8), int-quantized (int8), naive-quantized (float8 or int8), pack-quantized (int4 or int8), and mixed-precision of those)`},
		{"frozen", with(func(q map[string]any) { q["quantization_status"] = "frozen" }), `field "quantization_status" = "frozen": rlx reads compressed checkpoints only`},
		{"kv cache", with(func(q map[string]any) { q["kv_cache_scheme"] = map[string]any{"num_bits": 8} }), `field "kv_cache_scheme" = {"num_bits":8}: rlx keeps the key-value cache in the model's precision`},
		{"sparsity", with(func(q map[string]any) { q["sparsity_config"] = map[string]any{"format": "sparse-24"} }), `field "sparsity_config" = {"format":"sparse-24"}: not supported`},
		{"unknown field", with(func(q map[string]any) { q["hadamard"] = true }), `field "hadamard" = true: rlx does not know what it changes`},
		{"no groups", with(func(q map[string]any) { delete(q, "config_groups") }), `field "config_groups" names no group`},
		{"int2", args(func(a map[string]any) { a["num_bits"] = 2 }), `config group "group_0": weights: int weights of 2 bits are not supported (rlx reads int4, int8 and float8)`},
		{"float4", args(func(a map[string]any) { a["type"], a["num_bits"] = "float", 4 }), `float weights of 4 bits are not supported`},
		{"token", args(func(a map[string]any) { a["strategy"] = "token" }), `strategy "token" is not supported (rlx reads tensor, channel, group and block)`},
		{"no group size", args(func(a map[string]any) { a["group_size"] = nil }), `strategy "group" needs a positive group_size`},
		{"dynamic", args(func(a map[string]any) { a["dynamic"] = true }), `field "dynamic" = true: dynamic weights are not supported`},
		{"fp8 scales", args(func(a map[string]any) { a["scale_dtype"] = "float8_e4m3fn" }), `field "scale_dtype" = "float8_e4m3fn": rlx reads f32, bf16 and f16 scales`},
		{"float8 packed", args(func(a map[string]any) { a["type"], a["num_bits"] = "float", 8 }), `weights of float8 in format pack-quantized are not supported (it holds int4 or int8 here)`},
		{"bad regex", with(func(q map[string]any) {
			q["config_groups"] = map[string]any{"group_0": map[string]any{"targets": []string{"re:(?<=x)"}, "weights": int4.Args()}}
		}), `config group "group_0": field "targets" = ["re:(?\u003c=x)"]: target "re:(?<=x)": error parsing regexp`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts, _, _, err := qckpt.Quantise("m", ramp(2, 64), 2, 64, int4)
			if err != nil {
				t.Fatal(err)
			}
			refused(t, tc.q, nil, ts, nil, tc.want)
		})
	}
}

// TestCompressedTensorErrors: a module whose tensors do not fit its
// scheme is refused when the checkpoint is opened, naming the tensor.
func TestCompressedTensorErrors(t *testing.T) {
	int4 := qckpt.Scheme{Bits: 4, Strategy: "group", Group: 32, Packed: true, Asym: true, Scale: tensor.BF16}
	fp8 := qckpt.Scheme{Bits: 8, Float: true, Strategy: "channel"}
	padded := qckpt.Scheme{Bits: 8, Float: true, Strategy: "block", Block: [2]int{2, 64}, Pad: true}
	int8asym := qckpt.Scheme{Bits: 8, Strategy: "channel", Asym: true}
	i8s := func(shape ...int) *tensor.Tensor {
		x, err := tensor.FromInt64(tensor.I8, shape, make([]int64, tensor.NumElements(shape)))
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	i64 := func(v ...int64) *tensor.Tensor {
		x, err := tensor.FromInt64(tensor.I64, []int{len(v)}, v)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	f32 := func(shape ...int) *tensor.Tensor {
		x, err := tensor.FromFloat32(tensor.F32, shape, make([]float32, tensor.NumElements(shape)))
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for _, tc := range []struct {
		name string
		s    qckpt.Scheme
		q    map[string]any // the config, s's where nil
		edit func(ts map[string]*tensor.Tensor)
		want string
	}{
		{"no shape", int4, nil, func(ts map[string]*tensor.Tensor) { delete(ts, "m.weight_shape") }, `tensor "m.weight_packed": is packed without its shape "m.weight_shape"`},
		{"wrong shape", int4, nil, func(ts map[string]*tensor.Tensor) { ts["m.weight_shape"] = i64(2, 72) }, `tensor "m.weight_shape": is [2 72]: not the unpacked shape of m.weight_packed I32 [2, 8] holding 4-bit values`},
		{"no scales", int4, nil, func(ts map[string]*tensor.Tensor) { delete(ts, "m.weight_scale") }, `tensor "m.weight_packed" is packed without its scales "m.weight_scale"`},
		{"scales of a channel", int4, nil, func(ts map[string]*tensor.Tensor) { ts["m.weight_scale"] = f32(2, 1) }, `tensor "m.weight_scale": is F32 [2, 1]; the scales of m.weight_packed I32 [2, 8] by int4 by group of 32 are F32, BF16 or F16 [2, 2]`},
		{"zero points unpacked", int4, nil, func(ts map[string]*tensor.Tensor) { ts["m.weight_zero_point"] = f32(2, 2) }, `tensor "m.weight_zero_point": is F32 [2, 2]; the zero points of m.weight_packed, packed, are I32 [1, 2]`},
		{"column order", int4, nil, func(ts map[string]*tensor.Tensor) { ts["m.weight_g_idx"] = i64(0, 1) }, `tensor "m.weight_g_idx": activation-ordered groups (actorder "group") are not supported`},
		{"scales alone", int4, nil, func(ts map[string]*tensor.Tensor) {
			delete(ts, "m.weight_packed")
			delete(ts, "m.weight_shape")
			delete(ts, "m.weight_zero_point")
		}, `tensor "m.weight_scale" has no compressed weight "m.weight" beside it`},
		{"float8 as int8", fp8, qckpt.Scheme{Bits: 8, Strategy: "channel"}.Config(), nil, `tensor "m.weight": is F8_E4M3 [2, 64], but its config group quantises it as int8 by channel in format int-quantized`},
		{"float8 zero points", fp8, nil, func(ts map[string]*tensor.Tensor) { ts["m.weight_zero_point"] = f32(2, 1) }, `tensor "m.weight_zero_point": zero points of float weights are not supported`},
		{"shape of floats", int4, nil, func(ts map[string]*tensor.Tensor) { ts["m.weight_shape"] = f32(2) }, `tensor "m.weight_shape" is F32 [2], want I64 or I32 [2]`},
		{"padded past the weight", padded, nil, func(ts map[string]*tensor.Tensor) { ts["m.weight_shape_original"] = i64(3, 64) },
			`tensor "m.weight_shape_original": is [3 64]: not the shape within m.weight F8_E4M3 [2, 64] that a block strategy padded`},
		{"int8 zero points of another grid", int8asym, nil, func(ts map[string]*tensor.Tensor) { ts["m.weight_zero_point"] = i8s(1, 2) },
			`tensor "m.weight_zero_point": is I8 [1, 2]; the zero points of m.weight are I8 [2, 1]`},
		{"two groups", int4, func() map[string]any {
			q := int4.Config()
			q["config_groups"] = map[string]any{
				"a": map[string]any{"targets": []string{"re:m"}, "weights": int4.Args()},
				"b": map[string]any{"targets": []string{"m"}, "weights": qckpt.Scheme{Bits: 8, Strategy: "channel"}.Args()},
			}
			return q
		}(), nil, `config groups "a" (int4 by group of 32) and "b" (int8 by channel) both target module "m"`},
		{"no group", int4, func() map[string]any {
			q := int4.Config()
			q["config_groups"] = map[string]any{"a": map[string]any{"targets": []string{"re:lm_head"}, "weights": int4.Args()}}
			return q
		}(), nil, `no config group targets module "m"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts, stored, _, err := qckpt.Quantise("m", ramp(2, 64), 2, 64, tc.s)
			if err != nil {
				t.Fatal(err)
			}
			if tc.edit != nil {
				tc.edit(ts)
			}
			refused(t, tc.q, tc.s.Config(), ts, stored, tc.want)
		})
	}
}

// FuzzOpenCompressed opens a compressed-tensors, GPTQ or AWQ checkpoint
// directory (config.json and one model.safetensors) and reads every
// tensor as the source describes it: an error or a tensor of its size,
// never a panic. Seeded with modules of each kind TestCompressedModule
// and TestGPTQModule read (small: the fuzzer minimises what it finds).
func FuzzOpenCompressed(f *testing.F) {
	for _, s := range []qckpt.Scheme{
		{Bits: 8, Float: true, Strategy: "block", Block: [2]int{2, 40}, Pad: true, Scale: tensor.BF16},
		{Bits: 8, Strategy: "channel", Scale: tensor.BF16},
		{Bits: 4, Strategy: "group", Group: 32, Packed: true, Asym: true, Scale: tensor.BF16},
		{Bits: 4, Strategy: "group", Group: 16, Packed: true},
	} {
		ts, stored, _, err := qckpt.Quantise("m", ramp(3, 64), 3, 64, s)
		if err != nil {
			f.Fatal(err)
		}
		cfg, err := json.Marshal(map[string]any{"quantization_config": s.Config()})
		if err != nil {
			f.Fatal(err)
		}
		var buf bytes.Buffer
		if err := tensor.WriteSafetensors(&buf, &tensor.Safetensors{Tensors: ts, Stored: stored}); err != nil {
			f.Fatal(err)
		}
		f.Add(cfg, buf.Bytes())
	}
	for _, g := range []qckpt.GPTQ{{Bits: 4, Group: 32, Order: []int{3, 0, 1, 2}}, {Bits: 8, Group: -1, Sym: true}, {AWQ: true, Bits: 4, Group: 16}, {Bits: 4, Group: 32, Shuffle: true}} {
		in := 4
		if g.Shuffle {
			in = 64 // desc_act's ordered form
		}
		ts, _, err := g.Quantise("m", ramp(2, in), 2, in)
		if err != nil {
			f.Fatal(err)
		}
		cfg, err := json.Marshal(map[string]any{"quantization_config": g.Config()})
		if err != nil {
			f.Fatal(err)
		}
		var buf bytes.Buffer
		if err := tensor.WriteSafetensors(&buf, &tensor.Safetensors{Tensors: ts}); err != nil {
			f.Fatal(err)
		}
		f.Add(cfg, buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, config, shard []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "config.json"), config, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "model.safetensors"), shard, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := weights.Open(dir)
		if err != nil {
			return
		}
		defer s.Close()
		for _, name := range s.Names() {
			info, _ := s.Info(name)
			sp := ref.Spec{Name: name, Type: ref.TensorType{DType: info.DType, Shape: info.Shape}}
			n := tensor.NumElements(info.Shape)
			if info.Quant.Valid() {
				if len(info.Shape) != 2 || info.Shape[1]%info.Quant.BlockSize() != 0 {
					continue
				}
				n = info.Shape[0] * info.Shape[1] / info.Quant.BlockSize() * info.Quant.BlockBytes()
				sp = ref.Spec{Name: name, Type: ref.TensorType{DType: tensor.UI8, Shape: []int{n}},
					Quant: &ref.QuantUse{Format: info.Quant, N: info.Shape[0], K: info.Shape[1]}}
			}
			if w, err := s.Weight(sp); err == nil && w.Len() != n {
				t.Fatalf("%q as %v: %d elements", name, sp.Type, w.Len())
			}
		}
	})
}

// TestGPTQModule: a module of 40 outputs × 128 inputs in GPTQ's and
// AWQ's layouts reads as one tensor NAME.weight [40, 128] of its values
// (and, in desc_act's order, as NAME.weight.ordered: those values with
// the columns NAME.weight.order gives):
// the gguf blocks that hold them exactly (q4_0 for symmetric 4-bit,
// q5_0 with zero points, q8_0 for symmetric 8-bit), or BF16 of them
// rounded where a group does not cover whole runs of 32 input columns
// (groups of 16; desc_act's order).
func TestGPTQModule(t *testing.T) {
	const out, in = 40, 128
	w := ramp(out, in)
	shuffled := make([]int, in)
	for k := range shuffled {
		shuffled[k] = (k * 37) % in
	}
	for _, tc := range []struct {
		name   string
		g      qckpt.GPTQ
		readAs string
	}{
		{"gptq 4-bit symmetric, groups of 32", qckpt.GPTQ{Bits: 4, Group: 32, Sym: true}, "q4_0"},
		{"gptq 4-bit, groups of 64", qckpt.GPTQ{Bits: 4, Group: 64}, "q5_0"},
		{"gptq_v2 4-bit, groups of 128", qckpt.GPTQ{Bits: 4, Group: 128, V2: true}, "q5_0"},
		{"gptq 8-bit symmetric, a row", qckpt.GPTQ{Bits: 8, Group: -1, Sym: true}, "q8_0"},
		{"gptq 8-bit, groups of 32", qckpt.GPTQ{Bits: 8, Group: 32}, "BF16"},
		{"gptq 4-bit symmetric, desc_act", qckpt.GPTQ{Bits: 4, Group: 32, Sym: true, Order: shuffled}, "BF16"},
		{"gptq 4-bit symmetric, desc_act, ordered", qckpt.GPTQ{Bits: 4, Group: 32, Sym: true, Order: shuffled}, "ordered q4_0"},
		{"gptq 4-bit, desc_act, ordered", qckpt.GPTQ{Bits: 4, Group: 64, Order: shuffled}, "ordered q5_0"},
		{"gptq 4-bit, groups of 16", qckpt.GPTQ{Bits: 4, Group: 16}, "BF16"},
		{"awq, groups of 32", qckpt.GPTQ{AWQ: true, Bits: 4, Group: 32}, "q5_0"},
		{"awq, groups of 16", qckpt.GPTQ{AWQ: true, Bits: 4, Group: 16}, "BF16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts, want, err := tc.g.Quantise("m", w, out, in)
			if err != nil {
				t.Fatal(err)
			}
			s, err := weights.Open(writeCompressed(t, tc.g.Config(), ts, nil))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			checkModule(t, s, out, in, tc.readAs, want)
		})
	}
}

// checkModule checks that s holds one tensor, m.weight [rows, cols], read
// as readAs (a gguf format, or "BF16") with the values want (rounded to
// bf16 where BF16) exactly.
func checkModule(t *testing.T, s *weights.Source, rows, cols int, readAs string, want []float32) {
	t.Helper()
	if names := slices.DeleteFunc(slices.Clone(s.Names()), func(n string) bool {
		i, _ := s.Info(n)
		return i.Alt == "m.weight"
	}); len(names) != 1 || names[0] != "m.weight" {
		t.Fatalf("names %v, want [m.weight] and its second forms", s.Names())
	}
	readAs, name := readAs, "m.weight"
	if after, ok := strings.CutPrefix(readAs, "ordered "); ok {
		readAs, name = after, "m.weight.ordered"
		want = ordered(t, s, want, rows, cols)
	}
	info, _ := s.Info(name)
	var got []float32
	if readAs == "BF16" {
		if info.DType != tensor.BF16 || info.Quant.Valid() {
			t.Fatalf("m.weight is %v, want BF16", info)
		}
		x, err := s.Weight(ref.Spec{Name: "m.weight", Type: ref.TensorType{DType: tensor.BF16, Shape: []int{rows, cols}}})
		if err != nil {
			t.Fatal(err)
		}
		got = x.Floats()
		for i := range want {
			want[i] = tensor.RoundBF16(want[i])
		}
	} else {
		if info.Quant.String() != readAs {
			t.Fatalf("m.weight is %v (%v), want %s blocks", info, info.Quant, readAs)
		}
		x, err := s.Weight(ref.Spec{Name: name, Type: ref.TensorType{DType: tensor.UI8, Shape: []int{rows * cols / 32 * info.Quant.BlockBytes()}}, Quant: &ref.QuantUse{Format: info.Quant, N: rows, K: cols}})
		if err != nil {
			t.Fatal(err)
		}
		if got, err = gguf.Dequantize(info.Quant, x.Bytes(), rows, cols); err != nil {
			t.Fatal(err)
		}
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("value %d (row %d, column %d) reads %g, want %g", i, i/cols, i%cols, got[i], want[i])
		}
	}
}

// TestGPTQErrors: what rlx does not read of a GPTQ or AWQ checkpoint is
// refused when it is opened, naming the field or tensor.
func TestGPTQErrors(t *testing.T) {
	g4 := qckpt.GPTQ{Bits: 4, Group: 32}
	awq := qckpt.GPTQ{AWQ: true, Bits: 4, Group: 32}
	f16s := func(shape ...int) *tensor.Tensor {
		x, err := tensor.FromFloat32(tensor.F16, shape, make([]float32, tensor.NumElements(shape)))
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	edit := func(g qckpt.GPTQ, key string, v any) map[string]any {
		q := g.Config()
		if v == nil {
			delete(q, key)
		} else {
			q[key] = v
		}
		return q
	}
	i32 := func(shape []int, v ...int64) *tensor.Tensor {
		x, err := tensor.FromInt64(tensor.I32, shape, v)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for _, tc := range []struct {
		name string
		g    qckpt.GPTQ
		q    map[string]any
		edit func(ts map[string]*tensor.Tensor)
		want string
	}{
		{"3 bits", g4, edit(g4, "bits", 3), nil, `field "bits" = 3 is not supported (rlx reads 4 and 8)`},
		{"awq 8 bits", awq, edit(awq, "bits", 8), nil, `field "bits" = 8 is not supported (rlx reads 4)`},
		{"marlin", g4, edit(g4, "checkpoint_format", "marlin"), nil, `field "checkpoint_format" = "marlin": rlx reads GPTQ's own layouts, "gptq" and "gptq_v2"`},
		{"no group", g4, edit(g4, "group_size", 0), nil, `field "group_size" = 0: want a positive size or -1 (a row)`},
		{"dynamic", g4, edit(g4, "dynamic", map[string]any{"+:.*down.*": map[string]any{"bits": 8}}), nil, `per-module overrides are not supported`},
		{"unknown", g4, edit(g4, "rotation", "hadamard"), nil, `field "rotation" = "hadamard": rlx does not know what it changes`},
		{"awq gemv", awq, edit(awq, "version", "gemv"), nil, `field "version" = "gemv": rlx reads AWQ's GEMM layout`},
		{"awq without zeros", awq, edit(awq, "zero_point", false), nil, `field "zero_point" = false: rlx reads AWQ with zero points`},
		{"no zeros", g4, nil, func(ts map[string]*tensor.Tensor) { delete(ts, "m.qzeros") }, `tensor "m.qweight" is without its "m.qzeros"`},
		{"weights of floats", g4, nil, func(ts map[string]*tensor.Tensor) { ts["m.qweight"] = f16s(8, 2) }, `tensor "m.qweight": is F16 [8, 2]; packed weights are I32 matrices`},
		{"scales of ints", g4, nil, func(ts map[string]*tensor.Tensor) { ts["m.scales"] = i32([]int{2, 2}, 1, 1, 1, 1) },
			`tensor "m.scales": is I32 [2, 2]; the scales of m.qweight I32 [8, 2] are F16 [groups, 2]`},
		{"group index of floats", g4, nil, func(ts map[string]*tensor.Tensor) { ts["m.g_idx"] = f16s(64) }, `tensor "m.g_idx": is F16 [64]; a group index of m.qweight I32 [8, 2] is I32 [64]`},
		{"scales of a row", g4, nil, func(ts map[string]*tensor.Tensor) {
			x, err := tensor.FromFloat32(tensor.F16, []int{1, 2}, []float32{1, 1})
			if err != nil {
				t.Fatal(err)
			}
			ts["m.scales"] = x
		}, `tensor "m.scales": is F16 [1, 2]: not one row a group of 32 of the 64 input columns`},
		{"zeros of another shape", g4, nil, func(ts map[string]*tensor.Tensor) { ts["m.qzeros"] = i32([]int{2, 2}, 0, 0, 0, 0) }, `tensor "m.qzeros": is I32 [2, 2]; the zero points of m.qweight I32 [8, 2] are I32 [2, 1]`},
		{"group index of another length", g4, nil, func(ts map[string]*tensor.Tensor) { ts["m.g_idx"] = i32([]int{63}, make([]int64, 63)...) }, `tensor "m.g_idx": is I32 [63]; a group index of m.qweight I32 [8, 2] is I32 [64]`},
		{"group index past the groups", g4, nil, func(ts map[string]*tensor.Tensor) {
			idx := make([]int64, 64)
			idx[5] = 2
			ts["m.g_idx"] = i32([]int{64}, idx...)
		}, `tensor "m.g_idx": column 5's group 2 is not one of the 2`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts, _, err := tc.g.Quantise("m", ramp(2, 64), 2, 64)
			if err != nil {
				t.Fatal(err)
			}
			if tc.edit != nil {
				tc.edit(ts)
			}
			refused(t, tc.q, tc.g.Config(), ts, nil, tc.want)
		})
	}
}

// ordered is want [rows, cols] with its columns in the order s's
// m.weight.order gives (a permutation of the columns, checked).
func ordered(t *testing.T, s *weights.Source, want []float32, rows, cols int) []float32 {
	t.Helper()
	x, err := s.Weight(ref.Spec{Name: "m.weight.order", Type: ref.TensorType{DType: tensor.I32, Shape: []int{cols}}})
	if err != nil {
		t.Fatal(err)
	}
	order := x.Ints()
	seen := make([]bool, cols)
	out := make([]float32, len(want))
	for j, k := range order {
		if k < 0 || int(k) >= cols || seen[k] {
			t.Fatalf("order %v is not a permutation of the %d columns", order, cols)
		}
		seen[k] = true
		for i := range rows {
			out[i*cols+j] = want[i*cols+int(k)]
		}
	}
	return out
}

// refused checks that the checkpoint of config q (def where nil) and
// tensors ts is refused when opened, with an error containing want.
func refused(t *testing.T, q, def map[string]any, ts map[string]*tensor.Tensor, stored map[string]string, want string) {
	t.Helper()
	if q == nil {
		q = def
	}
	if _, err := weights.Open(writeCompressed(t, q, ts, stored)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error containing %q", err, want)
	}
}

// BenchmarkReadQuantised reads one module of Llama-3-8B's MLP size,
// 14336 × 4096, in each layout: the load-time cost a checkpoint's ~200
// such matrices pay; "bf16" reads the same matrix stored as BF16 (a
// file read and nothing else), the anchor.
func BenchmarkReadQuantised(b *testing.B) {
	const out, in = 14336, 4096
	w := ramp(out, in)
	for _, tc := range []struct {
		name string
		g    *qckpt.GPTQ
		s    qckpt.Scheme
	}{
		{"gptq-q4_0", &qckpt.GPTQ{Bits: 4, Group: 128, Sym: true}, qckpt.Scheme{}},
		{"awq-q5_0", &qckpt.GPTQ{AWQ: true, Bits: 4, Group: 128}, qckpt.Scheme{}},
		{"compressed-q4_0", nil, qckpt.Scheme{Bits: 4, Strategy: "group", Group: 128, Packed: true, Scale: tensor.BF16}},
		{"compressed-fp8-bf16", nil, qckpt.Scheme{Bits: 8, Float: true, Strategy: "channel", Scale: tensor.BF16}},
		{"bf16", nil, qckpt.Scheme{}},
	} {
		var ts map[string]*tensor.Tensor
		var stored map[string]string
		var cfg map[string]any
		var err error
		switch {
		case tc.s.Bits == 0 && tc.g == nil:
			var x *tensor.Tensor
			x, err = tensor.FromFloat32(tensor.BF16, []int{out, in}, w)
			ts = map[string]*tensor.Tensor{"m.weight": x}
		case tc.g != nil:
			ts, _, err = tc.g.Quantise("m", w, out, in)
			cfg = tc.g.Config()
		default:
			ts, stored, _, err = qckpt.Quantise("m", w, out, in, tc.s)
			cfg = tc.s.Config()
		}
		if err != nil {
			b.Fatal(err)
		}
		dir := b.TempDir()
		cfgJSON, err := json.Marshal(map[string]any{"quantization_config": cfg})
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		if err := tensor.WriteSafetensors(&buf, &tensor.Safetensors{Tensors: ts, Stored: stored}); err != nil {
			b.Fatal(err)
		}
		if os.WriteFile(filepath.Join(dir, "config.json"), cfgJSON, 0o644) != nil || os.WriteFile(filepath.Join(dir, "model.safetensors"), buf.Bytes(), 0o644) != nil {
			b.Fatal("write")
		}
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				s, err := weights.Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				info, _ := s.Info("m.weight")
				sp := ref.Spec{Name: "m.weight", Type: ref.TensorType{DType: tensor.BF16, Shape: []int{out, in}}}
				if info.Quant.Valid() {
					n := out * in / 32 * info.Quant.BlockBytes()
					sp = ref.Spec{Name: "m.weight", Type: ref.TensorType{DType: tensor.UI8, Shape: []int{n}}, Quant: &ref.QuantUse{Format: info.Quant, N: out, K: in}}
				}
				if _, err := s.Weight(sp); err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
		})
	}
}

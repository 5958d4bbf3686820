package weights

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// FuzzOpenGGUF opens a GGUF file and binds each tensor every way a graph
// can ask for it (as stored, dequantised to f32, as raw blocks in its own
// format and in q6_k_c16's, stacked through `*`): an error or a tensor of
// the asked-for size, never a panic. Seeded with small files of the
// formats TestGGUF and TestGGUFColumns use.
func FuzzOpenGGUF(f *testing.F) {
	vals := make([]float32, 2*256)
	for i := range vals {
		vals[i] = float32(i%11-5) / 8
	}
	for _, ty := range []gguf.TensorType{gguf.TypeQ8_0, gguf.TypeQ4_0, gguf.TypeQ4_K, gguf.TypeQ6_K} {
		fm, _ := ty.Format()
		q, err := gguf.Quantize(fm, vals, 2, 256)
		if err != nil {
			f.Fatal(err)
		}
		var w gguf.Writer
		w.Add("general.architecture", "llama")
		w.AddTensor("m", ty, []int{2, 256}, q)
		w.AddTensor("e.0", ty, []int{1, 256}, q[:len(q)/2])
		w.AddTensor("e.1", ty, []int{1, 256}, q[len(q)/2:])
		w.AddTensor("n", gguf.TypeF32, []int{2}, []byte{0, 0, 128, 63, 0, 0, 0, 64})
		w.AddTensor("h", gguf.TypeF16, []int{2}, []byte{0, 60, 0, 64})
		var buf bytes.Buffer
		if _, err := w.WriteTo(&buf); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "m.gguf")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		openAndBind(t, path)
	})
}

// openAndBind opens path and binds every tensor of it (bindAll); a
// source that does not open is left there.
func openAndBind(t *testing.T, path string) {
	s, err := Open(path)
	if err != nil {
		return
	}
	defer s.Close()
	bindAll(t, s)
}

// bindAll binds every tensor of s each way fuzzSpecs asks: an error, or
// a tensor of the asked-for size.
func bindAll(t *testing.T, s *Source) {
	for _, name := range s.Names() {
		info, ok := s.Info(name)
		if !ok {
			t.Fatalf("%q is named but has no info", name)
		}
		for _, sp := range fuzzSpecs(s, info) {
			if w, err := s.Weight(sp); err == nil && w.Len() != tensor.NumElements(sp.Type.Shape) {
				t.Fatalf("%q as %v: %d elements", name, sp.Type, w.Len())
			}
		}
	}
}

// FuzzOpenDir opens a checkpoint directory of one safetensors shard and
// an index, both from the fuzzer, and binds each tensor as stored and as
// f32: an error or a tensor of the asked-for size, never a panic.
func FuzzOpenDir(f *testing.F) {
	var buf bytes.Buffer
	ts := map[string]*tensor.Tensor{}
	for i, dt := range []tensor.DType{tensor.F32, tensor.F16, tensor.BF16, tensor.I64} {
		x, err := tensor.FromFloat32(dt, []int{2}, []float32{1, 2})
		if dt == tensor.I64 {
			x, err = tensor.FromInt64(dt, []int{2}, []int64{1, 2})
		}
		if err != nil {
			f.Fatal(err)
		}
		ts[fmt.Sprintf("t%d", i)] = x
	}
	if err := tensor.WriteSafetensors(&buf, &tensor.Safetensors{Tensors: ts}); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(`{"weight_map": {"t0": "a.safetensors", "t1": "a.safetensors", "t2": "a.safetensors", "t3": "a.safetensors"}}`), buf.Bytes())
	f.Add([]byte(`{"weight_map": {"t0": ".."}}`), buf.Bytes())
	f.Add([]byte{}, buf.Bytes())
	f.Fuzz(func(t *testing.T, index, shard []byte) {
		dir := t.TempDir()
		name := "model.safetensors"
		if len(index) > 0 {
			name = "a.safetensors"
			if err := os.WriteFile(filepath.Join(dir, "model.safetensors.index.json"), index, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name), shard, 0o644); err != nil {
			t.Fatal(err)
		}
		openAndBind(t, dir)
	})
}

// fuzzSpecs returns the bindings FuzzOpenGGUF asks of a tensor.
func fuzzSpecs(s *Source, info Info) []ref.Spec {
	shape := info.Shape
	specs := []ref.Spec{{Name: info.Name, Type: ref.TensorType{DType: tensor.F32, Shape: shape}}}
	if info.DType != 0 {
		specs = append(specs, ref.Spec{Name: info.Name, Type: ref.TensorType{DType: info.DType, Shape: shape}})
	}
	if !info.Quant.Valid() || len(shape) < 2 {
		return specs
	}
	n, k := shape[len(shape)-2], shape[len(shape)-1]
	size, err := gguf.ByteCount(info.Quant, tensor.NumElements(shape)/k, k)
	if err != nil {
		return specs
	}
	for _, fm := range []gguf.Format{info.Quant, gguf.Q6_KC16} {
		raw := ref.Spec{Name: info.Name, Type: ref.TensorType{DType: tensor.UI8, Shape: []int{size}}}
		raw.Quant = &ref.QuantUse{Format: fm, N: n, K: k, Stacked: len(shape) > 2}
		specs = append(specs, raw)
		// As the members of a stack of per-expert tensors, where the
		// name ends in 0.
		stack := info.Name[:len(info.Name)-1] + "*"
		if members, err := s.stackMembers(stack); err == nil && len(shape) == 2 && info.Name[len(info.Name)-1] == '0' {
			st := ref.Spec{Name: stack, Type: ref.TensorType{DType: tensor.UI8, Shape: []int{size * len(members)}}}
			st.Quant = &ref.QuantUse{Format: fm, N: n, K: k, Stacked: true}
			specs = append(specs, st)
		}
	}
	return specs
}

// FuzzOpenFP8 opens a checkpoint directory of config.json and one
// model.safetensors, seeded with an F8_E4M3 matrix, its block scales and
// a block size, and binds every tensor: an error or the values, never a
// panic.
func FuzzOpenFP8(f *testing.F) {
	codes, err := tensor.FromBytes([]int{3, 3}, []byte{0x38, 0x39, 0x40, 0xB8, 0x01, 0x7E, 0x3C, 0x7F, 0x00})
	if err != nil {
		f.Fatal(err)
	}
	sc, err := tensor.FromFloat32(tensor.BF16, []int{2, 2}, []float32{0.5, 3, 0.25, 0.01})
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tensor.WriteSafetensors(&buf, &tensor.Safetensors{Tensors: map[string]*tensor.Tensor{"w": codes, "w_scale_inv": sc},
		Stored: map[string]string{"w": "F8_E4M3"}}); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(`{"quantization_config": {"weight_block_size": [2, 2]}}`), buf.Bytes())
	f.Add([]byte(`{"quantization_config": {"weight_block_size": [1, 1000000000]}}`), buf.Bytes())
	f.Add([]byte(`{"quantization_config": {"weight_block_size": [3]}}`), buf.Bytes())
	f.Fuzz(func(t *testing.T, config, shard []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "config.json"), config, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "model.safetensors"), shard, 0o644); err != nil {
			t.Fatal(err)
		}
		openAndBind(t, dir)
	})
}

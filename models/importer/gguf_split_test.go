package importer

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestGGUFSplitFile: a GGUF file split into three parts as
// llama-gguf-split writes it (the metadata in the first, the tensors in
// order across the parts) imports from its first part and decodes bit for
// bit as the whole file, every tensor read.
func TestGGUFSplitFile(t *testing.T) {
	f := loadFixture(t, "qwen3")
	data := convertToGGUF(t, f.dir, gguf.Q8_0, false)
	whole, _ := decodeGGUF(t, editKV(t, data, nil), f.Tokens)
	first := splitGGUF(t, data, 3)
	got, unused := decodeGGUF(t, first, f.Tokens)
	if len(unused) > 0 {
		t.Errorf("unread tensors %v", unused)
	}
	if !tensor.BitsEqual(got, whole) {
		rel, _ := agreement(got, whole)
		t.Errorf("the split file decodes %.3g from the whole one (max |Δ| / max |logit|), want bit-identical", rel)
	}
}

// splitGGUF writes the GGUF file data as n parts named as
// llama-gguf-split names them and returns the first's path.
func splitGGUF(t *testing.T, data []byte, n int) string {
	t.Helper()
	g, dir := openGGUFData(t, data)
	names := g.Names()
	per := (len(names) + n - 1) / n
	for part := range n {
		var w gguf.Writer
		if part == 0 {
			for _, kv := range g.KV {
				w.Add(kv.Key, kv.Value)
			}
		}
		w.Add("split.no", uint16(part))
		w.Add("split.count", uint16(n))
		w.Add("split.tensors.count", int32(len(names)))
		for _, name := range names[min(part*per, len(names)):min((part+1)*per, len(names))] {
			info, _ := g.Tensor(name)
			b, err := g.TensorData(info)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.AddTensor(name, info.Type, info.Shape(), b); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.WriteFile(filepath.Join(dir, fmt.Sprintf("model-%05d-of-%05d.gguf", part+1, n))); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, fmt.Sprintf("model-00001-of-%05d.gguf", n))
}

package ggufgen

import (
	"path/filepath"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
)

// TestModels writes both checkpoints and reads them back: the
// architecture, and q6_k matrices as many as the models say they read
// through (the expert stacks are one tensor each).
func TestModels(t *testing.T) {
	for _, c := range []struct {
		arch   string
		build  func(uint64) (*Model, error)
		q6k    int
		stacks int
	}{{"llama", Llama, 8, 0}, {"qwen3next", Qwen3Next, 11, 3}} {
		m, err := c.build(1)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), c.arch+".gguf")
		if err := m.W.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		f, err := gguf.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		q6k, stacks := 0, 0
		for _, ti := range f.Tensors {
			if ti.Type == gguf.TypeQ6_K {
				q6k++
				if len(ti.Dims) == 3 {
					stacks++
				}
			}
		}
		arch, _ := f.Get("general.architecture")
		f.Close()
		if arch != c.arch || q6k != c.q6k || stacks != c.stacks || m.Reads != q6k-stacks+2*stacks {
			t.Errorf("%s: architecture %v, %d q6_k tensors (%d stacks), %d reads; want %d (%d)", c.arch, arch, q6k, stacks, m.Reads, c.q6k, c.stacks)
		}
	}
}

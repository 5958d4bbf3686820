package ref

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestPackedConversion: TensorWeights rearranges a packed q6_k tensor for
// a consumer that reads q6_k_c16 (and back), once, refuses one that reads
// other blocks, and hands out an unpacked or unrecorded tensor as it is.
func TestPackedConversion(t *testing.T) {
	const n, k = 2, 512
	spec := func(f gguf.Format) Spec {
		return Spec{Name: "w", Type: TensorType{DType: tensor.UI8, Shape: []int{n * k / 256 * 210}}, Quant: &QuantUse{Format: f, N: n, K: k}}
	}
	q6, err := SeededTensor(1, 'w', spec(gguf.Q6_K))
	if err != nil {
		t.Fatal(err)
	}
	cols, err := SeededTensor(1, 'w', spec(gguf.Q6_KC16))
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := gguf.Convert(q6.Bytes(), gguf.Q6_K, gguf.Q6_KC16, n, k); !bytes.Equal(cols.Bytes(), want) {
		t.Fatal("seeded q6_k_c16 is not seeded q6_k rearranged")
	}
	w := &TensorWeights{Tensors: map[string]*tensor.Tensor{"w": q6}, Packed: map[string]gguf.Format{"w": gguf.Q6_K}}
	for _, f := range []gguf.Format{gguf.Q6_K, gguf.Q6_KC16} {
		got, err := w.Weight(spec(f))
		want, _ := SeededTensor(1, 'w', spec(f))
		if err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%v from packed q6_k: %v", f, err)
		}
	}
	first, _ := w.Weight(spec(gguf.Q6_KC16))
	if again, _ := w.Weight(spec(gguf.Q6_KC16)); again != first {
		t.Error("the rearranged tensor is made again on a second call")
	}
	if _, err := w.Weight(spec(gguf.Q4_K)); err == nil || !strings.Contains(err.Error(), `weight "w" is q6_k; the graph reads it as q4_k`) {
		t.Errorf("q4_k from packed q6_k: %v", err)
	}
	w.Packed = nil
	if got, err := w.Weight(spec(gguf.Q6_KC16)); err != nil || !bytes.Equal(got.Bytes(), q6.Bytes()) {
		t.Errorf("without Packed: %v", err)
	}
}

// TestConvertPackedErrors: blocks that do not hold the [n, k] the graph
// reads are an error naming the weight and where it came from.
func TestConvertPackedErrors(t *testing.T) {
	packed, _ := tensor.FromBytes([]int{840}, make([]byte, 840))
	_, err := ConvertPacked(packed, gguf.Q6_K, QuantUse{Format: gguf.Q6_KC16, N: 1, K: 512}, "w", " in m.gguf")
	if err == nil || !strings.Contains(err.Error(), `weight "w" in m.gguf: q6_k weight [1, 512] needs 420 bytes`) {
		t.Errorf("a weight of other bytes: %v", err)
	}
	if _, err := ConvertPacked(packed, gguf.Q6_K, QuantUse{Format: gguf.Q8_0, N: 2, K: 512}, "w", ""); err == nil || err.Error() != `weight "w" is q6_k; the graph reads it as q8_0` {
		t.Errorf("other blocks: %v", err)
	}
}

package tensor

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestReadSafetensorsHeader(t *testing.T) {
	a, _ := FromFloat32(BF16, []int{2, 2}, []float32{1, 2, 3, 4})
	b, _ := FromInt64(I32, []int{3}, []int64{7, 8, 9})
	var buf bytes.Buffer
	if err := WriteSafetensors(&buf, &Safetensors{Tensors: map[string]*Tensor{"a": a, "b": b}, Metadata: map[string]string{"format": "pt"}}); err != nil {
		t.Fatal(err)
	}
	file := buf.Bytes()
	h, err := ReadSafetensorsHeader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Entries) != 2 || h.Entries[0].Name != "a" || h.Entries[1].Name != "b" || h.Metadata["format"] != "pt" {
		t.Fatalf("header %+v", h)
	}
	if h.DataStart+h.DataSize != uint64(len(file)) || h.DataSize != 8+12 {
		t.Errorf("data [%d, +%d) in a file of %d bytes", h.DataStart, h.DataSize, len(file))
	}
	e := h.Entries[1]
	got, err := DecodeRaw(e.DType, e.Shape, file[h.DataStart+e.Begin:h.DataStart+e.End])
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Ints(), []int64{7, 8, 9}) {
		t.Errorf("b = %v", got)
	}
	if _, err := DecodeRaw(F32, []int{2}, make([]byte, 4)); err == nil || !strings.Contains(err.Error(), "tensor<2xf32> needs 8 bytes, got 4") {
		t.Errorf("DecodeRaw of a short buffer: %v", err)
	}
	if _, err := ReadSafetensorsHeader(bytes.NewReader(file[:20])); err == nil || !strings.Contains(err.Error(), "safetensors: header: data is truncated") {
		t.Errorf("cut header: %v", err)
	}
}

package tensor

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// stFile builds a safetensors file from a JSON header and raw data.
func stFile(header string, data []byte) []byte {
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	return append(append(b, header...), data...)
}

func TestReadSafetensorsHandBuilt(t *testing.T) {
	data := []byte{
		0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, // f32 [1, 2]
		0x80, 0x3f, 0x00, 0xc0, // bf16 [1, -2]
		0x00, 0x3c, // f16 [1]
		1, 0, // BOOL [true, false]
	}
	h := `{"__metadata__":{"format":"pt"},` +
		`"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},` +
		`"b":{"dtype":"BF16","shape":[1,2],"data_offsets":[8,12]},` +
		`"c":{"dtype":"F16","shape":[],"data_offsets":[12,14]},` +
		`"d":{"dtype":"BOOL","shape":[2],"data_offsets":[14,16]}}   `
	s, err := ReadSafetensors(bytes.NewReader(stFile(h, data)))
	if err != nil {
		t.Fatal(err)
	}
	if s.Metadata["format"] != "pt" || len(s.Tensors) != 4 {
		t.Fatalf("got %+v", s)
	}
	if a := s.Tensors["a"]; a.Floats()[1] != 2 {
		t.Errorf("a = %v", a)
	}
	if b := s.Tensors["b"]; b.DType() != BF16 || b.Floats()[0] != 1 || b.Floats()[1] != -2 {
		t.Errorf("b = %v", b)
	}
	if c := s.Tensors["c"]; c.Rank() != 0 || c.Floats()[0] != 1 {
		t.Errorf("c = %v", c)
	}
	if d := s.Tensors["d"]; d.DType() != I1 || d.Ints()[0] != 1 || d.Ints()[1] != 0 {
		t.Errorf("d = %v", d)
	}
}

func TestSafetensorsRoundTrip(t *testing.T) {
	rng := NewRNG(4)
	s := &Safetensors{Tensors: map[string]*Tensor{}, Metadata: map[string]string{"k": "v"}}
	for i, dt := range []DType{F32, F16, BF16} {
		s.Tensors[string(rune('a'+i))], _ = rng.Uniform(dt, []int{3, 5}, -1, 1)
	}
	for i, dt := range []DType{I32, I64, I8, I1, UI8} {
		lo, hi := dt.IntRange()
		s.Tensors[string(rune('p'+i))], _ = rng.Ints(dt, []int{2, 3, 1}, max(lo, -99), min(hi, 99)+1)
	}
	s.Tensors["empty"] = Zeros(F32, 0)
	var buf bytes.Buffer
	if err := WriteSafetensors(&buf, s); err != nil {
		t.Fatal(err)
	}
	hlen := binary.LittleEndian.Uint64(buf.Bytes())
	if hlen%8 != 0 {
		t.Errorf("header length %d is not a multiple of 8", hlen)
	}
	got, err := ReadSafetensors(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got.Metadata["k"] != "v" || len(got.Tensors) != len(s.Tensors) {
		t.Fatalf("got %+v", got)
	}
	for name, x := range s.Tensors {
		if !BitsEqual(x, got.Tensors[name]) {
			t.Errorf("%s: wrote %v, read %v", name, x, got.Tensors[name])
		}
	}
}

func TestReadSafetensorsErrors(t *testing.T) {
	eight := make([]byte, 8)
	tests := []struct {
		name string
		file []byte
		want string
	}{
		{"empty", nil, "truncated"},
		{"huge header", binary.LittleEndian.AppendUint64(nil, 1<<62), "exceeds the limit"},
		{"short header", binary.LittleEndian.AppendUint64(nil, 1000), "truncated"},
		{"not json", stFile("[1]", nil), "not a JSON object"},
		{"bad json", stFile(`{"a":`, nil), "header"},
		{"dtype", stFile(`{"a":{"dtype":"F64","shape":[1],"data_offsets":[0,8]}}`, eight), "unsupported dtype"},
		{"size", stFile(`{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}`, eight), "needs 12"},
		{"reversed", stFile(`{"a":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}}`, eight), "reversed"},
		{"offsets", stFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0]}}`, eight), "data_offsets"},
		{"overlap", stFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, eight), "overlaps"},
		{"gap", stFile(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, eight), "gap"},
		{"truncated data", stFile(`{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}`, eight), "truncated"},
		{"trailing data", stFile(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, eight), "after the last tensor"},
		{"duplicate", stFile(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, eight), "duplicate"},
		{"metadata", stFile(`{"__metadata__":{"k":1}}`, nil), "__metadata__"},
		{"huge shape", stFile(`{"a":{"dtype":"F32","shape":[4611686018427387904,4],"data_offsets":[0,8]}}`, eight), "shape"},
		{"negative dim", stFile(`{"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}}`, eight), "shape"},
		{"missing shape", stFile(`{"a":{"dtype":"F32","data_offsets":[0,8]}}`, eight), "missing shape"},
		{"huge data", stFile(`{"a":{"dtype":"U8","shape":[1000000000],"data_offsets":[0,1000000000]}}`, eight), "truncated"},
	}
	for _, tc := range tests {
		_, err := ReadSafetensors(bytes.NewReader(tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func FuzzReadSafetensors(f *testing.F) {
	var buf bytes.Buffer
	x, _ := NewRNG(1).Uniform(BF16, []int{2, 2}, -1, 1)
	y, _ := NewRNG(2).Ints(I64, []int{3}, -5, 5)
	_ = WriteSafetensors(&buf, &Safetensors{Tensors: map[string]*Tensor{"x": x, "y": y}, Metadata: map[string]string{"a": "b"}})
	f.Add(buf.Bytes())
	f.Add(stFile(`{"a":{"dtype":"U8","shape":[1000000000],"data_offsets":[0,1000000000]}}`, nil))
	f.Add(stFile(`{}`, nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadSafetensors(bytes.NewReader(data))
		if err != nil {
			return
		}
		total := 0
		for _, x := range s.Tensors {
			total += x.Len() * x.DType().ByteSize()
		}
		if total > len(data) {
			t.Fatalf("%d bytes of tensors decoded from %d bytes", total, len(data))
		}
		var out bytes.Buffer
		if err := WriteSafetensors(&out, s); err != nil {
			t.Fatal(err)
		}
		again, err := ReadSafetensors(&out)
		if err != nil {
			t.Fatal(err)
		}
		for name, x := range s.Tensors {
			if !BitsEqual(x, again.Tensors[name]) {
				t.Fatalf("%s changed on a round trip", name)
			}
		}
	})
}

// TestSafetensorsF8: F8_E4M3 tensors are read as their UI8 bytes with
// Stored naming the file's dtype, and written back so; Stored on a
// tensor that is not UI8, or naming another dtype, is an error.
func TestSafetensorsF8(t *testing.T) {
	codes, _ := FromBytes([]int{2, 2}, []byte{0x38, 0xB8, 0x7E, 0x01})
	scale, _ := FromFloat32(F32, []int{1, 1}, []float32{0.5})
	s := &Safetensors{Tensors: map[string]*Tensor{"w": codes, "w_scale_inv": scale}, Stored: map[string]string{"w": "F8_E4M3"}}
	var buf bytes.Buffer
	if err := WriteSafetensors(&buf, s); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte(`"dtype":"F8_E4M3"`)) {
		t.Errorf("the header does not name F8_E4M3: %q", buf.Bytes()[8:8+binary.LittleEndian.Uint64(buf.Bytes())])
	}
	got, err := ReadSafetensors(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if got.Stored["w"] != "F8_E4M3" || got.Tensors["w"].DType() != UI8 || !bytes.Equal(got.Tensors["w"].Bytes(), codes.Bytes()) || len(got.Stored) != 1 {
		t.Errorf("read back %v %v %v", got.Stored, got.Tensors["w"].Type(), got.Tensors["w"].Bytes())
	}
	h, err := ReadSafetensorsHeader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range h.Entries {
		if want := map[string]string{"w": "F8_E4M3"}[e.Name]; e.Stored != want {
			t.Errorf("header entry %q stored as %q, want %q", e.Name, e.Stored, want)
		}
	}
	for _, bad := range []map[string]string{{"w_scale_inv": "F8_E4M3"}, {"w": "F8_E5M2"}} {
		if err := WriteSafetensors(&bytes.Buffer{}, &Safetensors{Tensors: s.Tensors, Stored: bad}); err == nil || !strings.Contains(err.Error(), "not stored as") {
			t.Errorf("Stored %v: %v, want an error", bad, err)
		}
	}
}

package gguf

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sample writes a small file: metadata of every kind and three tensors.
func sample(t testing.TB) []byte {
	t.Helper()
	var w Writer
	w.Add("general.architecture", "llama")
	w.Add("llama.block_count", uint32(2))
	w.Add("llama.rope.freq_base", float32(10000))
	w.Add("x.i64", int64(-5))
	w.Add("x.flag", true)
	w.Add("x.list", []int32{1, 2, 3})
	w.Add("x.names", []string{"a", "bc"})
	f32 := make([]byte, 4*6)
	for i := range 6 {
		binary.LittleEndian.PutUint32(f32[4*i:], math.Float32bits(float32(i)))
	}
	if err := w.AddTensor("a", TypeF32, []int{2, 3}, f32); err != nil {
		t.Fatal(err)
	}
	q, err := Quantize(Q8_0, make([]float32, 2*32), 2, 32)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddTensor("blk.0.q", TypeQ8_0, []int{2, 32}, q); err != nil {
		t.Fatal(err)
	}
	if err := w.AddTensor("h", TypeF16, []int{3}, make([]byte, 6)); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	data := sample(t)
	f, err := Read("s.gguf", bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if f.Version != 3 || f.Alignment != 32 || f.DataStart%32 != 0 {
		t.Errorf("version %d alignment %d data start %d", f.Version, f.Alignment, f.DataStart)
	}
	if s, _ := f.String("general.architecture"); s != "llama" {
		t.Errorf("architecture %q", s)
	}
	if n, _ := f.Uint("llama.block_count"); n != 2 {
		t.Errorf("block_count %d", n)
	}
	if x, _ := f.Float("llama.rope.freq_base"); x != 10000 {
		t.Errorf("freq_base %g", x)
	}
	if v, _ := f.Get("x.i64"); v != int64(-5) {
		t.Errorf("x.i64 = %v", v)
	}
	if v, _ := f.Get("x.list"); !slices.Equal(v.([]any), []any{int32(1), int32(2), int32(3)}) {
		t.Errorf("x.list = %v", v)
	}
	if v, _ := f.Get("x.names"); !slices.Equal(v.([]any), []any{"a", "bc"}) {
		t.Errorf("x.names = %v", v)
	}
	if got := f.Names(); !slices.Equal(got, []string{"a", "blk.0.q", "h"}) {
		t.Errorf("names %v", got)
	}
	a, _ := f.Tensor("a")
	if !slices.Equal(a.Shape(), []int{2, 3}) || !slices.Equal(a.Dims, []uint64{3, 2}) || a.Size != 24 {
		t.Errorf("a: shape %v dims %v size %d", a.Shape(), a.Dims, a.Size)
	}
	b, err := f.TensorData(a)
	if err != nil {
		t.Fatal(err)
	}
	if math.Float32frombits(binary.LittleEndian.Uint32(b[20:])) != 5 {
		t.Errorf("a's data = %v", b)
	}
	q, _ := f.Tensor("blk.0.q")
	if fm, ok := q.Type.Format(); !ok || fm != Q8_0 || q.Size != 68 || q.Offset%32 != 0 {
		t.Errorf("q: type %v size %d offset %d", q.Type, q.Size, q.Offset)
	}
}

func TestReadErrors(t *testing.T) {
	good := sample(t)
	withVersion := func(v uint32) []byte {
		b := slices.Clone(good)
		binary.LittleEndian.PutUint32(b[4:], v)
		return b
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "s.gguf: truncated: the magic at byte 0 needs 4 bytes, 0 are left"},
		{"magic", []byte("GGML\x03\x00\x00\x00"), `s.gguf: not a GGUF file (magic "GGML", want "GGUF")`},
		{"version 4", withVersion(4), "s.gguf: unsupported GGUF version 4 (rlx reads versions 2 and 3)"},
		{"version 1", withVersion(1), "s.gguf: GGUF version 1 is not supported"},
		{"big-endian", withVersion(3 << 24), "reads as a big-endian file"},
		{"header cut", good[:250], "s.gguf: truncated:"},
		{"counts cut", good[:40], "s.gguf: metadata count 7 does not fit in the 16 bytes left"},
		{"data cut", good[:len(good)-40], `s.gguf: tensor "h": its 6 bytes at offset`},
		{"huge count", append(slices.Clone(good[:8]), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0, 0, 0, 0, 0, 0, 0), "tensor count 1152921504606846975 does not fit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read("s.gguf", bytes.NewReader(tc.data), int64(len(tc.data)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestWriterErrors(t *testing.T) {
	var w Writer
	for _, tc := range []struct {
		err  error
		want string
	}{
		{w.AddTensor("q", TypeQ8_0, []int{2, 33}, nil), `gguf: tensor "q": innermost dim 33 is not a multiple of the Q8_0 block size 32`},
		{w.AddTensor("f", TypeF32, []int{2}, make([]byte, 4)), `gguf: tensor "f": F32 [2] needs 8 bytes, got 4`},
		{w.AddTensor("x", TensorType(16), []int{256}, nil), "tensor type IQ2_XXS has a block layout rlx does not know"},
		{w.AddTensor("s", TypeF32, nil, nil), "0 dims"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("error = %v, want %q", tc.err, tc.want)
		}
	}
	w.Add("bad", struct{}{})
	if _, err := w.WriteTo(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "has no GGUF type") {
		t.Errorf("WriteTo error = %v", err)
	}
	// WriteFile: the same error, and the file it would replace kept.
	path := filepath.Join(t.TempDir(), "w.gguf")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFile(path); err == nil || !strings.Contains(err.Error(), "has no GGUF type") {
		t.Errorf("WriteFile error = %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("a failed WriteFile left %q", b)
	}
}

// TestWriteFile writes a file with Writer.WriteFile and opens it.
func TestWriteFile(t *testing.T) {
	var w Writer
	w.Add("general.architecture", "llama")
	if err := w.AddTensor("t", TypeF32, []int{2}, make([]byte, 8)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "w.gguf")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if arch, _ := g.String("general.architecture"); arch != "llama" || len(g.Tensors) != 1 || g.Tensors[0].Name != "t" {
		t.Errorf("read back: %q, %d tensors", arch, len(g.Tensors))
	}
}

func FuzzRead(f *testing.F) {
	f.Add(sample(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Read("fuzz.gguf", bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		for i := range g.Tensors {
			if g.Tensors[i].Size > 0 {
				if _, err := g.TensorData(&g.Tensors[i]); err != nil {
					t.Fatalf("a tensor inside the file cannot be read: %v", err)
				}
			}
		}
	})
}

// TestSniff tells a GGUF file from others by its first four bytes, and
// says what another file starts with.
func TestSniff(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		data string
		head string
		ok   bool
	}{{"GGUF\x03\x00", "GGUF", true}, {"", "", false}, {"GG", "GG", false}, {"{\"a\": 1}", "{\"a\"", false}} {
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, []byte(tc.data), 0o644); err != nil {
			t.Fatal(err)
		}
		if head, ok := Sniff(path); string(head) != tc.head || ok != tc.ok {
			t.Errorf("%q: %q, %v; want %q, %v", tc.data, head, ok, tc.head, tc.ok)
		}
	}
	if head, ok := Sniff(filepath.Join(dir, "absent")); head != nil || ok {
		t.Errorf("absent file: %q, %v", head, ok)
	}
}

// TestWriterFile reads a Writer's file back from memory; Float takes
// signed integers, negative ones too.
func TestWriterFile(t *testing.T) {
	var w Writer
	w.Add("n", int32(-1))
	w.Add("u", uint32(7))
	w.Add("f", float32(0.5))
	w.Add("s", "x")
	f, err := w.File("mem.gguf")
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]float64{"n": -1, "u": 7, "f": 0.5} {
		if x, err := f.Float(key); x != want || err != nil {
			t.Errorf("%s: %v %v, want %v", key, x, err, want)
		}
	}
	if _, err := f.Float("s"); err == nil || !strings.Contains(err.Error(), "mem.gguf: metadata key s is x (string), want a number") {
		t.Errorf("a string: %v", err)
	}
}

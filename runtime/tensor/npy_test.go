package tensor

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// npyFile builds a .npy file by hand the way NumPy writes one.
func npyFile(major byte, dict string, data []byte) []byte {
	pre := 10
	if major != 1 {
		pre = 12
	}
	total := (pre + len(dict) + 1 + 63) / 64 * 64
	header := dict + strings.Repeat(" ", total-pre-len(dict)-1) + "\n"
	b := []byte("\x93NUMPY")
	b = append(b, major, 0)
	if major == 1 {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(header)))
	} else {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(header)))
	}
	return append(append(b, header...), data...)
}

func TestReadNPYHandBuilt(t *testing.T) {
	f32 := []byte{0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0} // 1, -2
	f := npyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f32)
	got, err := ReadNPY(bytes.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	if got.DType() != F32 || !ShapeEqual(got.Shape(), []int{2}) || got.Floats()[0] != 1 || got.Floats()[1] != -2 {
		t.Fatalf("got %v", got)
	}

	i8 := []byte{1, 0, 0, 0, 0, 0, 0, 0x80, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	f = npyFile(2, "{'descr': '<i8', 'fortran_order': False, 'shape': (1, 2), }", i8)
	got, err = ReadNPY(bytes.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	if got.DType() != I64 || got.Ints()[0] != -1<<63+1 || got.Ints()[1] != -1 {
		t.Fatalf("got %v %v", got, got.Ints())
	}

	f = npyFile(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (), }", []byte{1})
	got, err = ReadNPY(bytes.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	if got.DType() != I1 || got.Rank() != 0 || got.Ints()[0] != 1 {
		t.Fatalf("got %v", got)
	}
}

func TestNPYRoundTrip(t *testing.T) {
	rng := NewRNG(3)
	var cases []*Tensor
	for _, dt := range []DType{F32, F16} {
		x, _ := rng.Uniform(dt, []int{3, 4, 5}, -2, 2)
		cases = append(cases, x)
	}
	for _, dt := range []DType{I32, I64, I8, I1, UI8} {
		lo, hi := dt.IntRange()
		lo, hi = max(lo, -1000), min(hi, 1000)
		x, _ := rng.Ints(dt, []int{7, 2}, lo, hi+1)
		cases = append(cases, x)
	}
	cases = append(cases, Zeros(F32), Zeros(F32, 0, 3))
	for _, x := range cases {
		var buf bytes.Buffer
		if err := WriteNPY(&buf, x); err != nil {
			t.Fatal(err)
		}
		if buf.Len()%64 != x.Len()*x.DType().ByteSize()%64 {
			t.Errorf("%v: data does not start at a multiple of 64", x.Type())
		}
		y, err := ReadNPY(&buf)
		if err != nil {
			t.Fatalf("%v: %v", x.Type(), err)
		}
		if !BitsEqual(x, y) {
			t.Errorf("round trip of %v gave %v", x, y)
		}
	}
	if err := WriteNPY(&bytes.Buffer{}, Zeros(BF16, 2)); err == nil {
		t.Error("writing bf16 succeeded")
	}
}

func TestReadNPYErrors(t *testing.T) {
	ok := "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }"
	data := make([]byte, 8)
	tests := []struct {
		name string
		file []byte
		want string
	}{
		{"magic", []byte("\x93NUMPZ\x01\x00\x00\x00"), "bad magic"},
		{"empty", nil, "truncated"},
		{"version", npyFile(9, ok, data), "unsupported format version"},
		{"fortran", npyFile(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", data), "fortran_order"},
		{"big endian", npyFile(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", data), "big-endian"},
		{"dtype", npyFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", data), "unsupported dtype"},
		{"truncated data", npyFile(1, ok, data[:7]), "truncated"},
		{"trailing data", npyFile(1, ok, append(data, 0)), "data continues after the array (which ends 8 bytes after the header)"},
		{"truncated header", npyFile(1, ok, nil)[:30], "truncated"},
		{"missing key", npyFile(1, "{'descr': '<f4', 'shape': (2,), }", data), "exactly the keys"},
		{"bad shape", npyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,x), }", data), "bad dimension"},
		{"huge shape", npyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (100000000000, 100000000000), }", data), "shape"},
		{"huge data", npyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000,), }", data), "truncated"},
		{"not a dict", npyFile(1, "['descr']", data), "bad header"},
	}
	for _, tc := range tests {
		_, err := ReadNPY(bytes.NewReader(tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func FuzzReadNPY(f *testing.F) {
	var buf bytes.Buffer
	x, _ := NewRNG(1).Uniform(F16, []int{2, 3}, -1, 1)
	_ = WriteNPY(&buf, x)
	f.Add(buf.Bytes())
	f.Add(npyFile(2, "{'descr': '|u1', 'fortran_order': False, 'shape': (3, 1), }", []byte{1, 2, 3}))
	f.Add(npyFile(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (1000000000,), }", nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ReadNPY(bytes.NewReader(data))
		if err != nil {
			return
		}
		if got.Len()*got.DType().ByteSize() > len(data) {
			t.Fatalf("%v decoded from %d bytes", got.Type(), len(data))
		}
		var out bytes.Buffer
		if err := WriteNPY(&out, got); err != nil {
			t.Fatal(err)
		}
		again, err := ReadNPY(&out)
		if err != nil || !BitsEqual(got, again) {
			t.Fatalf("re-read of %v failed: %v", got.Type(), err)
		}
	})
}

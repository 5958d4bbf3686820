package cuda

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestFill checks what the device's rlx_fill_random must reproduce (the
// device run compares the two byte for byte): the value ranges, finite
// GGUF scales, and that the seed alone decides the bytes.
func TestFill(t *testing.T) {
	le := binary.LittleEndian
	f := Fill(F32, 4096, 7)
	for i := 0; i < len(f); i += 4 {
		v := math.Float32frombits(le.Uint32(f[i:]))
		if !(v >= -1 && v < 1) {
			t.Fatalf("f32 element %d is %v, outside [-1, 1)", i/4, v)
		}
	}
	if bytes.Equal(Fill(F32, 64, 7), Fill(F32, 64, 8)) || !bytes.Equal(Fill(F32, 64, 7), f[:64]) {
		t.Error("the fill is not a function of the seed and the position")
	}
	for i, v := range Fill(I32, 4000, 3) {
		if i%4 == 1 && v > 3 { // bits 8-15 of a value below 1024
			t.Fatalf("i32 element %d is not below 1024", i/4)
		}
	}
	for _, e := range []Elem{Q4_0, Q8_0, Q4_K, Q6_K} {
		bs, scales := quantBlocks(e)
		data := Fill(e, int64(bs*50), 11)
		for b := 0; b < 50; b++ {
			for _, off := range scales {
				d := tensor.F16BitsToF32(le.Uint16(data[b*bs+off:]))
				if math.IsNaN(float64(d)) || math.Abs(float64(d)) > 1.0/64 {
					t.Fatalf("format %d block %d: scale %v is not a finite value of at most 1/64", e, b, d)
				}
			}
		}
	}
	// q6_k_c16: its d array, the last 2/210 of the bytes, holds the scales.
	cols := Fill(Q6_KC16, 210*6, 11)
	for at := len(cols) - len(cols)/105; at < len(cols); at += 2 {
		d := tensor.F16BitsToF32(le.Uint16(cols[at:]))
		if math.IsNaN(float64(d)) || math.Abs(float64(d)) > 1.0/64 || d == 0 {
			t.Fatalf("q6_k_c16 scale at byte %d is %v, not a finite nonzero value of at most 1/64", at, d)
		}
	}
	for i, v := range Fill(I1, 100, 5) {
		if v > 1 {
			t.Fatalf("i1 element %d is %d", i, v)
		}
	}
}

// TestWriteJobs reads a job file back by the layout that
// shim/rlx_cuda_runtime.cu reads.
func TestWriteJobs(t *testing.T) {
	jobs := []*Job{{
		Name: "j",
		Buffers: []Buffer{
			{Size: 4, Init: Data, Elem: F32, Data: []byte{1, 2, 3, 4}},
			{Size: 8, Init: Random, Elem: F16, Seed: 99},
			{Size: 4, Init: Zero, Elem: U32},
		},
		Dispatches: []Dispatch{{Kernel: "b", Grid: [3]int{2, 1, 1}, Threadgroup: [3]int{64, 1, 1}, ThreadgroupMemory: 32, Buffers: []int{0, 2}}},
	}}
	var buf bytes.Buffer
	if err := WriteJobs(&buf, jobs, []string{"a", "b"}); err != nil {
		t.Fatal(err)
	}
	r := bytes.NewReader(buf.Bytes())
	le := binary.LittleEndian
	u32 := func() uint32 { var v uint32; binary.Read(r, le, &v); return v }
	u64 := func() uint64 { var v uint64; binary.Read(r, le, &v); return v }
	u8 := func() byte { b, _ := r.ReadByte(); return b }
	magic := make([]byte, 8)
	r.Read(magic)
	if njobs, nlen := u32(), u32(); string(magic) != "RLXCUJ1\n" || njobs != 1 || nlen != 1 || u8() != 'j' || u32() != 3 {
		t.Fatal("bad header")
	}
	if u64() != 4 || u8() != byte(Data) || u8() != byte(F32) {
		t.Fatal("bad buffer 0")
	}
	r.Seek(4, 1)
	if u64() != 8 || u8() != byte(Random) || u8() != byte(F16) || u32() != 99 {
		t.Fatal("bad buffer 1")
	}
	if u64() != 4 || u8() != byte(Zero) || u8() != byte(U32) {
		t.Fatal("bad buffer 2")
	}
	if n, k := u32(), u32(); n != 1 || k != 1 { // one dispatch, of kernel #1 ("b")
		t.Fatal("bad dispatch")
	}
	if g := [6]uint32{u32(), u32(), u32(), u32(), u32(), u32()}; g != [6]uint32{2, 1, 1, 64, 1, 1} {
		t.Fatalf("grid and threadgroup %v", g)
	}
	if u64() != 32 || u32() != 2 || u32() != 0 || u32() != 2 || r.Len() != 0 {
		t.Fatal("bad bindings")
	}
	if err := WriteJobs(&buf, jobs, []string{"a"}); err == nil {
		t.Error("a kernel missing from the table is not reported")
	}
}

package cuda

import (
	"bytes"
	"encoding/binary"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
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
	for _, e := range []Elem{Q4_0, Q8_0, Q4_K, Q6_K, Q5_K, Q2_K, Q3_K, Q4_1, Q5_0, Q5_1, IQ4_NL, IQ4_XS, MXFP4} {
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
	// mxfp4: each block's E8M0 exponent 122 to 125 (2^-6 to 2^-3).
	for b, blk := range slices.Collect(slices.Chunk(Fill(MXFP4, 17*50, 11), 17)) {
		if blk[0] < 122 || blk[0] > 125 {
			t.Fatalf("mxfp4 block %d: exponent byte %d", b, blk[0])
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

// TestDeviceFillOnHost builds the device's fill (shim/rlx_fill.h) as host
// C++ and checks that it writes Fill's bytes for every element type, at
// sizes that end inside a GGUF block and in the middle of an element: the
// GPU check compares the two on the device too, but only a run there shows
// it, and this runs on every commit. The f16 rounding is _Float16's on the
// host (nearest even, as the device's cvt.rn.f16.f32).
func TestDeviceFillOnHost(t *testing.T) {
	clang, dir := shimForHost(t)
	bin := filepath.Join(dir, "fill_host")
	cmd := exec.Command(clang, "-x", "c++", "-std=c++17", "-O1", "-I", dir, filepath.Join("testdata", "fill_host.cpp"), "-o", bin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the host fill: %v\n%s", err, out)
	}
	type fillCase struct {
		e    Elem
		size int64
		seed uint32
	}
	var cases []fillCase
	var args []string
	for e := F32; e <= LastElem; e++ {
		for _, size := range []int64{0, 7, 210*6 + 3, 144*9 + 18*2 + 1, 176*5 + 9, 210 * 105} {
			c := fillCase{e, size, uint32(e)*977 + uint32(size)}
			cases = append(cases, c)
			args = append(args, strconv.Itoa(int(c.e)), strconv.FormatInt(c.size, 10), strconv.FormatUint(uint64(c.seed), 10))
		}
	}
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("running the host fill: %v", err)
	}
	for _, c := range cases {
		want := Fill(c.e, c.size, c.seed)
		if int64(len(out)) < c.size {
			t.Fatalf("the host fill wrote %d bytes too few", c.size-int64(len(out)))
		}
		got := out[:c.size]
		out = out[c.size:]
		// The bytes of a last, partial element: Fill leaves them zero, the
		// device does not touch them (no buffer has such a tail: sizes come
		// from tensor types).
		whole := c.size / elemBytes[c.e] * elemBytes[c.e]
		for i := whole; i < c.size; i++ {
			if got[i] != 0xee || want[i] != 0 {
				t.Errorf("element type %d, %d bytes: byte %d of the partial last element is %#x on the device (want untouched), %#x in Fill (want 0)", c.e, c.size, i, got[i], want[i])
			}
		}
		if i := firstDiff(got[:whole], want[:whole]); i >= 0 {
			t.Errorf("element type %d, %d bytes, seed %d: byte %d is %#x on the device, %#x in Fill", c.e, c.size, c.seed, i, got[i], want[i])
		}
	}
	if len(out) != 0 {
		t.Errorf("the host fill wrote %d bytes too many", len(out))
	}
}

// elemBytes is the size of an element the fill writes whole; 1 for the
// byte-wise types and GGUF formats.
var elemBytes = map[Elem]int64{F32: 4, F16: 2, BF16: 2, I32: 4, I64: 8, I8: 1, I1: 1, UI8: 1, U32: 4,
	Q4_0: 1, Q8_0: 1, Q4_K: 1, Q6_K: 1, Q6_KC16: 1, Q5_K: 1, Q2_K: 1, Q3_K: 1, Q4_1: 1, Q5_0: 1, Q5_1: 1, IQ4_NL: 1, IQ4_XS: 1, MXFP4: 1}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// TestQuantElems: every code from Q4_0 to LastElem names a GGUF format
// runtime/gguf knows, and ElemOf maps the name back to the code.
func TestQuantElems(t *testing.T) {
	if n := int(LastElem-Q4_0) + 1; len(quantElems) != n {
		t.Fatalf("%d format names for %d codes", len(quantElems), n)
	}
	for i, name := range quantElems {
		if _, err := gguf.ParseFormat(name); err != nil {
			t.Error(err)
		}
		if e, err := ElemOf("tensor<8xui8>", name); err != nil || e != Q4_0+Elem(i) {
			t.Errorf("ElemOf(%q) = %d, %v; want %d", name, e, err, Q4_0+Elem(i))
		}
	}
	if _, err := ElemOf("tensor<8xui8>", "q8_1"); err == nil {
		t.Error("ElemOf(q8_1) succeeded")
	}
}

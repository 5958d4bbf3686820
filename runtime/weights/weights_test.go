package weights

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

func write(t *testing.T, path string, ts map[string]*tensor.Tensor) {
	t.Helper()
	var buf bytes.Buffer
	if err := tensor.WriteSafetensors(&buf, &tensor.Safetensors{Tensors: ts}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func f32(t *testing.T, dt tensor.DType, shape []int, v ...float32) *tensor.Tensor {
	t.Helper()
	x, err := tensor.FromFloat32(dt, shape, v)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func spec(name string, dt tensor.DType, shape ...int) ref.Spec {
	return ref.Spec{Name: name, Type: ref.TensorType{DType: dt, Shape: shape}}
}

// TestShardedDirectory reads a checkpoint directory whose index spreads
// the tensors over two shards, stacks experts by `*`, and reports the
// errors by name.
func TestShardedDirectory(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.safetensors"), map[string]*tensor.Tensor{
		"e.0.w": f32(t, tensor.BF16, []int{2}, 1, 2),
		"e.1.w": f32(t, tensor.BF16, []int{2}, 3, 4),
	})
	write(t, filepath.Join(dir, "b.safetensors"), map[string]*tensor.Tensor{
		"e.2.w": f32(t, tensor.BF16, []int{2}, 5, 6),
		"norm":  f32(t, tensor.F32, []int{3}, 7, 8, 9),
	})
	index := `{"metadata": {}, "weight_map": {"e.0.w": "a.safetensors", "e.1.w": "a.safetensors", "e.2.w": "b.safetensors", "norm": "b.safetensors"}}`
	os.WriteFile(filepath.Join(dir, "model.safetensors.index.json"), []byte(index), 0o644)
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Names(); !slices.Equal(got, []string{"e.0.w", "e.1.w", "e.2.w", "norm"}) {
		t.Errorf("names %v", got)
	}
	n, err := s.Weight(spec("norm", tensor.F32, 3))
	if err != nil || !slices.Equal(n.Floats(), []float32{7, 8, 9}) {
		t.Errorf("norm = %v, %v", n, err)
	}
	st, err := s.Weight(spec("e.*.w", tensor.BF16, 3, 2))
	if err != nil || !slices.Equal(st.Floats(), []float32{1, 2, 3, 4, 5, 6}) {
		t.Errorf("stack = %v, %v", st, err)
	}
	if i, ok := s.Info("e.*.w"); !ok || !slices.Equal(i.Shape, []int{3, 2}) || i.Type != "BF16" {
		t.Errorf("stack info %+v", i)
	}
	for _, tc := range []struct {
		spec ref.Spec
		want string
	}{
		{spec("absent", tensor.F32, 3), `no weight named "absent" in ` + dir},
		{spec("norm", tensor.BF16, 3), `weight "norm" is tensor<3xf32> in ` + filepath.Join(dir, "b.safetensors") + `, expected tensor<3xbf16>`},
		{spec("norm", tensor.F32, 4), `expected tensor<4xf32>`},
		{spec("e.*.w", tensor.BF16, 2, 2), `weight "e.*.w" stacks 3 tensors in ` + dir + `, expected tensor<2x2xbf16>`},
		{spec("x.*.w", tensor.BF16, 2, 2), `no weight named "x.0.w" in ` + dir + ` (for the stacked weight "x.*.w")`},
	} {
		if _, err := s.Weight(tc.spec); err == nil || err.Error() != tc.want && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Weight(%s %v) error = %v, want %q", tc.spec.Name, tc.spec.Type, err, tc.want)
		}
	}
}

func TestDirectoryErrors(t *testing.T) {
	empty := t.TempDir()
	if _, err := Open(empty); err == nil || !strings.Contains(err.Error(), "no model.safetensors or model.safetensors.index.json") {
		t.Errorf("empty directory: %v", err)
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.safetensors"), map[string]*tensor.Tensor{"x": f32(t, tensor.F32, []int{1}, 1)})
	os.WriteFile(filepath.Join(dir, "model.safetensors.index.json"), []byte(`{"weight_map": {"x": "a.safetensors", "y": "a.safetensors"}}`), 0o644)
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), `a.safetensors: tensor "y", which model.safetensors.index.json places in this shard, is missing`) {
		t.Errorf("incomplete shard: %v", err)
	}
	for _, shard := range []string{"..", ".", "../a.safetensors"} {
		os.WriteFile(filepath.Join(dir, "model.safetensors.index.json"), []byte(`{"weight_map": {"x": "`+shard+`"}}`), 0o644)
		if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), `tensor "x" names shard "`+shard+`" outside the directory`) {
			t.Errorf("shard %q: %v", shard, err)
		}
	}
}

// TestGGUF binds a GGUF file's tensors: F32 as stored, a quantised matrix
// as its raw blocks (ui8) or dequantised (f32), a quantised expert stack
// as [experts, bytes].
func TestGGUF(t *testing.T) {
	vals := make([]float32, 4*32)
	for i := range vals {
		vals[i] = float32(i%7) / 8
	}
	q, err := gguf.Quantize(gguf.Q8_0, vals, 4, 32)
	if err != nil {
		t.Fatal(err)
	}
	var w gguf.Writer
	w.Add("general.architecture", "llama")
	w.AddTensor("m", gguf.TypeQ8_0, []int{4, 32}, q)
	w.AddTensor("exps", gguf.TypeQ8_0, []int{2, 2, 32}, q)
	w.AddTensor("n", gguf.TypeF32, []int{2}, []byte{0, 0, 128, 63, 0, 0, 0, 64})
	path, s := openGGUF(t, &w)
	defer s.Close()
	if s.GGUF == nil {
		t.Fatal("not opened as GGUF")
	}
	if i, _ := s.Info("m"); i.Quant != gguf.Q8_0 || !slices.Equal(i.Shape, []int{4, 32}) || i.String() != "Q8_0 [4, 32]" {
		t.Errorf("info %+v", i)
	}
	raw, err := s.Weight(spec("m", tensor.UI8, len(q)))
	if err != nil || !bytes.Equal(raw.Bytes(), q) {
		t.Errorf("raw blocks: %v", err)
	}
	deq, err := s.Weight(spec("m", tensor.F32, 4, 32))
	want, _ := gguf.Dequantize(gguf.Q8_0, q, 4, 32)
	if err != nil || !slices.Equal(deq.Floats(), want) {
		t.Errorf("dequantised: %v", err)
	}
	if st, err := s.Weight(spec("exps", tensor.UI8, 2, len(q)/2)); err != nil || !bytes.Equal(st.Bytes(), q) {
		t.Errorf("expert stack: %v", err)
	}
	if n, err := s.Weight(spec("n", tensor.F32, 2)); err != nil || !slices.Equal(n.Floats(), []float32{1, 2}) {
		t.Errorf("n = %v, %v", n, err)
	}
	if _, err := s.Weight(spec("m", tensor.F16, 4, 32)); err == nil || !strings.Contains(err.Error(), `weight "m" is Q8_0 [4, 32] in `+path+`, expected tensor<4x32xf16>`) {
		t.Errorf("f16 of a quantised tensor: %v", err)
	}
}

// TestGGUFColumns binds a q6_k tensor to a graph.dequant_matmul that reads
// q6_k_c16: the blocks come rearranged, decoding to the same weights; a
// param read as another format is an error naming both.
func TestGGUFColumns(t *testing.T) {
	const n, k = 3, 512
	vals := make([]float32, n*k)
	for i := range vals {
		vals[i] = float32(i%13-6) / 16
	}
	q, err := gguf.Quantize(gguf.Q6_K, vals, n, k)
	if err != nil {
		t.Fatal(err)
	}
	var w gguf.Writer
	w.Add("general.architecture", "llama")
	w.AddTensor("m", gguf.TypeQ6_K, []int{n, k}, q)
	// An expert stack: two [n, k] matrices, the second the first negated.
	for i := range vals {
		vals[i] = -vals[i]
	}
	q2, _ := gguf.Quantize(gguf.Q6_K, vals, n, k)
	w.AddTensor("exps", gguf.TypeQ6_K, []int{2, n, k}, append(append([]byte{}, q...), q2...))
	// The same two as a tensor an expert (llama.cpp's older Mixtral files).
	w.AddTensor("pe.0", gguf.TypeQ6_K, []int{n, k}, q)
	w.AddTensor("pe.1", gguf.TypeQ6_K, []int{n, k}, q2)
	path, s := openGGUF(t, &w)
	defer s.Close()
	use := func(f gguf.Format) ref.Spec {
		sp := spec("m", tensor.UI8, len(q))
		sp.Quant = &ref.QuantUse{Format: f, N: n, K: k}
		return sp
	}
	raw, err := s.Weight(use(gguf.Q6_K))
	if err != nil || !bytes.Equal(raw.Bytes(), q) {
		t.Fatalf("as q6_k: %v", err)
	}
	cols, err := s.Weight(use(gguf.Q6_KC16))
	want, _ := gguf.Convert(q, gguf.Q6_K, gguf.Q6_KC16, n, k)
	if err != nil || !bytes.Equal(cols.Bytes(), want) || bytes.Equal(want, q) {
		t.Fatalf("as q6_k_c16: %v", err)
	}
	a, _ := gguf.Dequantize(gguf.Q6_K, q, n, k)
	b, _ := gguf.Dequantize(gguf.Q6_KC16, cols.Bytes(), n, k)
	if !slices.Equal(a, b) {
		t.Error("q6_k_c16 decodes to other weights")
	}
	if again, _ := s.Weight(use(gguf.Q6_K)); !bytes.Equal(again.Bytes(), q) {
		t.Error("the q6_k binding changed after the q6_k_c16 one")
	}
	if _, err := s.Weight(use(gguf.Q4_K)); err == nil || !strings.Contains(err.Error(), `weight "m" is q6_k in `+path+`; the graph reads it as q4_k`) {
		t.Errorf("read as q4_k: %v", err)
	}
	sp := spec("exps", tensor.UI8, 2*len(q))
	sp.Quant = &ref.QuantUse{Format: gguf.Q6_KC16, N: n, K: k, Stacked: true}
	stack, err := s.Weight(sp)
	want2, _ := gguf.Convert(q2, gguf.Q6_K, gguf.Q6_KC16, n, k)
	if err != nil || !bytes.Equal(stack.Bytes(), append(append([]byte{}, want...), want2...)) {
		t.Fatalf("the stack as q6_k_c16, expert by expert: %v", err)
	}
	// Stacked from a tensor an expert: the same bytes, in either format.
	stacked := func(name string, bytes int, f gguf.Format) ref.Spec {
		sp := spec(name, tensor.UI8, bytes)
		sp.Quant = &ref.QuantUse{Format: f, N: n, K: k, Stacked: true}
		return sp
	}
	for _, f := range []gguf.Format{gguf.Q6_K, gguf.Q6_KC16} {
		got, err := s.Weight(stacked("pe.*", 2*len(q), f))
		whole, err2 := s.Weight(stacked("exps", 2*len(q), f))
		if err != nil || err2 != nil || !bytes.Equal(got.Bytes(), whole.Bytes()) {
			t.Errorf("%v: per-expert tensors stacked: %v, %v", f, err, err2)
		}
	}
	if _, err := s.Weight(stacked("pe.*", 2*len(q)+1, gguf.Q6_K)); err == nil || !strings.Contains(err.Error(), `weight "pe.*" stacks 2 tensors in `+path) {
		t.Errorf("per-expert tensors stacked to the wrong size: %v", err)
	}
	sp.Quant.Stacked = false
	if _, err := s.Weight(sp); err == nil || !strings.Contains(err.Error(), `weight "exps" in `+path+`: 2520 bytes, but a q6_k_c16 [3, 512] weight needs 1260`) {
		t.Errorf("the stack read as one matrix: %v", err)
	}
}

// openGGUF writes w to a file in a test directory and opens it.
func openGGUF(t *testing.T, w *gguf.Writer) (string, *Source) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.gguf")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, s
}

// TestGGUFSplit opens a GGUF file split as llama-gguf-split writes it
// (PREFIX-0000i-of-0000n.gguf, split.no, split.count and
// split.tensors.count in each part, the metadata in the first) from its
// first part: every part's tensors, each read from its own file. Opening
// another part, a missing part, a part (the first among them) that says
// another number, a tensor count that disagrees and a name that does not
// number the parts are errors naming the file.
func TestGGUFSplit(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, no, count, tensors int, tensor string, v float32) {
		t.Helper()
		var w gguf.Writer
		if no == 0 {
			w.Add("general.architecture", "llama")
		}
		w.Add("split.no", uint16(no))
		w.Add("split.count", uint16(count))
		w.Add("split.tensors.count", int32(tensors))
		w.AddTensor(tensor, gguf.TypeF32, []int{1}, binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)))
		if err := w.WriteFile(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	write("m-00001-of-00003.gguf", 0, 3, 3, "a", 1)
	write("m-00002-of-00003.gguf", 1, 3, 3, "b", 2)
	write("m-00003-of-00003.gguf", 2, 3, 3, "c", 3)
	first := filepath.Join(dir, "m-00001-of-00003.gguf")
	s, err := Open(first)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Names(), []string{"a", "b", "c"}) {
		t.Errorf("names %v", s.Names())
	}
	for i, name := range s.Names() {
		v, err := s.Weight(spec(name, tensor.F32, 1))
		if err != nil || v.Floats()[0] != float32(i+1) {
			t.Errorf("%s = %v, %v", name, v, err)
		}
		if info, _ := s.Info(name); info.File != filepath.Join(dir, fmt.Sprintf("m-%05d-of-00003.gguf", i+1)) {
			t.Errorf("%s is read from %s", name, info.File)
		}
	}
	if arch, _ := s.GGUF.String("general.architecture"); arch != "llama" {
		t.Errorf("metadata from %s, not the first part", s.GGUF.Name)
	}
	s.Close()

	second := filepath.Join(dir, "m-00002-of-00003.gguf")
	check := func(path, want string) {
		t.Helper()
		if _, err := Open(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one containing %q", filepath.Base(path), err, want)
		}
	}
	check(second, second+": part 00002 of a split GGUF file: open the first, "+filepath.Join(dir, "m")+"-00001-of-00003.gguf, which holds the metadata")
	write("n-00001-of-00002.gguf", 0, 2, 2, "a", 1)
	check(filepath.Join(dir, "n-00001-of-00002.gguf"), "part 2 of 2: open "+filepath.Join(dir, "n-00002-of-00002.gguf"))
	write("n-00002-of-00002.gguf", 0, 2, 2, "b", 2)
	check(filepath.Join(dir, "n-00001-of-00002.gguf"), "n-00002-of-00002.gguf: split.no 0, split.count 2: not part 1 of 2")
	write("n-00002-of-00002.gguf", 1, 2, 2, "b", 2)
	write("n-00001-of-00002.gguf", 0, 2, 5, "a", 1)
	check(filepath.Join(dir, "n-00001-of-00002.gguf"), "split.tensors.count = 5, but its 2 parts hold 2 tensors")
	write("whole.gguf", 0, 2, 2, "a", 1)
	check(filepath.Join(dir, "whole.gguf"), "whole.gguf: split.count = 2, but the name is not llama.cpp's PREFIX-00001-of-00002.gguf")
	write("p-00001-of-00004.gguf", 0, 2, 2, "a", 1)
	check(filepath.Join(dir, "p-00001-of-00004.gguf"), "split.count = 2, but the name says 00004 parts")
	write("q-00001-of-00002.gguf", 1, 2, 2, "a", 1)
	check(filepath.Join(dir, "q-00001-of-00002.gguf"), "q-00001-of-00002.gguf: split.no 1, split.count 2: not part")
}

// TestGGUFBlockTypes: a tensor of any block type rlx reads is described
// with its graph.dequant_matmul format and read as its blocks, or as f32
// values where a graph asks for them (gguf.Dequantize).
func TestGGUFBlockTypes(t *testing.T) {
	var w gguf.Writer
	w.Add("general.architecture", "llama")
	blocks := map[string][]byte{}
	for _, typ := range []gguf.TensorType{gguf.TypeQ2_K, gguf.TypeQ3_K, gguf.TypeQ4_1, gguf.TypeQ5_0, gguf.TypeQ5_1,
		gguf.TypeQ5_K, gguf.TypeIQ4_NL, gguf.TypeIQ4_XS, gguf.TypeMXFP4} {
		f, ok := typ.Format()
		if !ok {
			t.Fatalf("%v has no format", typ)
		}
		data := make([]byte, f.BlockBytes()*256/f.BlockSize())
		for i := range data {
			data[i] = byte(i*97 + 13)
		}
		if _, err := gguf.FiniteScales(f, data, 1, 256); err != nil {
			t.Fatal(err)
		}
		blocks[typ.String()] = data
		w.AddTensor(typ.String(), typ, []int{1, 256}, data)
	}
	_, s := openGGUF(t, &w)
	defer s.Close()
	for name, data := range blocks {
		f, _ := gguf.ParseFormat(strings.ToLower(name))
		if i, _ := s.Info(name); i.Quant != f || i.Type != name {
			t.Errorf("%s: info %+v", name, i)
		}
		if got, err := s.Weight(spec(name, tensor.UI8, len(data))); err != nil || !slices.Equal(got.Bytes(), data) {
			t.Errorf("%s read as blocks: %v", name, err)
		}
		got, err := s.Weight(spec(name, tensor.F32, 1, 256))
		want, _ := gguf.Dequantize(f, data, 1, 256)
		if err != nil || !slices.Equal(got.Floats(), want) {
			t.Errorf("%s read as f32: %v", name, err)
		}
	}
}

// TestMXFP4Pair: a safetensors pair NAME_blocks, NAME_scales is one
// tensor NAME in gguf.MXFP4 blocks, whose values (read as f32) are the
// pair's (value 2j of a group the low nibble of byte j, 2j + 1 the high
// one, × 2^(scale − 127)); a pair of the wrong shapes, or beside a
// tensor NAME, is an error naming them.
func TestMXFP4Pair(t *testing.T) {
	u8 := func(shape []int, b ...byte) *tensor.Tensor {
		x, err := tensor.FromBytes(shape, b)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	blocks := make([]byte, 16)
	blocks[0], blocks[1], blocks[15] = 0x21, 0xF8, 0x7C // codes 1, 2; 8 (−0), 15 (−6); 12 (−2), 7 (6)
	dir := t.TempDir()
	path := filepath.Join(dir, "model.safetensors")
	write(t, path, map[string]*tensor.Tensor{"w_blocks": u8([]int{1, 1, 16}, blocks...), "w_scales": u8([]int{1, 1}, 128)})
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if i, _ := s.Info("w"); i.Type != "MXFP4" || i.Quant != gguf.MXFP4 || !slices.Equal(i.Shape, []int{1, 32}) || !slices.Equal(s.Names(), []string{"w"}) {
		t.Fatalf("info %+v, names %v", i, s.Names())
	}
	// The GGUF block: the scale, then byte 1 + j the codes of values j
	// and j + 16 (values 0-3 from bytes 0 and 1, 30 and 31 from byte 15).
	raw, err := s.Weight(spec("w", tensor.UI8, 17))
	if b := raw.Bytes(); err != nil || b[0] != 128 || b[1] != 0x01 || b[2] != 0x02 || b[3] != 0x08 || b[4] != 0x0F || b[15] != 0xC0 || b[16] != 0x70 {
		t.Errorf("the GGUF block: %v %v", raw, err)
	}
	w, err := s.Weight(spec("w", tensor.F32, 1, 32))
	if err != nil {
		t.Fatal(err)
	}
	v := w.Floats()
	if want := []float32{1, 2, 0, -12, -4, 12}; v[0] != want[0] || v[1] != want[1] || v[2] != want[2] || v[3] != want[3] || v[30] != want[4] || v[31] != want[5] || v[4] != 0 {
		t.Errorf("decoded %v", v)
	}
	for _, c := range []struct {
		ts   map[string]*tensor.Tensor
		want string
	}{
		{map[string]*tensor.Tensor{"w_blocks": u8([]int{1, 1, 8}, blocks[:8]...), "w_scales": u8([]int{1, 1}, 128)}, `tensors "w_blocks" (tensor<1x1x8xui8>) and "w_scales" (tensor<1x1xui8>) are not MXFP4 blocks`},
		{map[string]*tensor.Tensor{"w_blocks": u8([]int{1, 1, 16}, blocks...), "w_scales": u8([]int{1, 1}, 128), "w": f32(t, tensor.F32, []int{1}, 1)}, `tensor "w" is also the MXFP4 pair "w_blocks", "w_scales"`},
	} {
		write(t, path, c.ts)
		if s, err := Open(path); err == nil || !strings.Contains(err.Error(), c.want) {
			if s != nil {
				s.Close()
			}
			t.Errorf("%v: %v, want %q", slices.Sorted(maps.Keys(c.ts)), err, c.want)
		}
	}
}

// TestMXFP4Transformers: an MXFP4 pair, laid out as gguf.MXFP4 blocks
// and read as f32, decodes to what transformers'
// convert_moe_packed_tensors gives for it (run 43a, on the device:
// testdata/mxfp4_hf.*, blocks [2, 4, 2, 16] and scales [2, 4, 2] drawn
// there, its float32 values [2, 64, 4], which it transposes to the
// parameters' [E, in, out]): bit for bit.
func TestMXFP4Transformers(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	blocks, scales, vals := read("mxfp4_hf.blocks"), read("mxfp4_hf.scales"), read("mxfp4_hf.f32")
	b, _ := tensor.FromBytes([]int{2, 4, 2, 16}, blocks)
	s, _ := tensor.FromBytes([]int{2, 4, 2}, scales)
	path := filepath.Join(t.TempDir(), "model.safetensors")
	write(t, path, map[string]*tensor.Tensor{"e_blocks": b, "e_scales": s})
	src, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	w, err := src.Weight(spec("e", tensor.F32, 2, 4, 64))
	if err != nil {
		t.Fatal(err)
	}
	got := w.Floats()
	if len(vals) != 4*len(got) {
		t.Fatalf("%d values from transformers, %d decoded", len(vals)/4, len(got))
	}
	for e := range 2 {
		for o := range 4 {
			for c := range 64 {
				want := math.Float32frombits(binary.LittleEndian.Uint32(vals[4*((e*64+c)*4+o):]))
				if g := got[(e*4+o)*64+c]; g != want {
					t.Fatalf("expert %d row %d column %d: %g, transformers %g", e, o, c, g, want)
				}
			}
		}
	}
}

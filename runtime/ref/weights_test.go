package ref

import (
	"bytes"
	"math"
	"slices"
	"strconv"
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

// TestConvertStack: an expert stack is rearranged matrix by matrix.
func TestConvertStack(t *testing.T) {
	const n, k, experts = 3, 512, 4
	rng := tensor.NewRNG(9)
	x, _ := rng.Uniform(tensor.F32, []int{experts * n * k}, -1, 1)
	var stack, want []byte
	for e := range experts {
		q, err := gguf.Quantize(gguf.Q6_K, x.Floats()[e*n*k:(e+1)*n*k], n, k)
		if err != nil {
			t.Fatal(err)
		}
		c, err := gguf.Convert(q, gguf.Q6_K, gguf.Q6_KC16, n, k)
		if err != nil {
			t.Fatal(err)
		}
		stack, want = append(stack, q...), append(want, c...)
	}
	packed, _ := tensor.FromBytes([]int{experts, len(stack) / experts}, stack)
	got, err := ConvertPacked(packed, gguf.Q6_K, QuantUse{Format: gguf.Q6_KC16, N: n, K: k, Stacked: true}, "exps", "")
	if err != nil || !bytes.Equal(got.Bytes(), want) || !slices.Equal(got.Shape(), packed.Shape()) {
		t.Fatalf("the stack rearranged as a whole, not expert by expert (err %v)", err)
	}
}

// TestConvertPackedErrors: blocks that do not hold the [n, k] the graph
// reads are an error naming the weight and where it came from.
func TestConvertPackedErrors(t *testing.T) {
	packed, _ := tensor.FromBytes([]int{840}, make([]byte, 840))
	_, err := ConvertPacked(packed, gguf.Q6_K, QuantUse{Format: gguf.Q6_KC16, N: 1, K: 512}, "w", " in m.gguf")
	if err == nil || err.Error() != `weight "w" in m.gguf: 840 bytes, but a q6_k_c16 [1, 512] weight needs 420` {
		t.Errorf("a weight of other bytes: %v", err)
	}
	stack := QuantUse{Format: gguf.Q6_KC16, N: 1, K: 512, Stacked: true}
	odd, _ := tensor.FromBytes([]int{630}, make([]byte, 630))
	if _, err := ConvertPacked(odd, gguf.Q6_K, stack, "exps", ""); err == nil || err.Error() != `weight "exps": 630 bytes, not a whole number of q6_k_c16 [1, 512] matrices of 420 bytes` {
		t.Errorf("a stack of other bytes: %v", err)
	}
	stack.Partial = true
	if _, err := ConvertPacked(packed, gguf.Q6_K, stack, "exps", ""); err == nil || err.Error() != `weight "exps": it is read as q6_k_c16 [1, 512] through a gather or slice that cuts inside a matrix` {
		t.Errorf("a stack cut inside a matrix: %v", err)
	}
	if _, err := ConvertPacked(packed, gguf.Q6_K, QuantUse{Format: gguf.Q8_0, N: 2, K: 512}, "w", ""); err == nil || err.Error() != `weight "w" is q6_k; the graph reads it as q8_0` {
		t.Errorf("other blocks: %v", err)
	}
}

// stackModule reads two experts (3 and 1) of a stack of four q6_k-sized
// [3, 512] matrices as an MoE block does (reshape, gather, slice,
// reshape) in format; rows splits the stack in rows of that many bytes
// before the gather (1260, one matrix, selects whole matrices; 630 picks
// the same bytes as halves, which is not known before the run).
func stackModule(format string, rows int) string {
	idx, n := "[3, 1]", "2"
	if rows == 630 {
		idx, n = "[6, 7, 2, 3]", "4"
	}
	return strings.NewReplacer("FMT", format, "ROWS", strconv.Itoa(5040/rows), "ROW", strconv.Itoa(rows), "IDX", idx, "NI", n).Replace(`func.func @f(%x: tensor<1x512xf32>) -> tensor<2x3xf32> {
  %w = graph.param "exps" : tensor<5040xui8>
  %i = graph.constant dense<IDX> : tensor<NIxi32>
  %s = graph.reshape %w : (tensor<5040xui8>) -> tensor<ROWSxROWxui8>
  %g = graph.gather %s, %i {axis = 0 : i64} : (tensor<ROWSxROWxui8>, tensor<NIxi32>) -> tensor<NIxROWxui8>
  %r = graph.reshape %g : (tensor<NIxROWxui8>) -> tensor<2x1260xui8>
  %a = graph.slice %r {axis = 0 : i64, length = 1 : i64, start = 0 : i64} : (tensor<2x1260xui8>) -> tensor<1x1260xui8>
  %a1 = graph.reshape %a : (tensor<1x1260xui8>) -> tensor<1260xui8>
  %ya = graph.dequant_matmul %x, %a1 {format = "FMT", k = 512 : i64, n = 3 : i64} : (tensor<1x512xf32>, tensor<1260xui8>) -> tensor<1x3xf32>
  %b = graph.slice %r {axis = 0 : i64, length = 1 : i64, start = 1 : i64} : (tensor<2x1260xui8>) -> tensor<1x1260xui8>
  %b1 = graph.reshape %b : (tensor<1x1260xui8>) -> tensor<1260xui8>
  %yb = graph.dequant_matmul %x, %b1 {format = "FMT", k = 512 : i64, n = 3 : i64} : (tensor<1x512xf32>, tensor<1260xui8>) -> tensor<1x3xf32>
  %y = graph.concat %ya, %yb {axis = 0 : i64} : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}`)
}

// TestExpertStack: a packed weight read through an MoE block's reshape,
// gather and slice is known as a stack of matrices. The seeded weights
// make it whole valid blocks, matrix by matrix; a q6_k stack bound to a
// graph that reads q6_k_c16 is rearranged expert by expert, and the
// chosen experts give the same results bit for bit, which are x·Wᵀ of
// experts 3 and 1; a stack read through a gather that cuts matrices is
// refused a rearrangement.
func TestExpertStack(t *testing.T) {
	compile := func(src string) *Program {
		p, err := Compile(parseOpts(t, src, false, true), "f")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	q6, cols := compile(stackModule("q6_k", 1260)), compile(stackModule("q6_k_c16", 1260))
	if q := q6.Params()[0].Quant; q == nil || !q.Stacked || q.Partial || q.N != 3 || q.K != 512 {
		t.Fatalf("the stack's use: %+v", q)
	}
	w, err := Materialize(Seeded(1), q6, cols)
	if err != nil {
		t.Fatal(err)
	}
	stack := w.Tensors["exps"].Bytes()
	x, _ := SeededInputs(1, q6)
	want := make([]float64, 0, 6)
	for _, e := range []int{3, 1} {
		m, err := gguf.Dequantize(gguf.Q6_K, stack[e*1260:(e+1)*1260], 3, 512)
		if err != nil {
			t.Fatal(err)
		}
		for r := range 3 {
			s := 0.0
			for j, v := range m[r*512 : (r+1)*512] {
				if !(math.Abs(float64(v)) <= 1.01/math.Sqrt(512)) {
					t.Fatalf("expert %d weight [%d, %d] = %v: not a seeded weight of [−1/√K, 1/√K]", e, r, j, v)
				}
				s += float64(v) * float64(x[0].Floats()[j])
			}
			want = append(want, s)
		}
	}
	a, err := q6.Run(x, w)
	if err != nil {
		t.Fatal(err)
	}
	b, err := cols.Run(x, w)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range a[0].Floats() {
		if math.Float32bits(v) != math.Float32bits(b[0].Floats()[i]) || math.Abs(float64(v)-want[i]) > 1e-5 {
			t.Errorf("output %d: %v as q6_k, %v as q6_k_c16, x·Wᵀ %v", i, v, b[0].Floats()[i], want[i])
		}
	}

	cut := compile(stackModule("q6_k_c16", 630))
	if q := cut.Params()[0].Quant; q == nil || !q.Partial {
		t.Fatalf("a gather of half matrices: %+v", q)
	}
	if _, err := cut.Run(x, w); err == nil || !strings.Contains(err.Error(), `weight "exps": it is read as q6_k_c16 [3, 512] through a gather or slice that cuts inside a matrix`) {
		t.Errorf("a cut stack rearranged: %v", err)
	}
	if _, err := cut.Run(x, Seeded(1)); err != nil {
		t.Errorf("a cut stack's seeded bytes: %v", err)
	}
}

// TestSeededPackedInputs: a ui8 argument a dequant_matmul reads gets
// uniform bytes (any block a caller might feed) with its f16 scales made
// finite, and only those bytes differ from the draw (so that the seeds'
// other inputs stay as they were).
func TestSeededPackedInputs(t *testing.T) {
	p := compile(t, `func.func @f(%x: tensor<1x32xf32>, %w: tensor<1152xui8>) -> tensor<1x64xf32> {
  %y = graph.dequant_matmul %x, %w {format = "q4_0", k = 32 : i64, n = 64 : i64} : (tensor<1x32xf32>, tensor<1152xui8>) -> tensor<1x64xf32>
  return %y : tensor<1x64xf32>
}`)
	if q := p.Args()[1].Quant; q == nil || q.Format != gguf.Q4_0 || q.N != 64 || q.K != 32 {
		t.Fatalf("argument #1's use: %+v", q)
	}
	changed := 0
	for seed := range uint64(50) {
		in, err := SeededInputs(seed, p)
		if err != nil {
			t.Fatal(err)
		}
		w := in[1].Bytes()
		drawn, err := SeededTensor(seed, 'i', Spec{Name: "arg1", Type: TensorType{DType: tensor.UI8, Shape: []int{1152}}})
		if err != nil {
			t.Fatal(err)
		}
		for b := 0; b < 64; b++ {
			if d := tensor.F16BitsToF32(uint16(w[18*b]) | uint16(w[18*b+1])<<8); math.IsInf(float64(d), 0) || math.IsNaN(float64(d)) {
				t.Fatalf("seed %d: block %d's d is %v", seed, b, d)
			}
		}
		for i, c := range drawn.Bytes() {
			if c != w[i] {
				if i%18 != 1 || c&0x7C != 0x7C || w[i] != c&^0x40 {
					t.Fatalf("seed %d: byte %d is %#x, drawn %#x", seed, i, w[i], c)
				}
				changed++
			}
		}
	}
	if changed == 0 {
		t.Error("no non-finite scale among 3,200 drawn: the test shows nothing")
	}
}

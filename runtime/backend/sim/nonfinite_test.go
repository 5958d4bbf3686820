package sim_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/internal/conditioning"
	"github.com/rlx-compiler/rlx/internal/mpsregions"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestNonFiniteScales: graph.dequant_matmul's contract for a block whose
// f16 scale (d, or q4_k's dmin) is ±Inf or NaN: every result that block
// enters is non-finite in the kernels as in the interpreter, and every
// other result is a number that matches. Which non-finite value comes
// out is not specified: the interpreter multiplies each weight by its
// scale (Inf · 0 is NaN), the kernels factor the scale out of a block's
// sum (±Inf), so random-bytes seed 4297 found an Inf where the
// interpreter has NaN. Every format, at a short row (one kernel shape)
// and a long one (the staged and column kernels), for one and two rows
// of x.
func TestNonFiniteScales(t *testing.T) {
	needClang(t)
	const n = 8
	var cases []*nonFiniteCase
	var src strings.Builder
	for _, f := range []gguf.Format{gguf.Q4_0, gguf.Q8_0, gguf.Q4_K, gguf.Q6_K, gguf.Q6_KC16} {
		for _, k := range []int{256, 4096} {
			for _, m := range []int{1, 2} {
				c, err := newNonFiniteCase(f, n, k, m)
				if err != nil {
					t.Fatal(err)
				}
				cases = append(cases, c)
				src.WriteString(c.src)
			}
		}
	}
	// One module, emitted and compiled once.
	mod, err := asm.ParseString(mpsregions.NewContext(), "f.mlir", src.String())
	if err != nil {
		t.Fatal(err)
	}
	progs := map[string]*ref.Program{}
	for _, c := range cases {
		if progs[c.name], err = ref.Compile(mod, c.name); err != nil {
			t.Fatal(err)
		}
	}
	for op := range builtin.Body(mod).Ops() {
		if _, err := hybridsplit.Split(op, hybridsplit.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	em, err := emitModule(mod)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, want, err := runBoth(em, c.name, progs[c.name], c.in, &ref.TensorWeights{})
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, got[0].Floats(), want[0].Floats())
		})
	}
}

// nonFiniteCase is a function of one dequant_matmul of an [n, k] weight
// in format f, on m rows of x, whose rows 0 to 3 have non-finite scales.
type nonFiniteCase struct {
	name, src string
	n         int
	in        []*tensor.Tensor
}

func newNonFiniteCase(f gguf.Format, n, k, m int) (*nonFiniteCase, error) {
	rng := tensor.NewRNG(uint64(k*10 + m))
	w, err := rng.Uniform(tensor.F32, []int{n, k}, -0.1, 0.1)
	if err != nil {
		return nil, err
	}
	x, err := rng.Uniform(tensor.F32, []int{m, k}, -1, 1)
	if err != nil {
		return nil, err
	}
	data, err := gguf.Quantize(f.Storage(), w.Floats(), n, k)
	if err != nil {
		return nil, err
	}
	// Rows 0, 1 and 2 get a +Inf, a NaN and a −Inf scale (in their last
	// block; q4_k's d and dmin both in row 2), row 3 all of them +Inf;
	// the other rows stay finite.
	offsets := map[int][]int{}
	for o := range gguf.ScaleOffsets(f.Storage(), n, k) {
		row := o / (len(data) / n)
		offsets[row] = append(offsets[row], o)
	}
	set := func(o int, bits uint16) { data[o], data[o+1] = byte(bits), byte(bits>>8) }
	last := func(row int) int { return offsets[row][len(offsets[row])-1] }
	set(last(0), 0x7C00)
	set(last(1), 0x7E01)
	for _, o := range offsets[2][max(len(offsets[2])-2, 0):] {
		set(o, 0xFC00)
	}
	for _, o := range offsets[3] {
		set(o, 0x7C00)
	}
	if f == gguf.Q6_KC16 {
		if data, err = gguf.Convert(data, gguf.Q6_K, f, n, k); err != nil {
			return nil, err
		}
	}
	wt, err := tensor.FromBytes([]int{len(data)}, data)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("%v_k%d_m%d", f, k, m)
	src := fmt.Sprintf(`func.func @%[6]s(%%x: tensor<%[1]dx%[2]dxf32>, %%w: tensor<%[3]dxui8>) -> tensor<%[1]dx%[4]dxf32> {
  %%y = graph.dequant_matmul %%x, %%w {format = %[5]q, k = %[2]d : i64, n = %[4]d : i64} : (tensor<%[1]dx%[2]dxf32>, tensor<%[3]dxui8>) -> tensor<%[1]dx%[4]dxf32>
  return %%y : tensor<%[1]dx%[4]dxf32>
}
`, m, k, len(data), n, f, name)
	return &nonFiniteCase{name: name, src: src, n: n, in: []*tensor.Tensor{x, wt}}, nil
}

// check checks the kernels' results g against the interpreter's e.
func (c *nonFiniteCase) check(t *testing.T, g, e []float32) {
	var finiteGot, finiteWant []float32
	for i := range e {
		row := i % c.n
		gi, wi := !finite(g[i]), !finite(e[i])
		if gi != wi || wi != (row < 4) {
			t.Errorf("result [%d, %d]: kernel %v, interpreter %v; want non-finite exactly in rows 0 to 3", i/c.n, row, g[i], e[i])
		}
		if !wi {
			finiteGot, finiteWant = append(finiteGot, g[i]), append(finiteWant, e[i])
		}
	}
	a, _ := tensor.FromFloat32(tensor.F32, []int{len(finiteGot)}, finiteGot)
	b, _ := tensor.FromFloat32(tensor.F32, []int{len(finiteWant)}, finiteWant)
	if nmse := conditioning.NMSE(a, b); !(nmse <= 1e-7) {
		t.Errorf("finite results: NMSE %.3g against the interpreter, want ≤ 1e-7", nmse)
	}
}

func finite(x float32) bool { return !math.IsInf(float64(x), 0) && !math.IsNaN(float64(x)) }

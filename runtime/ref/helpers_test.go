package ref

import (
	"math"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// parse parses and verifies src (a module body) in a fresh context.
func parse(t testing.TB, src string) *ir.Operation {
	t.Helper()
	return parseOpts(t, src, false, true)
}

func parseOpts(t testing.TB, src string, unregistered, verify bool) *ir.Operation {
	t.Helper()
	ctx := ir.NewContext()
	ctx.AllowUnregistered = unregistered
	dialect.RegisterAll(ctx)
	f, err := asm.Parse(ctx, "test.mlir", []byte(src), asm.Options{})
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	if verify {
		if err := ir.Verify(f.Op); err != nil {
			t.Fatalf("verify: %v\n%s", err, src)
		}
	}
	return f.Op
}

// compile parses src and compiles its only public function.
func compile(t testing.TB, src string) *Program {
	t.Helper()
	p, err := Compile(parse(t, src), "")
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, src)
	}
	return p
}

// seededRun runs p on seeded inputs and materialised seeded weights and
// returns inputs, weights and results.
func seededRun(t testing.TB, p *Program, seed uint64) ([]*tensor.Tensor, *TensorWeights, []*tensor.Tensor) {
	t.Helper()
	in, err := SeededInputs(seed, p)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Materialize(Seeded(seed), p)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Run(in, w)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return in, w, out
}

func f32(t testing.TB, shape []int, v ...float32) *tensor.Tensor {
	t.Helper()
	x, err := tensor.FromFloat32(tensor.F32, shape, v)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// maxLive returns the largest number of slots that hold a value at once
// during a run, from the program's free lists.
func (p *Program) maxLive() int {
	live := make([]bool, p.slots)
	n, peak := 0, 0
	set := func(s int32, v bool) {
		if live[s] != v {
			live[s] = v
			if v {
				n++
			} else {
				n--
			}
		}
	}
	for _, s := range p.argSlots {
		set(s, true)
	}
	peak = n
	for _, in := range p.code {
		for _, s := range in.out {
			set(s, true)
		}
		peak = max(peak, n)
		for _, s := range in.free {
			set(s, false)
		}
	}
	return peak
}

func nan() float64     { return math.NaN() }
func inf() float64     { return math.Inf(1) }
func negZero() float64 { return math.Copysign(0, -1) }

package ref

import (
	"flag"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/rlx-compiler/rlx/runtime/kernels"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// The interpreter's speed on a Qwen3.5-like decode step at hidden 1024 with
// 8 layers (decode_test.go): tokens per second (decode steps per second),
// and the GFLOP/s of the step's matmuls, next to a plain triple-loop Go
// matmul. bench/interp.sh runs these and adds the machine's peak estimate.

var benchMLIR = flag.String("bench-mlir", "", "BenchmarkDecodeFile: the .mlir file whose only public function it runs")

type benchModel struct {
	once  sync.Once
	p     *Program
	in    []*tensor.Tensor
	w     *TensorWeights
	flops float64
	err   error
}

var decodeBench, fileBench benchModel

// setup compiles src once per process and materialises seeded weights.
func (m *benchModel) setup(b *testing.B, src func() (string, error)) (*Program, []*tensor.Tensor, *TensorWeights, float64) {
	m.once.Do(func() {
		var text string
		if text, m.err = src(); m.err != nil {
			return
		}
		var p *Program
		if p, m.err = Compile(parse(b, text), ""); m.err != nil {
			return
		}
		if m.in, m.err = SeededInputs(1, p); m.err != nil {
			return
		}
		m.w, m.err = Materialize(Seeded(1), p)
		m.p, m.flops = p, matmulFLOPs(p)
	})
	if m.err != nil {
		b.Fatal(m.err)
	}
	return m.p, m.in, m.w, m.flops
}

// matmulFLOPs counts 2·M·K·N for every graph.matmul and
// graph.dequant_matmul of one run.
func matmulFLOPs(p *Program) float64 {
	var flops float64
	for _, in := range p.code {
		switch in.op.Name() {
		case "graph.matmul", "graph.dequant_matmul":
			a, err := tensorType(in.op.Operand(0).Type())
			if err != nil {
				continue
			}
			k := a.Shape[len(a.Shape)-1]
			flops += 2 * float64(tensor.NumElements(in.outT[0].Shape)) * float64(k)
		}
	}
	return flops
}

// BenchmarkDecode runs whole decode steps of decodeMLIR(qwenDecode).
func BenchmarkDecode(b *testing.B) {
	p, in, w, flops := decodeBench.setup(b, func() (string, error) { return decodeMLIR(qwenDecode), nil })
	benchRun(b, p, in, w, flops)
}

// BenchmarkDecodeFile runs the function of -bench-mlir (bench/interp.sh
// passes rlx-gen's qwen35 at the same size).
func BenchmarkDecodeFile(b *testing.B) {
	if *benchMLIR == "" {
		b.Skip("needs -bench-mlir FILE")
	}
	p, in, w, flops := fileBench.setup(b, func() (string, error) {
		text, err := os.ReadFile(*benchMLIR)
		return string(text), err
	})
	benchRun(b, p, in, w, flops)
}

// benchRun runs p per iteration and reports: tokens/s (steps per second);
// GFLOP/s, the matmul FLOPs over the whole step's time; matmul-GFLOP/s,
// over the time spent in the matmul kernels alone (from a profile);
// cpu-ms/token and GFLOP/cpu-s, per CPU-second the process got (what
// stays meaningful when other work shares the machine); and the share of
// the step spent in matmuls.
func benchRun(b *testing.B, p *Program, in []*tensor.Tensor, w Weights, flops float64) {
	prof := p.NewProfile()
	cpu0 := processCPUSeconds()
	start := time.Now()
	for b.Loop() {
		if _, err := p.RunProfile(in, w, prof); err != nil {
			b.Fatal(err)
		}
	}
	wall := time.Since(start).Seconds()
	n := float64(b.N)
	b.ReportMetric(n/wall, "tokens/s")
	b.ReportMetric(flops*n/wall/1e9, "GFLOP/s")
	mm := (prof.Time("graph.matmul") + prof.Time("graph.dequant_matmul")).Seconds()
	b.ReportMetric(flops*n/mm/1e9, "matmul-GFLOP/s")
	b.ReportMetric(100*mm/wall, "%matmul")
	if cpu := processCPUSeconds() - cpu0; cpu0 > 0 && cpu > 0 {
		b.ReportMetric(flops*n/cpu/1e9, "GFLOP/cpu-s")
		b.ReportMetric(1000*cpu/n, "cpu-ms/token")
	}
}

// BenchmarkDecodeNoProfile is BenchmarkDecode without the per-op timer,
// to show that profiling costs nothing measurable.
func BenchmarkDecodeNoProfile(b *testing.B) {
	p, in, w, _ := decodeBench.setup(b, func() (string, error) { return decodeMLIR(qwenDecode), nil })
	for b.Loop() {
		if _, err := p.Run(in, w); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
}

// BenchmarkDecodeMatMuls calls the kernels directly for the step's matmuls
// only (same shapes, same count): the floor the interpreter sits on.
func BenchmarkDecodeMatMuls(b *testing.B) {
	shapes := decodeMatMulShapes(qwenDecode)
	rng := tensor.NewRNG(2)
	type mm struct{ x, w *tensor.Tensor }
	var ops []mm
	for _, s := range shapes {
		x, _ := rng.Uniform(tensor.F32, []int{1, s[0]}, -1, 1)
		w, _ := rng.Uniform(tensor.F32, []int{s[0], s[1]}, -1, 1)
		ops = append(ops, mm{x, w})
	}
	flops := qwenDecode.matmulFLOPs()
	cpu0 := processCPUSeconds()
	for b.Loop() {
		for _, o := range ops {
			if _, err := kernels.MatMul(o.x, o.w, tensor.F32); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	if cpu := processCPUSeconds() - cpu0; cpu0 > 0 && cpu > 0 {
		b.ReportMetric(flops*float64(b.N)/cpu/1e9, "GFLOP/cpu-s")
	}
}

// BenchmarkNaiveMatMul is the plain triple loop (i, j, k, scalar
// accumulator, one goroutine) on the step's two most common shapes.
func BenchmarkNaiveMatMul(b *testing.B) {
	for _, s := range [][2]int{{1024, 1024}, {1024, 2816}} {
		K, N := s[0], s[1]
		rng := tensor.NewRNG(3)
		x, _ := rng.Uniform(tensor.F32, []int{1, K}, -1, 1)
		w, _ := rng.Uniform(tensor.F32, []int{K, N}, -1, 1)
		c := make([]float32, N)
		b.Run(fmt.Sprintf("1x%dx%d", K, N), func(b *testing.B) {
			cpu0 := processCPUSeconds()
			for b.Loop() {
				naiveMatMul(c, x.Floats(), w.Floats(), 1, K, N)
			}
			flops := 2 * float64(K*N) * float64(b.N)
			b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			if cpu := processCPUSeconds() - cpu0; cpu0 > 0 && cpu > 0 {
				b.ReportMetric(flops/cpu/1e9, "GFLOP/cpu-s")
			}
		})
	}
}

func naiveMatMul(c, a, b []float32, M, K, N int) {
	for i := range M {
		for j := range N {
			var s float32
			for k := range K {
				s += float32(a[i*K+k] * b[k*N+j])
			}
			c[i*N+j] = s
		}
	}
}

// decodeMatMulShapes lists the [K, N] of every matmul of one decode step.
func decodeMatMulShapes(c decodeConfig) [][2]int {
	e, qd, kvd := c.Hidden, c.Heads*c.HeadDim, c.KVHeads*c.HeadDim
	var out [][2]int
	for l := range c.Layers {
		if c.attention(l) {
			out = append(out, [2]int{e, qd}, [2]int{e, kvd}, [2]int{e, kvd}, [2]int{e, qd}, [2]int{qd, e})
		} else {
			out = append(out, [2]int{e, qd}, [2]int{e, qd}, [2]int{e, qd}, [2]int{e, c.Heads}, [2]int{e, c.Heads}, [2]int{e, qd}, [2]int{qd, e})
		}
		out = append(out, [2]int{e, c.FFN}, [2]int{e, c.FFN}, [2]int{c.FFN, e})
	}
	return out
}

// TestDecodeMatMulShapes keeps the FLOP count and the shape list in step
// with the generated graph.
func TestDecodeMatMulShapes(t *testing.T) {
	var flops float64
	for _, s := range decodeMatMulShapes(qwenDecode) {
		flops += 2 * float64(s[0]*s[1])
	}
	if flops != qwenDecode.matmulFLOPs() {
		t.Errorf("shapes give %g FLOPs, matmulFLOPs %g", flops, qwenDecode.matmulFLOPs())
	}
	p := compile(t, decodeMLIR(tinyDecode))
	if got, want := matmulFLOPs(p), tinyDecode.matmulFLOPs(); got != want {
		t.Errorf("the program's matmuls count %g FLOPs, the config %g", got, want)
	}
	n := 0
	for _, in := range p.code {
		if in.op.Name() == "graph.matmul" {
			n++
		}
	}
	if n != len(decodeMatMulShapes(tinyDecode)) {
		t.Errorf("graph has %d matmuls, shape list %d", n, len(decodeMatMulShapes(tinyDecode)))
	}
}

package models

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TestRandomWeights checks that RandomWeights binds every param with a
// tensor of its type, that packed weights are valid GGUF blocks, and that
// a weight's values depend only on the seed and its name.
func TestRandomWeights(t *testing.T) {
	for _, v := range variants()[:3] {
		t.Run(v.name, func(t *testing.T) {
			m := mustBuild(t, v)
			w, err := m.RandomWeights(7)
			if err != nil {
				t.Fatal(err)
			}
			if len(w.Tensors) != len(m.Params) {
				t.Fatalf("%d tensors for %d params", len(w.Tensors), len(m.Params))
			}
			for _, p := range m.Params {
				x := w.Tensors[p.Name]
				dt, _ := dtypeOf(p.Type.Elem)
				if x == nil || x.DType() != dt || !tensor.ShapeEqual(x.Shape(), intShape(p.Type)) {
					t.Errorf("%s: %v, want %v", p.Name, x, p.Type)
					continue
				}
				if p.Format != "" {
					f, _ := gguf.ParseFormat(string(p.Format))
					if _, err := gguf.Dequantize(f, x.Bytes(), int(p.N), int(p.K)); err != nil {
						t.Errorf("%s: %v", p.Name, err)
					}
				}
			}
			again, _ := m.RandomWeights(7)
			other, _ := m.RandomWeights(8)
			for name, x := range w.Tensors {
				if !tensor.BitsEqual(x, again.Tensors[name]) {
					t.Errorf("%s differs between two draws from one seed", name)
				}
				if x.Len() > 4 && tensor.BitsEqual(x, other.Tensors[name]) {
					t.Errorf("%s is the same for seeds 7 and 8", name)
				}
			}
		})
	}
	// Layer 0 of a one-layer and of a four-layer model agree.
	small := mustBuild(t, variant{"", qwen35With(func(c *Qwen35Config) { c.Layers = 1 })})
	big := mustBuild(t, variants()[0])
	ws, _ := small.RandomWeights(1)
	wb, _ := big.RandomWeights(1)
	for name, x := range ws.Tensors {
		if !tensor.BitsEqual(x, wb.Tensors[name]) {
			t.Errorf("%s depends on the number of layers", name)
		}
	}
}

// TestRandomInputs checks the inputs' types and value ranges.
func TestRandomInputs(t *testing.T) {
	for _, v := range variants()[:3] {
		m := mustBuild(t, v)
		in, err := m.RandomInputs(3)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range m.Inputs {
			x := in[i]
			dt, _ := dtypeOf(p.Type.Elem)
			if x.DType() != dt || !tensor.ShapeEqual(x.Shape(), intShape(p.Type)) {
				t.Errorf("%s %s: %v, want %v", m.Name, p.Name, x.Type(), p.Type)
				continue
			}
			for j := range x.Len() {
				val := x.Float64(j)
				switch p.Gen.Kind {
				case InputInt, InputUniform:
					hi := p.Gen.Hi
					if p.Gen.Kind == InputInt {
						hi--
					}
					if val < p.Gen.Lo || val > hi {
						t.Errorf("%s %s[%d] = %g, outside [%g, %g]", m.Name, p.Name, j, val, p.Gen.Lo, hi)
					}
				case InputMask:
					sk := int(p.Type.Shape[len(p.Type.Shape)-1])
					if val != 0 && val != 1 || j%sk == sk-1 && val != 1 {
						t.Errorf("%s %s[%d] = %g", m.Name, p.Name, j, val)
					}
				}
			}
		}
	}
}

// TestGolden runs the toy models through the reference interpreter twice,
// with RandomInputs(1) and RandomWeights(1), and checks that the results
// are bit-identical, finite, and match testdata/golden.txt.
func TestGolden(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("# Checksums (ref.Checksum) of the toy models' results on RandomInputs(1) and RandomWeights(1)\n")
	sb.WriteString("# (go test ./models -run TestGolden -update).\n")
	for _, v := range variants()[:3] {
		m := mustBuild(t, v)
		first, _ := runRandom(t, m)
		second, _ := runRandom(t, m)
		fmt.Fprintf(&sb, "\n%s\n", v.name)
		for i, x := range first {
			if !tensor.BitsEqual(x, second[i]) {
				t.Errorf("%s: result %s differs between two runs", v.name, m.Outputs[i].Name)
			}
			for _, f := range x.Floats() {
				if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
					t.Errorf("%s: result %s holds %v", v.name, m.Outputs[i].Name, f)
					break
				}
			}
			fmt.Fprintf(&sb, "  %-16s %-24s %016x\n", m.Outputs[i].Name, x.Type(), ref.Checksum(x))
		}
	}
	golden(t, "testdata/golden.txt", sb.String())
}

// TestQ6KColumns runs Qwen3.5 with q6_k projections and with the same
// weights as q6_k_c16 (RandomWeights draws the same floats by name; the
// blocks are rearranged): the interpreter's results are bit-identical,
// and the q6_k_c16 module binds other bytes.
func TestQ6KColumns(t *testing.T) {
	run := func(q graph.QuantFormat) ([]*tensor.Tensor, *tensor.Safetensors) {
		m, err := qwen35With(func(c *Qwen35Config) { c.Hidden, c.Layers, c.Quant = 512, 2, q })(newContext())
		if err != nil {
			t.Fatal(err)
		}
		if counts, _ := m.OpCounts(); counts[graph.DequantMatMulName] == 0 {
			t.Fatalf("%s: no dequant_matmul", q)
		}
		return runRandom(t, m)
	}
	a, wa := run(graph.Q6_K)
	b, wb := run(graph.Q6_KC16)
	for i := range a {
		if !tensor.BitsEqual(a[i], b[i]) {
			t.Errorf("result %d differs between q6_k and q6_k_c16", i)
		}
	}
	differ := 0
	for name, x := range wa.Tensors {
		if x.DType() == tensor.UI8 && !bytes.Equal(x.Bytes(), wb.Tensors[name].Bytes()) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("no packed weight differs: the q6_k_c16 module read q6_k's bytes")
	}
}

// runRandom runs m through the reference interpreter on RandomInputs(1)
// and RandomWeights(1), and returns its results and the weights.
func runRandom(t *testing.T, m *Model) ([]*tensor.Tensor, *tensor.Safetensors) {
	t.Helper()
	in, err := m.RandomInputs(1)
	if err != nil {
		t.Fatal(err)
	}
	w, err := m.RandomWeights(1)
	if err != nil {
		t.Fatal(err)
	}
	out, err := ref.RunModule(m.Module, FuncName, in, &ref.TensorWeights{Tensors: w.Tensors})
	if err != nil {
		t.Fatalf("%s: %v", m.Name, err)
	}
	return out, w
}

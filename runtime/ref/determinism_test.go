package ref

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

func TestDecodeModelRuns(t *testing.T) {
	p := compile(t, decodeMLIR(tinyDecode))
	_, _, out := seededRun(t, p, 1)
	if len(out) != 1+tinyDecode.Layers+1 { // hidden, 2 GDN states, one k and v cache
		t.Fatalf("%d results", len(out))
	}
	for i, r := range out {
		for j := range r.Len() {
			if v := r.Float64(j); v != v {
				t.Fatalf("result %d has NaN at %d", i, j)
			}
		}
	}
}

// TestDeterminism runs the decode step twice and under GOMAXPROCS 1 and 2:
// the results must be the same bits every time.
func TestDeterminism(t *testing.T) {
	cfg := tinyDecode
	if !testing.Short() {
		cfg = decodeConfig{Hidden: 256, Layers: 3, Heads: 4, KVHeads: 2, HeadDim: 64, FFN: 704, Cache: 17}
	}
	p := compile(t, decodeMLIR(cfg))
	in, err := SeededInputs(11, p)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Materialize(Seeded(11), p)
	if err != nil {
		t.Fatal(err)
	}
	run := func(procs int) []*tensor.Tensor {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		out, err := p.Run(in, w)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	first := run(2)
	for _, procs := range []int{2, 1, 3} {
		again := run(procs)
		for i := range first {
			if !tensor.BitsEqual(first[i], again[i]) {
				t.Errorf("GOMAXPROCS=%d: result %d differs", procs, i)
			}
		}
	}
	// Lazily generated weights give the same bits as materialised ones.
	lazy, err := p.Run(in, Seeded(11))
	if err != nil {
		t.Fatal(err)
	}
	for i := range first {
		if !tensor.BitsEqual(first[i], lazy[i]) {
			t.Errorf("lazy seeded weights: result %d differs", i)
		}
	}
}

// TestSafetensorsRoundTrip writes the seeded weights to a safetensors file,
// reads them back and checks that a run with the file equals the seeded run.
func TestSafetensorsRoundTrip(t *testing.T) {
	src := decodeMLIR(tinyDecode) + `
func.func private @types(%x: tensor<1x32xf32>) -> (tensor<4xf16>, tensor<4xbf16>, tensor<3xi32>, tensor<3xi64>, tensor<2xi8>, tensor<2xi1>, tensor<1x2xf32>) {
  %a = graph.param "h" : tensor<4xf16>
  %b = graph.param "b" : tensor<4xbf16>
  %c = graph.param "i" : tensor<3xi32>
  %d = graph.param "j" : tensor<3xi64>
  %e = graph.param "k" : tensor<2xi8>
  %f = graph.param "m" : tensor<2xi1>
  %w = graph.param "q" : tensor<68xui8>
  %g = graph.dequant_matmul %x, %w {format = "q8_0", n = 2, k = 32} : (tensor<1x32xf32>, tensor<68xui8>) -> tensor<1x2xf32>
  return %a, %b, %c, %d, %e, %f, %g : tensor<4xf16>, tensor<4xbf16>, tensor<3xi32>, tensor<3xi64>, tensor<2xi8>, tensor<2xi1>, tensor<1x2xf32>
}`
	mod := parse(t, src)
	path := filepath.Join(t.TempDir(), "w.safetensors")
	for _, entry := range []string{"decode", "types"} {
		p, err := Compile(mod, entry)
		if err != nil {
			t.Fatal(err)
		}
		in, _ := SeededInputs(4, p)
		want, err := p.Run(in, Seeded(4))
		if err != nil {
			t.Fatal(err)
		}
		w, err := Materialize(Seeded(4), p)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteWeights(path, w); err != nil {
			t.Fatal(err)
		}
		back, err := ReadWeights(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Run(in, back)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if !tensor.BitsEqual(want[i], got[i]) {
				t.Errorf("%s: result %d differs after the round trip: %v vs %v", entry, i, want[i], got[i])
			}
		}
	}
	os.Remove(path)
}

// TestConcurrentRuns runs one program from several goroutines at once.
func TestConcurrentRuns(t *testing.T) {
	p := compile(t, decodeMLIR(tinyDecode))
	in, _ := SeededInputs(2, p)
	want, err := p.Run(in, Seeded(2))
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			got, err := p.Run(in, Seeded(2))
			for i := range got {
				if err == nil && !tensor.BitsEqual(got[i], want[i]) {
					err = fmt.Errorf("result %d differs", i)
				}
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

package asm_test

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/ir"
)

// decodeGraph returns the text of ../shared/bench/gen_decode.py with the
// given number of layers, generated once per test binary run.
func decodeGraph(b *testing.B, layers string) []byte {
	b.Helper()
	gen := filepath.Join("..", "..", "shared", "bench", "gen_decode.py")
	if _, err := os.Stat(gen); err != nil {
		b.Skip("gen_decode.py not found at " + gen)
	}
	out, err := exec.Command("python3", gen, layers, "--gdn-every", "4").Output()
	if err != nil {
		b.Skip("python3 gen_decode.py failed: ", err)
	}
	return out
}

func benchParse(b *testing.B, layers string) {
	src := decodeGraph(b, layers)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ctx := newFuzzContext()
		if _, err := asm.Parse(ctx, "decode.mlir", src, asm.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func benchRoundTrip(b *testing.B, layers string) {
	src := decodeGraph(b, layers)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ctx := newFuzzContext()
		f, err := asm.Parse(ctx, "decode.mlir", src, asm.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := ir.Verify(f.Op); err != nil {
			b.Fatal(err)
		}
		if err := ir.Print(io.Discard, f.Op, ir.PrintOptions{Generic: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseDecode300 parses a 300-layer decode graph (about 10k ops).
func BenchmarkParseDecode300(b *testing.B) { benchParse(b, "300") }

// BenchmarkRoundTripDecode300 parses, verifies and prints it.
func BenchmarkRoundTripDecode300(b *testing.B) { benchRoundTrip(b, "300") }

// BenchmarkRoundTripDecode3000 is the 100k-op case of the benchmark.
func BenchmarkRoundTripDecode3000(b *testing.B) { benchRoundTrip(b, "3000") }

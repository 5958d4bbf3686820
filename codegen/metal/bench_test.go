package metal_test

import (
	"io"
	"os"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
)

// The benchmarks read the files bench/codegen-metal.sh makes: the
// gen_decode graph ($RLX_BENCH_INPUT) and its split form
// ($RLX_BENCH_SPLIT). Emission is measured against parsing them.

func benchFile(b *testing.B, env string) string {
	b.Helper()
	path := os.Getenv(env)
	if path == "" {
		b.Skipf("set %s (bench/codegen-metal.sh does)", env)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return string(data)
}

func parse(b *testing.B, src string) *ir.Operation {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := asm.ParseString(ctx, "bench.mlir", src)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkParseInput parses the graph before hybrid-split.
func BenchmarkParseInput(b *testing.B) {
	src := benchFile(b, "RLX_BENCH_INPUT")
	for b.Loop() {
		parse(b, src)
	}
}

// BenchmarkParseSplit parses the graph after hybrid-split.
func BenchmarkParseSplit(b *testing.B) {
	src := benchFile(b, "RLX_BENCH_SPLIT")
	for b.Loop() {
		parse(b, src)
	}
}

// BenchmarkEmit emits the split graph's kernels and manifest (in memory).
func BenchmarkEmit(b *testing.B) {
	m := parse(b, benchFile(b, "RLX_BENCH_SPLIT"))
	for b.Loop() {
		if _, err := metal.Emit(m, metal.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmitAndWrite also writes the source and the manifest's JSON.
func BenchmarkEmitAndWrite(b *testing.B) {
	m := parse(b, benchFile(b, "RLX_BENCH_SPLIT"))
	for b.Loop() {
		out, err := metal.Emit(m, metal.Options{})
		if err != nil {
			b.Fatal(err)
		}
		io.WriteString(io.Discard, out.Source)
		if err := out.Manifest.WriteJSON(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

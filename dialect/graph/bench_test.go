package graph

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/ir"
)

// BenchmarkVerify verifies a chain of 1000 decode-like layers (matmul,
// rms_norm, attention, add, …; about 8000 graph ops).
func BenchmarkVerify(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("func.func @f(%x: tensor<1x64xf32>, %w: tensor<64x64xf32>, %g: tensor<64xf32>) -> tensor<1x64xf32> {\n  %h0 = graph.exp %x : (tensor<1x64xf32>) -> tensor<1x64xf32>\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&sb, `  %%a%[1]d = graph.rms_norm %%h%[1]d, %%g {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  %%b%[1]d = graph.matmul %%a%[1]d, %%w : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %%c%[1]d = graph.reshape %%b%[1]d : (tensor<1x64xf32>) -> tensor<1x1x4x16xf32>
  %%d%[1]d = graph.attention %%c%[1]d, %%c%[1]d, %%c%[1]d {mask = "causal"} : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>
  %%e%[1]d = graph.reshape %%d%[1]d : (tensor<1x1x4x16xf32>) -> tensor<1x64xf32>
  %%f%[1]d = graph.silu %%e%[1]d : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %%s%[1]d = graph.slice %%f%[1]d {axis = 1, length = 64, start = 0} : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %%h%[2]d = graph.add %%s%[1]d, %%h%[1]d : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
`, i, i+1)
	}
	sb.WriteString("  return %h1000 : tensor<1x64xf32>\n}\n")
	ctx := newContext()
	m, err := asm.ParseString(ctx, "bench.mlir", sb.String())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := ir.Verify(m); err != nil {
			b.Fatal(err)
		}
	}
}

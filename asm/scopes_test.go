package asm_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
)

// TestManyIsolatedRegionsAllocateLittle parses a split function of many
// small isolated regions (thunk.call) in a file of several megabytes.
// Each region was a name scope of its own; sizing every one of them for
// the rest of the file made parsing a 10^5-op split file allocate 22 GB
// and take 35 s. (Regions now share the file's names, as in MLIR, and only
// that one table is sized.) The bound is generous (the parse allocates
// about 15 bytes per byte of input); the bug was a thousand times over it.
// The regions' values are numbered after the function's, as the printer
// (MLIR's too) numbers them: a region's names must not redefine the
// enclosing function's, isolated or not.
func TestManyIsolatedRegionsAllocateLittle(t *testing.T) {
	const regions = 4000
	var sb strings.Builder
	sb.WriteString("func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n")
	prev := "%arg0"
	for i := 0; i < regions; i++ {
		fmt.Fprintf(&sb, "  %%%d = thunk.call @f_thunk%d(%s) {target = \"metal\"} : (tensor<4xf32>) -> tensor<4xf32> {\n", i, i, prev)
		sb.WriteString("  ^bb0(%arg1: tensor<4xf32>):\n")
		fmt.Fprintf(&sb, "    %%%d = graph.exp %%arg1 : (tensor<4xf32>) -> tensor<4xf32>\n", regions)
		fmt.Fprintf(&sb, "    %%%d = graph.neg %%%d : (tensor<4xf32>) -> tensor<4xf32>\n", regions+1, regions)
		fmt.Fprintf(&sb, "    thunk.yield %%%d : tensor<4xf32>\n  }\n", regions+1)
		prev = fmt.Sprintf("%%%d", i)
	}
	fmt.Fprintf(&sb, "  return %s : tensor<4xf32>\n}\n", prev)
	// Padding after the function keeps "the rest of the file" large for
	// every region, as in a real split file.
	sb.WriteString(strings.Repeat("// padding so that the rest of the file is over a megabyte\n", 1<<15))
	src := []byte(sb.String())
	if len(src) < 2<<20 {
		t.Fatalf("input is %d bytes; the test needs more than 2 MB", len(src))
	}
	var parsed *asm.File
	allocs := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			ctx := ir.NewContext()
			dialect.RegisterAll(ctx)
			f, err := asm.Parse(ctx, "in.mlir", src, asm.Options{})
			if err != nil {
				b.Fatal(err)
			}
			parsed = f
		}
	})
	if parsed == nil {
		t.Fatal("no parse")
	}
	if per := allocs.AllocedBytesPerOp(); per > int64(40*len(src)) {
		t.Errorf("parsing %d bytes allocated %d bytes (%.0f per input byte)", len(src), per, float64(per)/float64(len(src)))
	}
}

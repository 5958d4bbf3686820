package filecheck

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// bigInput is an MLIR-like text of n lines.
func bigInput(n int) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "  %%v%d = arith.addi %%v%d, %%c%d : i32 loc(#loc%d)\n", i, i-1, i%7, i)
	}
	return sb.String()
}

func benchCheck(b *testing.B, checkText, input string) {
	b.Helper()
	opts := DefaultOptions()
	opts.DumpInput = DumpNever
	b.SetBytes(int64(len(input)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if st := Check(opts, File{Name: "c", Text: []byte(checkText)}, File{Name: "i", Text: []byte(input)}, io.Discard); st != StatusOK {
			b.Fatalf("status %d", st)
		}
	}
}

// BenchmarkSequential: 10k CHECK/CHECK-NEXT pairs with regexes and
// variables over a 1 MB input.
func BenchmarkSequential(b *testing.B) {
	const n = 20000
	var ck strings.Builder
	for i := 0; i < n; i += 2 {
		fmt.Fprintf(&ck, "CHECK: [[V%d:%%v%d]] = arith.addi\n", i%10, i)
		fmt.Fprintf(&ck, "CHECK-NEXT: %%v{{[0-9]+}} = arith.addi [[V%d]], %%c[[#%d]]\n", i%10, (i+1)%7)
		if i%100 == 0 {
			ck.WriteString("CHECK-NOT: arith.muli\n")
		}
	}
	benchCheck(b, ck.String(), bigInput(n))
}

// BenchmarkLabels: 2000 CHECK-LABEL blocks.
func BenchmarkLabels(b *testing.B) {
	const n = 20000
	var ck strings.Builder
	for i := 0; i < n; i += 10 {
		fmt.Fprintf(&ck, "CHECK-LABEL: %%v%d =\nCHECK: loc(#loc[[#%d+5]])\n", i, i)
	}
	benchCheck(b, ck.String(), bigInput(n))
}

// BenchmarkDAGGroup: one group of 2000 CHECK-DAG lines in reverse input
// order, the case where LLVM's algorithm rescans the input per directive.
func BenchmarkDAGGroup(b *testing.B) {
	const n = 20000
	var ck strings.Builder
	for i := n - 1; i >= 0; i -= 10 {
		fmt.Fprintf(&ck, "CHECK-DAG: %%v%d = arith.addi\n", i)
	}
	benchCheck(b, ck.String(), bigInput(n))
}

// BenchmarkImplicitNot: --implicit-check-not between 5000 matches.
func BenchmarkImplicitNot(b *testing.B) {
	const n = 20000
	var ck strings.Builder
	for i := 0; i < n; i += 4 {
		fmt.Fprintf(&ck, "CHECK: %%v%d =\n", i)
	}
	opts := DefaultOptions()
	opts.DumpInput = DumpNever
	opts.ImplicitCheckNot = []string{"arith.muli", "{{error|warning}}"}
	input := bigInput(n)
	b.SetBytes(int64(len(input)))
	for i := 0; i < b.N; i++ {
		if st := Check(opts, File{Name: "c", Text: []byte(ck.String())}, File{Name: "i", Text: []byte(input)}, io.Discard); st != StatusOK {
			b.Fatalf("status %d", st)
		}
	}
}

package asm_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
)

// TestVerifyShallow checks that Verify with Shallow sees the top op's own
// invariants and symbol uses but not errors inside nested ops, which is
// what makes it cheap after a nested pipeline.
func TestVerifyShallow(t *testing.T) {
	tests := []struct {
		name, src     string
		full, shallow string // expected error substrings; "" for none
	}{
		{
			name:    "nested bad return",
			src:     `func.func @f() -> i32 { "func.return"() : () -> () }`,
			full:    "has 0 operands, but enclosing function (@f) returns 1",
			shallow: "",
		},
		{
			name:    "duplicate symbol at the top",
			src:     `func.func private @f()` + "\n" + `func.func private @f()`,
			full:    "redefinition of symbol named 'f'",
			shallow: "redefinition of symbol named 'f'",
		},
		{
			name:    "dangling symbol use",
			src:     `func.func @f() { func.call @nope() : () -> () func.return }`,
			full:    "'nope' does not reference a valid function",
			shallow: "'nope' does not reference a valid function",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := ir.NewContext()
			dialect.RegisterAll(ctx)
			f, err := asm.Parse(ctx, "in.mlir", []byte(tc.src), asm.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				what, want string
				err        error
			}{{"Verify", tc.full, ir.Verify(f.Op)}, {"VerifyShallow", tc.shallow, ir.Verify(f.Op, ir.VerifyOptions{Shallow: true})}} {
				switch {
				case c.want == "" && c.err != nil:
					t.Errorf("%s: unexpected error %v", c.what, c.err)
				case c.want != "" && (c.err == nil || !strings.Contains(c.err.Error(), c.want)):
					t.Errorf("%s: got %v, want an error containing %q", c.what, c.err, c.want)
				}
			}
		})
	}
}

// TestVerifyParallel plants one error of each kind in a module of many
// functions and checks that Verify with Workers reports what a sequential Verify reports.
func TestVerifyParallel(t *testing.T) {
	good := func(i int) string {
		return fmt.Sprintf("func.func @f%d(%%a: i32) -> i32 {\n  %%b = \"test.op\"(%%a) : (i32) -> i32\n  return %%b : i32\n}\n", i)
	}
	bad := map[string]string{
		"op verifier":     "func.func @bad() -> i32 {\n  return\n}\n",
		"dominance":       "func.func @bad(%a: i32) -> i32 {\n  %b = \"test.op\"(%c) : (i32) -> i32\n  %c = \"test.op\"(%a) : (i32) -> i32\n  return %b : i32\n}\n",
		"symbol use":      "func.func @bad() {\n  func.call @nowhere() : () -> ()\n  return\n}\n",
		"module-level op": "\"func.return\"() : () -> ()\n",
		"duplicate":       "func.func private @f3()\n",
	}
	for name, b := range bad {
		for _, at := range []int{0, 7, 19} {
			var src strings.Builder
			for i := 0; i < 20; i++ {
				if i == at {
					src.WriteString(b)
				}
				src.WriteString(good(i))
			}
			ctx := ir.NewContext()
			ctx.AllowUnregistered = true
			dialect.RegisterAll(ctx)
			f, err := asm.Parse(ctx, "in.mlir", []byte(src.String()), asm.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := ir.Verify(f.Op)
			if want == nil {
				t.Fatalf("%s at %d: Verify found nothing", name, at)
			}
			for _, workers := range []int{1, 2, 8} {
				if got := ir.Verify(f.Op, ir.VerifyOptions{Workers: workers}); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s at %d, %d workers:\n got %v\nwant %v", name, at, workers, got, want)
				}
			}
		}
	}
}

package asm_test

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
)

// TestVerifyShallow checks that VerifyShallow sees the top op's own
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
			}{{"Verify", tc.full, ir.Verify(f.Op)}, {"VerifyShallow", tc.shallow, ir.VerifyShallow(f.Op)}} {
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

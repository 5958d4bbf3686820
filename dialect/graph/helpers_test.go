package graph

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/ir"
)

// newContext returns a context with builtin, func and graph registered.
func newContext() *ir.Context {
	ctx := ir.NewContext()
	builtin.Register(ctx)
	fn.Register(ctx)
	Register(ctx)
	return ctx
}

// exampleModule wraps every op's example in a function of its own.
func exampleModule() string {
	var sb strings.Builder
	for _, info := range opTable() {
		sb.WriteString(exampleFunc(info))
	}
	return sb.String()
}

func exampleFunc(info opInfo) string {
	return "func.func @" + strings.TrimPrefix(info.name, "graph.") + "(" + info.exampleArgs + ") {\n  " + info.example + "\n  return\n}\n"
}

// parseVerify parses src and verifies it.
func parseVerify(t testing.TB, ctx *ir.Context, src string) *ir.Operation {
	t.Helper()
	m, err := asm.ParseString(ctx, "in.mlir", src)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	if err := ir.Verify(m); err != nil {
		t.Fatalf("verify: %v\n%s", err, src)
	}
	return m
}

func printIR(m *ir.Operation, generic bool) string {
	return ir.Sprint(m, ir.PrintOptions{Generic: generic})
}

// Package irtest holds what tests across rlx parse IR with: a context with
// every dialect, a parse-and-verify helper, small finders, and fixtures
// several packages test against.
package irtest

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
)

// Split is a function after hybrid-split, by hand: an mps.subgraph whose
// results feed a thunk.call and, through a reshape, the q of an attention
// in a second mps.subgraph; k is a function argument.
const Split = `func.func @f(%x: tensor<1x4x64xf32>, %k: tensor<1x4x4x16xf32>, %m1: tensor<1x4xf32>) -> tensor<1x4x4x16xf32> {
  %0:2 = mps.subgraph @f_mps0(%x) : (tensor<1x4x64xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x4xf32>) {
  ^bb0(%a: tensor<1x4x64xf32>):
    %q = graph.reshape %a : (tensor<1x4x64xf32>) -> tensor<1x4x4x16xf32>
    %r = graph.reduce %q {axes = array<i64: 2, 3>, kind = "max"} : (tensor<1x4x4x16xf32>) -> tensor<1x4xf32>
    mps.yield %q, %r : tensor<1x4x4x16xf32>, tensor<1x4xf32>
  }
  %1 = thunk.call @f_thunk1(%0#1, %m1) {target = "metal"} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32> {
  ^bb0(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>):
    %m = graph.max %a, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    thunk.yield %m : tensor<1x4xf32>
  }
  %2 = mps.subgraph @f_mps2(%0#0, %k, %1) : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4xf32>) -> tensor<1x4x4x16xf32> {
  ^bb0(%q: tensor<1x4x4x16xf32>, %kk: tensor<1x4x4x16xf32>, %m: tensor<1x4xf32>):
    %o = graph.attention %q, %kk, %kk, %m {mask = "custom"} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4xf32>) -> tensor<1x4x4x16xf32>
    mps.yield %o : tensor<1x4x4x16xf32>
  }
  return %2 : tensor<1x4x4x16xf32>
}
`

// Context returns a new context with every rlx dialect registered.
func Context() *ir.Context {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	return ctx
}

// Parse parses src (named in.mlir) in ctx, or in a new Context when ctx
// is nil, and fails t on an error. It does not verify.
func Parse(t testing.TB, ctx *ir.Context, src string) *ir.Operation {
	t.Helper()
	if ctx == nil {
		ctx = Context()
	}
	m, err := asm.ParseString(ctx, "in.mlir", src)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	return m
}

// ParseVerify is Parse, then ir.Verify.
func ParseVerify(t testing.TB, ctx *ir.Context, src string) *ir.Operation {
	t.Helper()
	m := Parse(t, ctx, src)
	if err := ir.Verify(m); err != nil {
		t.Fatalf("verify: %v\n%s", err, src)
	}
	return m
}

// OpsNamed returns the ops under root whose names start with prefix
// ("graph." for every graph op), in pre-order.
func OpsNamed(root *ir.Operation, prefix string) []*ir.Operation {
	var ops []*ir.Operation
	for op := range root.PreOrder() {
		if strings.HasPrefix(op.Name(), prefix) {
			ops = append(ops, op)
		}
	}
	return ops
}

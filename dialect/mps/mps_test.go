package mps_test

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/internal/irtest"
	"github.com/rlx-compiler/rlx/ir"
)

// TestRoundTrip prints the custom form, the generic form, and reads each
// back to the same text.
func TestRoundTrip(t *testing.T) {
	m := irtest.Parse(t, nil, irtest.Split)
	if err := ir.Verify(m); err != nil {
		t.Fatal(err)
	}
	custom := ir.Sprint(m, ir.PrintOptions{})
	generic := ir.Sprint(m, ir.PrintOptions{Generic: true})
	if !strings.Contains(custom, "mps.subgraph @f_mps0(%arg0) : (tensor<1x4x64xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x4xf32>) {") ||
		!strings.Contains(custom, `thunk.call @f_thunk1(%0#1, %arg2) {target = "metal"}`) {
		t.Errorf("custom form:\n%s", custom)
	}
	if !strings.Contains(generic, `"mps.subgraph"(%arg0) <{sym_name = "f_mps0"}> ({`) ||
		!strings.Contains(generic, `<{sym_name = "f_thunk1", target = "metal"}>`) {
		t.Errorf("generic form:\n%s", generic)
	}
	for _, text := range []string{custom, generic} {
		if again := ir.Sprint(irtest.Parse(t, nil, text), ir.PrintOptions{}); again != custom {
			t.Errorf("round trip:\n%s\nwant\n%s", again, custom)
		}
	}
}

// TestVerifier checks a few verifier errors (lit-tests/hybrid-split/
// dialect-invalid.mlir has them all) and regions that verify.
func TestVerifier(t *testing.T) {
	for _, tc := range []struct{ src, err string }{
		{`func.func @f(%x: tensor<4xf32>) {
  mps.subgraph @s(%x) : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>):
    %0 = graph.softplus %a : (tensor<4xf32>) -> tensor<4xf32>
    mps.yield
  }
  return
}`, "'graph.softplus' op cannot be in an mps.subgraph: no MPSGraph lowering"},
		{`func.func @f(%x: tensor<4xf32>) {
  %0 = mps.subgraph @s(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    mps.yield
  }
  return
}`, "yields 0 values, but the enclosing 'mps.subgraph' has 1 results"},
		{`func.func @f() {
  mps.subgraph @s() : () -> () {
    %p = graph.param "p" : tensor<?xf32>
    mps.yield
  }
  return
}`, "'graph.param' op cannot be in an mps.subgraph: result #0 has a dynamic dim ([?])"},
		// Every leaf of a region is judged, not only the first.
		{`func.func @f() {
  mps.subgraph @s() : () -> () {
    %a = graph.param "a" : tensor<4xf32>
    %b = graph.constant dense<1> : tensor<4xi32>
    %c = graph.param "c" : tensor<4xi64>
    mps.yield
  }
  return
}`, "'graph.param' op cannot be in an mps.subgraph: result #0 has element type i64"},
		// A leaf read by an op that is not capable is judged on its own,
		// before that op.
		{`func.func @f() {
  mps.subgraph @s() : () -> () {
    %p = graph.param "p" : tensor<?xf32>
    %e = graph.exp %p : (tensor<?xf32>) -> tensor<?xf32>
    mps.yield
  }
  return
}`, "'graph.param' op cannot be in an mps.subgraph: result #0 has a dynamic dim ([?])"},
		{`func.func @f() {
  mps.subgraph @s() : () -> () {
    %p = graph.param "p" : tensor<4xf32>
    %e = graph.softplus %p : (tensor<4xf32>) -> tensor<4xf32>
    mps.yield
  }
  return
}`, "'graph.softplus' op cannot be in an mps.subgraph: no MPSGraph lowering"},
		// Leaves read by capable ops, or yielded, of MPS types.
		{`func.func @f(%x: tensor<1x64xf32>) -> (tensor<1x64xf32>, tensor<64xf16>) {
  %0:2 = mps.subgraph @s(%x) : (tensor<1x64xf32>) -> (tensor<1x64xf32>, tensor<64xf16>) {
  ^bb0(%a: tensor<1x64xf32>):
    %w = graph.param "w" : tensor<64x64xf32>
    %m = graph.matmul %a, %w : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
    %h = graph.constant dense<1.0> : tensor<64xf16>
    mps.yield %m, %h : tensor<1x64xf32>, tensor<64xf16>
  }
  return %0#0, %0#1 : tensor<1x64xf32>, tensor<64xf16>
}`, ""},
		{`func.func @f(%x: tensor<4xf32>, %i: i32) {
  mps.subgraph @s(%x, %i) : (tensor<4xf32>, i32) -> () {
  ^bb0(%a: tensor<4xf32>, %b: i32):
    mps.yield
  }
  return
}`, "'mps.subgraph' op operand #1 must be variadic of statically shaped tensor of any type values, but got 'i32'"},
		{`func.func @f(%x: tensor<?xf32>) {
  mps.subgraph @s(%x) : (tensor<?xf32>) -> () {
  ^bb0(%a: tensor<?xf32>):
    mps.yield
  }
  return
}`, "'mps.subgraph' op operand #0 must be variadic of statically shaped tensor of any type values, but got 'tensor<?xf32>'"},
		{`func.func @f(%x: tensor<4xf32>) {
  %0 = mps.subgraph @s(%x) : (tensor<4xf32>) -> tensor<?xf32> {
  ^bb0(%a: tensor<4xf32>):
    %r = graph.reshape %a : (tensor<4xf32>) -> tensor<?xf32>
    mps.yield %r : tensor<?xf32>
  }
  return
}`, "'mps.subgraph' op result #0 must be variadic of statically shaped tensor of any type values, but got 'tensor<?xf32>'"},
		{`mps.subgraph @s() : () -> () {
  mps.yield
}`, "'mps.subgraph' op expects parent op 'func.func'"},
		{`func.func @f() {
  thunk.call @t() {target = "metal"} : () -> () {
    mps.subgraph @s() : () -> () {
      mps.yield
    }
    thunk.yield
  }
  return
}`, "'mps.subgraph' op expects parent op 'func.func'"},
	} {
		err := ir.Verify(irtest.Parse(t, nil, tc.src))
		if (tc.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("error %v, want %q", err, tc.err)
		}
	}
}

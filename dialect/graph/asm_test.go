package graph

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
)

// roundTripSrc exercises the parts of the custom form the per-op examples
// do not: discardable attributes next to inherent ones, attribute
// dictionaries on the leaves, multi-result uses and dynamic dims.
const roundTripSrc = `func.func @decode(%x: tensor<1x64xf32>, %q: tensor<1x1x4x16xf32>, %g: tensor<1x1x4xf32>) -> (tensor<1x64xf32>, tensor<1x4x16x16xf32>) {
  %w = graph.param "l0.norm" {rlx.origin = "blk.0"} : tensor<64xf32>
  %c = graph.constant {rlx.note = 1 : i32} dense<2.0> : tensor<64xf32>
  %0 = graph.rms_norm %x, %w {epsilon = 1.0e-06 : f32, rlx.fused = true} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  %1 = graph.mul %0, %c : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  %o:2 = graph.gated_delta_net %q, %q, %q, %g, %g {gate_per_channel = false} : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)
  %2 = graph.reshape %o#0 : (tensor<1x1x4x16xf32>) -> tensor<1x64xf32>
  %3 = graph.add %1, %2 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  return %3, %o#1 : tensor<1x64xf32>, tensor<1x4x16x16xf32>
}
func.func @dynamic(%a: tensor<?x64xf32>, %b: tensor<64x?xf32>) -> tensor<?x?xf32> {
  %0 = graph.matmul %a, %b : (tensor<?x64xf32>, tensor<64x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
`

// TestRoundTrip checks custom → custom and custom → generic → custom are
// stable, for every op's example and for roundTripSrc.
func TestRoundTrip(t *testing.T) {
	for name, src := range map[string]string{"examples": exampleModule(), "decode": roundTripSrc} {
		t.Run(name, func(t *testing.T) {
			ctx := newContext()
			custom := printIR(parseVerify(t, ctx, src), false)
			again := printIR(parseVerify(t, ctx, custom), false)
			if again != custom {
				t.Fatalf("custom form not stable:\n%s\nthen\n%s", custom, again)
			}
			generic := printIR(parseVerify(t, ctx, custom), true)
			if !strings.Contains(generic, `"graph.`) {
				t.Fatalf("generic form has no generic graph op:\n%s", generic)
			}
			m := parseVerify(t, ctx, generic)
			if back := printIR(m, false); back != custom {
				t.Fatalf("custom → generic → custom differs:\n%s\nthen\n%s", custom, back)
			}
			if g2 := printIR(m, true); g2 != generic {
				t.Fatalf("generic form not stable:\n%s\nthen\n%s", generic, g2)
			}
		})
	}
}

// TestCustomForm pins the printed custom form of a few ops.
func TestCustomForm(t *testing.T) {
	ctx := newContext()
	out := printIR(parseVerify(t, ctx, roundTripSrc), false)
	for _, want := range []string{
		`%0 = graph.param "l0.norm" {rlx.origin = "blk.0"} : tensor<64xf32>`,
		`%cst = graph.constant {rlx.note = 1 : i32} dense<2.000000e+00> : tensor<64xf32>`,
		`%1 = graph.rms_norm %arg0, %0 {epsilon = 9.99999997E-7 : f32, rlx.fused = true} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>`,
		`%3:2 = graph.gated_delta_net %arg1, %arg1, %arg1, %arg2, %arg2 {gate_per_channel = false} : (`,
		`-> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)`,
		`%4 = graph.reshape %3#0 : (tensor<1x1x4x16xf32>) -> tensor<1x64xf32>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("custom form lacks\n  %s\nin\n%s", want, out)
		}
	}
	generic := printIR(parseVerify(t, ctx, roundTripSrc), true)
	for _, want := range []string{
		`<{epsilon = 9.99999997E-7 : f32}> {rlx.fused = true} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>`,
		`= "graph.param"() <{name = "l0.norm"}> {rlx.origin = "blk.0"} : () -> tensor<64xf32>`,
		`= "graph.constant"() <{value = dense<2.000000e+00> : tensor<64xf32>}> {rlx.note = 1 : i32} : () -> tensor<64xf32>`,
	} {
		if !strings.Contains(generic, want) {
			t.Errorf("generic form lacks\n  %s\nin\n%s", want, generic)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, op, want string }{
		{"not a function type", `%0 = graph.add %a, %a : tensor<4xf32>`, "2:27: error: custom op 'graph.add' invalid kind of type specified"},
		{"operand count", `%0 = graph.add %a, %a : (tensor<4xf32>) -> tensor<4xf32>`, "2:18: error: custom op 'graph.add' 2 operands present, but expected 1"},
		{"missing colon", `%0 = graph.exp %a`, "expected ':'"},
		{"param name", `%0 = graph.param 12 : tensor<4xf32>`, "2:20: error: custom op 'graph.param' expected string"},
		{"constant value", `%0 = graph.constant unit`, "expected a typed elements attribute such as 'dense<1.0> : tensor<4xf32>', got unit"},
		{"result count", `%0:2 = graph.exp %a : (tensor<4xf32>) -> tensor<4xf32>`, "operation defines 1 results but was provided 2 to bind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "func.func @f(%a: tensor<4xf32>) {\n  " + tc.op + "\n  return\n}\n"
			_, err := asm.ParseString(newContext(), "in.mlir", src)
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error\n  %v\nwant it to contain\n  %s", err, tc.want)
			}
		})
	}
}

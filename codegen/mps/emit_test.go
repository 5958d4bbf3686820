package mps

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/internal/mpsregions"
	"github.com/rlx-compiler/rlx/ir"
)

func parseModule(t *testing.T, src string) *ir.Operation {
	t.Helper()
	f, err := asm.Parse(mpsregions.NewContext(), "in.mlir", []byte(src), asm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ir.Verify(f.Op); err != nil {
		t.Fatal(err)
	}
	return f.Op
}

// TestErrors: a region that still holds graph ops, and bf16 tensors for a
// deployment target without MPSDataTypeBFloat16, are errors located at
// the op, with a note at the region.
func TestErrors(t *testing.T) {
	cases := []struct {
		name, src, want string
		opts            Options
	}{
		{"not lowered", `func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mps.subgraph @f_mps0(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %1 = graph.exp %a : (tensor<4xf32>) -> tensor<4xf32>
    mps.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}`, "in.mlir:4:10: error: 'graph.exp' op is not an MPSGraph primitive: run --lower-to-mps before --mlir-to-mpsgraph", Options{}},
		{"bf16 before macOS 14", `func.func @f(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = mps.subgraph @f_mps0(%x) : (tensor<4xbf16>) -> tensor<4xbf16> {
  ^bb0(%a: tensor<4xbf16>):
    %1 = mps.exp %a : (tensor<4xbf16>) -> tensor<4xbf16>
    mps.yield %1 : tensor<4xbf16>
  }
  return %0 : tensor<4xbf16>
}`, "in.mlir:4:10: error: 'mps.exp' op has bf16 tensors, which MPSGraph takes from macOS 14.0 on (MPSDataTypeBFloat16), but the deployment target is macOS 13.0", Options{MacOS: Version{13, 0}}},
	}
	for _, c := range cases {
		_, err := Emit(parseModule(t, c.src), c.opts)
		d, ok := err.(*ir.Diagnostic)
		if !ok {
			t.Errorf("%s: want a located error, got %v", c.name, err)
			continue
		}
		if got := ir.FormatLoc(d.Loc) + ": error: " + d.Message; got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
		if len(d.Notes) != 1 || !strings.Contains(d.Notes[0].Message, "@f_mps0") {
			t.Errorf("%s: want a note at the region, got %v", c.name, d.Notes)
		}
	}
}

func TestParseVersion(t *testing.T) {
	for _, c := range []struct {
		in, want, err string
	}{
		{"14.0", "14.0", ""},
		{"15", "15.0", ""},
		{"13.2", "13.2", ""},
		{"11.0", "", "macOS 11.0 is older than 12.0, the oldest the MPSGraph builders support"},
		{"fourteen", "", "'fourteen' is not a macOS version such as 14.0"},
		{"14.x", "", "'14.x' is not a macOS version such as 14.0"},
	} {
		v, err := ParseVersion(c.in)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%q: error %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || v.String() != c.want):
			t.Errorf("%q: %v %v, want %s", c.in, v, err, c.want)
		}
	}
}

// TestEmitText pins the text of one builder with a weight, an inline and
// a passed-in constant, a splat, a reduction and a guarded method.
func TestEmitText(t *testing.T) {
	mod := parseModule(t, `func.func @f(%x: tensor<2x4xf32>) -> tensor<2x1xf32> {
  %0 = mps.subgraph @f_mps0(%x) : (tensor<2x4xf32>) -> tensor<2x1xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    %w = mps.placeholder "l0.w" : tensor<4xf32>
    %c = mps.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %big = mps.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
    %h = mps.constant dense<0.5> : tensor<f32>
    %1 = mps.mul %a, %w : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    %2 = mps.add %1, %c : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    %3 = mps.sub %2, %big : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %4 = mps.reduce_sum %3 {axes = array<i64: 1>} : (tensor<2x4xf32>) -> tensor<2x1xf32>
    %5 = mps.mul %4, %h : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
    %6 = mps.rsqrt %5 : (tensor<2x1xf32>) -> tensor<2x1xf32>
    mps.yield %6 : tensor<2x1xf32>
  }
  return %0 : tensor<2x1xf32>
}`)
	out, err := Emit(mod, Options{MaxInlineBytes: 16})
	if err != nil {
		t.Fatal(err)
	}
	want := `// rlx_build_f_mps0 builds @f_mps0 into graph (see the header).
NSArray<MPSGraphTensor *> *_Nullable rlx_build_f_mps0(MPSGraph *graph, NSArray<MPSGraphTensor *> *inputs, NSMutableDictionary<NSString *, MPSGraphTensor *> *weights, NSDictionary<NSString *, NSData *> *constants) {
  if ([inputs count] != 1) {
    return nil;
  }
  NSData *_Nullable c0 = [constants objectForKey:@"f_mps0.c0"];
  if (c0 == nil || [c0 length] != 32) {
    return nil;
  }
  MPSGraphTensor *in0 = [inputs objectAtIndex:0];
  MPSGraphTensor *t0 = rlx_weight(graph, weights, @"l0.w", @[@4], MPSDataTypeFloat32);
  MPSGraphTensor *t1 = [graph constantWithData:[NSData dataWithBytes:rlx_build_f_mps0_cst1 length:16] shape:@[@4] dataType:MPSDataTypeFloat32];
  MPSGraphTensor *t2 = [graph constantWithData:c0 shape:@[@2, @4] dataType:MPSDataTypeFloat32];
  MPSGraphTensor *t3 = [graph constantWithScalar:0.5 shape:@[] dataType:MPSDataTypeFloat32];
  MPSGraphTensor *t4 = [graph multiplicationWithPrimaryTensor:in0 secondaryTensor:t0 name:nil];
  MPSGraphTensor *t5 = [graph additionWithPrimaryTensor:t4 secondaryTensor:t1 name:nil];
  MPSGraphTensor *t6 = [graph subtractionWithPrimaryTensor:t5 secondaryTensor:t2 name:nil];
  MPSGraphTensor *t7 = [graph reductionSumWithTensor:t6 axes:@[@1] name:nil];
  MPSGraphTensor *t8 = [graph multiplicationWithPrimaryTensor:t7 secondaryTensor:t3 name:nil];
  MPSGraphTensor *t9 = rlx_rsqrt(graph, t8);
  return @[t9];
}
`
	if !strings.Contains(string(out.Source), want) {
		t.Errorf("the builder is not as expected:\n%s", out.Source)
	}
	if !strings.Contains(string(out.Source), "static const unsigned char rlx_build_f_mps0_cst1[16] = {\n  0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40,") {
		t.Errorf("the inline constant is not as expected:\n%s", out.Source)
	}
	b := out.Builders[0]
	if len(b.Weights) != 1 || b.Weights[0].Name != "l0.w" || len(b.Constants) != 1 || b.Constants[0].Key != "f_mps0.c0" || len(b.Constants[0].Data) != 32 {
		t.Errorf("builder description %+v", b)
	}
	if !strings.Contains(string(out.Header), "//   constant \"f_mps0.c0\": tensor<2x4xf32> (32 bytes)\nNSArray<MPSGraphTensor *> *_Nullable rlx_build_f_mps0(") {
		t.Errorf("the header is not as expected:\n%s", out.Header)
	}
}

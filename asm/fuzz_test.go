package asm_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
)

// FuzzParse checks that the parser never panics, and that anything it
// accepts (and that verifies) prints to text that parses back to the same
// print, in the generic form, the custom form and with locations.
func FuzzParse(f *testing.F) {
	seeds := []string{
		`"foo.op"() {a = 1.5 : f32, b = dense<[1, 2]> : tensor<2xi32>} : () -> ()`,
		`func.func @f(%a: i32) -> i32 { %0 = "foo.add"(%a, %a) : (i32, i32) -> i32 
 return %0 : i32 }`,
		`%0:2 = "foo.op"() : () -> (i32, f32)
"foo.use"(%0#1) : (f32) -> ()`,
		`"foo.op"() ({ ^bb0(%x: i32): "foo.br"(%x)[^bb1] : (i32) -> () ^bb1: "foo.ret"() : () -> () }) : () -> ()`,
		`#map = affine_map<(d0)[s0] -> (d0 + s0)>
"foo.op"() {m = #map, s = affine_set<(d0) : (d0 >= 0)>} : () -> memref<4xf32, strided<[1], offset: ?>>`,
		`"foo.op"() : () -> () loc(#loc)
#loc = loc("x.mlir":1:2)`,
		`"foo.op"() {r = dense_resource<blob> : tensor<2xi8>} : () -> ()
{-# dialect_resources: { builtin: { blob: "0x0100000001FF" } } #-}`,
		`"foo.op"() <{p = [1, "a", @s::@t, unit, array<i64: 1, 2>]}> {d = distinct[3]<42 : i32>} : () -> !foo.t<[1, (2)]>`,
		`module @m attributes {x} { func.func private @d(i32 {a}) -> (f32 {b}) }`,
		`func.func @r(%a: i32) -> i32 { return {x = 1} %a : i32 }`,
		// Custom forms of the project's dialects.
		`func.func @g(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %w = graph.param "w" : tensor<4x4xf32>
  %c = graph.constant dense<1.0> : tensor<4xf32>
  %0 = graph.matmul %x, %w : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %1 = graph.add %0, %c : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %2 = graph.reduce %1 {axes = array<i64: 1>, keep_dims = true, kind = "sum"} : (tensor<2x4xf32>) -> tensor<2x1xf32>
  return %1 : tensor<2x4xf32>
}`,
		`func.func @s(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mps.subgraph @s_mps0(%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<4xf32>):
    %1 = graph.exp %b : (tensor<4xf32>) -> tensor<4xf32>
    mps.yield %1 : tensor<4xf32>
  }
  %2:2 = thunk.call @s_thunk1(%0) {target = "metal"} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%c: tensor<4xf32>):
    thunk.yield %c, %c : tensor<4xf32>, tensor<4xf32>
  }
  return %2#1 : tensor<4xf32>
}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	// MLIR's own test files (generic prints) make good seeds when present.
	for _, dir := range []string{"../../shared/conformance/mlir/generic", "testdata/corpus"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.mlir"))
		for i, name := range files {
			if i%8 != 0 { // a sample keeps the seed corpus quick to load
				continue
			}
			if b, err := os.ReadFile(name); err == nil && len(b) < 4096 {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ctx := newFuzzContext()
		file, err := asm.Parse(ctx, "f.mlir", src, asm.Options{})
		if err != nil {
			if _, ok := err.(*asm.Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if ir.Verify(file.Op) != nil {
			return
		}
		for _, opts := range []ir.PrintOptions{{Generic: true}, {}, {Generic: true, DebugInfo: true}} {
			first := ir.Sprint(file.Op, opts)
			ctx2 := newFuzzContext()
			again, err := asm.Parse(ctx2, "g.mlir", []byte(first), asm.Options{})
			if err != nil {
				t.Fatalf("printed IR does not parse (%+v): %v\ninput:\n%s\nprinted:\n%s", opts, err, src, first)
			}
			second := ir.Sprint(again.Op, opts)
			if first != second {
				t.Fatalf("print is not a fixed point (%+v)\ninput:\n%s\nfirst:\n%s\nsecond:\n%s", opts, src, first, second)
			}
		}
	})
}

func newFuzzContext() *ir.Context {
	ctx := ir.NewContext()
	ctx.AllowUnregistered = true
	dialect.RegisterAll(ctx)
	return ctx
}

// Found by FuzzParse: `%777777770 = …` made the parser allocate a table of
// 777,777,771 entries (12 GB, lazily mapped), which the collector then
// scanned for minutes; `%z#999999999` grew a slice to a billion entries
// one at a time (mlir-opt-19 resizes a vector too).
func TestParseLargeValueNumber(t *testing.T) {
	src := []byte(`%999999999 = "t.def"() : () -> i32
"t.use"(%999999999, %v999999998) : (i32, i32) -> ()
%v999999998 = "t.def"() : () -> i32`)
	ctx := newFuzzContext()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f, err := asm.Parse(ctx, "big.mlir", src, asm.Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
		t.Fatalf("parsing %d bytes allocated %d MB", len(src), n>>20)
	}
	// A forward reference to a result number no definition has.
	src = []byte("\"t.use\"(%z#999999999) : (i32) -> ()\n%z:2 = \"t.def\"() : () -> (i32, i32)")
	runtime.ReadMemStats(&before)
	_, err = asm.Parse(newFuzzContext(), "big.mlir", src, asm.Options{})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.HasPrefix(err.Error(), "big.mlir:1:9: error: use of undeclared SSA value name") {
		t.Fatalf("error %v", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
		t.Fatalf("parsing %d bytes allocated %d MB", len(src), n>>20)
	}
	want := `"builtin.module"() ({
  %0 = "t.def"() : () -> i32
  "t.use"(%0, %1) : (i32, i32) -> ()
  %1 = "t.def"() : () -> i32
}) : () -> ()
`
	if got := ir.Sprint(f.Op, ir.PrintOptions{Generic: true}); strings.TrimSpace(got) != strings.TrimSpace(want) {
		t.Fatalf("printed\n%s\nwant\n%s", got, want)
	}
}

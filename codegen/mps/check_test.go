package mps

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/internal/modelregions"
	"github.com/rlx-compiler/rlx/internal/mpsregions"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/lowertomps"
	"github.com/rlx-compiler/rlx/runtime/ref"
)

var concatOne = regexp.MustCompile(`concatTensors:@\[(\w+), [^\]]*\] dimension:`)

// TestSyntaxCatches shows that the syntax check has teeth: a builder with
// a misspelled selector, one that passes an argument of the wrong type,
// and one that calls a macOS 15 method without @available (the file
// emitted for macOS 15 compiled for macOS 14) are rejected, each with the
// diagnostic that names the fault.
func TestSyntaxCatches(t *testing.T) {
	clang(t)
	mod := loweredModel(t, modelregions.Cases()[0], lowertomps.Options{})
	dir := t.TempDir()
	out := emitFiles(t, dir, mod, Options{})
	src := string(out.Source)
	if err := syntaxCheck(t, dir, "check.m", DefaultVersion); err != nil {
		t.Fatalf("the unchanged file does not compile: %v", err)
	}
	cases := []struct {
		name, from, to, want string
	}{
		{"misspelled selector", "additionWithPrimaryTensor:", "additionWithPrimaryTenser:",
			"no visible @interface for 'MPSGraph' declares the selector 'additionWithPrimaryTenser:secondaryTensor:name:'"},
		{"a number for the axes list", "axes:@[@1]", "axes:@1",
			"incompatible pointer types sending 'NSNumber *' to parameter of type 'NSArray<NSNumber *> * _Nullable'"},
		{"a tensor for a tensor list", "concatTensors:@[", "",
			"incompatible pointer types sending 'MPSGraphTensor *' to parameter of type 'NSArray<MPSGraphTensor *> * _Nonnull'"},
	}
	for _, c := range cases {
		bad := strings.Replace(src, c.from, c.to, 1)
		if c.to == "" {
			// concatTensors:@[a, b] dimension: → concatTensors:a dimension:
			bad = concatOne.ReplaceAllString(src, "concatTensors:$1 dimension:")
		}
		if bad == src {
			t.Fatalf("%s: %q is not in the file", c.name, c.from)
		}
		writeFile(t, filepath.Join(dir, "bad.m"), []byte(bad))
		err := syntaxCheck(t, dir, "bad.m", DefaultVersion)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want an error containing %q, got %v", c.name, c.want, err)
		}
	}

	// The macOS 15 file calls reciprocalSquareRootWithTensor:name: directly;
	// compiled for macOS 14 that is an unguarded availability error.
	out15, err := Emit(mod, Options{MacOS: Version{15, 0}})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "v15.m"), out15.Source)
	if err := syntaxCheck(t, dir, "v15.m", Version{15, 0}); err != nil {
		t.Errorf("the macOS 15 file does not compile for macOS 15: %v", err)
	}
	err = syntaxCheck(t, dir, "v15.m", Version{14, 0})
	if want := "'reciprocalSquareRootWithTensor:name:' is only available on macOS 15.0 or newer [-Werror,-Wunguarded-availability-new]"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("the macOS 15 file compiled for macOS 14: want %q, got %v", want, err)
	}
}

// TestVersions emits the toy models for each deployment target the
// builders support, with attention through MPSGraph's SDPA too, and
// compiles each for its target: the helpers and their fallbacks appear
// exactly where the target lacks a method.
func TestVersions(t *testing.T) {
	clang(t)
	type key struct {
		c    int
		sdpa bool
	}
	cases := modelregions.Cases()[:3]
	mods := map[key]*ir.Operation{}
	for i, c := range cases {
		for _, sdpa := range []bool{false, true} {
			mods[key{i, sdpa}] = loweredModel(t, c, lowertomps.Options{SDPA: sdpa})
		}
	}
	for _, v := range []Version{{12, 0}, {13, 0}, {14, 0}, {15, 0}} {
		for i, c := range cases {
			for _, sdpa := range []bool{false, true} {
				mod := mods[key{i, sdpa}]
				dir := t.TempDir()
				out := emitFiles(t, dir, mod, Options{MacOS: v})
				if err := syntaxCheck(t, dir, "check.m", v); err != nil {
					t.Errorf("%s, macOS %s, sdpa %v: %v", c.Name, v, sdpa, err)
					continue
				}
				src, text := string(out.Source), ir.Sprint(mod, ir.PrintOptions{})
				for _, h := range []struct {
					helper, prim string
					before       Version
				}{
					{"rlx_rsqrt(", "mps.rsqrt", Version{15, 0}},
					{"rlx_permute(", "mps.permute", Version{13, 0}},
					{"rlx_sdpa(", "mps.sdpa", Version{15, 0}},
				} {
					want := strings.Contains(text, h.prim+" ") && v.Less(h.before)
					if got := strings.Contains(src, h.helper); got != want {
						t.Errorf("%s, macOS %s, sdpa %v: %s present %v, want %v", c.Name, v, sdpa, h.helper, got, want)
					}
				}
			}
		}
	}
}

// TestDeterministic: the same module and options give the same bytes.
func TestDeterministic(t *testing.T) {
	c := modelregions.Cases()[1]
	a, err := Emit(loweredModel(t, c, lowertomps.Options{}), Options{MacOS: Version{12, 0}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Emit(loweredModel(t, c, lowertomps.Options{}), Options{MacOS: Version{12, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if string(a.Source) != string(b.Source) || string(a.Header) != string(b.Header) {
		t.Error("two emissions of the same module differ")
	}
	if len(a.Builders) == 0 || len(a.Source) == 0 {
		t.Error("nothing emitted")
	}
}

// TestFallbacks runs the fallbacks the builders use before macOS 15 (1/√x
// by reverseSquareRoot, SDPA step by step) and before macOS 13 (a
// permutation as two-axis transposes) on the recording MPSGraph, reads
// back the graph each built, and runs it on the interpreter against the
// primitive it stands for: they must give the same bits. (On Linux
// @available is always true, so the builders themselves take the newest
// path; the fallbacks are functions of their own so that they can be run.)
func TestFallbacks(t *testing.T) {
	clang(t)
	gnustepFlags(t)
	mod := loweredModel(t, modelregions.Cases()[1], lowertomps.Options{SDPA: true})
	dir := t.TempDir()
	out := emitFiles(t, dir, mod, Options{MacOS: Version{12, 0}})
	for _, h := range []string{"rlx_rsqrt_before_macos15", "rlx_permute_before_macos13", "rlx_sdpa_before_macos15"} {
		if !strings.Contains(string(out.Source), h) {
			t.Fatalf("%s is not in the file emitted for macOS 12", h)
		}
	}
	cases := []struct {
		name   string
		inputs []string // tensor types
		call   string   // the fallback, on inputs x0, x1, …
		ref    string   // the primitive, on %x0, %x1, …, defining %r
	}{
		{"rsqrt", []string{"tensor<2x8xf32>"}, "rlx_rsqrt_before_macos15(graph, x0)",
			"%r = mps.rsqrt %x0 : (tensor<2x8xf32>) -> tensor<2x8xf32>"},
		{"permute", []string{"tensor<2x3x4x5xf32>"}, "rlx_permute_before_macos13(graph, x0, @[@0, @2, @3, @1])",
			"%r = mps.permute %x0 {permutation = array<i64: 0, 2, 3, 1>} : (tensor<2x3x4x5xf32>) -> tensor<2x4x5x3xf32>"},
		{"permute_cycle", []string{"tensor<2x3x4x5xf32>"}, "rlx_permute_before_macos13(graph, x0, @[@3, @0, @1, @2])",
			"%r = mps.permute %x0 {permutation = array<i64: 3, 0, 1, 2>} : (tensor<2x3x4x5xf32>) -> tensor<5x2x3x4xf32>"},
		{"sdpa", []string{"tensor<1x2x3x8xf32>", "tensor<1x2x5x8xf32>", "tensor<1x2x5x8xf32>", "tensor<1x1x3x5xf32>"},
			"rlx_sdpa_before_macos15(graph, x0, x1, x2, x3, 0.25f, MPSDataTypeFloat32)",
			"%r = mps.sdpa %x0, %x1, %x2, %x3 {scale = 2.500000e-01 : f32} : (tensor<1x2x3x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x1x3x5xf32>) -> tensor<1x2x3x8xf32>"},
		{"sdpa_unmasked", []string{"tensor<1x2x3x8xf32>", "tensor<1x2x5x8xf32>", "tensor<1x2x5x8xf32>"},
			"rlx_sdpa_before_macos15(graph, x0, x1, x2, nil, 0.25f, MPSDataTypeFloat32)",
			"%r = mps.sdpa %x0, %x1, %x2 {scale = 2.500000e-01 : f32} : (tensor<1x2x3x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>) -> tensor<1x2x3x8xf32>"},
	}
	var d strings.Builder
	d.WriteString("#include <stdio.h>\n#import \"recorder.h\"\n#import \"out.m\"\n\nint main(void) {\n  NSAutoreleasePool *pool = [[NSAutoreleasePool alloc] init];\n")
	for _, c := range cases {
		d.WriteString("  {\n    RLXGraph *graph = [RLXGraph recordingGraph];\n")
		for i := range c.inputs {
			fmt.Fprintf(&d, "    MPSGraphTensor *x%d = [graph rlxInput:%d];\n", i, i)
		}
		fmt.Fprintf(&d, "    [graph rlxPrint:@%q results:[NSArray arrayWithObject:%s]];\n  }\n", c.name, c.call)
	}
	d.WriteString("  [pool drain];\n  return 0;\n}\n")
	writeFile(t, filepath.Join(dir, "fallbacks.m"), []byte(d.String()))
	recs, err := splitRecord(runRecorded(t, dir, "fallbacks.m"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(cases) {
		t.Fatalf("%d graphs recorded, want %d", len(recs), len(cases))
	}
	ctx := mod.Context()
	for i, c := range cases {
		var params []string
		for k, ty := range c.inputs {
			params = append(params, fmt.Sprintf("%%x%d: %s", k, ty))
		}
		res := c.ref[strings.LastIndex(c.ref, "-> ")+3:]
		src := fmt.Sprintf("func.func @%s(%s) -> %s {\n  %s\n  return %%r : %s\n}\n", c.name, strings.Join(params, ", "), res, c.ref, res)
		f, err := asm.Parse(ctx, c.name+".mlir", []byte(src), asm.Options{})
		if err != nil {
			t.Fatal(err)
		}
		types := f.Op.Region(0).First().First().Region(0).First().ArgumentTypes()
		got, err := rebuild(ctx, recs[i], types)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		run, err := mpsregions.RunBoth(f.Op, got, nil, nil, 5)
		if err != nil {
			t.Errorf("%s: %v\n%s", c.name, err, ir.Sprint(got, ir.PrintOptions{}))
			continue
		}
		if d := ref.Compare(run.B[0], run.A[0]); !d.BitIdentical {
			t.Errorf("%s: the fallback differs from %s: %d elements, max |Δ| %g\n%s", c.name, c.ref, d.Count, d.MaxAbs, ir.Sprint(got, ir.PrintOptions{}))
		}
		t.Logf("%s: the fallback builds %d primitives, bit-identical to the primitive", c.name, strings.Count(ir.Sprint(got, ir.PrintOptions{}), " = mps."))
	}
}

package metal_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
)

// The MSL subset (docs/codegen-metal.md#the-msl-subset): what every
// emitted source must keep to, so that it compiles as C++ through the CPU
// shim and as CUDA through a shim of its own.
var (
	topLevelOK  = []string{"//", "#include <metal_stdlib>", "using namespace metal;", "static inline ", "kernel void ", "{", "}", "constant constexpr "}
	allowedAttr = regexp.MustCompile(`^\[\[(buffer\(\d+\)|threadgroup\(0\)|threadgroup_position_in_grid|thread_position_in_threadgroup|thread_index_in_simdgroup|simdgroup_index_in_threadgroup|threads_per_threadgroup)\]\]$`)
	anyAttr     = regexp.MustCompile(`\[\[[^\]]*\]\]`)
	vecCtor     = regexp.MustCompile(`\b(float|half|bfloat|int|uint|short|ushort|char|uchar|long|ulong|bool)[234]\s*\(`)
	tgArray     = regexp.MustCompile(`\bthreadgroup\s+[\w:]+\s+\w+\s*\[`)
	forbidden   = regexp.MustCompile(`function_constant|simdgroup_(matrix|float|half|bfloat|multiply|load|store)|\bthread_elements\b|#define|#if`)
	helperSig   = regexp.MustCompile(`^static inline [^(]*\(([^)]*)\)`)
	bufParam    = regexp.MustCompile(`^\s*(coherent\(device\) device|device|constant)( const)? [\w:]+ \*\w+ \[\[buffer\(\d+\)\]\][,)]$`)
	tgParam     = regexp.MustCompile(`^\s*threadgroup [\w:]+ \*\w+ \[\[threadgroup\(0\)\]\][,)]$`)
	posParam    = regexp.MustCompile(`^\s*(uint3?|ushort) \w+ \[\[\w+\]\][,)]$`)
)

// subsetViolations returns what in src leaves the subset, one line each.
func subsetViolations(src string) []string {
	var bad []string
	lines := strings.Split(src, "\n")
	inKernelSig := false
	for i, line := range lines {
		at := func(msg string) { bad = append(bad, strings.TrimSpace(line)+": "+msg) }
		_ = i
		if line != "" && line[0] != ' ' {
			ok := false
			for _, p := range topLevelOK {
				ok = ok || strings.HasPrefix(line, p)
			}
			if !ok {
				at("top-level line is not a comment, the include, a static inline helper, a kernel or a constant constexpr")
			}
		}
		if strings.HasPrefix(line, "kernel void ") {
			inKernelSig = true
			continue
		}
		if inKernelSig {
			if line == "{" {
				inKernelSig = false
				continue
			}
			if !bufParam.MatchString(line) && !tgParam.MatchString(line) && !posParam.MatchString(line) {
				at("kernel parameter is not a device/constant buffer, the threadgroup(0) memory or a position attribute")
			}
		}
		for _, a := range anyAttr.FindAllString(line, -1) {
			if !allowedAttr.MatchString(a) {
				at("attribute " + a + " is outside the subset")
			}
		}
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			if vecCtor.MatchString(line) {
				at("functional vector constructor")
			}
			if tgArray.MatchString(line) {
				at("threadgroup array declared in a body (pass threadgroup memory as the [[threadgroup(0)]] parameter)")
			}
			if forbidden.MatchString(line) {
				at("function constants, simdgroup matrices and preprocessor directives are outside the subset")
			}
		}
		if m := helperSig.FindStringSubmatch(line); m != nil {
			for _, p := range strings.Split(m[1], ",") {
				p = strings.TrimSpace(p)
				if strings.Contains(p, "*") && !regexp.MustCompile(`^(device|constant|threadgroup|thread) `).MatchString(p) {
					at("helper pointer parameter without an address space: " + p)
				}
			}
		}
	}
	return bad
}

// TestSubset checks every kernel the op suite emits against the subset,
// at MSL 3.1 and at 3.2 (folded merges).
func TestSubset(t *testing.T) {
	for v, out := range suiteSources(t) {
		for _, v := range subsetViolations(out.Source) {
			t.Error(v)
		}
		t.Logf("msl %s: %d kernels, %d lines checked", v, len(out.Kernels), strings.Count(out.Source, "\n"))
	}
}

// suiteSources emits the op suite at MSL 3.1 and at 3.2 (folded merges).
func suiteSources(t *testing.T) map[string]*metal.Output {
	t.Helper()
	m, err := parseCases(opCases())
	if err != nil {
		t.Fatal(err)
	}
	outs := map[string]*metal.Output{}
	for _, v := range []string{"3.1", "3.2"} {
		opts := suiteOptions
		opts.MSLVersion = v
		if outs[v], err = metal.Emit(m, opts); err != nil {
			t.Fatal(err)
		}
	}
	return outs
}

// TestSubsetRejects shows that the checker flags each kind of violation.
func TestSubsetRejects(t *testing.T) {
	for _, src := range []string{
		"kernel void k(\n    device float *x [[buffer(0)]],\n    uint3 tpos [[thread_position_in_threadgroup]])\n{\n  const float4 v = float4(1.0f, 2.0f, 3.0f, 4.0f);\n}\n",
		"kernel void k(\n    device float *x [[buffer(0)]])\n{\n  threadgroup float tile[64];\n}\n",
		"constant bool has_mask [[function_constant(0)]];\n",
		"static inline float f(device float *p, float *q) { return p[0] + q[0]; }\n",
		"kernel void k(\n    device float *x [[buffer(0)]],\n    float s)\n{\n}\n",
		"float g(float x) { return x; }\n",
		"kernel void k(\n    device float *x [[buffer(0)]],\n    uint3 gid [[thread_position_in_grid]])\n{\n}\n",
	} {
		if len(subsetViolations(src)) == 0 {
			t.Errorf("not flagged:\n%s", src)
		}
	}
}

// TestStrictAddressSpaces runs the strict -fsyntax-only pass over the op
// suite's source, and checks that it rejects a device pointer handed to a
// helper taking a thread pointer, which the erasing run shim accepts.
func TestStrictAddressSpaces(t *testing.T) {
	t.Parallel()
	cc := compiler(t)
	dir := t.TempDir()
	for v, out := range suiteSources(t) {
		if err := cc.SyntaxCheck(dir, out.Source); err != nil {
			t.Fatalf("msl %s: %v", v, err)
		}
	}
	bad := `#include <metal_stdlib>
using namespace metal;
static inline float rlx_first(thread const float *p) { return p[0]; }
kernel void mixes_spaces(
    device float *x [[buffer(0)]],
    uint3 tpos [[thread_position_in_threadgroup]])
{
  x[1] = rlx_first(x);
}
`
	err := cc.SyntaxCheck(dir, bad)
	if err == nil || !strings.Contains(err.Error(), "address space") {
		t.Fatalf("want an address-space error, got %v", err)
	}
	if _, err := cc.Build(t.TempDir(), bad, nil, mslcpu.Plain); err != nil {
		t.Fatalf("the run shim should accept what only the strict pass rejects: %v", err)
	}
}

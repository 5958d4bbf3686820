package cuda

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal"
)

// twoManifest is the manifest of testdata/two.metal.
func twoManifest() *metal.Manifest {
	return &metal.Manifest{Version: metal.ManifestVersion, MSLVersion: "3.1", MathMode: "safe", Kernels: []*metal.KernelInfo{
		{Name: "row_sq", Family: "test", Grid: [3]int{3, 1, 1}, Threadgroup: [3]int{64, 1, 1}, ThreadgroupMemory: 16,
			Bindings: []metal.Binding{{Index: 0, Name: "x"}, {Index: 1, Name: "y"}}},
		{Name: "scale", Family: "test", Grid: [3]int{4, 1, 1}, Threadgroup: [3]int{32, 1, 1},
			Bindings: []metal.Binding{{Index: 0, Name: "x"}, {Index: 1, Name: "k"}, {Index: 2, Name: "y"}}},
	}}
}

func readTwo(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "two.metal"))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// TestTransformKeepsLines: every line stays where it was (compiler and
// sanitizer reports point into the .metal file), the attributes and
// address spaces are blanked as whole tokens only, and helpers become
// __device__.
func TestTransformKeepsLines(t *testing.T) {
	src := readTwo(t) + "constant constexpr float k_table[2] = {1.0f, 2.0f};\n"
	got := Transform(src, "two.metal")
	first, rest, _ := strings.Cut(got, "\n")
	if first != `#line 1 "two.metal"` {
		t.Errorf("first line %q, want the #line directive", first)
	}
	if strings.Count(rest, "\n") != strings.Count(src, "\n") {
		t.Fatalf("%d lines, the source has %d", strings.Count(rest, "\n"), strings.Count(src, "\n"))
	}
	for _, bad := range []string{"[[", "device ", "constant ", "threadgroup float", "thread "} {
		if strings.Contains(rest, bad) {
			t.Errorf("transformed text still holds %q", bad)
		}
	}
	for _, want := range []string{"threadgroup_barrier(mem_flags::mem_threadgroup)", "static inline __device__ float rlx_sq",
		"__device__ constexpr float k_table[2]", "  const float *x", "kernel void row_sq("} {
		if !strings.Contains(rest, want) {
			t.Errorf("transformed text lacks %q", want)
		}
	}
}

func TestParseSignatures(t *testing.T) {
	sigs, err := ParseSignatures(readTwo(t))
	if err != nil {
		t.Fatal(err)
	}
	s := sigs["scale"]
	if s == nil || len(s.Params) != 5 {
		t.Fatalf("scale: %+v", s)
	}
	if p := s.Params[1]; p.Kind != BufferParam || p.Index != 1 || p.Type != "constant float *" || p.Name != "k" {
		t.Errorf("scale param 1: %+v", p)
	}
	if p := s.Params[4]; p.Kind != PositionParam || p.Attr != "thread_index_in_simdgroup" || p.Type != "ushort" {
		t.Errorf("scale param 4: %+v", p)
	}
	if p := sigs["row_sq"].Params[2]; p.Kind != ThreadgroupParam {
		t.Errorf("row_sq param 2: %+v", p)
	}
	for _, bad := range []struct{ src, msg string }{
		{"kernel void k(\n    device float *x,\n    uint l [[thread_index_in_simdgroup]])\n{\n}\n", "not a parameter with an attribute"},
		{"kernel void k(\n    device float *x [[buffer(0)]],\n    uint q [[quad_lane_id]])\n{\n}\n", "not one the CUDA wrapper supports"},
		{"kernel void k(\n    device float *x [[buffer(0)]],", "does not end"},
		{"kernel void k(device float *x [[buffer(0)]])\n", "does not end its first line"},
	} {
		if _, err := ParseSignatures(bad.src); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("want %q for\n%s\ngot %v", bad.msg, bad.src, err)
		}
	}
}

// TestGenerateGolden compares the generated wrappers and table of
// testdata/two.metal with testdata/two_*.cu; -update rewrites them.
func TestGenerateGolden(t *testing.T) {
	s, err := Generate("two", readTwo(t), twoManifest(), Options{Parts: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Parts) != 2 || s.Kernels[0] != "row_sq" || s.Kernels[1] != "scale" {
		t.Fatalf("parts %v, kernels %v", s.Parts, s.Kernels)
	}
	for _, name := range append(append([]string{}, s.Parts...), s.Table) {
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(path, s.Files[name], 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(want) != string(s.Files[name]) {
			t.Errorf("%s differs from the golden file (go test -run GenerateGolden -update):\n%s", name, s.Files[name])
		}
	}
}

// TestGenerateChecksManifest: a manifest that disagrees with the text is
// an error, not a wrapper that binds the wrong buffers.
func TestGenerateChecksManifest(t *testing.T) {
	src := readTwo(t)
	for _, c := range []struct {
		edit func(m *metal.Manifest)
		msg  string
	}{
		{func(m *metal.Manifest) { m.Kernels[0].Bindings = m.Kernels[0].Bindings[:1] }, "binds buffer 1"},
		{func(m *metal.Manifest) {
			m.Kernels[1].Bindings = append(m.Kernels[1].Bindings, metal.Binding{Index: 3})
		}, "manifest lists 4 bindings"},
		{func(m *metal.Manifest) { m.Kernels[0].ThreadgroupMemory = 0 }, "threadgroup memory"},
		{func(m *metal.Manifest) { m.Kernels[1].Name = "gone" }, "not in the text"},
	} {
		m := twoManifest()
		c.edit(m)
		if _, err := Generate("two", src, m, Options{}); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("want an error with %q, got %v", c.msg, err)
		}
	}
}

// TestGeneratedSyntax checks the generated files with the shim and the
// runtime in clang-19's CUDA mode.
func TestGeneratedSyntax(t *testing.T) {
	s, err := Generate("two", readTwo(t), twoManifest(), Options{Parts: 2})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteShim(dir); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	files := append(append([]string{"rlx_cuda_runtime.cu", "rlx_cuda_main.cu"}, s.Parts...), s.Table)
	if err := SyntaxCheck(dir, files...); errors.Is(err, ErrNoClang) {
		t.Skip("skipping: ", err)
	} else if err != nil {
		t.Fatal(err)
	}
	// And the check can fail: a kernel calling a function the shim lacks.
	bad := strings.Replace(readTwo(t), "s = simd_sum(s);", "s = simd_sum_of_squares(s);", 1)
	s, err = Generate("bad", bad, twoManifest(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	err = SyntaxCheck(dir, s.Parts[0])
	if err == nil || !strings.Contains(err.Error(), "bad.metal:22") {
		t.Fatalf("want an error located in bad.metal, got %v", err)
	}
}

// TestShimOnHost builds testdata/shim_host.cu, which exercises the vector
// types, swizzles, half, bfloat and the math in MSL spelling, for the
// host with clang-19 and runs it.
func TestShimOnHost(t *testing.T) {
	clang, dir := shimForHost(t)
	bin := filepath.Join(dir, "shim_host")
	cmd := exec.Command(clang, "-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-std=c++17",
		"-DRLX_CUDA_STUBS", "-O1", "-I", dir, filepath.Join("testdata", "shim_host.cu"), "-o", bin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the host test: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "all passed") {
		t.Fatalf("unexpected output:\n%s", out)
	}
}

// TestRunnerArguments builds the job runner's main (rlx_cuda_main.cu, host
// C++) against a stand-in for the runtime that prints what it was given,
// and checks the flags it passes on and the arguments it refuses: on the
// GPU a mistyped --repeat must stop the check, not run it once.
func TestRunnerArguments(t *testing.T) {
	clang, dir := shimForHost(t)
	stub := filepath.Join(dir, "stub.cpp")
	if err := os.WriteFile(stub, []byte(`#include <cstdio>
#include <cstring>
extern "C" int rlx_run_jobs(const char *jobs, const char *res, int flags, unsigned repeat) {
  std::printf("jobs=%s results=%s flags=%d repeat=%u\n", jobs, res, flags, repeat);
  return std::strcmp(jobs, "fail") == 0 ? -1 : 0;
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "runner")
	cmd := exec.Command(clang, "-x", "c++", "-std=c++17", "-O1", filepath.Join(dir, "rlx_cuda_main.cu"), stub, "-o", bin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the runner: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage: "},
		{[]string{"j", "r"}, 0, "jobs=j results=r flags=0 repeat=1"},
		{[]string{"j", "r", "--exact", "--no-results", "--outputs-only", "--repeat", "3"}, 0, "jobs=j results=r flags=7 repeat=3"},
		{[]string{"j", "r", "--repeat", "1000"}, 0, "repeat=1000"},
		{[]string{"j", "r", "--repeat", "0"}, 2, "--repeat wants a count from 1 to 1000, not 0"},
		{[]string{"j", "r", "--repeat", "1001"}, 2, "--repeat wants a count from 1 to 1000, not 1001"},
		{[]string{"j", "r", "--repeat", "3x"}, 2, "--repeat wants a count from 1 to 1000, not 3x"},
		{[]string{"j", "r", "--repeat"}, 2, "unknown flag --repeat"},
		{[]string{"j", "r", "--fast"}, 2, "unknown flag --fast"},
		{[]string{"fail", "r"}, 1, "jobs=fail"}, // the runtime's failure is the program's
	} {
		out, err := exec.Command(bin, c.args...).CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code || !strings.Contains(string(out), c.want) {
			t.Errorf("runner %q: exit %d, output %q; want exit %d and %q", c.args, code, out, c.code, c.want)
		}
	}
}

// shimForHost returns clang++-19 and a directory with the shim written to
// it; the test skips without clang++-19.
func shimForHost(t *testing.T) (clang, dir string) {
	t.Helper()
	clang, err := exec.LookPath("clang++-19")
	if err != nil {
		t.Skip("skipping: clang++-19 not found (Debian's clang-19 package; .ci/run installs it)")
	}
	dir = t.TempDir()
	if err := WriteShim(dir); err != nil {
		t.Fatal(err)
	}
	return clang, dir
}

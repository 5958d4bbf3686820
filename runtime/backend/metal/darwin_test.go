package metal_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sdk returns the include flags of rlx's stub SDK: the darwin libc
// headers Go's runtime/cgo needs, and codegen/mps's Foundation, Metal,
// MetalPerformanceShaders and MetalPerformanceShadersGraph.
func sdk(t *testing.T) []string {
	t.Helper()
	dirs := []string{"sdk/libc", "../../../codegen/mps/sdk/foundation", "../../../codegen/mps/sdk/apple"}
	flags := []string{"-nostdlibinc"}
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatal(err)
		}
		flags = append(flags, "-isystem", abs)
	}
	return flags
}

func clang(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("clang-19")
	if err != nil {
		t.Skip("clang-19 not found (Debian's clang-19 package; .ci/run installs it)")
	}
	return p
}

// TestDarwinBuild builds this package for darwin/arm64 with cgo on Linux:
// go build with GOOS=darwin GOARCH=arm64 CGO_ENABLED=1 and clang-19 for
// arm64-apple-macos13 against the stub SDK. That compiles Go's
// runtime/cgo, the package's cgo preamble and rlx_runtime_metal_darwin.m
// (with ARC, every selector and type checked against the stubs' Apple
// signatures and availability) and type-checks the Go side against the
// types cgo found. It cannot link (cgo's link to find dynamic imports
// fails without Apple's linker and go build goes on without it, as it
// does whenever that link fails), so a symbol missing from Apple's real
// frameworks, and anything at run time, is not checked here.
func TestDarwinBuild(t *testing.T) {
	cc := clang(t)
	if testing.Short() {
		t.Skip("-short: building Go's standard library for darwin/arm64 takes a while the first time")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	env := append(os.Environ(),
		"GOOS=darwin", "GOARCH=arm64", "CGO_ENABLED=1",
		"CC="+cc+" -target arm64-apple-macos13",
		"CGO_CFLAGS=-O2 -g -Werror=unguarded-availability-new "+strings.Join(sdk(t), " "))
	// The package, built for darwin with cgo, has the Objective-C file and
	// the cgo file (go build's cache keys on their contents, so a cached
	// success is a success of these files).
	list := exec.Command(goTool, "list", "-f", "{{.MFiles}} {{.CgoFiles}}", ".")
	list.Env = env
	files, err := list.CombinedOutput()
	if err != nil || string(files) != "[rlx_runtime_metal_darwin.m] [metal_darwin.go]\n" {
		t.Fatalf("go list for darwin/arm64: %v: %s", err, files)
	}
	cmd := exec.Command(goTool, "build", ".")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build for darwin/arm64: %v\n%s", err, tail(string(out), 60))
	}
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TestObjectiveCChecks shows what the darwin build's compile of
// rlx_runtime_metal_darwin.m catches: the file as it is compiles for
// macOS 13 and 15; a misspelled Metal selector, an MPSNDArray view made
// without its macOS 15 guard, and a wrong argument type do not.
func TestObjectiveCChecks(t *testing.T) {
	cc := clang(t)
	src, err := os.ReadFile("rlx_runtime_metal_darwin.m")
	if err != nil {
		t.Fatal(err)
	}
	abi, err := filepath.Abs("../../abi")
	if err != nil {
		t.Fatal(err)
	}
	compile := func(text, version string) (string, error) {
		f := filepath.Join(t.TempDir(), "rt.m")
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"-fsyntax-only", "-x", "objective-c", "-fobjc-arc", "-target", "arm64-apple-macosx" + version,
			"-Wall", "-Werror", "-Werror=unguarded-availability-new", "-I", abi}, sdk(t)...)
		out, err := exec.Command(cc, append(args, f)...).CombinedOutput()
		return string(out), err
	}
	for _, v := range []string{"13.0", "15.0"} {
		if out, err := compile(string(src), v); err != nil {
			t.Errorf("macOS %s: %v\n%s", v, err, out)
		}
	}
	mutants := []struct{ name, from, to, want string }{
		{"misspelled selector", "dispatchThreadgroups:", "dispatchThreadGroups:", "dispatchThreadGroups"},
		{"unguarded macOS 15 view", "if (@available(macOS 15.0, *)) {\n    MPSNDArrayDescriptor", "if (1) {\n    MPSNDArrayDescriptor", "only available on macOS 15.0"},
		{"wrong argument type", "setBuffer:buf offset:b[i].offset", "setBuffer:c.pipelines offset:b[i].offset", "setBuffer"},
	}
	for _, m := range mutants {
		if !strings.Contains(string(src), m.from) {
			t.Fatalf("%s: %q is not in the file", m.name, m.from)
		}
		out, err := compile(strings.Replace(string(src), m.from, m.to, 1), "13.0")
		if err == nil {
			t.Errorf("%s: compiles", m.name)
		} else if !strings.Contains(out, m.want) {
			t.Errorf("%s: the error does not mention %q:\n%s", m.name, m.want, out)
		}
	}
}

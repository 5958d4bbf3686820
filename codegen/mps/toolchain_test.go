package mps

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// The tools the Objective-C checks need. Tests that need them skip, with
// a message, when they are missing.

// clang returns clang-19's path, or skips t.
func clang(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("clang-19")
	if err != nil {
		t.Skip("clang-19 not found: the Objective-C checks need it (Debian: apt-get install clang-19)")
	}
	return p
}

// sdkDir is the stub SDK (the Apple-target syntax check uses both roots;
// the GNUstep run only sdk/apple, with GNUstep's Foundation).
func sdkDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs("sdk")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// syntaxFlags are the check: Objective-C with ARC for an Apple
// target, unguarded availability and every warning an error, against the
// stub SDK alone (-nostdinc: nothing of the host leaks in).
func syntaxFlags(t *testing.T, v Version) []string {
	sdk := sdkDir(t)
	return []string{"-fsyntax-only", "-x", "objective-c", "-fobjc-arc", "-target", "arm64-apple-macosx" + v.String(),
		"-Werror=unguarded-availability-new", "-Werror", "-nostdinc",
		"-isystem", filepath.Join(sdk, "foundation"), "-isystem", filepath.Join(sdk, "apple")}
}

// syntaxCheck compiles src (a file of dir) as syntaxFlags says and returns
// clang's diagnostics, or nil when it compiles.
func syntaxCheck(t *testing.T, dir, src string, v Version) error {
	t.Helper()
	cmd := exec.Command(clang(t), append(syntaxFlags(t, v), src)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v\n%s", err, out)
	}
	return nil
}

// gnustep holds the flags that build and link Objective-C against
// GNUstep's Foundation with clang-19 (reference/metal.md §5.4): its
// objc flags without dependency files or optimisation (the builds are
// for running once), GCC's include directory for objc/objc.h, the GCC
// runtime, and GNUstep's libraries.
type gnustep struct {
	compile, link []string
}

var gnustepOnce = sync.OnceValues(func() (*gnustep, string) {
	cfg, err := exec.LookPath("gnustep-config")
	if err != nil {
		return nil, "gnustep-config not found: the recording run needs GNUstep's Foundation (Debian: apt-get install libgnustep-base-dev gobjc)"
	}
	objc, err := exec.Command(cfg, "--objc-flags").Output()
	if err != nil {
		return nil, "gnustep-config --objc-flags: " + err.Error()
	}
	libs, err := exec.Command(cfg, "--base-libs").Output()
	if err != nil {
		return nil, "gnustep-config --base-libs: " + err.Error()
	}
	incs, _ := filepath.Glob("/usr/lib/gcc/*/*/include/objc/objc.h")
	if len(incs) == 0 {
		return nil, "GCC's objc/objc.h not found (Debian: apt-get install gobjc)"
	}
	sort.Strings(incs)
	g := &gnustep{}
	for _, f := range strings.Fields(string(objc)) {
		switch f {
		case "-MMD", "-MP", "-g", "-O2":
			continue
		}
		g.compile = append(g.compile, f)
	}
	g.compile = append(g.compile, "-I"+filepath.Dir(filepath.Dir(incs[len(incs)-1])), "-fobjc-runtime=gcc", "-Wno-unused-function")
	g.link = strings.Fields(string(libs))
	return g, ""
})

func gnustepFlags(t *testing.T) *gnustep {
	t.Helper()
	g, why := gnustepOnce()
	if g == nil {
		t.Skip(why)
	}
	return g
}

// runRecorded builds driver (a file of dir) with the recording MPSGraph
// against GNUstep and returns what it prints.
func runRecorded(t *testing.T, dir, driver string) string {
	t.Helper()
	g := gnustepFlags(t)
	td, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "driver")
	args := append([]string{"-x", "objective-c"}, g.compile...)
	args = append(args, "-I", filepath.Join(sdkDir(t), "apple"), "-I", td, "-I", dir,
		driver, filepath.Join(td, "recorder.m"), "-o", bin)
	args = append(args, g.link...)
	cmd := exec.Command(clang(t), args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the recording driver: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	run := exec.Command(bin)
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("running the recording driver: %v\n%s", err, stderr.String())
	}
	return stdout.String()
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

package cuda

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
)

//go:embed shim
var shimFS embed.FS

// ShimFiles returns the shim: the header the kernel text includes
// (metal_stdlib and the files it includes), the wrapper helpers, the
// runtime and the job runner's main, by file name.
func ShimFiles() (map[string][]byte, error) {
	files := map[string][]byte{}
	err := fs.WalkDir(shimFS, "shim", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := shimFS.ReadFile(path)
		files[filepath.Base(path)] = data
		return err
	})
	return files, err
}

// WriteShim writes the shim's files into dir.
func WriteShim(dir string) error {
	files, err := ShimFiles()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// ErrNoClang is wrapped by SyntaxCheck's error when clang-19 is not
// installed; tests skip on it.
var ErrNoClang = errors.New("clang-19 not found (Debian's clang-19 package; .ci/run installs it)")

// ClangFlags are the flags of the syntax check: CUDA for sm_90 (the H200)
// with our own stand-ins for CUDA's headers (shim/cuda_stubs.h), since no
// CUDA toolkit is installed where CI runs.
var ClangFlags = []string{"-x", "cuda", "--cuda-gpu-arch=sm_90", "-nocudainc", "-nocudalib", "-std=c++17",
	"-DRLX_CUDA_STUBS", "-fsyntax-only", "-ferror-limit=20"}

// SyntaxCheck checks CUDA sources in dir (a directory holding the shim and
// the generated files) with clang-19 in CUDA mode, host and device sides.
// It returns the compiler's messages on failure.
func SyntaxCheck(dir string, files ...string) error {
	clang, err := exec.LookPath("clang-19")
	if err != nil {
		return ErrNoClang
	}
	for _, f := range files {
		args := append(append([]string{}, ClangFlags...), "-I", dir, filepath.Join(dir, f))
		cmd := exec.Command(clang, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("clang-19 CUDA syntax check of %s: %v\n%s", f, err, out.String())
		}
	}
	return nil
}

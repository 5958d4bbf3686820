package abi

import (
	"embed"
	"os"
	"path/filepath"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

//go:embed rlx_runtime.h c/rlx_runtime_cpu.cpp c/rlx_record.c
var files embed.FS

// Header is the name of the ABI's header.
const Header = "rlx_runtime.h"

// The implementations: the CPU runtime and the recorder.
const (
	CPU      = "rlx_runtime_cpu.cpp"
	Recorder = "rlx_record.c"
)

// Source returns the text of one of the package's files: Header, CPU or
// Recorder.
func Source(name string) ([]byte, error) { return files.ReadFile(path(name)) }

// path is where a file lies in the package: the header beside the Go
// files, the C and C++ sources in c/ (Go refuses C sources in a package
// without cgo).
func path(name string) string {
	if name == Header {
		return name
	}
	return "c/" + name
}

// Write writes the named files into dir and returns their paths.
func Write(dir string, names ...string) ([]string, error) {
	var out []string
	for _, n := range names {
		data, err := files.ReadFile(path(n))
		if err != nil {
			return nil, err
		}
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// DType returns rlx_runtime.h's code of an element type (RLX_F32, …:
// MPSDataType's values), and false for a type it has no code for.
func DType(dt tensor.DType) (uint32, bool) {
	switch dt {
	case tensor.F32:
		return 0x10000020, true
	case tensor.F16:
		return 0x10000010, true
	case tensor.BF16:
		return 0x90000010, true
	case tensor.I64:
		return 0x20000040, true
	case tensor.I32:
		return 0x20000020, true
	case tensor.I8:
		return 0x20000008, true
	case tensor.UI8:
		return 0x00000008, true
	case tensor.I1:
		return 0x80000008, true
	}
	return 0, false
}

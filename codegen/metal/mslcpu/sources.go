package mslcpu

import (
	"bytes"
	"embed"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rlx-compiler/rlx/codegen/metal"
)

//go:embed shim/rlx_dispatch.h shim/rlx_dispatch.cpp
var dispatchFS embed.FS

// Sources are the files of a program that runs emitted kernels with a main
// of its own (a runtime binding buffers at offsets into its memory), as
// WriteSources writes them.
type Sources struct {
	// Include is the directory to pass with -I: the shim, rlx_dispatch.h.
	Include string
	// Files are the C++ files to compile with the program's own: the
	// kernels with their table (rlx::kernel_table), and the dispatcher
	// (rlx::dispatch).
	Files []string
	// Flags are the compiler flags the harness uses for mode.
	Flags []string
}

// WriteSources writes into dir the emitted source src compiled as C++
// against the shim, with a table of kernels (callable through
// rlx::dispatch, rlx_dispatch.h), and the dispatcher. The program that
// compiles them provides main.
func WriteSources(dir, src string, kernels []*metal.Kernel, mode Mode) (*Sources, error) {
	if err := writeShim(dir); err != nil {
		return nil, err
	}
	for _, name := range []string{"rlx_dispatch.h", "rlx_dispatch.cpp"} {
		data, err := dispatchFS.ReadFile("shim/" + name)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, "shim", name), data, 0o644); err != nil {
			return nil, err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "kernels.metal"), []byte(stripAttributes(src)), 0o644); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("#include \"kernels.metal\"\n#include \"rlx_dispatch.h\"\n\n")
	for _, k := range kernels {
		if err := writeWrapper(&b, k); err != nil {
			return nil, err
		}
	}
	b.WriteString("namespace rlx {\nconst KernelEntry kernel_table[] = {\n")
	for _, k := range kernels {
		fmt.Fprintf(&b, "    {%q, rlx_w_%s},\n", k.Name, k.Name)
	}
	if len(kernels) == 0 {
		b.WriteString("    {\"\", nullptr},\n")
	}
	fmt.Fprintf(&b, "};\nconst int kernel_count = %d;\n}  // namespace rlx\n", len(kernels))
	kfile := filepath.Join(dir, "kernels.cpp")
	if err := os.WriteFile(kfile, b.Bytes(), 0o644); err != nil {
		return nil, err
	}
	flags := append([]string{"-std=c++17", "-pthread", "-ffp-contract=off", "-fno-fast-math", "-w"}, mode.flags()...)
	return &Sources{
		Include: filepath.Join(dir, "shim"),
		Files:   []string{kfile, filepath.Join(dir, "shim", "rlx_dispatch.cpp")},
		Flags:   flags,
	}, nil
}

// Path returns the compiler's path, for programs built from WriteSources.
func (c *Compiler) Path() string { return c.cxx }

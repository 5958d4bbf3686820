package mslcpu

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rlx-compiler/rlx/codegen/metal"
)

//go:embed shim/metal_stdlib shim/rlx_shim_common.h shim/rlx_runtime.cpp
var shimFS embed.FS

// Mode selects how a Binary is built.
type Mode int

const (
	Plain Mode = iota // -O1, guard bytes around every buffer
	ASan              // AddressSanitizer, buffers allocated at their exact size
	TSan              // ThreadSanitizer
)

func (m Mode) String() string { return [...]string{"plain", "asan", "tsan"}[m] }

func (m Mode) flags() []string {
	switch m {
	case ASan:
		return []string{"-O1", "-g", "-fsanitize=address", "-fno-omit-frame-pointer"}
	case TSan:
		return []string{"-O1", "-g", "-fsanitize=thread"}
	}
	return []string{"-O1"}
}

// ErrNoClang is wrapped by the errors of NewCompiler when clang++-19 is
// not installed; tests skip on it.
var ErrNoClang = errors.New("clang++-19 not found (Debian's clang-19 package; .ci/run installs it)")

// Compiler builds harness programs with clang++-19. It compiles the
// dispatcher once per Mode and links that object into every program it
// builds afterwards; nothing outlives the Compiler value.
type Compiler struct {
	cxx string
	mu  sync.Mutex
	rt  map[Mode][]byte // the dispatcher's object file, per mode
}

// NewCompiler finds clang++-19.
func NewCompiler() (*Compiler, error) {
	p, err := exec.LookPath("clang++-19")
	if err != nil {
		return nil, ErrNoClang
	}
	return &Compiler{cxx: p, rt: map[Mode][]byte{}}, nil
}

// SanitizerAvailable reports whether clang can link programs with the
// sanitizer of mode (the runtime libraries come with libclang-rt-19-dev).
func (c *Compiler) SanitizerAvailable(mode Mode) error {
	if mode == Plain {
		return nil
	}
	dir, err := os.MkdirTemp("", "rlx-msl-probe")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "p.cpp")
	if err := os.WriteFile(src, []byte("int main() { return 0; }\n"), 0o644); err != nil {
		return err
	}
	args := append(mode.flags(), src, "-o", filepath.Join(dir, "p"))
	if out, err := exec.Command(c.cxx, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("clang++-19 cannot link with %s (libclang-rt-19-dev missing?): %s", mode, firstLine(string(out)))
	}
	return nil
}

// runtimeObject returns the dispatcher compiled for mode, compiling it
// into dir the first time.
func (c *Compiler) runtimeObject(dir string, mode Mode) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	obj := filepath.Join(dir, "rlx_runtime-"+mode.String()+".o")
	if data, ok := c.rt[mode]; ok {
		return obj, os.WriteFile(obj, data, 0o644)
	}
	args := append(c.flags(dir, mode), "-c", filepath.Join(dir, "shim", "rlx_runtime.cpp"), "-o", obj)
	if out, err := exec.Command(c.cxx, args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("compiling the dispatcher (%s): %v\n%s", mode, err, out)
	}
	data, err := os.ReadFile(obj)
	if err != nil {
		return "", err
	}
	c.rt[mode] = data
	return obj, nil
}

func (c *Compiler) flags(dir string, mode Mode) []string {
	args := []string{"-std=c++17", "-pthread", "-ffp-contract=off", "-fno-fast-math", "-w", "-I", filepath.Join(dir, "shim")}
	return append(args, mode.flags()...)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// stripAttributes blanks every [[…]] group, keeping lines and columns, so
// that compiler messages point into the emitted file. The run shim erases
// the address-space keywords with macros, which would turn
// [[threadgroup(0)]] into [[(0)]]; nothing else of the text changes.
func stripAttributes(src string) string {
	b := []byte(src)
	for i := 0; i+1 < len(b); i++ {
		if b[i] != '[' || b[i+1] != '[' {
			continue
		}
		end := strings.Index(src[i:], "]]")
		if end < 0 {
			break
		}
		for j := i; j < i+end+2; j++ {
			b[j] = ' '
		}
		i += end + 1
	}
	return string(b)
}

// Binary is a compiled harness: the emitted kernels, the shim and the
// dispatcher, linked into one program that runs jobs.
type Binary struct {
	Mode Mode
	// Fibers runs every threadgroup's threads as fibers of one OS thread
	// (ucontext, switching at each barrier and simdgroup function) instead
	// of OS threads: the same semantics, checks and reports, far cheaper
	// per threadgroup, for large runs. Plain builds only.
	Fibers bool
	// Deadline, when non-zero, is how long a barrier may wait before the
	// run is reported as a deadlock (20 s by default).
	Deadline time.Duration
	// LastCPU is the CPU time (user and system) of the last Run.
	LastCPU time.Duration
	// LastStderr is what the last Run printed (with RLX_MSL_PROFILE=1 in
	// the environment, each dispatch's time).
	LastStderr string
	path       string
	index      map[string]int
}

// Build compiles src (an emitted .metal source) with the CPU shim into a
// program in dir. kernels lists the kernel functions to call (their
// parameter lists say how); the others are compiled but not callable.
func (c *Compiler) Build(dir, src string, kernels []*metal.Kernel, mode Mode) (*Binary, error) {
	if err := writeShim(dir); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "kernels.metal"), []byte(stripAttributes(src)), 0o644); err != nil {
		return nil, err
	}
	var main bytes.Buffer
	main.WriteString("#include \"kernels.metal\"\n\n")
	index := map[string]int{}
	for i, k := range kernels {
		if err := writeWrapper(&main, k); err != nil {
			return nil, err
		}
		index[k.Name] = i
	}
	main.WriteString("static const rlx::KernelEntry rlx_kernels[] = {\n")
	for _, k := range kernels {
		fmt.Fprintf(&main, "    {%q, rlx_w_%s},\n", k.Name, k.Name)
	}
	if len(kernels) == 0 {
		main.WriteString("    {\"\", nullptr},\n")
	}
	main.WriteString("};\n\nint main(int argc, char **argv) {\n")
	fmt.Fprintf(&main, "  return rlx::harness_main(argc, argv, rlx_kernels, %d);\n}\n", len(kernels))
	if err := os.WriteFile(filepath.Join(dir, "main.cpp"), main.Bytes(), 0o644); err != nil {
		return nil, err
	}
	rt, err := c.runtimeObject(dir, mode)
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, "harness-"+mode.String())
	args := append(c.flags(dir, mode), filepath.Join(dir, "main.cpp"), rt, "-o", bin)
	cmd := exec.Command(c.cxx, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("compiling the emitted MSL as C++ (%s): %v\n%s", mode, err, out.String())
	}
	return &Binary{Mode: mode, path: bin, index: index}, nil
}

func writeShim(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "shim"), 0o755); err != nil {
		return err
	}
	for _, name := range []string{"metal_stdlib", "rlx_shim_common.h", "rlx_runtime.cpp"} {
		data, err := shimFS.ReadFile("shim/" + name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "shim", name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// positionArg returns where the dispatcher's array of positions
// (rlx_shim_common.h) holds a position attribute.
func positionArg(attr string) (int, bool) {
	switch attr {
	case "threadgroup_position_in_grid":
		return 0, true
	case "thread_position_in_threadgroup":
		return 3, true
	case "thread_index_in_simdgroup":
		return 6, true
	case "simdgroup_index_in_threadgroup":
		return 7, true
	case "threads_per_threadgroup":
		return 8, true
	case "threadgroups_per_grid":
		return 11, true
	case "thread_position_in_grid":
		return 14, true
	}
	return 0, false
}

// writeWrapper writes rlx_w_<kernel>, which calls the kernel with buffers,
// threadgroup memory and positions from the dispatcher.
func writeWrapper(w *bytes.Buffer, k *metal.Kernel) error {
	fmt.Fprintf(w, "static void rlx_w_%s(void *const *b, void *tg, const unsigned *p) {\n  %s(", k.Name, k.Name)
	for i, p := range k.Params {
		if i > 0 {
			w.WriteString(", ")
		}
		switch p.Kind {
		case metal.BufferParam:
			fmt.Fprintf(w, "(%s)b[%d]", p.Type, p.Index)
		case metal.ThreadgroupParam:
			fmt.Fprintf(w, "(%s)tg", p.Type)
		case metal.PositionParam:
			at, ok := positionArg(p.Attr)
			if !ok {
				return fmt.Errorf("kernel %s: position attribute %q is not supported by the harness", k.Name, p.Attr)
			}
			if strings.HasSuffix(p.Type, "3") {
				fmt.Fprintf(w, "metal::rlx_uint3(p + %d)", at)
			} else {
				fmt.Fprintf(w, "p[%d]", at)
			}
		}
	}
	w.WriteString(");\n}\n")
	return nil
}

// SyntaxCheck runs the strict pass on src: clang -fsyntax-only with
// device, constant and threadgroup memory in distinct address spaces, so
// that mixing them (a device pointer passed where a thread pointer is
// expected) is an error, as with Apple's compiler. It returns the
// compiler's messages on failure.
func (c *Compiler) SyntaxCheck(dir, src string) error {
	if err := writeShim(dir); err != nil {
		return err
	}
	file := filepath.Join(dir, "strict.metal")
	if err := os.WriteFile(file, []byte(stripAttributes(src)), 0o644); err != nil {
		return err
	}
	cmd := exec.Command(c.cxx, "-std=c++17", "-fsyntax-only", "-DRLX_STRICT_ADDRESS_SPACES", "-ferror-limit=20",
		"-I", filepath.Join(dir, "shim"), "-x", "c++", file)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("strict address-space check: %v\n%s", err, out)
	}
	return nil
}

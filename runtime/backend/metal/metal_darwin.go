//go:build darwin && cgo

package metal

/*
#cgo CFLAGS: -fobjc-arc -I${SRCDIR}/../../abi
#cgo LDFLAGS: -framework Foundation -framework Metal -framework MetalPerformanceShaders -framework MetalPerformanceShadersGraph
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "rlx_runtime.h"

static int rlx_go_mps_region(rlx_context *ctx, uint32_t region, const char *symbol, void *build, uint32_t n_inputs,
                             const rlx_tensor *inputs, uint32_t n_results, const rlx_tensor *results, uint32_t n_weights,
                             const rlx_tensor *weights, uint32_t n_constants, const rlx_constant *constants) {
	return rlx_mps_region(ctx, region, symbol, (rlx_mps_builder)build, n_inputs, inputs, n_results, results, n_weights,
	                      weights, n_constants, constants);
}
*/
import "C"

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unsafe"

	"github.com/rlx-compiler/rlx/codegen/mps"
	"github.com/rlx-compiler/rlx/runtime/abi"
	"github.com/rlx-compiler/rlx/runtime/backend"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Backend is the Metal backend.
type Backend struct {
	p        *plan.Plan
	ctx      *C.rlx_context
	arena    []byte
	cmds     []plan.Command
	binds    map[[2]int]*C.rlx_binding // (step, dispatch) -> bindings in C memory
	kernel   map[string]int
	region   map[int]int // step index -> MPS region id
	status   []statusWord
	cmem     []unsafe.Pointer
	lib      unsafe.Pointer // the builders' dynamic library
	dir      string
	stats    backend.Stats
	carried  map[int]bool
	runsDone int
}

type statusWord struct {
	offset, bytes int64
	symbol        *C.char
}

// New prepares c's plan on the default Metal device: it compiles the
// MPSGraph builders into a dynamic library and loads it, creates the
// context (arena, weights, the kernels' library from the emitted MSL),
// the pipelines and the MPS executables, and binds the weights from w.
func New(c *backend.Compiled, w ref.Weights, opts Options) (backend.Backend, error) {
	p := c.Plan
	if s := p.Stats(); s.HostSteps > 0 {
		return nil, fmt.Errorf("the plan of @%s has host steps (split for target=cpu?): the metal backend runs Metal and MPS steps", p.Function)
	}
	b := &Backend{p: p, binds: map[[2]int]*C.rlx_binding{}, kernel: map[string]int{}, region: map[int]int{}, carried: map[int]bool{}}
	ok := false
	defer func() {
		if !ok {
			b.Close()
		}
	}()
	var err error
	if b.dir, err = os.MkdirTemp("", "rlx-metal"); err != nil {
		return nil, err
	}
	mopts := mps.Options{}
	if opts.MacOS != "" {
		if mopts.MacOS, err = mps.ParseVersion(opts.MacOS); err != nil {
			return nil, err
		}
	}
	builders, err := c.Builders(nil, mopts)
	if err != nil {
		return nil, err
	}
	fns := map[string]unsafe.Pointer{}
	if builders != nil {
		if fns, err = b.loadBuilders(builders, opts); err != nil {
			return nil, err
		}
	}
	src := C.CString(c.MSL.Source)
	defer C.free(unsafe.Pointer(src))
	b.ctx = C.rlx_create(C.uint64_t(p.ArenaBytes), C.uint64_t(p.WeightBytes), src)
	if b.ctx == nil {
		return nil, fmt.Errorf("metal: %s", C.GoString(C.rlx_error(nil)))
	}
	for i, k := range c.MSL.Manifest.Kernels {
		name := b.cstr(k.Name)
		if C.rlx_kernel(b.ctx, C.uint32_t(i), name) != 0 {
			return nil, b.err()
		}
		b.kernel[k.Name] = i
	}
	if err := b.regions(builders, fns); err != nil {
		return nil, err
	}
	buf, err := c.LoadWeights(w)
	if err != nil {
		return nil, err
	}
	if len(buf) > 0 {
		data := C.CBytes(buf)
		rc := C.rlx_set_weight_bytes(b.ctx, 0, C.uint64_t(len(buf)), data)
		C.free(data)
		if rc != 0 {
			return nil, b.err()
		}
	}
	b.prepareDispatches()
	b.cmds = p.Commands()
	for _, cr := range p.Carries {
		b.carried[cr.Input] = true
	}
	b.arena = unsafe.Slice((*byte)(C.rlx_arena(b.ctx)), p.ArenaBytes)
	ok = true
	return b, nil
}

// cstr returns s in C memory the backend frees on Close.
func (b *Backend) cstr(s string) *C.char {
	p := C.CString(s)
	b.cmem = append(b.cmem, unsafe.Pointer(p))
	return p
}

// calloc returns n zeroed bytes of C memory the backend frees on Close.
func (b *Backend) calloc(n int) unsafe.Pointer {
	p := C.calloc(C.size_t(max(n, 1)), 1)
	b.cmem = append(b.cmem, p)
	return p
}

func (b *Backend) err() error { return fmt.Errorf("metal: %s", C.GoString(C.rlx_error(b.ctx))) }

// loadBuilders compiles the builders' source into a dynamic library with
// Xcode's clang and finds each builder in it.
func (b *Backend) loadBuilders(out *mps.Output, opts Options) (map[string]unsafe.Pointer, error) {
	src := filepath.Join(b.dir, "builders.m")
	if err := os.WriteFile(src, out.Source, 0o644); err != nil {
		return nil, err
	}
	lib := filepath.Join(b.dir, "builders.dylib")
	cc := strings.Fields(opts.CC)
	if len(cc) == 0 {
		cc = []string{"xcrun", "clang"}
	}
	args := append(cc[1:], "-dynamiclib", "-fobjc-arc", "-O1", "-framework", "Foundation", "-framework", "Metal",
		"-framework", "MetalPerformanceShaders", "-framework", "MetalPerformanceShadersGraph", src, "-o", lib)
	if msg, err := exec.Command(cc[0], args...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("compiling the MPSGraph builders (%s): %v\n%s", strings.Join(cc, " "), err, msg)
	}
	path := C.CString(lib)
	defer C.free(unsafe.Pointer(path))
	b.lib = C.dlopen(path, C.RTLD_NOW|C.RTLD_LOCAL)
	if b.lib == nil {
		return nil, fmt.Errorf("loading the MPSGraph builders: %s", C.GoString(C.dlerror()))
	}
	fns := map[string]unsafe.Pointer{}
	for _, bl := range out.Builders {
		name := C.CString(bl.Function)
		f := C.dlsym(b.lib, name)
		C.free(unsafe.Pointer(name))
		if f == nil {
			return nil, fmt.Errorf("the builders' library has no %s", bl.Function)
		}
		fns[bl.Symbol] = f
	}
	return fns, nil
}

// tensors writes rlx_tensor structs into C memory.
func (b *Backend) tensors(ts []tensorDesc) (*C.rlx_tensor, error) {
	if len(ts) == 0 {
		return nil, nil
	}
	arr := (*[1 << 20]C.rlx_tensor)(b.calloc(len(ts) * int(unsafe.Sizeof(C.rlx_tensor{}))))[:len(ts):len(ts)]
	for i, t := range ts {
		dt, shape, err := backend.ParseType(t.typ)
		if err != nil {
			return nil, err
		}
		code, ok := abi.DType(dt)
		if !ok {
			return nil, fmt.Errorf("%s has no MPSGraph data type", t.typ)
		}
		dims := (*[1 << 10]C.int64_t)(b.calloc(len(shape) * 8))[:len(shape):len(shape)]
		for j, d := range shape {
			dims[j] = C.int64_t(d)
		}
		arr[i] = C.rlx_tensor{buffer: C.uint32_t(t.buffer), dtype: C.uint32_t(code), offset: C.uint64_t(t.offset),
			bytes: C.uint64_t(t.bytes), rank: C.uint32_t(len(shape)), shape: &dims[0]}
		if len(shape) == 0 {
			arr[i].shape = nil
		}
		if t.name != "" {
			arr[i].name = b.cstr(t.name)
		}
	}
	return &arr[0], nil
}

type tensorDesc struct {
	name          string
	buffer        int
	typ           string
	offset, bytes int64
}

// regions builds and compiles every MPS step's executable.
func (b *Backend) regions(out *mps.Output, fns map[string]unsafe.Pointer) error {
	if out == nil {
		return nil
	}
	byName := map[string]*plan.Weight{}
	for _, w := range b.p.Weights {
		byName[w.Name] = w
	}
	builders := map[string]mps.Builder{}
	for _, bl := range out.Builders {
		builders[bl.Symbol] = bl
	}
	for _, st := range b.p.Steps {
		if st.Kind != plan.StepMPS {
			continue
		}
		id := len(b.region)
		b.region[st.Index] = id
		bl := builders[st.Symbol]
		var ins, outs, wts []tensorDesc
		for _, v := range st.Inputs {
			pv := b.p.Values[v]
			ins = append(ins, tensorDesc{typ: pv.Type, offset: pv.Offset, bytes: pv.Bytes})
		}
		for _, v := range st.Outputs {
			pv := b.p.Values[v]
			outs = append(outs, tensorDesc{typ: pv.Type, offset: pv.Offset, bytes: pv.Bytes})
		}
		for _, w := range bl.Weights {
			pw := byName[w.Name]
			if pw == nil {
				return fmt.Errorf("region @%s reads weight %q, which the plan lacks", st.Symbol, w.Name)
			}
			wts = append(wts, tensorDesc{name: w.Name, buffer: 1, typ: pw.Type, offset: pw.Offset, bytes: pw.Bytes})
		}
		cin, err := b.tensors(ins)
		if err != nil {
			return err
		}
		cout, err := b.tensors(outs)
		if err != nil {
			return err
		}
		cw, err := b.tensors(wts)
		if err != nil {
			return err
		}
		var consts *C.rlx_constant
		if n := len(bl.Constants); n > 0 {
			arr := (*[1 << 16]C.rlx_constant)(b.calloc(n * int(unsafe.Sizeof(C.rlx_constant{}))))[:n:n]
			for i, k := range bl.Constants {
				data := C.CBytes(k.Data)
				b.cmem = append(b.cmem, data)
				arr[i] = C.rlx_constant{key: b.cstr(k.Key), data: data, bytes: C.uint64_t(len(k.Data))}
			}
			consts = &arr[0]
		}
		if C.rlx_go_mps_region(b.ctx, C.uint32_t(id), b.cstr(st.Symbol), fns[st.Symbol], C.uint32_t(len(ins)), cin,
			C.uint32_t(len(outs)), cout, C.uint32_t(len(wts)), cw, C.uint32_t(len(bl.Constants)), consts) != 0 {
			return b.err()
		}
	}
	return nil
}

// prepareDispatches writes every dispatch's bindings into C memory once.
func (b *Backend) prepareDispatches() {
	access := map[string]C.uint32_t{"read": C.RLX_READ, "write": C.RLX_WRITE, "read_write": C.RLX_READ_WRITE}
	for _, st := range b.p.Steps {
		for di, d := range st.Dispatches {
			n := len(d.Bindings)
			arr := (*[1 << 10]C.rlx_binding)(b.calloc(n * int(unsafe.Sizeof(C.rlx_binding{}))))[:n:n]
			for i, bd := range d.Bindings {
				buf := C.uint32_t(C.RLX_ARENA)
				if bd.Buffer == plan.BufWeights {
					buf = C.RLX_WEIGHTS
				}
				arr[i] = C.rlx_binding{buffer: buf, access: access[bd.Access], offset: C.uint64_t(bd.Offset), bytes: C.uint64_t(bd.Bytes)}
			}
			if n > 0 {
				b.binds[[2]int{st.Index, di}] = &arr[0]
			}
		}
		for _, id := range st.Temps {
			if v := b.p.Values[id]; v.Kind == plan.KindStatus {
				b.status = append(b.status, statusWord{v.Offset, v.Bytes, b.cstr(st.Symbol)})
			}
		}
	}
}

// Name returns "metal".
func (b *Backend) Name() string { return "metal" }

// Stats returns the counts of the runs so far.
func (b *Backend) Stats() backend.Stats { return b.stats }

// Run writes the inputs into the arena, encodes the plan's command
// stream into one command buffer, commits it and waits once, checks the
// status words and reads the outputs.
func (b *Backend) Run(inputs []*tensor.Tensor) ([]*tensor.Tensor, error) {
	p := b.p
	if len(inputs) != len(p.Inputs) {
		return nil, fmt.Errorf("@%s takes %d inputs, got %d", p.Function, len(p.Inputs), len(inputs))
	}
	for i, t := range inputs {
		if t == nil {
			if !b.carried[i] || b.runsDone == 0 {
				return nil, fmt.Errorf("input %d of @%s is missing (only a carried state may be left out, after the first run)", i, p.Function)
			}
			continue
		}
		if err := backend.WriteValue(b.arena, p.Values[p.Inputs[i].Value], t); err != nil {
			return nil, fmt.Errorf("input %d: %v", i, err)
		}
	}
	if C.rlx_begin(b.ctx) != 0 {
		return nil, b.err()
	}
	for _, c := range b.cmds {
		var rc C.int
		switch c.Kind {
		case plan.CmdFillZero:
			rc = C.rlx_fill_zero(b.ctx, C.uint64_t(c.Dst), C.uint64_t(c.Bytes))
		case plan.CmdCopyWeight:
			rc = C.rlx_copy_weight(b.ctx, C.uint64_t(c.Src), C.uint64_t(c.Dst), C.uint64_t(c.Bytes))
		case plan.CmdCopy:
			rc = C.rlx_copy(b.ctx, C.uint64_t(c.Src), C.uint64_t(c.Dst), C.uint64_t(c.Bytes))
		case plan.CmdMPS:
			rc = C.rlx_mps(b.ctx, C.uint32_t(b.region[c.Step]))
			b.stats.MPS++
		case plan.CmdDispatch:
			d := p.Steps[c.Step].Dispatches[c.Index]
			rc = C.rlx_dispatch(b.ctx, C.uint32_t(b.kernel[d.Kernel]),
				C.uint32_t(d.Grid[0]), C.uint32_t(d.Grid[1]), C.uint32_t(d.Grid[2]),
				C.uint32_t(d.Threadgroup[0]), C.uint32_t(d.Threadgroup[1]), C.uint32_t(d.Threadgroup[2]),
				C.uint32_t(d.ThreadgroupMemory), C.uint32_t(len(d.Bindings)), b.binds[[2]int{c.Step, c.Index}])
			b.stats.Dispatches++
		case plan.CmdCommitWait:
			rc = C.rlx_commit_and_wait(b.ctx)
			b.stats.Waits++
		default:
			return nil, fmt.Errorf("the metal backend cannot run a %s command", c.Kind)
		}
		if rc != 0 {
			return nil, b.err()
		}
	}
	b.stats.Steps += len(p.Steps)
	b.stats.Runs++
	b.runsDone++
	for _, s := range b.status {
		if C.rlx_check_status(b.ctx, C.uint64_t(s.offset), C.uint64_t(s.bytes), s.symbol) != 0 {
			return nil, b.err()
		}
	}
	out := make([]*tensor.Tensor, len(p.Outputs))
	for i, o := range p.Outputs {
		t, err := backend.ReadValue(b.arena, p.Values[o.Value])
		if err != nil {
			return nil, fmt.Errorf("output %d: %v", i, err)
		}
		out[i] = t
	}
	return out, nil
}

// Close releases the context, the builders' library and the C memory.
func (b *Backend) Close() error {
	if b.ctx != nil {
		C.rlx_destroy(b.ctx)
		b.ctx = nil
	}
	if b.lib != nil {
		C.dlclose(b.lib)
		b.lib = nil
	}
	for _, p := range b.cmem {
		C.free(p)
	}
	b.cmem = nil
	if b.dir != "" {
		os.RemoveAll(b.dir)
	}
	return nil
}

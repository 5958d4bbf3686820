package suite

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/cuda"
	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/thunk"
	"github.com/rlx-compiler/rlx/internal/conditioning"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Inputs says where a suite's inputs come from.
type Inputs int

const (
	// Seeded inputs and weights (ref.SeededInputs, ref.Seeded), carried
	// in the job file: the CPU harness's inputs.
	Seeded Inputs = iota
	// Filled inputs and weights (cuda.Fill), made on the device from a
	// seed per buffer, so that nothing large travels.
	Filled
)

// Suite is a set of cases emitted as one module, with the CUDA sources
// that run it, one job per case, and the reference's outputs.
type Suite struct {
	Name    string
	Cases   []Case
	Output  *metal.Output
	Sources *cuda.Sources
	Jobs    []*cuda.Job
	Index   Index
	Expect  []byte // the reference outputs, at Index's offsets
}

// Index is the suite's description for the device driver (bench/gpu/check.py),
// written as <name>.json.
type Index struct {
	Name    string                `json:"name"`
	Kernels []string              `json:"kernels"`
	Info    map[string]KernelInfo `json:"kernel_info"`
	Cases   []CaseInfo            `json:"cases"`
	// ZerosAllowed: a result whose reference is all zeros is judged like
	// any other (Options.ZerosAllowed), not reported as a case that
	// tests nothing.
	ZerosAllowed bool `json:"zeros_allowed,omitempty"`
}

// KernelInfo is what the report needs of a kernel.
type KernelInfo struct {
	Family      string `json:"family"`
	Grid        [3]int `json:"grid"`
	Threadgroup [3]int `json:"threadgroup"`
	TGMem       int    `json:"tgmem"`
	Reads       int64  `json:"reads"`
	Writes      int64  `json:"writes"`
}

// CaseInfo describes one case and its job.
type CaseInfo struct {
	Name       string         `json:"name"`
	Job        int            `json:"job"`
	Limit      float64        `json:"limit"`
	Buffers    []BufferInfo   `json:"buffers"`
	Dispatches []DispatchInfo `json:"dispatches"`
	Outputs    []OutputInfo   `json:"outputs"`
	Status     int            `json:"status"` // the status word's buffer, or -1
	Bytes      int64          `json:"bytes"`  // the kernels' traffic (manifest reads + writes)
	// MinBytes is what the case must move at least: every input, weight
	// and constant read once and every result written once (a split
	// kernel's partials are not counted). The roofline is taken on it.
	MinBytes int64  `json:"min_bytes"`
	Bench    *Bench `json:"bench,omitempty"`
}

// BufferInfo is one buffer of a case's region.
type BufferInfo struct {
	ID    int    `json:"id"`
	Role  string `json:"role"`
	Type  string `json:"type"`
	Bytes int64  `json:"bytes"`
	Init  int    `json:"init"`
	Elem  int    `json:"elem"`
	Seed  uint32 `json:"seed"`
	Data  string `json:"data,omitempty"` // hex, for constants
}

// DispatchInfo is one dispatch of a case's region.
type DispatchInfo struct {
	Kernel      string `json:"kernel"`
	K           int    `json:"k"` // index in the launch table
	Grid        [3]int `json:"grid"`
	Threadgroup [3]int `json:"threadgroup"`
	TGMem       int    `json:"tgmem"`
	Buffers     []int  `json:"buffers"`
}

// OutputInfo locates one result's reference bytes in Expect: every
// Stride-th element of the result, from the first.
type OutputInfo struct {
	Buffer int    `json:"buffer"`
	Index  int    `json:"index"`
	Type   string `json:"type"`
	Offset int64  `json:"offset"`
	Bytes  int64  `json:"bytes"`
	Stride int    `json:"stride"`
	// IllConditioned marks a result that the reference itself moves
	// beyond the case's limit when its inputs and weights move by a few
	// ulps (Options.Conditioning), Perturbed by how much (NMSE): the
	// device driver reports its NMSE and does not judge it.
	IllConditioned bool    `json:"ill_conditioned,omitempty"`
	Perturbed      float64 `json:"perturbed,omitempty"` // math.MaxFloat64 for +Inf
}

// Options for Build.
type Options struct {
	Inputs Inputs
	Parts  int    // translation units for nvcc (cuda.Options.Parts)
	Seed   uint64 // for Seeded inputs
	// Edit, when set, changes the emitted source before the CUDA sources
	// are generated (the planted bugs).
	Edit func(src string) string
	// Metal is passed to metal.Emit (its MSLVersion 3.1 when empty; the
	// suites' bf16 cases need 3.1 or later).
	Metal metal.Options
	// NoReference leaves out the reference outputs (and, for Filled
	// inputs, the CPU copy of the inputs they need): a suite that is only
	// timed, such as the tuning variants.
	NoReference bool
	// Conditioning runs the reference again on perturbed inputs and
	// weights (conditioning: floats moved by a few ulps, and the packed
	// weights' f16 scales by one) and marks each result that moves beyond
	// its case's limit as ill-conditioned (OutputInfo.IllConditioned):
	// where rounding a few ulps differently moves it that far, a kernel's
	// different but correct rounding (another summation order, another
	// cos) can too, so the device driver reports its NMSE without judging
	// it (the random suite: the cosine of a dequantised product of 10^6,
	// a cancelling sum).
	Conditioning bool
	// ZerosAllowed lets results be all zeros. The device driver reports
	// an all-zero reference as a problem (a hand-written case whose
	// result is zeros tests little); random functions compute zeros
	// (x − x, relu of negatives, comparisons all false) as a matter of
	// course.
	ZerosAllowed bool
}

// Emit emits the cases as one module (MSL 3.1, which has bfloat, unless
// opts.Metal names another version) and
// generates the CUDA sources that run it; opts.Edit, when set, changes the
// emitted source first.
func Emit(name string, cases []Case, opts Options) (*ir.Operation, *metal.Output, *cuda.Sources, error) {
	m, err := Parse(name, cases)
	if err != nil {
		return nil, nil, nil, err
	}
	mo := opts.Metal
	if mo.MSLVersion == "" {
		mo.MSLVersion = "3.1"
	}
	out, err := metal.Emit(m, mo)
	if err != nil {
		return nil, nil, nil, err
	}
	if opts.Edit != nil {
		src := opts.Edit(out.Source)
		if src == out.Source {
			return nil, nil, nil, fmt.Errorf("%s: the edit changed nothing", name)
		}
		out.Source = src
	}
	srcs, err := cuda.Generate(name, out.Source, out.Manifest, cuda.Options{Parts: opts.Parts})
	if err != nil {
		return nil, nil, nil, err
	}
	return m, out, srcs, nil
}

// Build emits the cases, generates the CUDA sources and makes one job per
// case with the reference interpreter's outputs.
func Build(name string, cases []Case, opts Options) (*Suite, error) {
	m, out, srcs, err := Emit(name, cases, opts)
	if err != nil {
		return nil, err
	}
	s := &Suite{Name: name, Cases: cases, Output: out, Sources: srcs}
	s.Index = Index{Name: name, Kernels: srcs.Kernels, Info: map[string]KernelInfo{}, ZerosAllowed: opts.ZerosAllowed}
	kindex := map[string]int{}
	kinfo := map[string]*metal.KernelInfo{}
	for i, k := range out.Manifest.Kernels {
		kindex[k.Name] = i
		kinfo[k.Name] = k
		s.Index.Info[k.Name] = KernelInfo{Family: k.Family, Grid: k.Grid, Threadgroup: k.Threadgroup, TGMem: k.ThreadgroupMemory, Reads: k.Reads, Writes: k.Writes}
	}
	funcs := map[string]*ir.Operation{}
	m.Walk(func(op *ir.Operation) {
		if f, ok := fn.AsFunc(op); ok {
			funcs[f.Name()] = op
		}
	})
	regions := map[string]*metal.Region{}
	for _, r := range out.Manifest.Regions {
		regions[r.Function] = r
	}
	for i, c := range cases {
		reg := regions[c.Name]
		if reg == nil {
			return nil, fmt.Errorf("%s: no region in the manifest", c.Name)
		}
		f := funcs[c.Name]
		if f == nil {
			return nil, fmt.Errorf("%s: no function of that name in the module", c.Name)
		}
		pt, err := portsOf(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.Name, err)
		}
		job, info, want, err := s.caseJob(c, f, pt, reg, kindex, kinfo, opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.Name, err)
		}
		info.Job = i
		for j := range info.Outputs {
			if want == nil {
				break
			}
			o := &info.Outputs[j]
			t := want[pt.result[o.Index]]
			data, err := mslcpu.TensorBytes(t)
			if err != nil {
				return nil, err
			}
			stride := sampleStride(t.Len())
			data = sample(data, t.DType().ByteSize(), stride)
			o.Offset, o.Bytes, o.Stride = int64(len(s.Expect)), int64(len(data)), stride
			s.Expect = append(s.Expect, data...)
		}
		s.Jobs = append(s.Jobs, job)
		s.Index.Cases = append(s.Index.Cases, info)
	}
	return s, nil
}

// maxCompared is the most elements of one output whose reference values
// travel to the device: a larger output is compared at every stride-th
// element (and checked whole for unwritten, still poisoned, elements), so
// that the carried files stay far under the device's 64 MiB.
const maxCompared = 1 << 18

func sampleStride(n int) int { return max(1, (n+maxCompared-1)/maxCompared) }

// sample keeps every stride-th element of size es bytes.
func sample(data []byte, es, stride int) []byte {
	if stride == 1 {
		return data
	}
	var out []byte
	for i := 0; i*es < len(data); i += stride {
		out = append(out, data[i*es:(i+1)*es]...)
	}
	return out
}

// seedOf gives each buffer of each case its own fill seed.
func seedOf(caseName string, id int) uint32 {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s/%d", caseName, id)
	return h.Sum32()
}

// ports says where a case's thunk region meets its function: arg[i] is
// the function argument that the region's operand i is, result[j] the
// function result that the region's result j is.
type ports struct {
	arg, result []int
}

// portsOf finds the one thunk.call of f, a case's function, and its
// ports. Besides it and the return, f's body may hold only leaves
// (graph.param, graph.constant) that f returns as they are; the thunk's
// operands must be f's arguments, and f must return each of its results.
func portsOf(f *ir.Operation) (ports, error) {
	var pt ports
	body := fn.Func{Op: f}.Body()
	var call, ret *ir.Operation
	for op := range body.Ops() {
		switch op.Name() {
		case thunk.CallName:
			if call != nil {
				return pt, fmt.Errorf("more than one thunk.call")
			}
			call = op
		case fn.ReturnName:
			ret = op
		case graph.ParamName, graph.ConstantName:
		default:
			return pt, fmt.Errorf("%s outside the thunk region", op.Name())
		}
	}
	if call == nil || ret == nil {
		return pt, fmt.Errorf("no thunk.call and return")
	}
	for i, v := range call.Operands() {
		if !v.IsBlockArgument() || v.OwnerBlock() != body {
			return pt, fmt.Errorf("thunk operand #%d is not an argument of the function", i)
		}
		pt.arg = append(pt.arg, v.Index())
	}
	pt.result = make([]int, call.NumResults())
	for j := range pt.result {
		pt.result[j] = -1
	}
	for k, v := range ret.Operands() {
		if v.DefiningOp() == call && pt.result[v.Index()] < 0 {
			pt.result[v.Index()] = k
		}
	}
	for j, k := range pt.result {
		if k < 0 {
			return pt, fmt.Errorf("thunk result #%d is not returned", j)
		}
	}
	return pt, nil
}

func (s *Suite) caseJob(c Case, f *ir.Operation, pt ports, reg *metal.Region, kindex map[string]int, kinfo map[string]*metal.KernelInfo, opts Options) (*cuda.Job, CaseInfo, []*tensor.Tensor, error) {
	info := CaseInfo{Name: c.Name, Limit: c.Limit, Status: -1, Bench: c.Bench}
	p, err := ref.CompileFunc(f)
	if err != nil {
		return nil, info, nil, err
	}
	quant := map[string]string{}
	for _, sp := range p.Params() {
		if sp.Quant != nil {
			quant[sp.Name] = sp.Quant.Format.String()
		}
	}
	var inputs []*tensor.Tensor
	weights := &ref.TensorWeights{Tensors: map[string]*tensor.Tensor{}}
	if opts.Inputs == Seeded {
		seed := opts.Seed
		if c.InputSeed != 0 {
			seed = c.InputSeed
		}
		if inputs, err = ref.SeededInputs(seed, p); err != nil {
			return nil, info, nil, err
		}
		if weights, err = ref.Materialize(ref.Seeded(seed), p); err != nil {
			return nil, info, nil, err
		}
	} else {
		inputs = make([]*tensor.Tensor, len(p.Args()))
	}
	job := &cuda.Job{Name: c.Name}
	for _, b := range reg.Buffers {
		elem, err := cuda.ElemOf(b.Type, quant[b.Name])
		if err != nil {
			return nil, info, nil, err
		}
		buf := cuda.Buffer{Size: b.Bytes, Elem: elem}
		if (b.Role == metal.RoleInput && b.Index >= len(pt.arg)) || (b.Role == metal.RoleOutput && b.Index >= len(pt.result)) {
			return nil, info, nil, fmt.Errorf("buffer %d: %s #%d, but the thunk has %d operands and %d results", b.ID, b.Role, b.Index, len(pt.arg), len(pt.result))
		}
		switch b.Role {
		case metal.RoleInput, metal.RoleParam:
			if opts.Inputs == Seeded {
				t := weights.Tensors[b.Name]
				if b.Role == metal.RoleInput {
					t = inputs[pt.arg[b.Index]]
				}
				if buf.Data, err = mslcpu.TensorBytes(t); err != nil {
					return nil, info, nil, err
				}
				buf.Init = cuda.Data
				break
			}
			buf.Init, buf.Seed = cuda.Random, seedOf(c.Name, b.ID)
			if opts.NoReference {
				break
			}
			t, err := tensorOf(b.Type, cuda.Fill(elem, b.Bytes, buf.Seed))
			if err != nil {
				return nil, info, nil, err
			}
			if b.Role == metal.RoleInput {
				inputs[pt.arg[b.Index]] = t
			} else {
				weights.Tensors[b.Name] = t
			}
		case metal.RoleConstant:
			if buf.Data, err = hex.DecodeString(b.Data); err != nil {
				return nil, info, nil, err
			}
			buf.Init = cuda.Data
		case metal.RoleStatus:
			buf.Init = cuda.Zero
			info.Status = b.ID
		case metal.RoleOutput:
			buf.Init = cuda.Poison
			info.Outputs = append(info.Outputs, OutputInfo{Buffer: b.ID, Index: b.Index, Type: b.Type})
		default:
			buf.Init = cuda.Poison
		}
		if buf.Init == cuda.Data && int64(len(buf.Data)) != buf.Size {
			return nil, info, nil, fmt.Errorf("buffer %d holds %d bytes, the manifest says %d", b.ID, len(buf.Data), buf.Size)
		}
		switch b.Role {
		case metal.RoleInput, metal.RoleParam, metal.RoleConstant, metal.RoleOutput:
			info.MinBytes += b.Bytes
		}
		job.Buffers = append(job.Buffers, buf)
		info.Buffers = append(info.Buffers, BufferInfo{ID: b.ID, Role: b.Role, Type: b.Type, Bytes: b.Bytes,
			Init: int(buf.Init), Elem: int(elem), Seed: buf.Seed, Data: b.Data})
	}
	if c.Bench != nil && c.Bench.Bytes > 0 {
		info.MinBytes = c.Bench.Bytes
	}
	for _, d := range reg.Dispatches {
		k := kinfo[d.Kernel]
		if k == nil {
			return nil, info, nil, fmt.Errorf("kernel %s missing from the manifest", d.Kernel)
		}
		job.Dispatches = append(job.Dispatches, cuda.Dispatch{Kernel: d.Kernel, Grid: k.Grid, Threadgroup: k.Threadgroup,
			ThreadgroupMemory: k.ThreadgroupMemory, Buffers: d.Buffers})
		info.Dispatches = append(info.Dispatches, DispatchInfo{Kernel: d.Kernel, K: kindex[d.Kernel], Grid: k.Grid,
			Threadgroup: k.Threadgroup, TGMem: k.ThreadgroupMemory, Buffers: d.Buffers})
		info.Bytes += k.Reads + k.Writes
	}
	if opts.NoReference {
		return job, info, nil, nil
	}
	want, err := p.Run(inputs, weights)
	if err != nil {
		return nil, info, nil, err
	}
	if opts.Conditioning {
		moved, err := conditioning.Moved(p, inputs, weights, want, func(w string) uint32 { return seedOf(w, 0) })
		if err != nil {
			return nil, info, nil, err
		}
		for j := range info.Outputs {
			o := &info.Outputs[j]
			if e := moved[pt.result[o.Index]]; !(e <= c.Limit) {
				// JSON has no infinity: a NaN or an infinity that moved is
				// the largest float.
				o.IllConditioned, o.Perturbed = true, min(e, math.MaxFloat64)
			}
		}
	}
	return job, info, want, nil
}

// tensorOf decodes a buffer's bytes as its manifest type.
func tensorOf(typ string, data []byte) (*tensor.Tensor, error) {
	dt, shape, err := mslcpu.ParseTensorType(typ)
	if err != nil {
		return nil, err
	}
	return mslcpu.TensorFromBytes(dt, shape, data)
}

// Write writes the suite into dir: the emitted source and manifest, the
// CUDA sources, the job file, the index and the reference outputs.
func (s *Suite) Write(dir string) error {
	if err := s.Sources.WriteFiles(dir); err != nil {
		return err
	}
	files := map[string][]byte{
		s.Name + ".metal":  []byte(s.Output.Source),
		s.Name + ".expect": s.Expect,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	mf, err := os.Create(filepath.Join(dir, s.Name+".manifest.json"))
	if err != nil {
		return err
	}
	if err := s.Output.Manifest.WriteJSON(mf); err != nil {
		mf.Close()
		return err
	}
	if err := mf.Close(); err != nil {
		return err
	}
	idx, err := json.MarshalIndent(s.Index, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, s.Name+".json"), idx, 0o644); err != nil {
		return err
	}
	jf, err := os.Create(filepath.Join(dir, s.Name+".jobs"))
	if err != nil {
		return err
	}
	if err := cuda.WriteJobs(jf, s.Jobs, s.Sources.Kernels); err != nil {
		jf.Close()
		return err
	}
	return jf.Close()
}

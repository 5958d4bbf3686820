package suite

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/cuda"
	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
	"github.com/rlx-compiler/rlx/dialect/fn"
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
	s.Index = Index{Name: name, Kernels: srcs.Kernels, Info: map[string]KernelInfo{}}
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
		job, info, want, err := s.caseJob(c, funcs[c.Name], reg, kindex, kinfo, opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.Name, err)
		}
		info.Job = i
		for k, t := range want {
			data, err := mslcpu.TensorBytes(t)
			if err != nil {
				return nil, err
			}
			stride := sampleStride(t.Len())
			data = sample(data, t.DType().ByteSize(), stride)
			for j := range info.Outputs {
				if info.Outputs[j].Index == k {
					info.Outputs[j].Offset = int64(len(s.Expect))
					info.Outputs[j].Bytes = int64(len(data))
					info.Outputs[j].Stride = stride
				}
			}
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

func (s *Suite) caseJob(c Case, f *ir.Operation, reg *metal.Region, kindex map[string]int, kinfo map[string]*metal.KernelInfo, opts Options) (*cuda.Job, CaseInfo, []*tensor.Tensor, error) {
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
		if inputs, err = ref.SeededInputs(opts.Seed, p); err != nil {
			return nil, info, nil, err
		}
		if weights, err = ref.Materialize(ref.Seeded(opts.Seed), p); err != nil {
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
		switch b.Role {
		case metal.RoleInput, metal.RoleParam:
			if opts.Inputs == Seeded {
				t := weights.Tensors[b.Name]
				if b.Role == metal.RoleInput {
					t = inputs[b.Index]
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
				inputs[b.Index] = t
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

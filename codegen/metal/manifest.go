package metal

import (
	"encoding/json"
	"io"
)

// ManifestVersion is the version of the manifest format
// (docs/codegen-metal.md#the-manifest).
const ManifestVersion = 1

// Manifest is what a runtime needs to run the emitted kernels: the
// pipelines (kernels) with their launch shapes and bindings, and for every
// thunk.call region its buffers and the dispatches to encode, in order.
type Manifest struct {
	Version    int    `json:"version"`
	MSLVersion string `json:"msl_version"`
	// MathMode is always "safe": the kernels rely on IEEE exp(-inf) = 0,
	// NaN propagation and no contraction, so the library must be compiled
	// with fast math off (MTLCompileOptions.mathMode = MTLMathModeSafe).
	MathMode string        `json:"math_mode"`
	Kernels  []*KernelInfo `json:"kernels"`
	Regions  []*Region     `json:"regions"`
}

// KernelInfo is a kernel as the manifest lists it.
type KernelInfo struct {
	Name              string    `json:"name"`
	Family            string    `json:"family"`
	Grid              [3]int    `json:"grid"`
	Threadgroup       [3]int    `json:"threadgroup"`
	ThreadgroupMemory int       `json:"threadgroup_memory"`
	Resize            string    `json:"resize"`
	TotalThreads      *[3]int   `json:"total_threads,omitempty"`
	Bindings          []Binding `json:"bindings"`
	Reads             int64     `json:"reads"`
	Writes            int64     `json:"writes"`
}

// Region is one thunk.call with target "metal".
type Region struct {
	Function   string      `json:"function"`
	Symbol     string      `json:"symbol"`
	Loc        string      `json:"loc"`
	Buffers    []*Buffer   `json:"buffers"`
	Dispatches []*Dispatch `json:"dispatches"`
}

// Buffer is one buffer of a region. Role says where its bytes come from or
// go: "input" (operand Index of the thunk.call), "output" (result Index),
// "param" (the weight Name), "constant" (Data, hex, little-endian),
// "temp" (scratch live only inside the region), or "status" (one u32 the
// runtime zeroes before the region and checks after it: bit 0 an
// out-of-range gather index, bit 1 an integer division by zero).
type Buffer struct {
	ID    int    `json:"id"`
	Role  string `json:"role"`
	Index int    `json:"index"`
	Name  string `json:"name,omitempty"`
	Type  string `json:"type"`
	Bytes int64  `json:"bytes"`
	Data  string `json:"data,omitempty"`
}

// Buffer roles.
const (
	RoleInput    = "input"
	RoleOutput   = "output"
	RoleParam    = "param"
	RoleConstant = "constant"
	RoleTemp     = "temp"
	RoleStatus   = "status"
)

// Status bits.
const (
	StatusGatherIndex = 1 << 0
	StatusDivByZero   = 1 << 1
)

// Dispatch is one kernel launch: Buffers[i] is the region buffer bound at
// index i.
type Dispatch struct {
	Kernel  string  `json:"kernel"`
	Ops     []OpRef `json:"ops"`
	Buffers []int   `json:"buffers"`
}

// OpRef names an op a dispatch computes.
type OpRef struct {
	Name string `json:"name"`
	Loc  string `json:"loc"`
}

// WriteJSON writes the manifest, indented, with a final newline.
func (m *Manifest) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(m)
}

func kernelInfo(k *Kernel) *KernelInfo {
	ki := &KernelInfo{
		Name: k.Name, Family: k.Family, Grid: k.Grid, Threadgroup: k.Threadgroup,
		ThreadgroupMemory: k.ThreadgroupMemory, Resize: k.Resize, Bindings: k.Bindings,
		Reads: k.Reads, Writes: k.Writes,
	}
	if k.Resize == ResizeThreads {
		tt := k.TotalThreads
		ki.TotalThreads = &tt
	}
	return ki
}

package plan

// Version is the version of the plan's JSON form; ReadJSON refuses others.
const Version = 1

// DefaultAlign is the default alignment of arena and weight slots, in
// bytes: Metal wants buffer offsets aligned to the element size (and 256
// for some argument kinds), MPSNDArray views want 16.
const DefaultAlign = 256

// Plan is a function compiled for a runtime.
type Plan struct {
	Version  int    `json:"version"`
	Function string `json:"function"`
	// Align is the alignment of every slot offset; Guard the bytes kept
	// free after every arena value (a runtime may fill and check them).
	Align int64 `json:"align"`
	Guard int64 `json:"guard"`
	// ArenaBytes is the arena's size; LowerBound the largest sum of the
	// bytes of values live at one step.
	ArenaBytes  int64 `json:"arena_bytes"`
	LowerBound  int64 `json:"lower_bound"`
	WeightBytes int64 `json:"weight_bytes"`
	// Values are every arena value, indexed by ID.
	Values  []*Value  `json:"values"`
	Weights []*Weight `json:"weights"`
	Inputs  []Port    `json:"inputs"`
	Outputs []Port    `json:"outputs"`
	Steps   []*Step   `json:"steps"`
	// Leaves are values the function returns straight from a graph.param
	// or graph.constant: the host copies their weight into their slot
	// before step 0.
	Leaves  []Leaf  `json:"leaves,omitempty"`
	Carries []Carry `json:"carries,omitempty"`
}

// Leaf says that arena value Value starts as a copy of weight Weight.
type Leaf struct {
	Value  int `json:"value"`
	Weight int `json:"weight"`
}

// Value is one arena value: a function argument, a region result, a kernel
// temporary or a status word.
type Value struct {
	ID   int    `json:"id"`
	Name string `json:"name"` // "%arg0", "%3#1", "@f_thunk3.t4", "@f_thunk3.status"
	Kind string `json:"kind"` // KindInput, KindLeaf, KindResult, KindTemp, KindStatus
	Type string `json:"type"` // "tensor<1x64xf32>"; "u32" for a status word
	// Bytes is the value's size, Offset its slot in the arena.
	Bytes  int64 `json:"bytes"`
	Offset int64 `json:"offset"`
	// Def is the step that writes the value (-1: the host, before step
	// 0); Last the last step that reads it (len(Steps): the host, after
	// the last step). The value is live over [Def, Last].
	Def  int `json:"def"`
	Last int `json:"last"`
}

// Value kinds.
const (
	KindInput  = "input"
	KindLeaf   = "leaf"
	KindResult = "result"
	KindTemp   = "temp"
	KindStatus = "status"
)

// Weight is a slot of the weight buffer: a graph.param bound by name, or
// the bytes of a constant a Metal kernel reads.
type Weight struct {
	ID     int    `json:"id"`
	Name   string `json:"name"` // the param's name; "@f_thunk3.c2" for a constant
	Kind   string `json:"kind"` // WeightParam or WeightConstant
	Type   string `json:"type"`
	Bytes  int64  `json:"bytes"`
	Offset int64  `json:"offset"`
	Data   string `json:"data,omitempty"` // a constant's bytes, hex
}

// Weight kinds.
const (
	WeightParam    = "param"
	WeightConstant = "constant"
)

// Port is a function argument or result: its name (the rlx.name attribute,
// or "" without one) and its value.
type Port struct {
	Name  string `json:"name,omitempty"`
	Type  string `json:"type"`
	Value int    `json:"value"`
}

// Step kinds.
const (
	StepMPS   = "mps"   // one MPSGraph executable
	StepMetal = "metal" // Metal kernel dispatches
	StepHost  = "host"  // CPU code (thunk.call target "host")
	StepCopy  = "copy"  // arena to arena copies (carried states)
)

// Step is one region of the function, or a copy the plan adds.
type Step struct {
	Index  int    `json:"index"`
	Kind   string `json:"kind"`
	Symbol string `json:"symbol,omitempty"`
	Loc    string `json:"loc,omitempty"`
	// Inputs are the region's operands and Outputs its results (value
	// IDs, in order); Weights the weights it reads (IDs); Temps the
	// temporaries and status word of its kernels.
	Inputs  []int `json:"inputs"`
	Outputs []int `json:"outputs"`
	Weights []int `json:"weights,omitempty"`
	Temps   []int `json:"temps,omitempty"`
	// Dispatches are a Metal step's kernel launches, in order.
	Dispatches []*Dispatch `json:"dispatches,omitempty"`
	// Copies are a copy step's moves.
	Copies []Copy `json:"copies,omitempty"`
}

// Dispatch is one kernel launch.
type Dispatch struct {
	Kernel            string    `json:"kernel"`
	Grid              [3]int    `json:"grid"`
	Threadgroup       [3]int    `json:"threadgroup"`
	ThreadgroupMemory int       `json:"threadgroup_memory"`
	Bindings          []Binding `json:"bindings"`
}

// Buffers a binding may name.
const (
	BufArena   = "arena"
	BufWeights = "weights"
)

// Binding is the buffer at one kernel argument index: an arena value or a
// weight, at its byte offset.
type Binding struct {
	Buffer string `json:"buffer"` // BufArena or BufWeights
	Offset int64  `json:"offset"`
	Bytes  int64  `json:"bytes"`
	// Value is the arena value (BufArena) or weight (BufWeights) bound.
	Value  int    `json:"value"`
	Access string `json:"access"` // "read", "write" or "read_write"
}

// Copy moves Bytes from one value's slot to another's.
type Copy struct {
	From  int   `json:"from"`
	To    int   `json:"to"`
	Bytes int64 `json:"bytes"`
}

// Carry modes.
const (
	CarryAlias = "alias" // the result is written into the argument's slot
	CarryCopy  = "copy"  // a copy step moves it there at the end
)

// Carry is a decode state kept in the arena between runs: after a run,
// input Input's slot holds output Output's value.
type Carry struct {
	Name   string `json:"name"`
	Input  int    `json:"input"`
	Output int    `json:"output"`
	Mode   string `json:"mode"`
}

// Stats summarise a plan.
type Stats struct {
	Steps, MPSSteps, MetalSteps, HostSteps, CopySteps int
	Dispatches                                        int
	Values                                            int
	ArenaBytes, LowerBound, WeightBytes               int64
}

// Stats counts the plan's steps, dispatches and bytes.
func (p *Plan) Stats() Stats {
	s := Stats{Steps: len(p.Steps), Values: len(p.Values), ArenaBytes: p.ArenaBytes, LowerBound: p.LowerBound, WeightBytes: p.WeightBytes}
	for _, st := range p.Steps {
		switch st.Kind {
		case StepMPS:
			s.MPSSteps++
		case StepMetal:
			s.MetalSteps++
		case StepHost:
			s.HostSteps++
		case StepCopy:
			s.CopySteps++
		}
		s.Dispatches += len(st.Dispatches)
	}
	return s
}

// Ratio returns the arena's size over its lower bound (1 when both are 0).
func (s Stats) Ratio() float64 {
	if s.LowerBound == 0 {
		if s.ArenaBytes == 0 {
			return 1
		}
		return float64(s.ArenaBytes)
	}
	return float64(s.ArenaBytes) / float64(s.LowerBound)
}

// alignUp rounds n up to a multiple of a.
func alignUp(n, a int64) int64 { return (n + a - 1) / a * a }

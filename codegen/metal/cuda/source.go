package cuda

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// attrGroup matches an MSL attribute group such as [[buffer(0)]].
var attrGroup = regexp.MustCompile(`\[\[[^\[\]]*\]\]`)

// addressSpace matches MSL's address-space keywords as whole tokens
// (threadgroup_barrier, mem_threadgroup and thread_scope_device are other
// tokens), and MSL 3.2's coherent(device) qualifier: CUDA's global memory
// is coherent across blocks after __threadfence.
var addressSpace = regexp.MustCompile(`\bcoherent\(device\)|\b(device|constant|threadgroup|thread)\b`)

func blank(s string) string { return strings.Repeat(" ", len(s)) }

// EraseAddressSpaces blanks MSL's address-space keywords. They cannot be
// macros, as the CPU shim makes them: nvcc spells __device__ as
// __location__(device), and an empty device macro would turn every
// __device__ after it into nothing.
func EraseAddressSpaces(s string) string { return addressSpace.ReplaceAllStringFunc(s, blank) }

// Transform returns the emitted MSL text as nvcc compiles it, with every
// line where it was (so that compiler messages and compute-sanitizer's
// reports point into the .metal file, which a #line names): the [[...]]
// attribute groups and the address-space keywords are blanked (CUDA
// pointers are generic, and the wrapper hands the threadgroup memory in as
// the block's dynamic shared memory), the static inline helpers become
// __device__ functions, and a top-level constant constexpr table becomes a
// __device__ one, which device code may index. The shim's macros do the
// rest.
func Transform(src, file string) string {
	var b strings.Builder
	b.Grow(len(src) + len(src)/16)
	fmt.Fprintf(&b, "#line 1 %q\n", file)
	for line := range strings.Lines(src) {
		line = attrGroup.ReplaceAllStringFunc(line, blank)
		switch {
		case strings.HasPrefix(line, "static inline "):
			line = "static inline __device__ " + line[len("static inline "):]
		case strings.HasPrefix(line, "constant constexpr "):
			line = "__device__ constexpr " + line[len("constant constexpr "):]
		}
		b.WriteString(EraseAddressSpaces(line))
	}
	return b.String()
}

// ParamKind says what a kernel parameter binds.
type ParamKind uint8

const (
	BufferParam      ParamKind = iota // [[buffer(n)]]
	ThreadgroupParam                  // [[threadgroup(0)]]
	PositionParam                     // a position attribute
)

// Param is a kernel parameter as the kernel text declares it.
type Param struct {
	Kind  ParamKind
	Type  string // as written: "device const float *", "uint3"
	Name  string
	Index int    // the buffer index (BufferParam)
	Attr  string // the attribute (PositionParam)
}

// Signature is a kernel function's name and parameters.
type Signature struct {
	Name   string
	Line   int // of "kernel void", 1-based
	Params []Param
}

var paramLine = regexp.MustCompile(`^\s*(.*?)\s*(\w+)\s*\[\[([^\]]*)\]\]\s*([,)])\s*$`)
var bufferAttr = regexp.MustCompile(`^buffer\((\d+)\)$`)

// ParseSignatures reads the kernel signatures of an emitted MSL source:
// "kernel void NAME(" on a line of its own, then one parameter a line,
// each with its attribute, the last closing the list (the layout the MSL
// subset of docs/codegen-metal.md fixes).
func ParseSignatures(src string) (map[string]*Signature, error) {
	sigs := map[string]*Signature{}
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		rest, ok := strings.CutPrefix(lines[i], "kernel void ")
		if !ok {
			continue
		}
		name, ok := strings.CutSuffix(strings.TrimSpace(rest), "(")
		if !ok {
			return nil, fmt.Errorf("line %d: kernel signature does not end its first line with (", i+1)
		}
		sig := &Signature{Name: name, Line: i + 1}
		for {
			i++
			if i >= len(lines) {
				return nil, fmt.Errorf("kernel %s: the parameter list does not end", name)
			}
			m := paramLine.FindStringSubmatch(lines[i])
			if m == nil {
				return nil, fmt.Errorf("line %d: kernel %s: %q is not a parameter with an attribute", i+1, name, strings.TrimSpace(lines[i]))
			}
			p := Param{Type: m[1], Name: m[2], Attr: m[3]}
			switch {
			case bufferAttr.MatchString(p.Attr):
				p.Kind = BufferParam
				p.Index, _ = strconv.Atoi(bufferAttr.FindStringSubmatch(p.Attr)[1])
				p.Attr = ""
			case p.Attr == "threadgroup(0)":
				p.Kind = ThreadgroupParam
				p.Attr = ""
			default:
				if _, ok := positionExprs[p.Attr]; !ok {
					return nil, fmt.Errorf("line %d: kernel %s: attribute [[%s]] is not one the CUDA wrapper supports", i+1, name, p.Attr)
				}
				p.Kind = PositionParam
			}
			sig.Params = append(sig.Params, p)
			if m[4] == ")" {
				break
			}
		}
		if _, dup := sigs[name]; dup {
			return nil, fmt.Errorf("line %d: kernel %s defined twice", sig.Line, name)
		}
		sigs[name] = sig
	}
	return sigs, nil
}

// positionExprs are the CUDA expressions of MSL's position attributes, as
// three components (a scalar parameter takes the first). Apple numbers a
// threadgroup's threads x fastest, as CUDA numbers a block's, and cuts
// simdgroups of 32 from that order as CUDA cuts warps.
var positionExprs = map[string][3]string{
	"threadgroup_position_in_grid":   {"blockIdx.x", "blockIdx.y", "blockIdx.z"},
	"thread_position_in_threadgroup": {"threadIdx.x", "threadIdx.y", "threadIdx.z"},
	"threads_per_threadgroup":        {"blockDim.x", "blockDim.y", "blockDim.z"},
	"threadgroups_per_grid":          {"gridDim.x", "gridDim.y", "gridDim.z"},
	"thread_position_in_grid": {"blockIdx.x * blockDim.x + threadIdx.x", "blockIdx.y * blockDim.y + threadIdx.y",
		"blockIdx.z * blockDim.z + threadIdx.z"},
	"threads_per_grid":               {"gridDim.x * blockDim.x", "gridDim.y * blockDim.y", "gridDim.z * blockDim.z"},
	"thread_index_in_threadgroup":    {"rlx_wrap::linear_tid()", "0u", "0u"},
	"thread_index_in_simdgroup":      {"(rlx_wrap::linear_tid() & 31u)", "0u", "0u"},
	"simdgroup_index_in_threadgroup": {"(rlx_wrap::linear_tid() >> 5)", "0u", "0u"},
	"simdgroups_per_threadgroup":     {"((rlx_wrap::threads() + 31u) >> 5)", "0u", "0u"},
	"threads_per_simdgroup":          {"32u", "0u", "0u"},
}

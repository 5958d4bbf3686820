package metal

import (
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
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
// "temp" (scratch live only inside the region), or "status" (u32 words
// the runtime zeroes before the region: the first it checks after it, bit
// 0 an out-of-range gather index, bit 1 an integer division by zero; the
// rest, with MSL 3.2, are folded merges' arrival counters, which the
// kernels leave at 0).
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

// StatusError says what a region's status buffer (its u32 words,
// little-endian, as the region left them) reports: a bit of the status
// word, or a folded merge's arrival counter (the words after it, MSL 3.2)
// that is not back at 0; nil when neither. Runtimes and harnesses put
// the region or step in front.
func StatusError(words []byte) error {
	if len(words) >= 4 {
		if s := binary.LittleEndian.Uint32(words); s != 0 {
			var why []string
			if s&StatusGatherIndex != 0 {
				why = append(why, "a gather index was out of range")
			}
			if s&StatusDivByZero != 0 {
				why = append(why, "an integer division by zero")
			}
			return fmt.Errorf("status %#x: %s", s, strings.Join(why, ", "))
		}
	}
	for w := 4; w+4 <= len(words); w += 4 {
		if c := binary.LittleEndian.Uint32(words[w:]); c != 0 {
			return fmt.Errorf("arrival counter %d is %d after the region, not 0 (a folded merge did not finish)", w/4-1, c)
		}
	}
	return nil
}

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

// WriteJSON writes the manifest as JSON: one line per kernel binding,
// region buffer and dispatch, so that diffs and FileCheck lines stay
// readable. encoding/json reads it back into a Manifest.
func (m *Manifest) WriteJSON(w io.Writer) error {
	var b []byte
	b = fmt.Appendf(b, "{\n \"version\": %d,\n \"msl_version\": ", m.Version)
	b = appendJSONString(b, m.MSLVersion)
	b = append(b, ",\n \"math_mode\": "...)
	b = appendJSONString(b, m.MathMode)
	b = append(b, ",\n \"kernels\": ["...)
	for i, k := range m.Kernels {
		b = append(b, sep(i)...)
		b = append(b, "  {\"name\": "...)
		b = appendJSONString(b, k.Name)
		b = append(b, ", \"family\": "...)
		b = appendJSONString(b, k.Family)
		b = append(b, ", \"grid\": "...)
		b = appendInts(b, k.Grid[:])
		b = append(b, ", \"threadgroup\": "...)
		b = appendInts(b, k.Threadgroup[:])
		b = fmt.Appendf(b, ", \"threadgroup_memory\": %d, \"resize\": \"%s\"", k.ThreadgroupMemory, k.Resize)
		if k.TotalThreads != nil {
			b = append(b, ", \"total_threads\": "...)
			b = appendInts(b, k.TotalThreads[:])
		}
		b = fmt.Appendf(b, ", \"reads\": %d, \"writes\": %d,\n   \"bindings\": [", k.Reads, k.Writes)
		for j, bd := range k.Bindings {
			b = append(b, sep(j)...)
			b = fmt.Appendf(b, "    {\"index\": %d, \"name\": ", bd.Index)
			b = appendJSONString(b, bd.Name)
			b = fmt.Appendf(b, ", \"access\": \"%s\", \"type\": \"%s\", \"shape\": ", bd.Access, bd.Elem)
			b = appendInts(b, bd.Shape)
			b = fmt.Appendf(b, ", \"bytes\": %d}", bd.Bytes)
		}
		b = append(b, "]}"...)
	}
	b = append(b, end(len(m.Kernels), " ")...)
	b = append(b, ",\n \"regions\": ["...)
	for i, r := range m.Regions {
		b = append(b, sep(i)...)
		b = append(b, "  {\"function\": "...)
		b = appendJSONString(b, r.Function)
		b = append(b, ", \"symbol\": "...)
		b = appendJSONString(b, r.Symbol)
		b = append(b, ", \"loc\": "...)
		b = appendJSONString(b, r.Loc)
		b = append(b, ",\n   \"buffers\": ["...)
		for j, buf := range r.Buffers {
			b = append(b, sep(j)...)
			b = fmt.Appendf(b, "    {\"id\": %d, \"role\": \"%s\", \"index\": %d", buf.ID, buf.Role, buf.Index)
			if buf.Name != "" {
				b = append(b, ", \"name\": "...)
				b = appendJSONString(b, buf.Name)
			}
			b = append(b, ", \"type\": "...)
			b = appendJSONString(b, buf.Type)
			b = fmt.Appendf(b, ", \"bytes\": %d", buf.Bytes)
			if buf.Data != "" {
				b = fmt.Appendf(b, ", \"data\": \"%s\"", buf.Data)
			}
			b = append(b, '}')
		}
		b = append(b, end(len(r.Buffers), "   ")...)
		b = append(b, ",\n   \"dispatches\": ["...)
		for j, d := range r.Dispatches {
			b = append(b, sep(j)...)
			b = append(b, "    {\"kernel\": "...)
			b = appendJSONString(b, d.Kernel)
			b = append(b, ", \"buffers\": "...)
			b = appendInts(b, d.Buffers)
			b = append(b, ", \"ops\": ["...)
			for k, o := range d.Ops {
				if k > 0 {
					b = append(b, ", "...)
				}
				b = append(b, "{\"name\": "...)
				b = appendJSONString(b, o.Name)
				b = append(b, ", \"loc\": "...)
				b = appendJSONString(b, o.Loc)
				b = append(b, '}')
			}
			b = append(b, "]}"...)
		}
		b = append(b, end(len(r.Dispatches), "   ")...)
		b = append(b, '}')
		if len(b) > 1<<16 {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	b = append(b, end(len(m.Regions), " ")...)
	b = append(b, "\n}\n"...)
	_, err := w.Write(b)
	return err
}

// sep starts element i of a list, one per line.
func sep(i int) string {
	if i == 0 {
		return "\n"
	}
	return ",\n"
}

// end closes a list of n elements, one per line, at the given indent.
func end(n int, indent string) string {
	if n == 0 {
		return "]"
	}
	return "\n" + indent + "]"
}

func appendInts[T int | int64](b []byte, v []T) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, other UTF-8 as is.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = fmt.Appendf(b, "\\u%04x", c)
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
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

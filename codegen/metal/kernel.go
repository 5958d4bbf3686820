package metal

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// Kernel is one kernel function of the emitted source, specialised to one
// set of shapes and attributes. Ops with the same specialisation share a
// kernel (a pipeline, in Metal's terms); each use is a Dispatch.
type Kernel struct {
	Name   string
	Family string // the op family that emitted it ("rms_norm", "dequant_gemv", …)
	// Params lists the kernel function's parameters in order.
	Params []Param
	// Grid is the number of threadgroups, Threadgroup the threads of one.
	Grid, Threadgroup [3]int
	// ThreadgroupMemory is the length in bytes of the [[threadgroup(0)]]
	// buffer (a multiple of 16; 0 when the kernel has none).
	ThreadgroupMemory int
	// Resize says what a runtime may do when a pipeline's maximum is below
	// Threadgroup: ResizeThreads kernels take any multiple of 32 up to
	// Threadgroup with the grid recomputed as ceil(TotalThreads /
	// threadgroup) per dimension; ResizeRows kernels take any multiple of
	// 32 with the grid unchanged; ResizeFixed kernels need Threadgroup.
	Resize       string
	TotalThreads [3]int // for ResizeThreads: threads the grid must cover
	Bindings     []Binding
	// Reads and Writes are the bytes one dispatch moves to and from device
	// memory, each buffer counted once (the traffic model of
	// docs/codegen-metal.md).
	Reads, Writes int64
	Summary       string // one line: what the kernel computes, for the source comment

	text strings.Builder
}

// Resize policies (Kernel.Resize).
const (
	ResizeThreads = "threads"
	ResizeRows    = "rows"
	ResizeFixed   = "fixed"
)

// ParamKind says what a kernel parameter is bound to.
type ParamKind uint8

const (
	BufferParam      ParamKind = iota // a device or constant pointer, [[buffer(Index)]]
	ThreadgroupParam                  // the threadgroup memory, [[threadgroup(0)]]
	PositionParam                     // a position attribute such as [[thread_index_in_simdgroup]]
)

// Param is a kernel parameter.
type Param struct {
	Kind  ParamKind
	Name  string
	Type  string // MSL spelling: "device const float *", "threadgroup float *", "uint3"
	Index int    // buffer index (BufferParam)
	Attr  string // the attribute (PositionParam): "threadgroup_position_in_grid", …
}

// Binding describes what a kernel expects in one buffer slot.
type Binding struct {
	Index  int     `json:"index"`
	Name   string  `json:"name"`
	Access string  `json:"access"` // "read", "write" or "read_write"
	Elem   string  `json:"type"`   // element type: "f32", "ui8", …; "u32" for the status word
	Shape  []int64 `json:"shape"`
	Bytes  int64   `json:"bytes"`
}

// Access modes of a binding.
const (
	accRead  = "read"
	accWrite = "write"
	accRW    = "read_write"
)

// The position parameters every kernel declares, in this order. Kernels
// name them tgpos, tpos, lane, sg and tptg.
func positionParams() []Param {
	return []Param{
		{Kind: PositionParam, Name: "tgpos", Type: "uint3", Attr: "threadgroup_position_in_grid"},
		{Kind: PositionParam, Name: "tpos", Type: "uint3", Attr: "thread_position_in_threadgroup"},
		{Kind: PositionParam, Name: "lane", Type: "uint", Attr: "thread_index_in_simdgroup"},
		{Kind: PositionParam, Name: "sg", Type: "uint", Attr: "simdgroup_index_in_threadgroup"},
		{Kind: PositionParam, Name: "tptg", Type: "uint3", Attr: "threads_per_threadgroup"},
	}
}

// Text returns the kernel's MSL source, a comment line and the function.
func (k *Kernel) Text() string { return k.text.String() }

// kb builds one kernel: its parameters, its body and its launch shape.
type kb struct {
	e    *emitter
	k    *Kernel
	body strings.Builder
	ind  int
	tgT  string // element type of the threadgroup memory
}

// buffer adds a buffer parameter for a tensor and returns its name.
func (b *kb) buffer(name string, t tensorInfo, access string) string {
	q := "device "
	if access == accRead {
		q = "device const "
	}
	return b.rawBuffer(name, q+t.elem.msl()+" *", t.elem.String(), t.shape, t.bytes(), access)
}

// coherentBuffer adds a buffer that the threadgroups of one dispatch
// write and then read each other's parts of (a folded merge's partials,
// fold.go): MSL 3.2's coherent(device), of MSL type vt (the element's,
// or a float4 view of f32 elements). Its binding is a write: the dispatch
// needs nothing in it at the start (a runtime may give it any slot free
// from then on) and reads back only what it wrote; the traffic counts the
// reading too.
func (b *kb) coherentBuffer(name string, t tensorInfo, vt string) string {
	n := b.rawBuffer(name, "coherent(device) device "+vt+" *", t.elem.String(), t.shape, t.bytes(), accWrite)
	b.k.Reads += t.bytes()
	return n
}

// arrive adds the arrival counters of a folded merge: the region's status
// buffer seen as its status word and n counters after it (regionState.arrivals).
func (b *kb) arrive(n int64) string {
	return b.rawBuffer("arrive", "device atomic_uint *", "u32", []int64{1 + n}, 4*(1+n), accRW)
}

func (b *kb) rawBuffer(name, typ, elemName string, shape []int64, bytes int64, access string) string {
	idx := len(b.k.Bindings)
	b.k.Params = append(b.k.Params, Param{Kind: BufferParam, Name: name, Type: typ, Index: idx})
	b.k.Bindings = append(b.k.Bindings, Binding{Index: idx, Name: name, Access: access, Elem: elemName, Shape: shape, Bytes: bytes})
	switch access {
	case accRead:
		b.k.Reads += bytes
	case accWrite:
		b.k.Writes += bytes
	default:
		b.k.Reads += bytes
		b.k.Writes += bytes
	}
	return name
}

// status adds the status word: kernels that can meet a run-time error (an
// out-of-range gather index, an integer division by zero) set a bit in it
// with an atomic or, and the runtime checks it after the region.
func (b *kb) status() string {
	return b.rawBuffer("status", "device atomic_uint *", "u32", []int64{1}, 0, accRW)
}

// tgmem gives the kernel n elements of threadgroup memory of MSL type t,
// rounded up to a multiple of 16 bytes.
func (b *kb) tgmem(t string, bytes int) {
	b.tgT = t
	b.k.ThreadgroupMemory = (bytes + ThreadgroupMemAlign - 1) / ThreadgroupMemAlign * ThreadgroupMemAlign
}

// launch sets the grid and the threadgroup.
func (b *kb) launch(grid, tg [3]int, resize string) {
	b.k.Grid, b.k.Threadgroup, b.k.Resize = grid, tg, resize
}

// launchThreads covers total threads (x only) with threadgroups of tg
// threads; the kernel checks its index against total.
func (b *kb) launchThreads(total int64, tg int) {
	if int64(tg) > total {
		tg = int(max(SimdWidth, (total+SimdWidth-1)/SimdWidth*SimdWidth))
	}
	b.k.Grid = [3]int{int((total + int64(tg) - 1) / int64(tg)), 1, 1}
	b.k.Threadgroup = [3]int{tg, 1, 1}
	b.k.Resize = ResizeThreads
	b.k.TotalThreads = [3]int{int(total), 1, 1}
}

// l writes one line of the body at the current indentation; "}" lines
// dedent first and "{" lines indent after.
func (b *kb) l(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if strings.HasPrefix(s, "}") {
		b.ind--
	}
	for range b.ind + 1 {
		b.body.WriteString("  ")
	}
	b.body.WriteString(s)
	b.body.WriteByte('\n')
	if strings.HasSuffix(s, "{") {
		b.ind++
	}
}

// addExpr is the MSL expression a + b, parenthesised, or b alone when a
// is the literal 0u (as loop emitters pass for a first block or split).
func addExpr(a, b string) string {
	if a == "0u" {
		return b
	}
	return "(" + a + " + " + b + ")"
}

// finish writes the kernel's text: a comment, the signature and the body.
func (b *kb) finish() {
	k := b.k
	w := &k.text
	w.WriteString("// ")
	w.WriteString(k.Summary)
	w.WriteString("\nkernel void ")
	w.WriteString(k.Name)
	w.WriteString("(\n")
	var params []Param
	params = append(params, k.Params...)
	if k.ThreadgroupMemory > 0 {
		params = append(params, Param{Kind: ThreadgroupParam, Name: "tg", Type: "threadgroup " + b.tgT + " *"})
	}
	params = append(params, positionParams()...)
	k.Params = params
	for i, p := range params {
		w.WriteString("    ")
		w.WriteString(p.Type)
		if !strings.HasSuffix(p.Type, "*") {
			w.WriteByte(' ')
		}
		w.WriteString(p.Name)
		switch p.Kind {
		case BufferParam:
			w.WriteString(" [[buffer(")
			w.WriteString(strconv.Itoa(p.Index))
			w.WriteString(")]]")
		case ThreadgroupParam:
			w.WriteString(" [[threadgroup(0)]]")
		case PositionParam:
			w.WriteString(" [[")
			w.WriteString(p.Attr)
			w.WriteString("]]")
		}
		if i < len(params)-1 {
			w.WriteByte(',')
		} else {
			w.WriteByte(')')
		}
		w.WriteByte('\n')
	}
	w.WriteString("{\n")
	w.WriteString(b.body.String())
	w.WriteString("}\n")
}

// checkLimits reports a kernel that breaks a Metal limit, located at op.
func (e *emitter) checkLimits(op *ir.Operation, k *Kernel) error {
	nbuf := 0
	for _, p := range k.Params {
		if p.Kind == BufferParam {
			nbuf++
		}
	}
	if nbuf > MaxBuffers {
		return ir.OpError(op, "needs %d buffers in kernel %s; a Metal kernel can bind at most %d", nbuf, k.Name, MaxBuffers)
	}
	if k.ThreadgroupMemory > MaxThreadgroupMemory {
		return ir.OpError(op, "needs %d bytes of threadgroup memory in kernel %s; a Metal threadgroup has at most %d", k.ThreadgroupMemory, k.Name, MaxThreadgroupMemory)
	}
	if k.ThreadgroupMemory%ThreadgroupMemAlign != 0 {
		return ir.OpError(op, "kernel %s has %d bytes of threadgroup memory, not a multiple of %d", k.Name, k.ThreadgroupMemory, ThreadgroupMemAlign)
	}
	t := k.Threadgroup[0] * k.Threadgroup[1] * k.Threadgroup[2]
	if t < 1 || t > e.opts.MaxThreadsPerThreadgroup {
		return ir.OpError(op, "kernel %s needs %d threads per threadgroup; max-threads-per-threadgroup is %d", k.Name, t, e.opts.MaxThreadsPerThreadgroup)
	}
	for i := range 3 {
		if k.Grid[i] < 1 || k.Grid[i] > 1<<31-1 {
			return ir.OpError(op, "kernel %s has a grid of %v threadgroups", k.Name, k.Grid)
		}
	}
	return nil
}

// keyOf builds a kernel's specialisation key from the values that shape
// its text (element types, shapes, attributes), cheaply: emission runs once
// per op of the module, and most ops find their kernel already built.
func keyOf(parts ...any) string {
	b := make([]byte, 0, 64)
	for _, p := range parts {
		switch v := p.(type) {
		case elem:
			b = append(b, 'e', byte(v))
		case int:
			b = strconv.AppendInt(append(b, 'i'), int64(v), 10)
		case int64:
			b = strconv.AppendInt(append(b, 'i'), v, 10)
		case bool:
			b = strconv.AppendBool(append(b, 'b'), v)
		case string:
			b = append(append(b, 's'), v...)
			b = append(b, 0)
		case float32:
			b = strconv.AppendUint(append(b, 'f'), uint64(math.Float32bits(v)), 16)
		case []int64:
			b = append(b, '[')
			for _, x := range v {
				b = strconv.AppendInt(b, x, 10)
				b = append(b, ',')
			}
			b = append(b, ']')
		case []int:
			b = append(b, '[')
			for _, x := range v {
				b = strconv.AppendInt(b, int64(x), 10)
				b = append(b, ',')
			}
			b = append(b, ']')
		default:
			panic(fmt.Sprintf("keyOf: %T", p))
		}
	}
	return string(b)
}

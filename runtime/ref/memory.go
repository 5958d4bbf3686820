package ref

import (
	"math"
	"strconv"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Memory is what one run of a program holds at once, computed from the
// types alone, before anything is allocated.
type Memory struct {
	// Peak is the most bytes held at once: the inputs, the constants
	// (materialised when they first run, then kept), the weights when
	// they are resident, and the values live at each step. It is
	// math.MaxInt64 when the true figure does not fit in an int64.
	Peak int64
	// Inputs is the bytes of the inputs, which the caller holds for the
	// whole run, and Resident what else stays for the whole run (the
	// weights, when resident).
	Inputs, Resident int64
}

// Memory returns what one run holds at its peak. Values are counted as
// the interpreter stores them: four bytes per f32, f16 or bf16 element,
// eight per i1, i8, i32 or i64 element, one per ui8 element; a value of
// dynamic shape counts nothing, and kernels' scratch space is not
// counted. With residentWeights the weights count for the whole run, as
// when they were read from a file or materialised; otherwise each is
// counted from its graph.param to its last use, as seeded weights are
// generated and dropped.
func (p *Program) Memory(residentWeights bool) Memory {
	m, _ := p.memory(residentWeights, math.MaxInt64)
	return m
}

// CheckMemory reports, as an error located where the run would first hold
// more than budget bytes, a program whose run does not fit: at the
// function when its inputs (or resident weights) alone exceed it, or at
// the op whose result does. See Memory for what is counted.
func (p *Program) CheckMemory(budget int64, residentWeights bool) error {
	m, inst := p.memory(residentWeights, budget)
	over := "over the memory budget of " + byteCount(budget)
	if m.Peak == math.MaxInt64 {
		over = "which does not fit in 64 bits"
	}
	switch {
	case m.Peak <= budget:
		return nil
	case inst == nil:
		return ir.OpErrorPlain(p.fn, "@%s needs %s for its inputs and resident weights, %s", p.name, byteCount(m.Peak), over)
	}
	d := ir.OpError(inst.op, "result needs %s, and the run would hold %s at this point, %s", byteCount(outBytes(inst)), byteCount(m.Peak), over)
	for s := inst.site; s != nil; s = s.parent {
		d.AttachNote(s.call.Loc(), "called from here")
	}
	return d
}

// memory walks the program as Run does, adding each instruction's results
// and dropping the values it is the last reader of. It stops at the first
// instruction past stop bytes, which it returns (nil when the inputs and
// resident weights alone pass it).
func (p *Program) memory(residentWeights bool, stop int64) (Memory, *instr) {
	var m Memory
	for _, a := range p.args {
		m.Inputs = ir.SaturatingAdd(m.Inputs, storageBytes(a.Type))
	}
	if residentWeights {
		for _, w := range p.params {
			m.Resident = ir.SaturatingAdd(m.Resident, storageBytes(w.Type))
		}
	}
	live := ir.SaturatingAdd(m.Inputs, m.Resident)
	m.Peak = live
	if live > stop {
		return m, nil
	}
	size := make([]int64, p.slots)
	// Constants stay once materialised, and so do resident weights; their
	// slots are never freed from the count.
	kept := make([]bool, p.slots)
	for i := range p.code {
		inst := &p.code[i]
		name := inst.op.Name()
		for j, s := range inst.out {
			size[s] = storageBytes(inst.outT[j])
			switch {
			case name == "graph.constant":
				kept[s] = true
			case name == "graph.param" && residentWeights:
				// Already counted in Resident.
				kept[s] = true
				size[s] = 0
			}
			live = ir.SaturatingAdd(live, size[s])
		}
		if live > m.Peak {
			m.Peak = live
			if live > stop {
				return m, inst
			}
		}
		for _, s := range inst.free {
			if !kept[s] {
				live -= size[s]
				size[s] = 0
			}
		}
	}
	return m, nil
}

// storageBytes is the size of a value of type t as the interpreter stores
// it: 0 when a dim is dynamic, math.MaxInt64 when it does not fit.
func storageBytes(t TensorType) int64 {
	dims := make([]int64, len(t.Shape))
	for i, d := range t.Shape {
		if d < 0 {
			return 0
		}
		dims[i] = int64(d)
	}
	n, ok := ir.ShapeElements(dims)
	if !ok {
		return math.MaxInt64
	}
	per := int64(8) // i1, i8, i32 and i64 are stored as int64
	switch {
	case t.DType.IsFloat():
		per = 4 // float32, whatever the precision
	case t.DType == tensor.UI8:
		per = 1
	}
	b, ok := ir.MulSize(n, per)
	if !ok {
		return math.MaxInt64
	}
	return b
}

func outBytes(inst *instr) int64 {
	var n int64
	for _, t := range inst.outT {
		n = ir.SaturatingAdd(n, storageBytes(t))
	}
	return n
}

// byteCount renders a byte count for messages: "412316860416 bytes (384
// GiB)", or "more than 2^63-1 bytes" for a saturated count.
func byteCount(n int64) string {
	if n == math.MaxInt64 {
		return "more than 9223372036854775807 bytes"
	}
	s := strconv.FormatInt(n, 10) + " bytes"
	const gib = 1 << 30
	switch {
	case n >= gib:
		return s + " (" + strconv.FormatFloat(float64(n)/gib, 'f', 1, 64) + " GiB)"
	case n >= 1<<20:
		return s + " (" + strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB)"
	}
	return s
}

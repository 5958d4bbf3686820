package backend

import (
	"encoding/hex"
	"fmt"

	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// The byte layout of a value in the arena is the one the Metal kernels
// read and write (little-endian; f16 and bf16 as their bits, i1 as one
// byte), the one codegen/metal/mslcpu already converts.
var (
	// TensorBytes returns a tensor's bytes as a slot holds them.
	TensorBytes = mslcpu.TensorBytes
	// TensorFromBytes decodes a slot's bytes.
	TensorFromBytes = mslcpu.TensorFromBytes
	// ParseType parses a plan's type string ("tensor<2x3xf32>").
	ParseType = mslcpu.ParseTensorType
)

func hexBytes(s string) ([]byte, error) { return hex.DecodeString(s) }

// ReadValue decodes value v from the arena.
func ReadValue(arena []byte, v *plan.Value) (*tensor.Tensor, error) {
	dt, shape, err := ParseType(v.Type)
	if err != nil {
		return nil, err
	}
	return TensorFromBytes(dt, shape, arena[v.Offset:v.Offset+v.Bytes])
}

// WriteValue encodes t into value v's slot, after checking its type.
func WriteValue(arena []byte, v *plan.Value, t *tensor.Tensor) error {
	if t.Type() != v.Type {
		return fmt.Errorf("%s is %s, expected %s", v.Name, t.Type(), v.Type)
	}
	data, err := TensorBytes(t)
	if err != nil {
		return err
	}
	if int64(len(data)) != v.Bytes {
		return fmt.Errorf("%s: %d bytes for a slot of %d", v.Name, len(data), v.Bytes)
	}
	copy(arena[v.Offset:], data)
	return nil
}

// BufferWeights binds graph.param and mps.placeholder ops to the plan's
// weight buffer by name, so that a region run by the interpreter reads
// its weights from the bytes every backend binds.
type BufferWeights struct {
	buf    []byte
	byName map[string]*plan.Weight
}

// NewBufferWeights returns the weights of plan p held in buf.
func NewBufferWeights(p *plan.Plan, buf []byte) *BufferWeights {
	w := &BufferWeights{buf: buf, byName: map[string]*plan.Weight{}}
	for _, pw := range p.Weights {
		if pw.Kind == plan.WeightParam {
			w.byName[pw.Name] = pw
		}
	}
	return w
}

// Weight decodes the named weight from the buffer.
func (w *BufferWeights) Weight(s ref.Spec) (*tensor.Tensor, error) {
	pw := w.byName[s.Name]
	if pw == nil {
		return nil, fmt.Errorf("the plan has no weight named %q", s.Name)
	}
	if pw.Type != s.Type.String() {
		return nil, fmt.Errorf("weight %q is %s in the plan, expected %v", s.Name, pw.Type, s.Type)
	}
	return TensorFromBytes(s.Type.DType, s.Type.Shape, w.buf[pw.Offset:pw.Offset+pw.Bytes])
}

// Interpret runs step st by running prog, the step's region as the
// interpreter compiled it, on the step's inputs read from the arena, and
// writes its results to the step's output slots.
func Interpret(arena []byte, p *plan.Plan, st *plan.Step, prog *ref.Program, w ref.Weights) error {
	in := make([]*tensor.Tensor, len(st.Inputs))
	for i, id := range st.Inputs {
		t, err := ReadValue(arena, p.Values[id])
		if err != nil {
			return err
		}
		in[i] = t
	}
	out, err := prog.Run(in, w)
	if err != nil {
		return err
	}
	for i, id := range st.Outputs {
		if err := WriteValue(arena, p.Values[id], out[i]); err != nil {
			return err
		}
	}
	return nil
}

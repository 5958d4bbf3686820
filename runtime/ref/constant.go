package ref

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// constantData checks the `value` attribute of a graph.constant against
// its type t, without allocating: a dense elements attribute (splat or
// not) or a dense resource whose blob the context holds. It returns the
// raw little-endian data, whether it is one element repeated, and the
// element count.
func constantData(ctx *ir.Context, attr ir.Attribute, t TensorType) (raw []byte, splat bool, n int, err error) {
	if !t.Static() {
		return nil, false, 0, fmt.Errorf("result type %v has a dynamic dim", t)
	}
	n = tensor.NumElements(t.Shape)
	if n < 0 {
		return nil, false, 0, fmt.Errorf("result type %v has more elements than fit in an int", t)
	}
	switch a := attr.(type) {
	case *ir.DenseElementsAttr:
		if !a.Splat && int64(n) != a.NumElements() {
			return nil, false, 0, fmt.Errorf("value has %d elements, the result type %v %d", a.NumElements(), t, n)
		}
		raw, splat = a.RawData(), a.Splat
	case *ir.DenseResourceElementsAttr:
		blob := ctx.Resource(a.Handle)
		if blob == nil {
			return nil, false, 0, fmt.Errorf("dense resource %q has no data", a.Handle)
		}
		raw = blob.Data
	default:
		return nil, false, 0, fmt.Errorf("value %v is not a dense elements attribute", attr)
	}
	size := t.DType.ByteSize()
	switch {
	case splat && len(raw) == size:
	case int64(len(raw)) == int64(size)*int64(n):
		splat = false
	case n > 0 && len(raw) == size:
		splat = true
	default:
		return nil, false, 0, fmt.Errorf("value holds %d bytes, expected %d for %v", len(raw), int64(size)*int64(n), t)
	}
	return raw, splat, n, nil
}

// constantTensor materialises a graph.constant's value (see constantData)
// as a tensor of type t. The raw little-endian data is decoded directly;
// f16 and bf16 elements are exact in float32.
func constantTensor(ctx *ir.Context, attr ir.Attribute, t TensorType) (*tensor.Tensor, error) {
	raw, splat, n, err := constantData(ctx, attr, t)
	if err != nil {
		return nil, err
	}
	size := t.DType.ByteSize()
	at := func(i int) []byte {
		if splat {
			return raw[:size]
		}
		return raw[i*size : (i+1)*size]
	}
	le := binary.LittleEndian
	switch t.DType {
	case tensor.F32, tensor.F16, tensor.BF16:
		v := make([]float32, n)
		for i := range v {
			b := at(i)
			switch t.DType {
			case tensor.F32:
				v[i] = math.Float32frombits(le.Uint32(b))
			case tensor.F16:
				v[i] = tensor.F16BitsToF32(le.Uint16(b))
			default:
				v[i] = tensor.BF16BitsToF32(le.Uint16(b))
			}
		}
		return tensor.FromFloat32(t.DType, t.Shape, v)
	case tensor.UI8:
		v := make([]byte, n)
		for i := range v {
			v[i] = at(i)[0]
		}
		return tensor.FromBytes(t.Shape, v)
	default:
		v := make([]int64, n)
		for i := range v {
			b := at(i)
			switch t.DType {
			case tensor.I1:
				v[i] = int64(b[0] & 1)
			case tensor.I8:
				v[i] = int64(int8(b[0]))
			case tensor.I32:
				v[i] = int64(int32(le.Uint32(b)))
			default:
				v[i] = int64(le.Uint64(b))
			}
		}
		return tensor.FromInt64(t.DType, t.Shape, v)
	}
}

package mslcpu

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// RegionOptions adjust how a region's job is built.
type RegionOptions struct {
	// MaxThreads, when non-zero, runs every kernel that allows it
	// (manifest resize "rows" or "threads") with threadgroups of at most
	// this many threads, as a runtime must when a pipeline's maximum is
	// lower than the manifest's threadgroup.
	MaxThreads int
	// ShortBuffers lists region buffers to allocate one element short (a
	// test of the guard bytes and of ASan).
	ShortBuffers []int
}

// RegionJob returns the job that runs one region of a manifest: the
// region's operands in args (in order), weights by name, constants from
// the manifest, outputs and temporaries poisoned, the status word zeroed.
func RegionJob(man *metal.Manifest, reg *metal.Region, args []*tensor.Tensor, weight func(name string) (*tensor.Tensor, error), opt RegionOptions) (*Job, error) {
	kernels := map[string]*metal.KernelInfo{}
	for _, k := range man.Kernels {
		kernels[k.Name] = k
	}
	job := &Job{}
	for _, b := range reg.Buffers {
		var buf Buffer
		switch b.Role {
		case metal.RoleInput:
			if b.Index >= len(args) {
				return nil, fmt.Errorf("region %s: operand #%d missing", reg.Symbol, b.Index)
			}
			data, err := TensorBytes(args[b.Index])
			if err != nil {
				return nil, err
			}
			buf = Buffer{Size: int64(len(data)), Init: Data, Data: data}
		case metal.RoleParam:
			t, err := weight(b.Name)
			if err != nil {
				return nil, err
			}
			data, err := TensorBytes(t)
			if err != nil {
				return nil, err
			}
			buf = Buffer{Size: int64(len(data)), Init: Data, Data: data}
		case metal.RoleConstant:
			data, err := hex.DecodeString(b.Data)
			if err != nil {
				return nil, err
			}
			buf = Buffer{Size: int64(len(data)), Init: Data, Data: data}
		case metal.RoleStatus:
			buf = Buffer{Size: b.Bytes, Init: Zero}
		default:
			buf = Buffer{Size: b.Bytes, Init: Poison}
		}
		if buf.Size != b.Bytes {
			return nil, fmt.Errorf("region %s: buffer %d (%s) holds %d bytes, the manifest says %d", reg.Symbol, b.ID, b.Role, buf.Size, b.Bytes)
		}
		if slices.Contains(opt.ShortBuffers, b.ID) {
			dt, _, err := ParseTensorType(b.Type)
			if err != nil {
				return nil, err
			}
			buf.Size -= int64(dt.ByteSize())
			if buf.Init == Data {
				buf.Data = buf.Data[:buf.Size]
			}
		}
		job.Buffers = append(job.Buffers, buf)
	}
	for _, d := range reg.Dispatches {
		k := kernels[d.Kernel]
		if k == nil {
			return nil, fmt.Errorf("region %s: kernel %s missing from the manifest", reg.Symbol, d.Kernel)
		}
		grid, tg := k.Grid, k.Threadgroup
		if opt.MaxThreads > 0 && tg[0]*tg[1]*tg[2] > opt.MaxThreads {
			switch k.Resize {
			case metal.ResizeRows:
				tg = [3]int{opt.MaxThreads, 1, 1}
			case metal.ResizeThreads:
				tg = [3]int{opt.MaxThreads, 1, 1}
				for i := range 3 {
					grid[i] = (k.TotalThreads[i] + tg[i] - 1) / tg[i]
				}
			}
		}
		job.Dispatches = append(job.Dispatches, Dispatch{
			Kernel: d.Kernel, Grid: grid, Threadgroup: tg,
			ThreadgroupMemory: k.ThreadgroupMemory, Buffers: d.Buffers,
		})
	}
	return job, nil
}

// RegionOutputs decodes a region's results from a job's result, after
// checking the guard bytes of every buffer and the status word.
func RegionOutputs(reg *metal.Region, res *Result) ([]*tensor.Tensor, error) {
	if g := res.GuardError(func(i int) string {
		b := reg.Buffers[i]
		return fmt.Sprintf("buffer %d (%s #%d, %s)", b.ID, b.Role, b.Index, b.Type)
	}); g != "" {
		return nil, fmt.Errorf("region %s: %s", reg.Symbol, g)
	}
	var outs []*tensor.Tensor
	for i, b := range reg.Buffers {
		switch b.Role {
		case metal.RoleStatus:
			if err := metal.StatusError(res.Buffers[i]); err != nil {
				return nil, fmt.Errorf("region %s: %v", reg.Symbol, err)
			}
		case metal.RoleOutput:
			dt, shape, err := ParseTensorType(b.Type)
			if err != nil {
				return nil, err
			}
			t, err := TensorFromBytes(dt, shape, res.Buffers[i])
			if err != nil {
				return nil, fmt.Errorf("region %s result #%d: %v", reg.Symbol, b.Index, err)
			}
			for len(outs) <= b.Index {
				outs = append(outs, nil)
			}
			outs[b.Index] = t
		}
	}
	return outs, nil
}

// ParseTensorType parses "tensor<2x3xf32>".
func ParseTensorType(s string) (tensor.DType, []int, error) {
	body, ok := strings.CutPrefix(s, "tensor<")
	body, ok2 := strings.CutSuffix(body, ">")
	if !ok || !ok2 {
		return 0, nil, fmt.Errorf("%q is not a tensor type", s)
	}
	parts := strings.Split(body, "x")
	dt, err := tensor.ParseDType(parts[len(parts)-1])
	if err != nil {
		return 0, nil, err
	}
	shape := []int{}
	for _, p := range parts[:len(parts)-1] {
		d, err := strconv.Atoi(p)
		if err != nil {
			return 0, nil, fmt.Errorf("%q has a non-static dim", s)
		}
		shape = append(shape, d)
	}
	return dt, shape, nil
}

// TensorBytes returns a tensor's elements as a Metal kernel stores them:
// little-endian, f16 and bf16 as their bits, i1 as one byte.
func TensorBytes(t *tensor.Tensor) ([]byte, error) {
	le := binary.LittleEndian
	n := t.Len()
	out := make([]byte, 0, n*t.DType().ByteSize())
	switch t.DType() {
	case tensor.F32:
		for _, f := range t.Floats() {
			out = le.AppendUint32(out, math.Float32bits(f))
		}
	case tensor.F16:
		for _, f := range t.Floats() {
			out = le.AppendUint16(out, tensor.F32ToF16Bits(f))
		}
	case tensor.BF16:
		for _, f := range t.Floats() {
			out = le.AppendUint16(out, tensor.F32ToBF16Bits(f))
		}
	case tensor.I32:
		for _, v := range t.Ints() {
			out = le.AppendUint32(out, uint32(int32(v)))
		}
	case tensor.I64:
		for _, v := range t.Ints() {
			out = le.AppendUint64(out, uint64(v))
		}
	case tensor.I1, tensor.I8:
		for _, v := range t.Ints() {
			out = append(out, byte(int8(v)))
		}
	case tensor.UI8:
		out = append(out, t.Bytes()...)
	default:
		return nil, fmt.Errorf("no byte layout for %v", t.DType())
	}
	return out, nil
}

// TensorFromBytes is the inverse of TensorBytes. An i1 byte other than 0
// or 1 is an error: a kernel wrote something that is not a boolean.
func TensorFromBytes(dt tensor.DType, shape []int, data []byte) (*tensor.Tensor, error) {
	n := tensor.NumElements(shape)
	if len(data) != n*dt.ByteSize() {
		return nil, fmt.Errorf("%d bytes for %s", len(data), tensor.TypeString(dt, shape))
	}
	le := binary.LittleEndian
	switch dt {
	case tensor.F32, tensor.F16, tensor.BF16:
		f := make([]float32, n)
		for i := range f {
			switch dt {
			case tensor.F32:
				f[i] = math.Float32frombits(le.Uint32(data[4*i:]))
			case tensor.F16:
				f[i] = tensor.F16BitsToF32(le.Uint16(data[2*i:]))
			default:
				f[i] = tensor.BF16BitsToF32(le.Uint16(data[2*i:]))
			}
		}
		return tensor.FromFloat32(dt, shape, f)
	case tensor.UI8:
		return tensor.FromBytes(shape, append([]byte{}, data...))
	}
	v := make([]int64, n)
	for i := range v {
		switch dt {
		case tensor.I32:
			v[i] = int64(int32(le.Uint32(data[4*i:])))
		case tensor.I64:
			v[i] = int64(le.Uint64(data[8*i:]))
		case tensor.I8:
			v[i] = int64(int8(data[i]))
		case tensor.I1:
			if data[i] > 1 {
				return nil, fmt.Errorf("i1 element %d is %d, not 0 or 1", i, data[i])
			}
			v[i] = int64(data[i])
		}
	}
	return tensor.FromInt64(dt, shape, v)
}

package gguf

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/rlx-compiler/rlx/internal/outfile"
)

// Writer builds a GGUF file (version 3, little-endian, DefaultAlignment):
// metadata and tensors in the order they are added.
type Writer struct {
	kv      []KV
	tensors []writeTensor
}

type writeTensor struct {
	info TensorInfo
	data []byte
}

// Add appends a metadata pair. value is one of the Go types File.KV holds,
// or a slice of one of them ([]string, []int32, []float32, …).
func (w *Writer) Add(key string, value any) { w.kv = append(w.kv, KV{key, value}) }

// AddTensor appends a tensor of type t with the row-major shape and its
// data, which must have the type's size for that shape.
func (w *Writer) AddTensor(name string, t TensorType, shape []int, data []byte) error {
	if len(shape) == 0 || len(shape) > maxDims {
		return fmt.Errorf("gguf: tensor %q: %d dims (GGUF allows 1 to %d)", name, len(shape), maxDims)
	}
	info := TensorInfo{Name: name, Type: t, Dims: make([]uint64, len(shape))}
	n := uint64(1)
	for i, d := range shape {
		if d < 0 {
			return fmt.Errorf("gguf: tensor %q: negative dim in %v", name, shape)
		}
		info.Dims[len(shape)-1-i] = uint64(d)
		n *= uint64(d)
	}
	size, err := dataSize(t, info.Dims[0], n)
	if err != nil {
		return fmt.Errorf("gguf: tensor %q: %v", name, err)
	}
	if uint64(len(data)) != size {
		return fmt.Errorf("gguf: tensor %q: %v %v needs %d bytes, got %d", name, t, shape, size, len(data))
	}
	info.Size = size
	w.tensors = append(w.tensors, writeTensor{info, data})
	return nil
}

// WriteFile writes the file at path, beside it first and renamed over it
// when complete, so a failed write leaves path as it was.
func (w *Writer) WriteFile(path string) error {
	return outfile.WriteWith(path, func(f io.Writer) error {
		_, err := w.WriteTo(f)
		return err
	})
}

// File returns the file w writes, read back from memory: metadata and
// tensors as Open would give them, for code that builds one to read it.
func (w *Writer) File(name string) (*File, error) {
	var b bytes.Buffer
	if _, err := w.WriteTo(&b); err != nil {
		return nil, err
	}
	return Read(name, bytes.NewReader(b.Bytes()), int64(b.Len()))
}

// WriteTo writes the file.
func (w *Writer) WriteTo(out io.Writer) (int64, error) {
	cw := &countWriter{w: bufio.NewWriter(out)}
	e := &encoder{w: cw}
	e.raw([]byte("GGUF"))
	e.u32(3)
	e.u64(uint64(len(w.tensors)))
	e.u64(uint64(len(w.kv)))
	for _, kv := range w.kv {
		e.str(kv.Key)
		e.value(kv.Value)
	}
	var off uint64
	for i := range w.tensors {
		t := &w.tensors[i].info
		t.Offset = off
		e.str(t.Name)
		e.u32(uint32(len(t.Dims)))
		for _, d := range t.Dims {
			e.u64(d)
		}
		e.u32(uint32(t.Type))
		e.u64(t.Offset)
		off = alignUp(off+t.Size, DefaultAlignment)
	}
	e.pad()
	for _, t := range w.tensors {
		e.raw(t.data)
		e.pad()
	}
	if e.err == nil {
		e.err = cw.w.(*bufio.Writer).Flush()
	}
	return cw.n, e.err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// encoder writes little-endian values and keeps the first error.
type encoder struct {
	w   *countWriter
	err error
	buf [8]byte
}

func (e *encoder) raw(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *encoder) u32(v uint32) { binary.LittleEndian.PutUint32(e.buf[:4], v); e.raw(e.buf[:4]) }
func (e *encoder) u64(v uint64) { binary.LittleEndian.PutUint64(e.buf[:8], v); e.raw(e.buf[:8]) }

func (e *encoder) str(s string) {
	e.u64(uint64(len(s)))
	e.raw([]byte(s))
}

// pad writes zeros up to the next multiple of the alignment.
func (e *encoder) pad() {
	if n := alignUp(uint64(e.w.n), DefaultAlignment) - uint64(e.w.n); n > 0 {
		e.raw(make([]byte, n))
	}
}

// value writes a metadata value with its type.
func (e *encoder) value(v any) {
	t, ok := kvType(v)
	if !ok {
		if e.err == nil {
			e.err = fmt.Errorf("gguf: metadata value %v of type %T has no GGUF type", v, v)
		}
		return
	}
	e.u32(t)
	e.payload(v)
}

func (e *encoder) payload(v any) {
	switch x := v.(type) {
	case uint8:
		e.raw([]byte{x})
	case int8:
		e.raw([]byte{byte(x)})
	case bool:
		b := byte(0)
		if x {
			b = 1
		}
		e.raw([]byte{b})
	case uint16:
		binary.LittleEndian.PutUint16(e.buf[:2], x)
		e.raw(e.buf[:2])
	case int16:
		binary.LittleEndian.PutUint16(e.buf[:2], uint16(x))
		e.raw(e.buf[:2])
	case uint32:
		e.u32(x)
	case int32:
		e.u32(uint32(x))
	case float32:
		e.u32(math.Float32bits(x))
	case uint64:
		e.u64(x)
	case int64:
		e.u64(uint64(x))
	case float64:
		e.u64(math.Float64bits(x))
	case string:
		e.str(x)
	case []any:
		e.array(x)
	case []string:
		e.array(anys(x))
	case []int32:
		e.array(anys(x))
	case []uint32:
		e.array(anys(x))
	case []int64:
		e.array(anys(x))
	case []float32:
		e.array(anys(x))
	case []bool:
		e.array(anys(x))
	}
}

func (e *encoder) array(xs []any) {
	var et uint32 = kvUint8
	if len(xs) > 0 {
		t, ok := kvType(xs[0])
		if !ok {
			if e.err == nil {
				e.err = fmt.Errorf("gguf: array element %v of type %T has no GGUF type", xs[0], xs[0])
			}
			return
		}
		et = t
	}
	e.u32(et)
	e.u64(uint64(len(xs)))
	for _, x := range xs {
		if t, _ := kvType(x); t != et {
			if e.err == nil {
				e.err = fmt.Errorf("gguf: array mixes element types %T and %T", xs[0], x)
			}
			return
		}
		e.payload(x)
	}
}

func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// kvType returns the GGUF value type of a Go value.
func kvType(v any) (uint32, bool) {
	switch v.(type) {
	case uint8:
		return kvUint8, true
	case int8:
		return kvInt8, true
	case uint16:
		return kvUint16, true
	case int16:
		return kvInt16, true
	case uint32:
		return kvUint32, true
	case int32:
		return kvInt32, true
	case float32:
		return kvFloat32, true
	case bool:
		return kvBool, true
	case string:
		return kvString, true
	case uint64:
		return kvUint64, true
	case int64:
		return kvInt64, true
	case float64:
		return kvFloat64, true
	case []any, []string, []int32, []uint32, []int64, []float32, []bool:
		return kvArray, true
	}
	return 0, false
}

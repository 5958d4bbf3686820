package tensor

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"slices"
)

// readFull reads exactly n bytes from r. It grows its buffer only as data
// arrives, so a header that claims a huge payload cannot make a small input
// allocate much more than its own size.
func readFull(r io.Reader, n int) ([]byte, error) {
	const direct = 64 << 10
	if n <= direct {
		buf := make([]byte, n)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, truncated(err, n)
		}
		return buf, nil
	}
	buf := make([]byte, 0, direct)
	for len(buf) < n {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(cap(buf), n-len(buf)))
		}
		m, err := r.Read(buf[len(buf):min(cap(buf), n)])
		buf = buf[:len(buf)+m]
		if err != nil && len(buf) < n {
			if err == io.EOF {
				return nil, fmt.Errorf("data is truncated: want %d bytes, got %d", n, len(buf))
			}
			return nil, err
		}
	}
	return buf, nil
}

func truncated(err error, n int) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("data is truncated: want %d bytes", n)
	}
	return err
}

// decodeRaw builds a tensor of type dt and shape from little-endian raw
// element data, whose length the caller has checked.
func decodeRaw(dt DType, shape []int, raw []byte) *Tensor {
	t := Zeros(dt, shape...)
	le := binary.LittleEndian
	switch dt {
	case F32:
		for i := range t.floats {
			t.floats[i] = math.Float32frombits(le.Uint32(raw[4*i:]))
		}
	case F16:
		for i := range t.floats {
			t.floats[i] = F16BitsToF32(le.Uint16(raw[2*i:]))
		}
	case BF16:
		for i := range t.floats {
			t.floats[i] = BF16BitsToF32(le.Uint16(raw[2*i:]))
		}
	case I32:
		for i := range t.ints {
			t.ints[i] = int64(int32(le.Uint32(raw[4*i:])))
		}
	case I64:
		for i := range t.ints {
			t.ints[i] = int64(le.Uint64(raw[8*i:]))
		}
	case I8:
		for i := range t.ints {
			t.ints[i] = int64(int8(raw[i]))
		}
	case I1:
		for i := range t.ints {
			if raw[i] != 0 {
				t.ints[i] = 1
			}
		}
	case UI8:
		copy(t.bytes, raw)
	}
	return t
}

// encodeRaw returns the little-endian raw element data of t.
func encodeRaw(t *Tensor) []byte {
	size := t.dtype.ByteSize()
	raw := make([]byte, t.Len()*size)
	le := binary.LittleEndian
	switch t.dtype {
	case F32:
		for i, v := range t.floats {
			le.PutUint32(raw[4*i:], math.Float32bits(v))
		}
	case F16:
		for i, v := range t.floats {
			le.PutUint16(raw[2*i:], F16Bits(v))
		}
	case BF16:
		for i, v := range t.floats {
			le.PutUint16(raw[2*i:], BF16Bits(v))
		}
	case I32:
		for i, v := range t.ints {
			le.PutUint32(raw[4*i:], uint32(v))
		}
	case I64:
		for i, v := range t.ints {
			le.PutUint64(raw[8*i:], uint64(v))
		}
	case I8, I1:
		for i, v := range t.ints {
			raw[i] = byte(v)
		}
	case UI8:
		copy(raw, t.bytes)
	}
	return raw
}

// rawSize returns the byte size of n elements of dt, or an error on overflow.
func rawSize(dt DType, shape []int) (int, error) {
	n := NumElements(shape)
	if n < 0 {
		return 0, fmt.Errorf("invalid shape %v", shape)
	}
	size := dt.ByteSize()
	if n > math.MaxInt/size {
		return 0, fmt.Errorf("shape %v is too large", shape)
	}
	return n * size, nil
}

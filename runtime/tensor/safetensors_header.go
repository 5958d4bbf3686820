package tensor

import (
	"encoding/binary"
	"fmt"
	"io"
)

// SafetensorsEntry places one tensor in a safetensors file.
type SafetensorsEntry struct {
	Name  string
	DType DType
	// Stored is the file's dtype where DType stands for it: "F8_E4M3"
	// (one byte an element, read as UI8); "" otherwise.
	Stored string
	Shape  []int
	// Begin and End are byte offsets into the data section, which starts
	// at SafetensorsHeader.DataStart in the file.
	Begin, End uint64
}

// SafetensorsHeader is the header of a safetensors file: where each
// tensor's bytes lie, without the bytes, so a reader of large checkpoints
// can load tensors one at a time.
type SafetensorsHeader struct {
	// Entries are sorted by offset; they tile the data section exactly.
	Entries  []SafetensorsEntry
	Metadata map[string]string
	// DataStart is the file offset of the data section; DataSize its
	// length (the end of the last tensor).
	DataStart, DataSize uint64
}

// ReadSafetensorsHeader reads and checks the header of a safetensors file
// as ReadSafetensors does (dtypes, shapes, offsets that tile the data
// exactly), without reading the data.
func ReadSafetensorsHeader(r io.Reader) (*SafetensorsHeader, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return nil, fmt.Errorf("safetensors: %w", truncated(err, 8))
	}
	n := binary.LittleEndian.Uint64(pre[:])
	if n > maxSafetensorsHeader {
		return nil, fmt.Errorf("safetensors: header length %d exceeds the limit of %d bytes", n, maxSafetensorsHeader)
	}
	header, err := readFull(r, int(n))
	if err != nil {
		return nil, fmt.Errorf("safetensors: header: %v", err)
	}
	entries, meta, err := parseSafetensorsHeader(header)
	if err != nil {
		return nil, fmt.Errorf("safetensors: %w", err)
	}
	h := &SafetensorsHeader{Metadata: meta, DataStart: 8 + n}
	for _, e := range entries {
		h.Entries = append(h.Entries, SafetensorsEntry{Name: e.name, DType: e.dtype, Stored: e.stored, Shape: e.shape, Begin: e.begin, End: e.end})
		h.DataSize = e.end
	}
	return h, nil
}

// DecodeRaw builds a tensor of type dt and shape from its little-endian
// bytes, as a safetensors or .npy file stores them (i1 as one byte each).
func DecodeRaw(dt DType, shape []int, raw []byte) (*Tensor, error) {
	if !dt.Valid() {
		return nil, fmt.Errorf("invalid element type %v", dt)
	}
	size, err := rawSize(dt, shape)
	if err != nil {
		return nil, err
	}
	if len(raw) != size {
		return nil, fmt.Errorf("%s needs %d bytes, got %d", TypeString(dt, shape), size, len(raw))
	}
	return decodeRaw(dt, shape, raw), nil
}

package tensor

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
)

// maxSafetensorsHeader bounds the JSON header, as the reference
// implementation does (100 MB).
const maxSafetensorsHeader = 100 << 20

var safetensorsTypes = map[string]DType{
	"F32": F32, "F16": F16, "BF16": BF16, "U8": UI8, "I32": I32, "I64": I64, "BOOL": I1, "I8": I8,
}

// safetensorsBytes are the dtypes of one byte an element that have no
// DType of their own: their tensors are read as UI8 (placedEntry.stored
// names the file's dtype), and runtime/weights decodes them.
var safetensorsBytes = map[string]bool{"F8_E4M3": true}

func safetensorsName(dt DType) string {
	for name, d := range safetensorsTypes {
		if d == dt {
			return name
		}
	}
	return ""
}

// Safetensors is the content of a safetensors file: named tensors and the
// optional string-to-string "__metadata__" map.
type Safetensors struct {
	Tensors  map[string]*Tensor
	Metadata map[string]string
	// Stored names the file's dtype of the tensors stored as a dtype
	// without a DType of its own (F8_E4M3: UI8 tensors of its bytes);
	// WriteSafetensors writes them so.
	Stored map[string]string
}

// Names returns the tensor names in sorted order.
func (s *Safetensors) Names() []string {
	names := make([]string, 0, len(s.Tensors))
	for name := range s.Tensors {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

type safetensorsEntry struct {
	Dtype       string   `json:"dtype"`
	Shape       []int    `json:"shape"`
	DataOffsets []uint64 `json:"data_offsets"`
}

type placedEntry struct {
	name       string
	dtype      DType
	stored     string // the file's dtype where dtype stands for it (safetensorsBytes)
	shape      []int
	begin, end uint64
}

// ReadSafetensors reads a file in the safetensors format: an 8-byte
// little-endian header length, a JSON header mapping each tensor name to its
// dtype (F32, F16, BF16, U8, I32, I64, BOOL or I8; F8_E4M3 read as its UI8
// bytes, Safetensors.Stored naming it), shape and data_offsets,
// plus an optional "__metadata__" object of strings, then the raw
// little-endian data. As in the reference implementation, the tensors must
// tile the data buffer exactly: no overlaps, no gaps, no bytes after the last
// tensor. Any violation is an error.
func ReadSafetensors(r io.Reader) (*Safetensors, error) {
	s, err := readSafetensors(r)
	if err != nil {
		return nil, fmt.Errorf("safetensors: %w", err)
	}
	return s, nil
}

func readSafetensors(r io.Reader) (*Safetensors, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return nil, truncated(err, 8)
	}
	n := binary.LittleEndian.Uint64(pre[:])
	if n > maxSafetensorsHeader {
		return nil, fmt.Errorf("header length %d exceeds the limit of %d bytes", n, maxSafetensorsHeader)
	}
	header, err := readFull(r, int(n))
	if err != nil {
		return nil, fmt.Errorf("header: %v", err)
	}
	entries, meta, err := parseSafetensorsHeader(header)
	if err != nil {
		return nil, err
	}
	var size uint64
	if len(entries) > 0 {
		size = entries[len(entries)-1].end
	}
	if size > math.MaxInt {
		return nil, fmt.Errorf("data size %d is too large", size)
	}
	data, err := readFull(r, int(size))
	if err != nil {
		return nil, err
	}
	var extra [1]byte
	if m, _ := io.ReadFull(r, extra[:]); m > 0 {
		return nil, fmt.Errorf("data continues after the last tensor (which ends at byte %d)", size)
	}
	s := &Safetensors{Tensors: map[string]*Tensor{}, Metadata: meta}
	for _, e := range entries {
		s.Tensors[e.name] = decodeRaw(e.dtype, e.shape, data[e.begin:e.end])
		if e.stored != "" {
			if s.Stored == nil {
				s.Stored = map[string]string{}
			}
			s.Stored[e.name] = e.stored
		}
	}
	return s, nil
}

// parseSafetensorsHeader decodes and validates the JSON header and returns
// the entries sorted by offset.
func parseSafetensorsHeader(header []byte) ([]placedEntry, map[string]string, error) {
	dec := json.NewDecoder(bytes.NewReader(header))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, errors.New("header is not a JSON object")
	}
	var entries []placedEntry
	var meta map[string]string
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, fmt.Errorf("header: %v", err)
		}
		name, _ := tok.(string)
		if seen[name] {
			return nil, nil, fmt.Errorf("header: duplicate key %q", name)
		}
		seen[name] = true
		if name == "__metadata__" {
			if err := dec.Decode(&meta); err != nil {
				return nil, nil, fmt.Errorf("header: __metadata__ must map strings to strings: %v", err)
			}
			continue
		}
		var e safetensorsEntry
		if err := dec.Decode(&e); err != nil {
			return nil, nil, fmt.Errorf("header: tensor %q: %v", name, err)
		}
		p, err := placeEntry(name, e)
		if err != nil {
			return nil, nil, err
		}
		entries = append(entries, p)
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, fmt.Errorf("header: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, errors.New("header: trailing data after the JSON object")
	}
	slices.SortFunc(entries, func(a, b placedEntry) int {
		if a.begin != b.begin {
			return compareUint64(a.begin, b.begin)
		}
		return compareUint64(a.end, b.end)
	})
	var at uint64
	for _, e := range entries {
		switch {
		case e.begin < at:
			return nil, nil, fmt.Errorf("tensor %q at bytes [%d, %d) overlaps the previous tensor (ending at %d)", e.name, e.begin, e.end, at)
		case e.begin > at:
			return nil, nil, fmt.Errorf("tensor %q starts at byte %d, leaving a gap after byte %d", e.name, e.begin, at)
		}
		at = e.end
	}
	return entries, meta, nil
}

func compareUint64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func placeEntry(name string, e safetensorsEntry) (placedEntry, error) {
	dt, ok := safetensorsTypes[e.Dtype]
	stored := ""
	if !ok && safetensorsBytes[e.Dtype] {
		dt, ok, stored = UI8, true, e.Dtype
	}
	if !ok {
		return placedEntry{}, fmt.Errorf("tensor %q: unsupported dtype %q (want F32, F16, BF16, U8, I32, I64, BOOL, I8 or F8_E4M3)", name, e.Dtype)
	}
	if e.Shape == nil {
		return placedEntry{}, fmt.Errorf("tensor %q: missing shape", name)
	}
	size, err := rawSize(dt, e.Shape)
	if err != nil {
		return placedEntry{}, fmt.Errorf("tensor %q: %v", name, err)
	}
	if len(e.DataOffsets) != 2 {
		return placedEntry{}, fmt.Errorf("tensor %q: data_offsets must be [begin, end]", name)
	}
	begin, end := e.DataOffsets[0], e.DataOffsets[1]
	if begin > end {
		return placedEntry{}, fmt.Errorf("tensor %q: data_offsets [%d, %d] are reversed", name, begin, end)
	}
	if end-begin != uint64(size) {
		return placedEntry{}, fmt.Errorf("tensor %q: data_offsets [%d, %d] hold %d bytes, but %s %v needs %d", name, begin, end, end-begin, e.Dtype, e.Shape, size)
	}
	return placedEntry{name: name, dtype: dt, stored: stored, shape: e.Shape, begin: begin, end: end}, nil
}

// WriteSafetensors writes s in the safetensors format: tensors in sorted name
// order, contiguous, after a JSON header padded with spaces to a multiple of
// 8 bytes. The "__metadata__" object is written only when s.Metadata is not
// empty.
func WriteSafetensors(w io.Writer, s *Safetensors) error {
	header := map[string]any{}
	if len(s.Metadata) > 0 {
		header["__metadata__"] = s.Metadata
	}
	names := s.Names()
	var off uint64
	for _, name := range names {
		if name == "__metadata__" {
			return errors.New("safetensors: a tensor may not be named __metadata__")
		}
		t := s.Tensors[name]
		dt := safetensorsName(t.dtype)
		if stored := s.Stored[name]; stored != "" {
			if !safetensorsBytes[stored] || t.dtype != UI8 {
				return fmt.Errorf("safetensors: tensor %q is %v, not stored as %q (UI8 bytes of F8_E4M3)", name, t.dtype, stored)
			}
			dt = stored
		}
		if dt == "" {
			return fmt.Errorf("safetensors: tensor %q has unsupported type %v", name, t.dtype)
		}
		size := uint64(t.Len() * t.dtype.ByteSize())
		header[name] = safetensorsEntry{Dtype: dt, Shape: append([]int{}, t.shape...), DataOffsets: []uint64{off, off + size}}
		off += size
	}
	js, err := json.Marshal(header)
	if err != nil {
		return fmt.Errorf("safetensors: %v", err)
	}
	for len(js)%8 != 0 {
		js = append(js, ' ')
	}
	buf := binary.LittleEndian.AppendUint64(nil, uint64(len(js)))
	if _, err := w.Write(append(buf, js...)); err != nil {
		return err
	}
	for _, name := range names {
		if _, err := w.Write(encodeRaw(s.Tensors[name])); err != nil {
			return err
		}
	}
	return nil
}

package gguf

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
)

// The GGUF container (ggml's docs/gguf.md): the magic "GGUF", a uint32
// version, uint64 tensor and key-value counts, the key-value pairs (a
// string key, a uint32 value type, the value), the tensor infos (name,
// uint32 dim count, uint64 dims innermost first, uint32 ggml type, uint64
// offset into the data section), padding to the alignment, then the
// tensor data. Everything is little-endian; strings are a uint64 length
// and the bytes.

// DefaultAlignment is the data alignment when general.alignment is absent.
const DefaultAlignment = 32

// maxDims is GGML_MAX_DIMS: a tensor info with more dims is not ggml's.
const maxDims = 4

// Metadata value types.
const (
	kvUint8 uint32 = iota
	kvInt8
	kvUint16
	kvInt16
	kvUint32
	kvInt32
	kvFloat32
	kvBool
	kvString
	kvArray
	kvUint64
	kvInt64
	kvFloat64
)

// File is the header of a GGUF file: its metadata and tensor infos, and
// the reader its tensor data comes from.
type File struct {
	// Name is the path or name the file was read as; errors start with it.
	Name    string
	Version uint32
	// KV holds the metadata in file order. Values are uint8, int8, uint16,
	// int16, uint32, int32, uint64, int64, float32, float64, bool, string,
	// or []any of those (arrays).
	KV      []KV
	Tensors []TensorInfo
	// Alignment is general.alignment, or DefaultAlignment.
	Alignment uint64
	// DataStart is the file offset of the data section.
	DataStart uint64

	r      io.ReaderAt
	size   uint64
	closer io.Closer
	index  map[string]int
}

// KV is one metadata pair.
type KV struct {
	Key   string
	Value any
}

// TensorInfo describes one tensor of the file.
type TensorInfo struct {
	Name string
	// Dims are ggml's ne: Dims[0] is the innermost (contiguous) dim.
	Dims []uint64
	Type TensorType
	// Offset is the data's offset from File.DataStart.
	Offset uint64
	// Size is the data's size in bytes, or 0 when rlx does not know the
	// type's block layout.
	Size uint64
}

// Shape returns the dims in row-major order (outermost first), the order
// a tensor of the graph dialect lists them: a GGUF matrix with ne = [k, n]
// is [n, k].
func (t *TensorInfo) Shape() []int {
	s := make([]int, len(t.Dims))
	for i, d := range t.Dims {
		s[len(s)-1-i] = int(d)
	}
	return s
}

// Open reads the header of the GGUF file at path. Close releases it.
func Open(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	f, err := Read(path, fh, st.Size())
	if err != nil {
		fh.Close()
		return nil, err
	}
	f.closer = fh
	return f, nil
}

// Sniff reads the first bytes of the file at path, up to the length of
// GGUF's magic "GGUF", and reports whether they are that magic: how a
// caller that takes either a GGUF file or something else tells them
// apart. head says what a file that is not GGUF starts with (empty for
// an empty or unreadable file).
func Sniff(path string) (head []byte, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	var m [4]byte
	n, _ := io.ReadFull(f, m[:])
	return m[:n], string(m[:n]) == "GGUF"
}

// Close closes the file Open opened.
func (f *File) Close() error {
	if f.closer == nil {
		return nil
	}
	return f.closer.Close()
}

// Read reads a GGUF header of a file of the given size from r; name
// prefixes every error. It checks what can be checked without the data:
// the magic, the version (2 or 3), counts and lengths against the bytes
// left, dims, the alignment, and that every tensor of a known type lies
// aligned inside the file.
func Read(name string, r io.ReaderAt, size int64) (*File, error) {
	f := &File{Name: name, r: r, size: uint64(size), Alignment: DefaultAlignment}
	c := &cursor{r: r, size: uint64(size)}
	if err := f.read(c); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

func (f *File) read(c *cursor) error {
	var m [4]byte
	if err := c.bytes(m[:], "the magic"); err != nil {
		return err
	}
	if string(m[:]) != "GGUF" {
		return fmt.Errorf("not a GGUF file (magic %q, want \"GGUF\")", m[:])
	}
	v, err := c.u32("the version")
	if err != nil {
		return err
	}
	switch {
	case v == 2 || v == 3:
	case v == 1:
		return errors.New("GGUF version 1 is not supported (rlx reads versions 2 and 3; convert the file again with a current llama.cpp)")
	case v&0xffff == 0 && bits32(v) <= 3:
		return fmt.Errorf("GGUF version %d reads as a big-endian file, which rlx does not read", v)
	default:
		return fmt.Errorf("unsupported GGUF version %d (rlx reads versions 2 and 3)", v)
	}
	f.Version = v
	nt, err := c.u64("the tensor count")
	if err != nil {
		return err
	}
	nkv, err := c.u64("the metadata count")
	if err != nil {
		return err
	}
	// Each pair takes at least 8 (key length) + 4 (type) + 1 bytes, each
	// tensor info 8 + 4 + 4 + 8: larger counts cannot fit in the file.
	if nkv > c.left()/13 {
		return fmt.Errorf("metadata count %d does not fit in the %d bytes left", nkv, c.left())
	}
	for i := range nkv {
		key, err := c.str(fmt.Sprintf("metadata key #%d", i))
		if err != nil {
			return err
		}
		t, err := c.u32("the type of " + key)
		if err != nil {
			return err
		}
		val, err := c.value(t, key, 0)
		if err != nil {
			return err
		}
		f.KV = append(f.KV, KV{key, val})
	}
	if a, ok := f.Get("general.alignment"); ok {
		n, ok := asUint(a)
		if !ok || n == 0 || n&(n-1) != 0 {
			return fmt.Errorf("general.alignment = %v is not a power of two", a)
		}
		f.Alignment = n
	}
	if nt > c.left()/24 {
		return fmt.Errorf("tensor count %d does not fit in the %d bytes left", nt, c.left())
	}
	f.index = make(map[string]int, nt)
	for i := range nt {
		t, err := c.tensorInfo(i)
		if err != nil {
			return err
		}
		if _, dup := f.index[t.Name]; dup {
			return fmt.Errorf("tensor %q is listed twice", t.Name)
		}
		f.index[t.Name] = len(f.Tensors)
		f.Tensors = append(f.Tensors, t)
	}
	f.DataStart = alignUp(c.pos, f.Alignment)
	for i := range f.Tensors {
		t := &f.Tensors[i]
		if t.Offset%f.Alignment != 0 {
			return fmt.Errorf("tensor %q: offset %d is not a multiple of the alignment %d", t.Name, t.Offset, f.Alignment)
		}
		if t.Size == 0 {
			continue
		}
		if end := f.DataStart + t.Offset + t.Size; end < t.Offset || end > f.size {
			return fmt.Errorf("tensor %q: its %d bytes at offset %d end past the end of the file (%d bytes): the file is truncated",
				t.Name, t.Size, f.DataStart+t.Offset, f.size)
		}
	}
	return nil
}

func bits32(v uint32) uint32 { return v >> 24 }

func alignUp(n, a uint64) uint64 { return (n + a - 1) / a * a }

// Get returns the metadata value of key.
func (f *File) Get(key string) (any, bool) {
	for _, kv := range f.KV {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return nil, false
}

// Tensor returns the info of the tensor named name.
func (f *File) Tensor(name string) (*TensorInfo, bool) {
	i, ok := f.index[name]
	if !ok {
		return nil, false
	}
	return &f.Tensors[i], true
}

// TensorData reads the bytes of tensor t.
func (f *File) TensorData(t *TensorInfo) ([]byte, error) {
	if t.Size == 0 {
		return nil, fmt.Errorf("%s: tensor %q has type %v, whose layout rlx does not know", f.Name, t.Name, t.Type)
	}
	if t.Size > math.MaxInt {
		return nil, fmt.Errorf("%s: tensor %q is too large (%d bytes)", f.Name, t.Name, t.Size)
	}
	buf := make([]byte, t.Size)
	if _, err := f.r.ReadAt(buf, int64(f.DataStart+t.Offset)); err != nil {
		return nil, fmt.Errorf("%s: tensor %q: %v", f.Name, t.Name, err)
	}
	return buf, nil
}

// asUint returns an unsigned integer metadata value of any width.
func asUint(v any) (uint64, bool) {
	switch x := v.(type) {
	case uint8:
		return uint64(x), true
	case uint16:
		return uint64(x), true
	case uint32:
		return uint64(x), true
	case uint64:
		return x, true
	}
	n, ok := asInt(v)
	return uint64(n), ok && n >= 0
}

// asInt reads a signed integer value, negative or not.
func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	}
	return 0, false
}

// cursor reads the header sequentially, never past size.
type cursor struct {
	r    io.ReaderAt
	pos  uint64
	size uint64
	buf  [8]byte
}

func (c *cursor) left() uint64 { return c.size - c.pos }

// bytes fills b, or reports what could not be read.
func (c *cursor) bytes(b []byte, what string) error {
	if uint64(len(b)) > c.left() {
		return fmt.Errorf("truncated: %s at byte %d needs %d bytes, %d are left", what, c.pos, len(b), c.left())
	}
	if _, err := c.r.ReadAt(b, int64(c.pos)); err != nil {
		return fmt.Errorf("reading %s at byte %d: %v", what, c.pos, err)
	}
	c.pos += uint64(len(b))
	return nil
}

func (c *cursor) u32(what string) (uint32, error) {
	if err := c.bytes(c.buf[:4], what); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(c.buf[:4]), nil
}

func (c *cursor) u64(what string) (uint64, error) {
	if err := c.bytes(c.buf[:8], what); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(c.buf[:8]), nil
}

func (c *cursor) str(what string) (string, error) {
	n, err := c.u64("the length of " + what)
	if err != nil {
		return "", err
	}
	if n > c.left() {
		return "", fmt.Errorf("truncated: %s at byte %d is %d bytes long, %d are left", what, c.pos, n, c.left())
	}
	b := make([]byte, n)
	if err := c.bytes(b, what); err != nil {
		return "", err
	}
	return string(b), nil
}

// value reads one metadata value of type t (arrays nest at most 4 deep).
func (c *cursor) value(t uint32, key string, depth int) (any, error) {
	what := "the value of " + key
	switch t {
	case kvUint8, kvInt8, kvBool:
		if err := c.bytes(c.buf[:1], what); err != nil {
			return nil, err
		}
		switch t {
		case kvUint8:
			return c.buf[0], nil
		case kvInt8:
			return int8(c.buf[0]), nil
		}
		if c.buf[0] > 1 {
			return nil, fmt.Errorf("%s: bool byte %d is neither 0 nor 1", key, c.buf[0])
		}
		return c.buf[0] == 1, nil
	case kvUint16, kvInt16:
		if err := c.bytes(c.buf[:2], what); err != nil {
			return nil, err
		}
		u := binary.LittleEndian.Uint16(c.buf[:2])
		if t == kvInt16 {
			return int16(u), nil
		}
		return u, nil
	case kvUint32, kvInt32, kvFloat32:
		u, err := c.u32(what)
		if err != nil {
			return nil, err
		}
		switch t {
		case kvInt32:
			return int32(u), nil
		case kvFloat32:
			return math.Float32frombits(u), nil
		}
		return u, nil
	case kvUint64, kvInt64, kvFloat64:
		u, err := c.u64(what)
		if err != nil {
			return nil, err
		}
		switch t {
		case kvInt64:
			return int64(u), nil
		case kvFloat64:
			return math.Float64frombits(u), nil
		}
		return u, nil
	case kvString:
		return c.str(what)
	case kvArray:
		if depth >= 4 {
			return nil, fmt.Errorf("%s: arrays nested more than 4 deep", key)
		}
		et, err := c.u32("the element type of " + key)
		if err != nil {
			return nil, err
		}
		n, err := c.u64("the length of " + key)
		if err != nil {
			return nil, err
		}
		if n > c.left() {
			return nil, fmt.Errorf("truncated: array %s of %d elements does not fit in the %d bytes left", key, n, c.left())
		}
		out := make([]any, 0, min(n, 1<<16))
		for range n {
			v, err := c.value(et, key, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s: unknown metadata value type %d", key, t)
}

func (c *cursor) tensorInfo(i uint64) (TensorInfo, error) {
	name, err := c.str(fmt.Sprintf("the name of tensor #%d", i))
	if err != nil {
		return TensorInfo{}, err
	}
	nd, err := c.u32("the dim count of " + name)
	if err != nil {
		return TensorInfo{}, err
	}
	if nd == 0 || nd > maxDims {
		return TensorInfo{}, fmt.Errorf("tensor %q has %d dims (GGUF allows 1 to %d)", name, nd, maxDims)
	}
	t := TensorInfo{Name: name, Dims: make([]uint64, nd)}
	n := uint64(1)
	for j := range t.Dims {
		if t.Dims[j], err = c.u64("the dims of " + name); err != nil {
			return TensorInfo{}, err
		}
		if d := t.Dims[j]; d != 0 && n > math.MaxInt64/d {
			return TensorInfo{}, fmt.Errorf("tensor %q: dims %v overflow", name, t.Dims)
		}
		n *= t.Dims[j]
	}
	ty, err := c.u32("the type of " + name)
	if err != nil {
		return TensorInfo{}, err
	}
	t.Type = TensorType(ty)
	if t.Offset, err = c.u64("the offset of " + name); err != nil {
		return TensorInfo{}, err
	}
	if size, err := dataSize(t.Type, t.Dims[0], n); err == nil {
		t.Size = size
	} else if _, known := tensorTypes[t.Type]; known && tensorTypes[t.Type].block != 0 {
		return TensorInfo{}, fmt.Errorf("tensor %q: %v", name, err)
	}
	return t, nil
}

// Names returns the tensor names in file order.
func (f *File) Names() []string {
	out := make([]string, len(f.Tensors))
	for i := range f.Tensors {
		out[i] = f.Tensors[i].Name
	}
	return slices.Clip(out)
}

// Uint returns the integer metadata value of key (of any integer type).
func (f *File) Uint(key string) (uint64, error) {
	v, ok := f.Get(key)
	if !ok {
		return 0, fmt.Errorf("%s: missing metadata key %s", f.Name, key)
	}
	n, ok := asUint(v)
	if !ok {
		return 0, fmt.Errorf("%s: metadata key %s is %v (%T), want a non-negative integer", f.Name, key, v, v)
	}
	return n, nil
}

// Float returns the number metadata value of key (a float or an integer).
func (f *File) Float(key string) (float64, error) {
	v, ok := f.Get(key)
	if !ok {
		return 0, fmt.Errorf("%s: missing metadata key %s", f.Name, key)
	}
	switch x := v.(type) {
	case float32:
		return float64(x), nil
	case float64:
		return x, nil
	}
	if n, ok := asUint(v); ok {
		return float64(n), nil
	}
	if n, ok := asInt(v); ok {
		return float64(n), nil
	}
	return 0, fmt.Errorf("%s: metadata key %s is %v (%T), want a number", f.Name, key, v, v)
}

// String returns the string metadata value of key.
func (f *File) String(key string) (string, error) {
	v, ok := f.Get(key)
	if !ok {
		return "", fmt.Errorf("%s: missing metadata key %s", f.Name, key)
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s: metadata key %s is %v (%T), want a string", f.Name, key, v, v)
	}
	return s, nil
}

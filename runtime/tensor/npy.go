package tensor

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// npyMagic starts every .npy file.
const npyMagic = "\x93NUMPY"

// maxNPYHeader bounds the header length a reader accepts (NumPy itself
// refuses headers over 10000 bytes by default).
const maxNPYHeader = 1 << 20

var npyTypes = map[string]DType{
	"f4": F32, "f2": F16, "i4": I32, "i8": I64, "u1": UI8, "i1": I8, "b1": I1,
}

var npyDescr = map[DType]string{
	F32: "<f4", F16: "<f2", I32: "<i4", I64: "<i8", UI8: "|u1", I8: "|i1", I1: "|b1",
}

// ReadNPY reads a tensor in NumPy's .npy format (versions 1.0, 2.0 and 3.0):
// little-endian '<f4', '<f2', '<i4', '<i8', '|u1', '|i1' or '|b1' data in C
// order. Big-endian data, Fortran order, other types and truncated data are
// errors. It reads exactly the header and the data, nothing after them.
func ReadNPY(r io.Reader) (*Tensor, error) {
	t, err := readNPY(r)
	if err != nil {
		return nil, fmt.Errorf("npy: %w", err)
	}
	return t, nil
}

func readNPY(r io.Reader) (*Tensor, error) {
	var pre [10]byte
	if _, err := io.ReadFull(r, pre[:8]); err != nil {
		return nil, truncated(err, 8)
	}
	if string(pre[:6]) != npyMagic {
		return nil, errors.New("not a .npy file (bad magic)")
	}
	var hlen int
	switch major := pre[6]; major {
	case 1:
		if _, err := io.ReadFull(r, pre[8:10]); err != nil {
			return nil, truncated(err, 10)
		}
		hlen = int(binary.LittleEndian.Uint16(pre[8:10]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, truncated(err, 12)
		}
		n := binary.LittleEndian.Uint32(b[:])
		if n > maxNPYHeader {
			return nil, fmt.Errorf("header length %d exceeds the limit of %d bytes", n, maxNPYHeader)
		}
		hlen = int(n)
	default:
		return nil, fmt.Errorf("unsupported format version %d.%d", major, pre[7])
	}
	header, err := readFull(r, hlen)
	if err != nil {
		return nil, err
	}
	dt, shape, err := parseNPYHeader(string(header))
	if err != nil {
		return nil, err
	}
	size, err := rawSize(dt, shape)
	if err != nil {
		return nil, err
	}
	raw, err := readFull(r, size)
	if err != nil {
		return nil, err
	}
	// As the safetensors reader: bytes after the data mean a file that is
	// not what its header says.
	var extra [1]byte
	if m, _ := io.ReadFull(r, extra[:]); m > 0 {
		return nil, fmt.Errorf("data continues after the array (which ends %d bytes after the header)", size)
	}
	return decodeRaw(dt, shape, raw), nil
}

func parseNPYHeader(h string) (DType, []int, error) {
	p := &pyLexer{s: strings.TrimRight(h, " \n\x00")}
	fields, err := p.dict()
	if err != nil {
		return 0, nil, fmt.Errorf("bad header %q: %v", h, err)
	}
	if len(fields) != 3 || fields["descr"] == nil || fields["fortran_order"] == nil || fields["shape"] == nil {
		return 0, nil, fmt.Errorf("header %q must have exactly the keys descr, fortran_order and shape", h)
	}
	descr, ok := fields["descr"].(string)
	if !ok || len(descr) < 2 {
		return 0, nil, fmt.Errorf("bad descr in header %q", h)
	}
	dt, ok := npyTypes[descr[1:]]
	if !ok {
		return 0, nil, fmt.Errorf("unsupported dtype %q (want <f4 <f2 <i4 <i8 |u1 |i1 |b1)", descr)
	}
	switch order := descr[0]; {
	case order == '>' && dt.ByteSize() > 1:
		return 0, nil, fmt.Errorf("big-endian dtype %q is not supported", descr)
	case order != '<' && order != '|' && order != '>' && order != '=':
		return 0, nil, fmt.Errorf("bad byte order in dtype %q", descr)
	case order == '=' && dt.ByteSize() > 1:
		return 0, nil, fmt.Errorf("native-order dtype %q is ambiguous; want little-endian '<'", descr)
	}
	fortran, ok := fields["fortran_order"].(bool)
	if !ok {
		return 0, nil, fmt.Errorf("bad fortran_order in header %q", h)
	}
	if fortran {
		return 0, nil, errors.New("fortran_order=True is not supported; save the array in C order")
	}
	shape, ok := fields["shape"].([]int)
	if !ok {
		return 0, nil, fmt.Errorf("bad shape in header %q", h)
	}
	if NumElements(shape) < 0 {
		return 0, nil, fmt.Errorf("invalid shape %v", shape)
	}
	return dt, shape, nil
}

// pyLexer parses the small subset of Python literals that .npy headers use:
// a dict of string keys to strings, booleans and tuples of integers.
type pyLexer struct {
	s   string
	pos int
}

func (p *pyLexer) skip() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

func (p *pyLexer) eat(c byte) bool {
	p.skip()
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *pyLexer) dict() (map[string]any, error) {
	if !p.eat('{') {
		return nil, errors.New("expected '{'")
	}
	fields := map[string]any{}
	for !p.eat('}') {
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if _, dup := fields[key]; dup {
			return nil, fmt.Errorf("duplicate key %q", key)
		}
		if !p.eat(':') {
			return nil, errors.New("expected ':'")
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		fields[key] = v
		if !p.eat(',') {
			if !p.eat('}') {
				return nil, errors.New("expected ',' or '}'")
			}
			break
		}
	}
	p.skip()
	if p.pos != len(p.s) {
		return nil, errors.New("trailing characters after the dict")
	}
	return fields, nil
}

func (p *pyLexer) str() (string, error) {
	p.skip()
	if p.pos >= len(p.s) || (p.s[p.pos] != '\'' && p.s[p.pos] != '"') {
		return "", errors.New("expected a string")
	}
	q := p.s[p.pos]
	end := strings.IndexByte(p.s[p.pos+1:], q)
	if end < 0 {
		return "", errors.New("unterminated string")
	}
	s := p.s[p.pos+1 : p.pos+1+end]
	p.pos += end + 2
	return s, nil
}

func (p *pyLexer) value() (any, error) {
	p.skip()
	switch {
	case p.pos >= len(p.s):
		return nil, errors.New("expected a value")
	case p.s[p.pos] == '\'' || p.s[p.pos] == '"':
		return p.str()
	case strings.HasPrefix(p.s[p.pos:], "True"):
		p.pos += 4
		return true, nil
	case strings.HasPrefix(p.s[p.pos:], "False"):
		p.pos += 5
		return false, nil
	case p.s[p.pos] == '(':
		return p.tuple()
	}
	return nil, fmt.Errorf("unexpected %q", p.s[p.pos:])
}

func (p *pyLexer) tuple() ([]int, error) {
	p.eat('(')
	dims := []int{}
	for !p.eat(')') {
		p.skip()
		start := p.pos
		for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
			p.pos++
		}
		d, err := strconv.Atoi(p.s[start:p.pos])
		if err != nil {
			return nil, fmt.Errorf("bad dimension %q", p.s[start:])
		}
		p.eat('L')
		dims = append(dims, d)
		if !p.eat(',') {
			if !p.eat(')') {
				return nil, errors.New("expected ',' or ')' in shape")
			}
			break
		}
	}
	return dims, nil
}

// WriteNPY writes t in .npy format: version 1.0 (2.0 if the header needs it),
// little-endian, C order. bf16 has no NumPy type and is an error.
func WriteNPY(w io.Writer, t *Tensor) error {
	descr, ok := npyDescr[t.dtype]
	if !ok {
		return fmt.Errorf("npy: element type %v has no NumPy dtype (cast bf16 to f32 first)", t.dtype)
	}
	var dims strings.Builder
	for i, d := range t.shape {
		if i > 0 {
			dims.WriteString(", ")
		}
		dims.WriteString(strconv.Itoa(d))
	}
	if len(t.shape) == 1 {
		dims.WriteByte(',')
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, dims.String())
	// Pad with spaces so the data starts at a multiple of 64, ending in '\n'.
	pre := 10
	total := (pre + len(dict) + 1 + 63) / 64 * 64
	if total-pre > 0xffff {
		pre = 12
		total = (pre + len(dict) + 1 + 63) / 64 * 64
	}
	header := dict + strings.Repeat(" ", total-pre-len(dict)-1) + "\n"
	buf := make([]byte, 0, total)
	buf = append(buf, npyMagic...)
	if pre == 10 {
		buf = append(buf, 1, 0)
		buf = binary.LittleEndian.AppendUint16(buf, uint16(len(header)))
	} else {
		buf = append(buf, 2, 0)
		buf = binary.LittleEndian.AppendUint32(buf, uint32(len(header)))
	}
	buf = append(buf, header...)
	if _, err := w.Write(buf); err != nil {
		return err
	}
	_, err := w.Write(encodeRaw(t))
	return err
}

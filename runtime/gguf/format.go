package gguf

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Format is a GGUF block quantisation format.
type Format uint8

// The supported formats. The zero Format is invalid.
const (
	Q4_0 Format = iota + 1
	Q8_0
	Q4_K
	Q6_K
	// Q6_KC16 is q6_k's bytes rearranged into columns of 16 weights
	// (columns.go); no GGUF tensor type stores it.
	Q6_KC16
	// Q5_K is GGUF's q5_k: q4_k's scales with a fifth bit a weight.
	Q5_K
	// Q2_K, Q3_K, Q4_1, Q5_0 and Q5_1 are GGUF's: their kernels decode a
	// unit of 32 weights at a time (blockDecoders' arithmetic).
	Q2_K
	Q3_K
	Q4_1
	Q5_0
	Q5_1
	// IQ4_NL, IQ4_XS and MXFP4 are GGUF's non-linear 4-bit formats, unit
	// formats too.
	IQ4_NL
	IQ4_XS
	MXFP4
)

var formats = [...]struct {
	name       string
	block      int
	blockBytes int
}{
	Q4_0:    {"q4_0", 32, 18},
	Q8_0:    {"q8_0", 32, 34},
	Q4_K:    {"q4_k", 256, 144},
	Q6_K:    {"q6_k", 256, 210},
	Q6_KC16: {"q6_k_c16", 256, 210},
	Q5_K:    {"q5_k", 256, 176},
	Q2_K:    {"q2_k", 256, 84},
	Q3_K:    {"q3_k", 256, 110},
	Q4_1:    {"q4_1", 32, 20},
	Q5_0:    {"q5_0", 32, 22},
	Q5_1:    {"q5_1", 32, 24},
	IQ4_NL:  {"iq4_nl", 32, 18},
	IQ4_XS:  {"iq4_xs", 256, 136},
	MXFP4:   {"mxfp4", 32, 17},
}

// ParseFormat returns the format named s ("q4_0", "q8_0", "q4_k", "q5_k",
// "q6_k", "q6_k_c16", "q2_k", "q3_k", "q4_1", "q5_0", "q5_1", "iq4_nl",
// "iq4_xs" or "mxfp4", the spelling of graph.dequant_matmul's format attribute).
func ParseFormat(s string) (Format, error) {
	var names []string
	for f, info := range formats {
		if info.name != "" && info.name == s {
			return Format(f), nil
		}
		if info.name != "" {
			names = append(names, info.name)
		}
	}
	return 0, fmt.Errorf("unknown GGUF format %q (want one of %s)", s, strings.Join(names, ", "))
}

// Valid reports whether f is one of the supported formats.
func (f Format) Valid() bool { return f >= Q4_0 && int(f) < len(formats) }

// String returns the attribute spelling of the format.
func (f Format) String() string {
	if f.Valid() {
		return formats[f].name
	}
	return fmt.Sprintf("format(%d)", uint8(f))
}

// BlockSize returns the number of weights in one block (32 or 256), or 0 for
// an invalid format.
func (f Format) BlockSize() int {
	if !f.Valid() {
		return 0
	}
	return formats[f].block
}

// BlockBytes returns the size in bytes of one block, or 0 for an invalid
// format.
func (f Format) BlockBytes() int {
	if !f.Valid() {
		return 0
	}
	return formats[f].blockBytes
}

// ByteCount returns the size in bytes of an [n, k] weight in format f,
// n·(k/BlockSize)·BlockBytes. It is an error if the format is invalid, a
// dimension is negative, k is not a multiple of the block size, or the size
// overflows.
func ByteCount(f Format, n, k int) (int, error) {
	if !f.Valid() {
		return 0, fmt.Errorf("invalid GGUF format %v", f)
	}
	if n < 0 || k < 0 {
		return 0, fmt.Errorf("%v weight [%d, %d] has a negative dimension", f, n, k)
	}
	if k%f.BlockSize() != 0 {
		return 0, fmt.Errorf("%v weight [%d, %d]: k = %d is not a multiple of the block size %d", f, n, k, k, f.BlockSize())
	}
	rowBytes := k / f.BlockSize() * f.BlockBytes()
	if rowBytes != 0 && n > math.MaxInt/rowBytes {
		return 0, fmt.Errorf("%v weight [%d, %d] is too large", f, n, k)
	}
	return n * rowBytes, nil
}

// CheckBytes returns an error unless data holds exactly ByteCount(f, n, k)
// bytes.
func CheckBytes(f Format, data []byte, n, k int) error {
	want, err := ByteCount(f, n, k)
	if err != nil {
		return err
	}
	if len(data) != want {
		return fmt.Errorf("%v weight [%d, %d] needs %d bytes (%d rows of %d blocks of %d bytes), got %d",
			f, n, k, want, n, k/f.BlockSize(), f.BlockBytes(), len(data))
	}
	return nil
}

// Dequantize decodes the [n, k] weight stored in data as a row-major
// []float32 of n·k values.
func Dequantize(f Format, data []byte, n, k int) ([]float32, error) {
	if err := CheckBytes(f, data, n, k); err != nil {
		return nil, err
	}
	dst := make([]float32, n*k)
	for r := range n {
		DequantizeMatrixRow(f, dst[r*k:(r+1)*k], data, n, k, r)
	}
	return dst, nil
}

// DequantizeRow decodes one row of blocks of a row-major format (see
// RowMajor) into dst. The caller must have validated the sizes: len(row) =
// len(dst)/BlockSize·BlockBytes, with len(dst) a multiple of the block
// size; otherwise, or for Q6_KC16, whose rows are not contiguous,
// DequantizeRow panics (DequantizeMatrixRow takes every format).
func DequantizeRow(f Format, dst []float32, row []byte) {
	bs, bb := f.BlockSize(), f.BlockBytes()
	if !f.RowMajor() || len(dst)%bs != 0 || len(row) != len(dst)/bs*bb {
		panic(fmt.Sprintf("gguf.DequantizeRow: %v row of %d bytes does not hold %d weights", f, len(row), len(dst)))
	}
	for b := 0; b < len(dst)/bs; b++ {
		out, in := dst[b*bs:(b+1)*bs], row[b*bb:(b+1)*bb]
		switch f {
		case Q4_0:
			dequantQ4_0(out, in)
		case Q8_0:
			dequantQ8_0(out, in)
		case Q4_K:
			dequantQ4_K(out, in)
		case Q5_K:
			dequantQ5_K(out, in)
		case Q6_K:
			dequantQ6_K(out, in)
		default:
			blockDecoders[TypeOf(f)](out, in)
		}
	}
}

func f16(b []byte) float32 { return tensor.F16BitsToF32(binary.LittleEndian.Uint16(b)) }

// dequantQ4_0 decodes one q4_0 block of 18 bytes: d (f16), then qs[16].
// For j < 16: w[j] = float32((qs[j]&0xF) − 8)·d and
// w[j+16] = float32((qs[j]>>4) − 8)·d.
func dequantQ4_0(dst []float32, b []byte) {
	d := f16(b)
	qs := b[2:18]
	lo, hi := dst[:16], dst[16:32]
	for j, q := range qs {
		lo[j] = q4Values[q&0xF] * d
		hi[j] = q4Values[q>>4] * d
	}
}

// dequantQ8_0 decodes one q8_0 block of 34 bytes: d (f16), then 32 int8
// qs. w[j] = float32(qs[j])·d.
func dequantQ8_0(dst []float32, b []byte) {
	d := f16(b)
	qs := b[2:34]
	dst = dst[:len(qs)]
	for j, q := range qs {
		dst[j] = i8Values[q] * d
	}
}

// scaleMinK4 unpacks the 6-bit scale and min of sub-block j (0..7) from the
// 12 packed bytes s of a q4_k block (ggml's get_scale_min_k4):
// for j < 4, scale = s[j]&63 and min = s[j+4]&63; for j ≥ 4,
// scale = (s[j+4]&0xF) | (s[j−4]>>6)<<4 and min = (s[j+4]>>4) | (s[j]>>6)<<4.
func scaleMinK4(j int, s []byte) (sc, m uint8) {
	if j < 4 {
		return s[j] & 63, s[j+4] & 63
	}
	return s[j+4]&0xF | (s[j-4]>>6)<<4, s[j+4]>>4 | (s[j]>>6)<<4
}

// dequantQ4_K decodes one q4_k block of 144 bytes: d (f16), dmin (f16),
// scales[12] (packed, see scaleMinK4), qs[128]. The 256 weights form 8
// sub-blocks of 32; chunk c (0..3) holds sub-block 2c in the low nibbles of
// qs[32c..32c+31] and sub-block 2c+1 in their high nibbles. With (sc, m) the
// sub-block's scale and min, d1 = float32(d·sc), m1 = float32(dmin·m), and
// w = float32(d1·q) − m1.
func dequantQ4_K(dst []float32, b []byte) {
	var lo, hi [16]float32
	for c := range 4 {
		kLevels(lo[:], hi[:], b, c)
		q := b[16+32*c : 48+32*c]
		for l, v := range q {
			dst[64*c+l] = lo[v&0xF]
			dst[64*c+32+l] = hi[v>>4]
		}
	}
}

// kLevels gives lo[q] and hi[q], the weights of level q in sub-blocks 2c
// and 2c+1 of the q4_k or q5_k block b (their headers are the same):
// float32(d1·q) − m1, d1 = float32(d·sc), m1 = float32(dmin·m).
func kLevels(lo, hi []float32, b []byte, c int) {
	d, dmin := f16(b), f16(b[2:])
	sc, m := scaleMinK4(2*c, b[4:16])
	d1, m1 := d*float32(sc), dmin*float32(m)
	sc, m = scaleMinK4(2*c+1, b[4:16])
	d2, m2 := d*float32(sc), dmin*float32(m)
	for q := range lo {
		lo[q] = float32(d1*float32(q)) - m1
		hi[q] = float32(d2*float32(q)) - m2
	}
}

// dequantQ5_K decodes one q5_k block of 176 bytes: d (f16), dmin (f16),
// scales[12] (q4_k's, scaleMinK4), qh[32], qs[128]. As q4_k's chunk c
// (0..3), with a fifth bit a weight: weight l of sub-block 2c takes bit
// 2c of qh[l] as bit 4, of sub-block 2c+1 bit 2c+1; w = float32(d1·q) −
// m1 as in dequantQ4_K.
func dequantQ5_K(dst []float32, b []byte) {
	var lo, hi [32]float32
	qh := b[16:48]
	for c := range 4 {
		kLevels(lo[:], hi[:], b, c)
		q := b[48+32*c : 80+32*c]
		for l, v := range q {
			dst[64*c+l] = lo[v&0xF|(qh[l]>>(2*c)&1)<<4]
			dst[64*c+32+l] = hi[v>>4|(qh[l]>>(2*c+1)&1)<<4]
		}
	}
}

// dequantQ6_K decodes one q6_k block of 210 bytes: ql[128], qh[64],
// scales[16] (int8), then d (f16) last. The block is two halves of 128
// weights; half h uses ql[64h:], qh[32h:] and scales[8h:]. Within a half, for
// l < 32 the 6-bit values of weights l, l+32, l+64 and l+96 are the low nibble
// of ql[l], the low nibble of ql[l+32], the high nibble of ql[l] and the high
// nibble of ql[l+32], each with bits 0-1, 2-3, 4-5 and 6-7 of qh[l] as bits 4
// and 5. With q = value − 32 and sc the int8 scale of the weight's 16-weight
// sub-block (index within the half l/16 + 0, 2, 4 or 6),
// w = float32(d·sc)·q.
func dequantQ6_K(dst []float32, b []byte) {
	d := f16(b[208:])
	var ds [16]float32
	for i, sc := range b[192:208] {
		ds[i] = d * float32(int8(sc))
	}
	for h := range 2 {
		ql, qh := b[64*h:64*h+64], b[128+32*h:128+32*h+32]
		y := dst[128*h : 128*h+128]
		for l := range 32 {
			sc := ds[8*h+l/16:]
			a, c, hb := ql[l], ql[l+32], qh[l]
			y[l] = sc[0] * q6Values[a&0xF|(hb&3)<<4]
			y[l+32] = sc[2] * q6Values[c&0xF|(hb>>2&3)<<4]
			y[l+64] = sc[4] * q6Values[a>>4|(hb>>4&3)<<4]
			y[l+96] = sc[6] * q6Values[c>>4|(hb>>6)<<4]
		}
	}
}

// Read-only tables of exact small integers, so the decoders load instead of
// converting: q4Values[c] = float32(c − 8) for a q4_0 nibble, i8Values[b] =
// float32(int8(b)) for a q8_0 byte, q6Values[c] = float32(c − 32) for a
// 6-bit q6_k code.
var (
	q4Values = offsetTable[[16]float32](8)
	q6Values = offsetTable[[64]float32](32)
	i8Values = func() (t [256]float32) {
		for b := range t {
			t[b] = float32(int8(b))
		}
		return t
	}()
)

func offsetTable[T [16]float32 | [64]float32](offset int) (t T) {
	for i := range len(t) {
		t[i] = float32(i - offset)
	}
	return t
}

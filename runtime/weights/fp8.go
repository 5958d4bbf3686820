package weights

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// TypeFP8 is the Info.Type of a safetensors F8_E4M3 weight paired with
// its block scales (pairFP8): read as BF16.
const TypeFP8 = "F8_E4M3"

// DecodeE4M3 is the value of an OCP FP8 E4M3 (FN) byte: sign, 4 exponent
// bits biased by 7, 3 mantissa bits; subnormals below exponent 1, no
// infinities, S.1111.111 NaN; the largest finite magnitude 448.
func DecodeE4M3(b byte) float32 {
	sign := float32(1)
	if b&0x80 != 0 {
		sign = -1
	}
	e, m := int(b>>3&0xF), float32(b&7)
	switch {
	case e == 0xF && m == 7:
		return float32(math.NaN())
	case e == 0:
		return sign * m / 8 * float32(math.Ldexp(1, -6))
	}
	return sign * (1 + m/8) * float32(math.Ldexp(1, e-7))
}

// EncodeE4M3 is the E4M3 byte nearest f (ties to even), saturated at
// ±448 as torch's float8_e4m3fn conversion of a finite float is; NaN
// stays NaN.
func EncodeE4M3(f float32) byte {
	if f != f {
		return 0x7F
	}
	var sign byte
	if math.Signbit(float64(f)) {
		sign, f = 0x80, -f
	}
	if f >= 448 {
		return sign | 0x7E
	}
	// The nearest of the 127 non-negative finite codes, ties to the
	// even code (the codes are in increasing order of value).
	best, bestErr := byte(0), math.Inf(1)
	for c := range byte(0x7F) {
		d := math.Abs(float64(DecodeE4M3(c)) - float64(f))
		if d < bestErr || d == bestErr && c%2 == 0 {
			best, bestErr = c, d
		}
	}
	return sign | best
}

// fp8Block reads the block size of the F8_E4M3 weights from a
// checkpoint's quantization_config quant (read from path: weight_block_size,
// [rows, columns]; transformers' fine-grained FP8: DeepSeek-V3, Qwen3's
// -FP8 checkpoints); false where it has none.
func fp8Block(path string, quant json.RawMessage) (rows, cols int, ok bool, err error) {
	var cfg struct {
		Block []int `json:"weight_block_size"`
	}
	if quant == nil || json.Unmarshal(quant, &cfg) != nil || cfg.Block == nil {
		return 0, 0, false, nil // the importer reports a config it cannot read
	}
	if b := cfg.Block; len(b) != 2 || b[0] < 1 || b[1] < 1 {
		return 0, 0, false, fmt.Errorf("%s: quantization_config's weight_block_size %v is not two positive sizes", path, b)
	}
	return cfg.Block[0], cfg.Block[1], true, nil
}

// pairFP8 replaces each F8_E4M3 matrix NAME [r, c] of a safetensors
// checkpoint and its NAME_scale_inv [⌈r/rows⌉, ⌈c/cols⌉] (F32 or BF16)
// by one BF16 tensor NAME (Info.Type TypeFP8): each element the code's
// value × its block's scale (block (i/rows, j/cols), as DeepSeek's
// weight_dequant reads it), rounded to bf16, as transformers dequantizes
// fine-grained FP8 weights where the blocks divide the matrix (it sizes
// partial ones from the shapes instead). quant is the checkpoint
// directory's quantization_config, read from path, which gives the block
// size (nil for a lone file: its F8_E4M3 tensors are an error).
func (s *Source) pairFP8(path string, quant json.RawMessage) error {
	var fp8 []string
	for _, name := range s.names {
		if e := s.entries[name]; e.Type == TypeFP8 && e.DType == tensor.UI8 { // not a compressed-tensors module (pairCompressed)
			fp8 = append(fp8, name)
		}
	}
	if len(fp8) == 0 {
		return nil
	}
	first := s.entries[fp8[0]]
	rows, cols, ok, err := fp8Block(path, quant)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s: tensor %q is F8_E4M3: rlx reads FP8 weights with the block size of config.json's quantization_config (weight_block_size)", first.File, first.Name)
	}
	for _, name := range fp8 {
		w := s.entries[name]
		sc, paired := s.entries[name+"_scale_inv"]
		if !paired {
			return fmt.Errorf("%s: tensor %q is F8_E4M3 without its scales %q", w.File, name, name+"_scale_inv")
		}
		if len(w.Shape) != 2 {
			return fmt.Errorf("%s: tensor %q is F8_E4M3 %s: rlx reads FP8 matrices only", w.File, name, shapeString(w.Shape))
		}
		r, c := w.Shape[0], w.Shape[1]
		want := []int{(r + rows - 1) / rows, (c + cols - 1) / cols}
		if (sc.DType != tensor.F32 && sc.DType != tensor.BF16) || !slices.Equal(sc.Shape, want) {
			return fmt.Errorf("%s: tensor %q is %s; the scales of F8_E4M3 %s in blocks of %d×%d are F32 or BF16 %s",
				sc.File, sc.Name, sc.Info.typeString(), shapeString(w.Shape), rows, cols, shapeString(want))
		}
		info := Info{Name: name, File: w.File, Shape: slices.Clone(w.Shape), DType: tensor.BF16, Type: TypeFP8}
		if err := s.replace(&entry{Info: info, read: func() ([]byte, error) { return dequantFP8(w, sc, rows, cols) }}, name, name+"_scale_inv"); err != nil {
			return err
		}
	}
	s.compactNames()
	return nil
}

// dequantFP8 reads an F8_E4M3 matrix and its block scales and returns
// the matrix as little-endian bf16: code value × scale in f32, rounded
// to bf16 (ties to even).
func dequantFP8(w, sc *entry, rows, cols int) ([]byte, error) {
	codes, err := w.read()
	if err != nil {
		return nil, fmt.Errorf("%s: tensor %q: %v", w.File, w.Name, err)
	}
	raw, err := sc.read()
	if err != nil {
		return nil, fmt.Errorf("%s: tensor %q: %v", sc.File, sc.Name, err)
	}
	st, err := tensor.DecodeRaw(sc.DType, sc.Shape, raw)
	if err != nil {
		return nil, fmt.Errorf("%s: tensor %q: %v", sc.File, sc.Name, err)
	}
	scales := st.Floats()
	r, c := w.Shape[0], w.Shape[1]
	if len(codes) != r*c {
		return nil, fmt.Errorf("%s: tensor %q holds %d bytes for F8_E4M3 %s", w.File, w.Name, len(codes), shapeString(w.Shape))
	}
	perRow := (c + cols - 1) / cols
	out := e4m3BF16(codes, r, c, c, scales, func(i int) int { return i / rows * perRow }, cols)
	return out, nil
}

// e4m3BF16 reads E4M3 codes [rows, cols] (a row every stride bytes) as
// little-endian bf16, each code's value × its scale rounded: the scale of
// (i, j) is scales[base(i) + j/width]. Spread over the cores, and the
// 256 codes' values taken from a table built once, not a math.Ldexp an
// element: a DeepSeek-V3 checkpoint holds about 6.7·10¹¹ codes.
func e4m3BF16(codes []byte, rows, cols, stride int, scales []float32, base func(i int) int, width int) []byte {
	var value [256]float32
	for b := range value {
		value[b] = DecodeE4M3(byte(b))
	}
	out := make([]byte, 2*rows*cols)
	inParallel(rows, func(i int) {
		row, sc := codes[i*stride:i*stride+cols], scales[base(i):]
		for j, code := range row {
			binary.LittleEndian.PutUint16(out[2*(i*cols+j):], tensor.F32ToBF16Bits(value[code]*sc[j/width]))
		}
	})
	return out
}

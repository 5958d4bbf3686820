package gguf

import (
	"encoding/binary"
	"math"
	"testing"
)

// FuzzDequantize feeds arbitrary bytes and sizes to the block decoders
// (weights come from files) and arbitrary floats to the quantisers: no
// panic; a decode that succeeds gives n·k values; Quantize either refuses
// the weights (only when some is not finite or beyond ±65504) or gives
// blocks that decode to finite values.
func FuzzDequantize(f *testing.F) {
	for fmtID := range 16 {
		f.Add(uint8(fmtID), uint8(1), uint8(1), make([]byte, 210))
	}
	f.Add(uint8(Q4_K), uint8(2), uint8(1), make([]byte, 288))
	f.Fuzz(func(t *testing.T, fmtID, n8, blocks uint8, data []byte) {
		fm := Format(fmtID % 16) // includes the invalid 0 and 15
		n, k := int(n8%8), int(blocks%4)*max(fm.BlockSize(), 1)
		got, err := Dequantize(fm, data, n, k)
		if err == nil && len(got) != n*k {
			t.Fatalf("%v [%d, %d]: %d values", fm, n, k, len(got))
		}
		if !fm.Valid() {
			if err == nil {
				t.Fatalf("invalid format %v decoded", fm)
			}
			return
		}
		// The bytes read as float32 weights (any bit pattern: NaN, ±Inf).
		w := make([]float32, n*k)
		for i := range w {
			if 4*i+4 <= len(data) {
				w[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
			}
		}
		// Quantize refuses non-finite weights and magnitudes the f16 scales
		// cannot hold, which start above 65504; anything else encodes, and
		// decodes to finite values.
		inRange := true
		for _, x := range w {
			if math.IsNaN(float64(x)) || math.Abs(float64(x)) > 65504 {
				inRange = false
			}
		}
		q, err := Quantize(fm, w, n, k)
		if err != nil {
			if inRange {
				t.Fatalf("quantize %v [%d, %d] of weights within ±65504: %v", fm, n, k, err)
			}
			return
		}
		back, err := Dequantize(fm, q, n, k)
		if err != nil {
			t.Fatalf("quantized %v [%d, %d] does not decode: %v", fm, n, k, err)
		}
		for i, x := range back {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				t.Fatalf("%v: weights quantised without error decode to %v at %d", fm, x, i)
			}
		}
	})
}

// FuzzDecode feeds arbitrary bytes, sizes and tensor types to Decode
// (tensors come from files): no panic; a type it decodes gives n·k
// values exactly when the bytes are n·k/block blocks, and any other type
// is an error.
func FuzzDecode(f *testing.F) {
	for _, typ := range []TensorType{TypeQ4_1, TypeQ5_0, TypeQ5_1, TypeQ2_K, TypeQ3_K, TypeQ5_K, TypeIQ4_NL, TypeIQ4_XS, TypeMXFP4, 16} {
		f.Add(uint32(typ), uint8(1), uint8(1), make([]byte, tensorTypes[typ].nbytes))
	}
	f.Fuzz(func(t *testing.T, typ uint32, n8, blocks uint8, data []byte) {
		tt := TensorType(typ % 40)
		info := tensorTypes[tt]
		n, k := int(n8%4), int(blocks%4)*max(info.block, 1)
		got, err := Decode(tt, data, n, k)
		switch {
		case !tt.Decodable():
			if err == nil {
				t.Fatalf("%v decoded", tt)
			}
		case err == nil && len(got) != n*k:
			t.Fatalf("%v [%d, %d]: %d values", tt, n, k, len(got))
		case (err == nil) != (len(data) == n*(k/info.block)*info.nbytes):
			t.Fatalf("%v [%d, %d] of %d bytes: %v", tt, n, k, len(data), err)
		}
	})
}

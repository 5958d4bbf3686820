package gguf

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQ3KScales: decodeQ3_K's scales, unpacked a scale at a time, are
// those of ggml's formulation on 32-bit words (the twelve bytes as three
// little-endian words, recombined with the masks 0x03030303 and
// 0x0f0f0f0f into four words of sixteen signed bytes, each − 32), on
// random scale bytes: with d = 1 and every code 1 (low bits 01, the
// hmask bit set), each sixteen-value group reads back its scale − 32.
func TestQ3KScales(t *testing.T) {
	rng := rand.New(rand.NewPCG(62, 3))
	for range 200 {
		b := make([]byte, 110)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		// Every code 1 (low bits 01, the high bit set: 1 − 0), d = 1.
		for i := range 32 {
			b[i] = 0xFF
		}
		for i := 32; i < 96; i++ {
			b[i] = 0x55
		}
		binary.LittleEndian.PutUint16(b[108:], 0x3C00)
		var aux [4]uint32
		for i := range 3 {
			aux[i] = binary.LittleEndian.Uint32(b[96+4*i:])
		}
		const kmask1, kmask2 = 0x03030303, 0x0f0f0f0f
		tmp := aux[2]
		aux[2] = ((aux[0] >> 4) & kmask2) | (((tmp >> 4) & kmask1) << 4)
		aux[3] = ((aux[1] >> 4) & kmask2) | (((tmp >> 6) & kmask1) << 4)
		aux[0] = (aux[0] & kmask2) | (((tmp >> 0) & kmask1) << 4)
		aux[1] = (aux[1] & kmask2) | (((tmp >> 2) & kmask1) << 4)
		var out [256]float32
		decodeQ3_K(out[:], b)
		for j := range 16 {
			want := float32(int(int8(aux[j/4]>>(8*(j%4)))) - 32)
			// Scale j covers values 16j … 16j+15 in decode order.
			for l := range 16 {
				if got := out[16*j+l]; got != want {
					t.Fatalf("scale %d, value %d: %g, ggml's word formulation gives %g", j, l, got, want)
				}
			}
		}
	}
}

// TestIQ4XSScales: decodeIQ4_XS's 6-bit scales (the low four bits a
// nibble of scales_l, the high two of scales_h), against the bits
// written from known scales, each − 32; every code is 8 (level 1).
func TestIQ4XSScales(t *testing.T) {
	rng := rand.New(rand.NewPCG(62, 4))
	for range 200 {
		b := make([]byte, 136)
		binary.LittleEndian.PutUint16(b, 0x3C00) // d = 1
		var ls [8]int
		var sh uint16
		for ib := range ls {
			ls[ib] = rng.IntN(64)
			b[4+ib/2] |= byte(ls[ib]&0xF) << (4 * (ib % 2))
			sh |= uint16(ls[ib]>>4) << (2 * ib)
		}
		binary.LittleEndian.PutUint16(b[2:], sh)
		for i := 8; i < 136; i++ {
			b[i] = 0x88
		}
		var out [256]float32
		decodeIQ4_XS(out[:], b)
		for ib, l := range ls {
			for j := range 32 {
				if got, want := out[32*ib+j], float32(l-32); got != want {
					t.Fatalf("sub-block %d, value %d: %g, want %g", ib, j, got, want)
				}
			}
		}
	}
}

// TestQ5KHighBits: in dequantQ5_K, chunk c's low nibbles take bit 2c of
// qh and its high nibbles bit 2c + 1 (ggml's u1, u2 shifted by 2 a
// chunk): with d = 1, every scale 1, every min 0 and zero nibbles, value
// 64c + l is 16 exactly when bit 2c of qh[l] is set, and 64c + 32 + l
// when bit 2c + 1 is.
func TestQ5KHighBits(t *testing.T) {
	for bit := range 8 {
		b := make([]byte, 176)
		binary.LittleEndian.PutUint16(b, 0x3C00)
		for j := range 4 {
			b[4+j] = 1 // scales 0-3: 1; mins 0-3: 0 (b[8:12])
		}
		for j := range 4 {
			b[12+j] = 1 // scales 4-7: low nibble 1, mins 0
		}
		for l := range 32 {
			b[16+l] = 1 << bit
		}
		var out [256]float32
		dequantQ5_K(out[:], b)
		for i, v := range out {
			c, hi := i/64, i%64 >= 32
			want := float32(0)
			if (!hi && bit == 2*c) || (hi && bit == 2*c+1) {
				want = 16
			}
			if v != want {
				t.Fatalf("bit %d: value %d = %g, want %g", bit, i, v, want)
			}
		}
	}
}

// TestDecodableFormats: the block types Decode reads are those with a
// Format, and for each Decode and Dequantize agree on the same bytes.
func TestDecodableFormats(t *testing.T) {
	for typ := range TensorType(40) {
		f, hasFormat := typ.Format()
		if typ.Decodable() != hasFormat {
			t.Errorf("%v: decodable %v, format %v", typ, typ.Decodable(), hasFormat)
		}
		if !hasFormat {
			continue
		}
		if TypeOf(f) != typ {
			t.Errorf("%v: TypeOf(%v) = %v", typ, f, TypeOf(f))
		}
		data := make([]byte, f.BlockBytes()*256/f.BlockSize())
		for i := range data {
			data[i] = byte(i*37 + 5)
		}
		if _, err := FiniteScales(f, data, 1, 256); err != nil {
			t.Fatal(err)
		}
		a, err1 := Decode(typ, data, 1, 256)
		b, err2 := Dequantize(f, data, 1, 256)
		if err1 != nil || err2 != nil || !slices.Equal(a, b) {
			t.Errorf("%v: Decode and Dequantize differ (%v, %v)", typ, err1, err2)
		}
	}
}

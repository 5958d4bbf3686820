package gguf

import (
	"encoding/binary"
	"fmt"
	"math"
)

// blockDecoders decode one block of a type into dst (its block size of
// values); the block holds exactly the type's block bytes.
var blockDecoders = map[TensorType]func(dst []float32, b []byte){
	TypeQ4_0: dequantQ4_0, TypeQ8_0: dequantQ8_0, TypeQ4_K: dequantQ4_K, TypeQ6_K: dequantQ6_K,
	TypeQ4_1: decodeQ4_1, TypeQ5_0: decodeQ5_0, TypeQ5_1: decodeQ5_1,
	TypeQ2_K: decodeQ2_K, TypeQ3_K: decodeQ3_K, TypeQ5_K: dequantQ5_K,
	TypeIQ4_NL: decodeIQ4_NL, TypeIQ4_XS: decodeIQ4_XS, TypeMXFP4: decodeMXFP4,
}

// Decodable reports whether rlx decodes the block type t (Decode): the
// block types with a Format, which graph.dequant_matmul reads
// (TestDecodableFormats keeps the two lists equal).
func (t TensorType) Decodable() bool {
	_, ok := blockDecoders[t]
	return ok
}

// Decode decodes the [n, k] tensor of block type t stored in data into a
// row-major []float32 of n·k values. It is an error if t is not
// Decodable, k is not a multiple of its block size, or data does not
// hold exactly n·k/block blocks.
func Decode(t TensorType, data []byte, n, k int) ([]float32, error) {
	dec, ok := blockDecoders[t]
	if !ok {
		return nil, fmt.Errorf("tensor type %v is not one rlx decodes", t)
	}
	info := tensorTypes[t]
	if n < 0 || k < 0 || k%info.block != 0 {
		return nil, fmt.Errorf("%v tensor [%d, %d]: k must be a non-negative multiple of the block size %d", t, n, k, info.block)
	}
	blocks := k / info.block
	if k != 0 && (n > math.MaxInt/k || n > math.MaxInt/(blocks*info.nbytes)) {
		return nil, fmt.Errorf("%v tensor [%d, %d] is too large", t, n, k)
	}
	if want := n * blocks * info.nbytes; len(data) != want {
		return nil, fmt.Errorf("%v tensor [%d, %d] needs %d bytes (%d blocks of %d bytes), got %d", t, n, k, want, n*blocks, info.nbytes, len(data))
	}
	dst := make([]float32, n*k)
	for b := range n * blocks {
		dec(dst[b*info.block:(b+1)*info.block], data[b*info.nbytes:(b+1)*info.nbytes])
	}
	return dst, nil
}

// decodeQ4_1 decodes a q4_1 block of 20 bytes: d, m (f16), qs[16];
// w[j] = d·(qs[j]&0xF) + m, w[j+16] = d·(qs[j]>>4) + m.
func decodeQ4_1(dst []float32, b []byte) {
	d, m := f16(b), f16(b[2:])
	for j, q := range b[4:20] {
		dst[j] = float32(q&0xF)*d + m
		dst[j+16] = float32(q>>4)*d + m
	}
}

// q5High is bit j of a q5 block's qh (little-endian) moved to bit 4.
func q5High(qh uint32, j int) uint8 { return uint8(qh>>j&1) << 4 }

// decodeQ5_0 decodes a q5_0 block of 22 bytes: d (f16), qh (4 bytes, the
// fifth bit of each of the 32 values), qs[16] (their low nibbles, as
// q4_0's); w = d·(q − 16).
func decodeQ5_0(dst []float32, b []byte) {
	d, qh := f16(b), binary.LittleEndian.Uint32(b[2:])
	for j, q := range b[6:22] {
		dst[j] = float32(int(q&0xF|q5High(qh, j))-16) * d
		dst[j+16] = float32(int(q>>4|q5High(qh, j+16))-16) * d
	}
}

// decodeQ5_1 decodes a q5_1 block of 24 bytes: d, m (f16), qh, qs[16];
// w = d·q + m.
func decodeQ5_1(dst []float32, b []byte) {
	d, m, qh := f16(b), f16(b[2:]), binary.LittleEndian.Uint32(b[4:])
	for j, q := range b[8:24] {
		dst[j] = float32(q&0xF|q5High(qh, j))*d + m
		dst[j+16] = float32(q>>4|q5High(qh, j+16))*d + m
	}
}

// decodeQ2_K decodes a q2_k block of 84 bytes: scales[16] (a 4-bit scale
// and a 4-bit min each), qs[64] (2-bit values), d, dmin (f16). Each half
// of 128 values reads qs[32h:32h+32] at shifts 0, 2, 4, 6; at each shift
// the first 16 bytes are one 16-value group and the next 16 another, in
// order; w = d·sc·q − dmin·m.
func decodeQ2_K(dst []float32, b []byte) {
	scales, qs := b[:16], b[16:80]
	d, dmin := f16(b[80:]), f16(b[82:])
	is := 0
	for h := range 2 {
		q := qs[32*h : 32*h+32]
		for shift := 0; shift < 8; shift += 2 {
			for g := range 2 {
				sc := scales[is]
				is++
				dl, ml := d*float32(sc&0xF), dmin*float32(sc>>4)
				for l := range 16 {
					dst[128*h+32*(shift/2)+16*g+l] = dl*float32(q[16*g+l]>>shift&3) - ml
				}
			}
		}
	}
}

// decodeQ3_K decodes a q3_k block of 110 bytes: hmask[32] (the third bit
// of each value, cleared meaning −4), qs[64] (the low 2 bits, laid out as
// q2_k's), scales[12] (sixteen 6-bit scales, offset by 32: the low 4 bits
// in the first 8 bytes' nibbles, the high 2 bits in the last 4), d (f16);
// w = d·(sc − 32)·(q − 4·(hmask bit clear)).
func decodeQ3_K(dst []float32, b []byte) {
	hmask, qs, packed := b[:32], b[32:96], b[96:108]
	d := f16(b[108:])
	var sc [16]int
	for j := range 16 {
		lo := packed[j%8] >> (4 * (j / 8)) & 0xF
		hi := packed[8+j%4] >> (2 * (j / 4)) & 3
		sc[j] = int(lo|hi<<4) - 32
	}
	is, bit := 0, 0
	for h := range 2 {
		q := qs[32*h : 32*h+32]
		for shift := 0; shift < 8; shift += 2 {
			for g := range 2 {
				dl := d * float32(sc[is])
				is++
				for l := range 16 {
					v := int(q[16*g+l] >> shift & 3)
					if hmask[16*g+l]>>bit&1 == 0 {
						v -= 4
					}
					dst[128*h+32*(shift/2)+16*g+l] = dl * float32(v)
				}
			}
			bit++
		}
	}
}

// iq4Values are iq4_nl's and iq4_xs's 16 non-linear levels.
var iq4Values = [16]float32{-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113}

// decodeIQ4_NL decodes an iq4_nl block of 18 bytes: d (f16), qs[16] (as
// q4_0's nibbles); w = d·iq4Values[nibble].
func decodeIQ4_NL(dst []float32, b []byte) {
	d := f16(b)
	for j, q := range b[2:18] {
		dst[j] = d * iq4Values[q&0xF]
		dst[j+16] = d * iq4Values[q>>4]
	}
}

// decodeIQ4_XS decodes an iq4_xs block of 136 bytes: d (f16),
// scales_h (2 bytes), scales_l[4], qs[128]: eight sub-blocks of 32, each
// with a 6-bit scale (its low 4 bits a nibble of scales_l, its high 2 bits
// of scales_h) offset by 32 and 16 bytes of iq4_nl nibbles.
func decodeIQ4_XS(dst []float32, b []byte) {
	d := f16(b)
	sh := binary.LittleEndian.Uint16(b[2:])
	sl, qs := b[4:8], b[8:136]
	for ib := range 8 {
		ls := int(sl[ib/2]>>(4*(ib%2))&0xF) | int(sh>>(2*ib)&3)<<4
		dl := d * float32(ls-32)
		for j, q := range qs[16*ib : 16*ib+16] {
			dst[32*ib+j] = dl * iq4Values[q&0xF]
			dst[32*ib+16+j] = dl * iq4Values[q>>4]
		}
	}
}

// mxfp4Values are MXFP4's E2M1 codes doubled (ggml's kvalues_mxfp4),
// which the block's halved scale undoes.
var mxfp4Values = [16]float32{0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12}

// decodeMXFP4 decodes an mxfp4 block of 17 bytes: e (an E8M0 exponent),
// qs[16] (as q4_0's nibbles, each an E2M1 value); w = 2^(e−127)·E2M1,
// computed as ggml does: the doubled code times 2^(e−128).
func decodeMXFP4(dst []float32, b []byte) {
	d := e8m0Half(b[0])
	for j, q := range b[1:17] {
		dst[j] = mxfp4Values[q&0xF] * d
		dst[j+16] = mxfp4Values[q>>4] * d
	}
}

// e8m0Half is 2^(e−128) as a float32 (ggml's GGML_E8M0_TO_FP32_HALF):
// a subnormal for e < 2.
func e8m0Half(e uint8) float32 {
	if e < 2 {
		return math.Float32frombits(0x00200000 << e)
	}
	return math.Float32frombits(uint32(e-1) << 23)
}

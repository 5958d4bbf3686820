package gguf

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Quantize encodes the row-major [n, k] weight w in format f. The quantisers
// are straightforward reference ones (absolute-maximum scaling per block or
// sub-block, round to nearest even); they always produce valid blocks whose
// decoded values approximate w. Weights must be finite, and a block's
// magnitudes must fit the format's f16 scales (Q4_0 overflows first, above
// 8·65504): otherwise Quantize returns an error rather than blocks that
// decode to infinities or NaNs.
func Quantize(f Format, w []float32, n, k int) ([]byte, error) {
	if s := f.Storage(); s != f {
		q, err := Quantize(s, w, n, k)
		if err != nil {
			return nil, fmt.Errorf("%w (for %v)", err, f)
		}
		return Convert(q, s, f, n, k)
	}
	size, err := ByteCount(f, n, k)
	if err != nil {
		return nil, err
	}
	if len(w) != n*k {
		return nil, fmt.Errorf("quantize %v: weight [%d, %d] needs %d values, got %d", f, n, k, n*k, len(w))
	}
	for i, v := range w {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("quantize %v: weight #%d is %v (GGUF blocks hold finite values)", f, i, v)
		}
	}
	out := make([]byte, size)
	bs, bb := f.BlockSize(), f.BlockBytes()
	for b := range len(w) / max(bs, 1) {
		in, dst := w[b*bs:(b+1)*bs], out[b*bb:(b+1)*bb]
		var ok bool
		switch f {
		case Q4_0:
			ok = quantQ4_0(dst, in)
		case Q8_0:
			ok = quantQ8_0(dst, in)
		case Q4_K:
			ok = quantQ4_K(dst, in)
		case Q5_K:
			ok = quantQ5_K(dst, in)
		case Q6_K:
			ok = quantQ6_K(dst, in)
		case Q2_K:
			ok = quantQ2_K(dst, in)
		case Q3_K:
			ok = quantQ3_K(dst, in)
		case Q4_1:
			ok = quantQ4_1(dst, in)
		case Q5_0:
			ok = quantQ5_0(dst, in)
		case Q5_1:
			ok = quantQ5_1(dst, in)
		case IQ4_NL:
			ok = quantIQ4NL(dst, in)
		case IQ4_XS:
			ok = quantIQ4XS(dst, in)
		case MXFP4:
			ok = quantMXFP4(dst, in)
		}
		if !ok {
			return nil, fmt.Errorf("quantize %v: block %d (weights #%d to #%d) reaches %g, beyond the range of the format's f16 scales",
				f, b, b*bs, (b+1)*bs-1, abs32(signedAbsMax(in)))
		}
	}
	return out, nil
}

// putF16 stores v as f16 and returns the stored value, an infinity when v
// is beyond f16's range.
func putF16(b []byte, v float32) float32 {
	h := tensor.F32ToF16Bits(v)
	binary.LittleEndian.PutUint16(b, h)
	return tensor.F16BitsToF32(h)
}

// finite reports whether every scale is finite.
func finite(scales ...float32) bool {
	for _, d := range scales {
		if math.IsInf(float64(d), 0) {
			return false
		}
	}
	return true
}

func inv(d float32) float32 {
	if d == 0 {
		return 0
	}
	return 1 / d
}

func roundClamp(x float32, lo, hi int) int {
	r := math.RoundToEven(float64(x))
	switch {
	case math.IsNaN(r) || r < float64(lo):
		return lo
	case r > float64(hi):
		return hi
	}
	return int(r)
}

// signedAbsMax returns the element of largest magnitude (the first one on ties).
func signedAbsMax(x []float32) float32 {
	var m float32
	for _, v := range x {
		if abs32(v) > abs32(m) {
			m = v
		}
	}
	return m
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// quantQ4_0 follows ggml's quantize_row_q4_0_ref: d = max/−8 where max is the
// element of largest magnitude, q = round(x/d)+8 clamped to [0, 15].
func quantQ4_0(dst []byte, x []float32) bool {
	d := putF16(dst, signedAbsMax(x)/-8)
	id := inv(d)
	for j := range 16 {
		q0 := roundClamp(x[j]*id, -8, 7) + 8
		q1 := roundClamp(x[j+16]*id, -8, 7) + 8
		dst[2+j] = byte(q0) | byte(q1)<<4
	}
	return finite(d)
}

// quantQ8_0 follows ggml: d = max|x|/127, q = round(x/d).
func quantQ8_0(dst []byte, x []float32) bool {
	d := putF16(dst, abs32(signedAbsMax(x))/127)
	id := inv(d)
	for j, v := range x {
		dst[2+j] = byte(int8(roundClamp(v*id, -127, 127)))
	}
	return finite(d)
}

// quantQ4_K gives each sub-block of 32 the affine range [min(0, lo), hi]:
// scale (hi−lo)/15 and min −lo, both quantised to 6 bits against the block's
// d = max scale/63 and dmin = max min/63.
func quantQ4_K(dst []byte, x []float32) bool {
	return quantK(dst[:16], x, 15, func(j, l int, q uint8) {
		if j%2 == 0 {
			dst[16+32*(j/2)+l] = q
		} else {
			dst[16+32*(j/2)+l] |= q << 4
		}
	})
}

// quantQ5_K is quantQ4_K with 31 levels: the low four bits of sub-block
// j's weight l in qs as q4_k's, the fifth bit j of qh[l].
func quantQ5_K(dst []byte, x []float32) bool {
	clear(dst[16:48])
	return quantK(dst[:16], x, 31, func(j, l int, q uint8) {
		dst[16+l] |= q >> 4 << j
		if j%2 == 0 {
			dst[48+32*(j/2)+l] = q & 0xF
		} else {
			dst[48+32*(j/2)+l] |= q & 0xF << 4
		}
	})
}

// quantK writes the header of a q4_k or q5_k block (d, dmin, the 6-bit
// scales and minimums of scaleMinK4) into hd and gives each weight l of
// sub-block j its level q in [0, top] through put.
func quantK(hd []byte, x []float32, top int, put func(j, l int, q uint8)) bool {
	scales, mins, maxScale, maxMin := affineRanges(x, 32, top)
	d := putF16(hd, maxScale/63)
	dmin := putF16(hd[2:], maxMin/63)
	var ls, lm [8]uint8
	for j := range 8 {
		ls[j] = uint8(roundClamp(scales[j]*inv(d), 0, 63))
		lm[j] = uint8(roundClamp(mins[j]*inv(dmin), 0, 63))
	}
	s := hd[4:16]
	for j := range 4 {
		s[j] = ls[j] | (ls[j+4]>>4)<<6
		s[j+4] = lm[j] | (lm[j+4]>>4)<<6
		s[j+8] = ls[j+4]&0xF | (lm[j+4]&0xF)<<4
	}
	for j := range 8 {
		ds, ms := d*float32(ls[j]), dmin*float32(lm[j])
		ids := inv(ds)
		for l := range 32 {
			put(j, l, uint8(roundClamp((x[32*j+l]+ms)*ids, 0, top)))
		}
	}
	return finite(d, dmin)
}

// signedScales gives each group of size weights of x the scale
// signedAbsMax/div, and the scale of largest magnitude (the first on
// ties): the symmetric k-quants' first step (q6_k, q3_k, iq4_xs).
func signedScales(x []float32, size int, div float32) (scales []float32, largest float32) {
	scales = make([]float32, len(x)/size)
	for j := range scales {
		scales[j] = signedAbsMax(x[size*j:size*(j+1)]) / div
		if abs32(scales[j]) > abs32(largest) {
			largest = scales[j]
		}
	}
	return scales, largest
}

// affineRanges gives each group of size weights of x the affine range
// [min(0, lo), hi] in top+1 levels: scale (hi−lo)/top and min −lo, and
// the largest of each (the asymmetric k-quants' first step: q4_k, q5_k,
// q2_k).
func affineRanges(x []float32, size, top int) (scales, mins []float32, maxScale, maxMin float32) {
	scales, mins = make([]float32, len(x)/size), make([]float32, len(x)/size)
	for j := range scales {
		sub := x[size*j : size*(j+1)]
		lo, hi := float32(0), sub[0]
		for _, v := range sub {
			lo, hi = min(lo, v), max(hi, v)
		}
		scales[j], mins[j] = (hi-lo)/float32(top), -lo
		maxScale, maxMin = max(maxScale, scales[j]), max(maxMin, mins[j])
	}
	return scales, mins, maxScale, maxMin
}

// quantQ6_K gives each sub-block of 16 the scale max/−32 (max being the
// element of largest magnitude), quantises those scales to int8 against
// d = (scale of largest magnitude)/−128, then the weights to [−32, 31].
func quantQ6_K(dst []byte, x []float32) bool {
	scales, maxScale := signedScales(x, 16, -32)
	d := putF16(dst[208:], maxScale/-128)
	var sc [16]int8
	for i := range 16 {
		sc[i] = int8(roundClamp(scales[i]*inv(d), -128, 127))
		dst[192+i] = byte(sc[i])
	}
	var q [256]uint8
	for i, v := range x {
		q[i] = uint8(roundClamp(v*inv(d*float32(sc[i/16])), -32, 31) + 32)
	}
	for h := range 2 {
		ql, qh, L := dst[64*h:64*h+64], dst[128+32*h:128+32*h+32], q[128*h:128*h+128]
		for l := range 32 {
			ql[l] = L[l]&0xF | (L[l+64]&0xF)<<4
			ql[l+32] = L[l+32]&0xF | (L[l+96]&0xF)<<4
			qh[l] = L[l]>>4 | (L[l+32]>>4)<<2 | (L[l+64]>>4)<<4 | (L[l+96]>>4)<<6
		}
	}
	return finite(d)
}

// quantAffine gives x the affine range [min(0, lo), max(0, hi)] in top+1
// levels: the scale d and the offset m (the range's low end, stored as
// f16 at dst[0:2] and dst[2:4]) and each weight's level through put.
func quantAffine(dst []byte, x []float32, top int, put func(j int, q uint8)) bool {
	lo, hi := float32(0), float32(0)
	for _, v := range x {
		lo, hi = min(lo, v), max(hi, v)
	}
	d := putF16(dst, (hi-lo)/float32(top))
	m := putF16(dst[2:], lo)
	id := inv(d)
	for j, v := range x {
		put(j, uint8(roundClamp((v-m)*id, 0, top)))
	}
	return finite(d, m)
}

// quantQ4_1: q4_1's 16 levels over the block's affine range; w = d·q + m.
func quantQ4_1(dst []byte, x []float32) bool {
	clear(dst[4:20])
	return quantAffine(dst, x, 15, func(j int, q uint8) { dst[4+j%16] |= q << (4 * (j / 16)) })
}

// quantQ5_1: q5_1's 32 levels over the block's affine range, the fifth
// bit of weight j at bit j of qh.
func quantQ5_1(dst []byte, x []float32) bool {
	clear(dst[4:24])
	return quantAffine(dst, x, 31, func(j int, q uint8) {
		dst[4+j/8] |= q >> 4 << (j % 8)
		dst[8+j%16] |= q & 0xF << (4 * (j / 16))
	})
}

// quantQ5_0 follows q4_0 with 32 levels: d = max/−16, q = round(x/d) + 16
// clamped to [0, 31], the fifth bit of weight j at bit j of qh.
func quantQ5_0(dst []byte, x []float32) bool {
	clear(dst[2:22])
	d := putF16(dst, signedAbsMax(x)/-16)
	id := inv(d)
	for j, v := range x {
		q := uint8(roundClamp(v*id, -16, 15) + 16)
		dst[2+j/8] |= q >> 4 << (j % 8)
		dst[6+j%16] |= q & 0xF << (4 * (j / 16))
	}
	return finite(d)
}

// q2kPlace is where value i (of 256) of a q2_k or q3_k block sits: its
// group of 16 (the scale's index), its qs byte and its shift there.
func q2kPlace(i int) (group, byteAt, shift int) {
	h, r := i/128, i%128
	shift, g, l := 2*(r/32), (r%32)/16, r%16
	return 8*h + 2*(r/32) + g, 32*h + 16*g + l, shift
}

// quantQ2_K gives each group of 16 the affine range [min(0, lo), hi] in 4
// levels: scale (hi−lo)/3 and min −lo, both quantised to 4 bits against
// the block's d = max scale/15 and dmin = max min/15.
func quantQ2_K(dst []byte, x []float32) bool {
	clear(dst[:80])
	scales, mins, maxScale, maxMin := affineRanges(x, 16, 3)
	d := putF16(dst[80:], maxScale/15)
	dmin := putF16(dst[82:], maxMin/15)
	var ds, ms [16]float32
	for j := range 16 {
		ls := uint8(roundClamp(scales[j]*inv(d), 0, 15))
		lm := uint8(roundClamp(mins[j]*inv(dmin), 0, 15))
		dst[j] = ls | lm<<4
		ds[j], ms[j] = d*float32(ls), dmin*float32(lm)
	}
	for i, v := range x {
		g, at, sh := q2kPlace(i)
		dst[16+at] |= uint8(roundClamp((v+ms[g])*inv(ds[g]), 0, 3)) << sh
	}
	return finite(d, dmin)
}

// quantQ3_K gives each group of 16 the scale max/−4 (max the element of
// largest magnitude), quantises those scales to 6 bits in [−32, 31]
// against d = (scale of largest magnitude)/−32, then the weights to
// [−4, 3]: the low two bits in qs as q2_k's, the third in hmask (set
// for q ≥ 0).
func quantQ3_K(dst []byte, x []float32) bool {
	clear(dst[:108])
	scales, maxScale := signedScales(x, 16, -4)
	d := putF16(dst[108:], maxScale/-32)
	var sc [16]int
	for j := range 16 {
		sc[j] = roundClamp(scales[j]*inv(d), -32, 31)
		u := uint8(sc[j] + 32)
		dst[96+j%8] |= u & 0xF << (4 * (j / 8))
		dst[104+j%4] |= u >> 4 << (2 * (j / 4))
	}
	for i, v := range x {
		g, at, sh := q2kPlace(i)
		q := roundClamp(v*inv(d*float32(sc[g])), -4, 3) + 4
		dst[32+at] |= uint8(q&3) << sh
		if q >= 4 {
			dst[at%32] |= 1 << (4*(i/128) + sh/2)
		}
	}
	return finite(d)
}

// nearest is the index of the level of levels (ascending) nearest to v.
func nearest(levels *[16]float32, v float32) uint8 {
	best := 0
	for i, l := range levels {
		if abs32(l-v) < abs32(levels[best]-v) {
			best = i
		}
	}
	return uint8(best)
}

// quantIQ4 writes 32 weights as iq4 nibbles (q4_0's layout) against
// the scale d.
func quantIQ4(qs []byte, x []float32, d float32) {
	id := inv(d)
	for j := range 16 {
		qs[j] = nearest(&iq4Values, x[j]*id) | nearest(&iq4Values, x[j+16]*id)<<4
	}
}

// quantIQ4NL: d = max/−127 (max the element of largest magnitude), each
// weight the nearest of iq4_nl's levels.
func quantIQ4NL(dst []byte, x []float32) bool {
	d := putF16(dst, signedAbsMax(x)/-127)
	quantIQ4(dst[2:18], x, d)
	return finite(d)
}

// quantIQ4XS gives each sub-block of 32 the scale max/−127 and quantises
// those scales to 6 bits in [−32, 31] against d = (scale of largest
// magnitude)/−32; the weights as iq4_nl's.
func quantIQ4XS(dst []byte, x []float32) bool {
	clear(dst[2:8])
	scales, maxScale := signedScales(x, 32, -127)
	d := putF16(dst, maxScale/-32)
	var sh uint16
	for j := range 8 {
		ls := roundClamp(scales[j]*inv(d), -32, 31) + 32
		dst[4+j/2] |= uint8(ls&0xF) << (4 * (j % 2))
		sh |= uint16(ls>>4) << (2 * j)
		quantIQ4(dst[8+16*j:24+16*j], x[32*j:32*j+32], d*float32(ls-32))
	}
	binary.LittleEndian.PutUint16(dst[2:], sh)
	return finite(d)
}

// quantMXFP4 takes the smallest E8M0 exponent e whose 2^(e−128) brings
// the block's largest magnitude within 12 (mxfp4Values' largest), each
// weight the nearest of the doubled E2M1 codes.
func quantMXFP4(dst []byte, x []float32) bool {
	m := abs32(signedAbsMax(x))
	e := 0
	for e < 254 && m > 12*e8m0Half(uint8(e)) {
		e++
	}
	dst[0] = uint8(e)
	d := e8m0Half(uint8(e))
	var levels [16]float32
	copy(levels[:], mxfp4Values[:])
	ok := true
	at := func(v float32) uint8 {
		q := nearest(&levels, float32(float64(v)/float64(d))) // 1/d overflows float32 at e = 0
		ok = ok && !math.IsInf(float64(levels[q]*d), 0)
		return q
	}
	for j := range 16 {
		dst[1+j] = at(x[j]) | at(x[j+16])<<4
	}
	return ok
}

package gguf

import (
	"fmt"
	"iter"
)

// ScaleOffsets returns the byte offsets, within an [n, k] weight of
// format f, of its f16 scale fields: each block's d, and the k-quants'
// dmin and q4_1's and q5_1's m with it (the int8 and packed sub-block
// scales are not f16 and not among them). Row-major formats hold them in
// each block (q4_0, q8_0, q5_0 at byte 0; q4_k, q5_k, q4_1, q5_1 at bytes
// 0 and 2; q2_k at 80 and 82; q3_k at 108; q6_k at 208; iq4_nl, iq4_xs
// at 0; mxfp4 has none, its scale an E8M0 byte); q6_k_c16 holds its d
// array last (columns.go). The weight's sizes must be valid (CheckBytes).
func ScaleOffsets(f Format, n, k int) iter.Seq[int] {
	return func(yield func(int) bool) {
		if _, err := ByteCount(f, n, k); err != nil {
			panic(fmt.Sprintf("gguf.ScaleOffsets: %v", err))
		}
		blocks, bb := n*(k/f.BlockSize()), f.BlockBytes()
		var at []int
		switch f {
		case Q4_0, Q8_0:
			at = []int{0}
		case Q4_K, Q5_K, Q4_1, Q5_1:
			at = []int{0, 2}
		case Q5_0, IQ4_NL, IQ4_XS:
			at = []int{0}
		case Q2_K:
			at = []int{80, 82}
		case Q3_K:
			at = []int{108}
		case Q6_K:
			at = []int{208}
		case Q6_KC16:
			for b := range blocks {
				if !yield(13*n*k/16 + 2*b) {
					return
				}
			}
			return
		}
		for b := range blocks {
			for _, o := range at {
				if !yield(b*bb + o) {
					return
				}
			}
		}
	}
}

// FiniteScales makes every f16 scale of the [n, k] weight data (format f,
// ScaleOffsets) finite: one whose exponent bits are all set (±Inf, NaN)
// gets its exponent's top bit cleared, a value of magnitude 1 to 2. It
// returns how many it changed. Block bytes drawn at random hold such
// scales (1 in 32 of them); a weight with one has no finite product, and
// how a kernel's non-finite result comes out (NaN or ±Inf) depends on
// where it factors the scale out (docs/dialects/graph.md). mxfp4's
// scales, E8M0 bytes, are all finite, but from 2^64 up a sum of
// products can overflow: those get bit 6 cleared (2^0 to 2^63).
func FiniteScales(f Format, data []byte, n, k int) (int, error) {
	if err := CheckBytes(f, data, n, k); err != nil {
		return 0, err
	}
	changed := 0
	for o := range ScaleOffsets(f, n, k) {
		if hi := data[o+1]; hi&0x7C == 0x7C {
			data[o+1] = hi &^ 0x40
			changed++
		}
	}
	if f == MXFP4 {
		// Its E8M0 exponents: one of 2^64 or more (a byte of 192 up)
		// gets bit 6 cleared, so that no product of a block overflows.
		for o := 0; o < len(data); o += f.BlockBytes() {
			if data[o] >= 192 {
				data[o] &^= 0x40
				changed++
			}
		}
	}
	return changed, nil
}

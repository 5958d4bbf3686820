package gguf

import (
	"encoding/binary"
	"fmt"
)

// Q6_KC16 is q6_k laid out for a GPU GEMV whose lane owns a column of 16
// weights and walks the rows with its x in registers (codegen/metal's
// dequant_gemv_q6_k_c16): the same bytes as q6_k (n·(k/256)·210 for an
// [n, k] weight, each weight the same value), rearranged over the whole
// matrix as four arrays so that a lane's part of a row is one aligned 8-,
// 4-, 1- and 2-byte load and a simdgroup's loads are contiguous. With
// C = k/16 columns a row and q[i] the 6-bit code (0..63) of weight
// 16c + i of column c:
//
//   - ql, n·C·8 bytes from 0: byte j (0..7) of column (r, c) at
//     8(rC + c) + j is q[j] | q[8 + j]<<4, each code's low four bits;
//   - qh, n·C·4 bytes from n·k/2: byte b (0..3) of column (r, c) at
//     n·k/2 + 4(rC + c) + b holds the codes' top two bits: q[4+b]>>4 in
//     bits 0-1, q[12+b]>>4 in 2-3, q[b]>>4 in 4-5 and q[8+b]>>4 in 6-7
//     (each pair lands on bits 4-5 of its nibble's byte with at most one
//     shift a word);
//   - sc, n·C bytes from 3n·k/4: the int8 scale of column (r, c), which
//     is q6_k's scale of the 16 weights (scale c mod 16 of block c/16);
//   - d, n·(k/256)·2 bytes from 13n·k/16: the f16 d of block (r, b).
//
// Every offset is a multiple of its load's width for any n and any k
// that is a multiple of 256. A weight decodes as q6_k's does:
// float32(d·sc)·(q − 32). Checkpoints store q6_k; Convert rearranges it
// (a binder does so when a graph asks for Q6_KC16), and Storage names the
// format a file holds.

// Storage returns the GGUF format a checkpoint stores a weight of format f
// in: Q6_K for Q6_KC16, f itself otherwise.
func (f Format) Storage() Format {
	if f == Q6_KC16 {
		return Q6_K
	}
	return f
}

// RowMajor reports whether each row of an f weight is its own run of
// whole blocks (every format but Q6_KC16), so that DequantizeRow can
// decode it alone.
func (f Format) RowMajor() bool { return f.Valid() && f != Q6_KC16 }

// Convert rearranges the [n, k] weight data from format from to format to,
// which must store the same bytes: Q6_K and Q6_KC16 either way, or any
// format to itself (a copy).
func Convert(data []byte, from, to Format, n, k int) ([]byte, error) {
	if err := CheckBytes(from, data, n, k); err != nil {
		return nil, err
	}
	if from.Storage() != to.Storage() {
		return nil, fmt.Errorf("cannot convert a %v weight to %v: they store different blocks", from, to)
	}
	out := make([]byte, len(data))
	switch {
	case from == to:
		copy(out, data)
	case to == Q6_KC16:
		var q [256]uint8
		for r := range n {
			for b := range k / 256 {
				blk := data[(r*(k/256)+b)*210:][:210]
				q6Codes(&q, blk)
				putColumns(out, n, k, r, b, &q, blk[192:208], blk[208:210])
			}
		}
	default: // Q6_KC16 to Q6_K
		for r := range n {
			for b := range k / 256 {
				columnsBlock(out[(r*(k/256)+b)*210:][:210], data, n, k, r, b)
			}
		}
	}
	return out, nil
}

// q6Codes writes the 6-bit codes of a q6_k block's 256 weights into q
// (dequantQ6_K's layout: weight 128h + 32u + l, u = 0..3, takes the low
// nibble of ql[64h + l] (u = 0), of ql[64h + 32 + l] (1), or their high
// nibbles (2, 3), with bits 2u, 2u+1 of qh[32h + l] on top).
func q6Codes(q *[256]uint8, blk []byte) {
	for h := range 2 {
		ql, qh := blk[64*h:64*h+64], blk[128+32*h:128+32*h+32]
		for l := range 32 {
			hb := qh[l]
			q[128*h+l] = ql[l]&0xF | (hb&3)<<4
			q[128*h+32+l] = ql[l+32]&0xF | (hb>>2&3)<<4
			q[128*h+64+l] = ql[l]>>4 | (hb>>4&3)<<4
			q[128*h+96+l] = ql[l+32]>>4 | (hb>>6)<<4
		}
	}
}

// columnsAt returns the offsets of the four arrays of an [n, k] Q6_KC16
// weight.
func columnsAt(n, k int) (qh, sc, d int) { return n * k / 2, n * k * 3 / 4, n * k * 13 / 16 }

// putColumns writes block b of row r (codes q, 16 scales, d's two bytes)
// into the Q6_KC16 weight out.
func putColumns(out []byte, n, k, r, b int, q *[256]uint8, scales, d []byte) {
	qhAt, scAt, dAt := columnsAt(n, k)
	cols := k / 16
	for s := range 16 {
		col := r*cols + 16*b + s
		c := q[16*s : 16*s+16]
		for j := range 8 {
			out[8*col+j] = c[j]&0xF | (c[8+j]&0xF)<<4
		}
		for i := range 4 {
			out[qhAt+4*col+i] = c[4+i]>>4 | (c[12+i]>>4)<<2 | (c[i]>>4)<<4 | (c[8+i]>>4)<<6
		}
		out[scAt+col] = scales[s]
	}
	copy(out[dAt+2*(r*(k/256)+b):][:2], d)
}

// columnCodes writes the 16 codes of column col (counted over the whole
// matrix) of the Q6_KC16 weight data into c.
func columnCodes(c []uint8, data []byte, n, k, col int) {
	qhAt, _, _ := columnsAt(n, k)
	ql, qh := data[8*col:8*col+8], data[qhAt+4*col:qhAt+4*col+4]
	for j := range 8 {
		c[j], c[8+j] = ql[j]&0xF, ql[j]>>4
	}
	for i := range 4 {
		h := qh[i]
		c[4+i] |= (h & 3) << 4
		c[12+i] |= (h >> 2 & 3) << 4
		c[i] |= (h >> 4 & 3) << 4
		c[8+i] |= (h >> 6) << 4
	}
}

// columnsBlock rebuilds q6_k block b of row r of the Q6_KC16 weight data
// in blk (210 bytes).
func columnsBlock(blk, data []byte, n, k, r, b int) {
	_, scAt, dAt := columnsAt(n, k)
	var q [256]uint8
	col0 := r*(k/16) + 16*b
	for s := range 16 {
		columnCodes(q[16*s:16*s+16], data, n, k, col0+s)
		blk[192+s] = data[scAt+col0+s]
	}
	clear(blk[:192])
	for h := range 2 {
		ql, qh := blk[64*h:64*h+64], blk[128+32*h:128+32*h+32]
		for l := range 32 {
			a, c, e, g := q[128*h+l], q[128*h+32+l], q[128*h+64+l], q[128*h+96+l]
			ql[l] = a&0xF | (e&0xF)<<4
			ql[l+32] = c&0xF | (g&0xF)<<4
			qh[l] = a>>4 | (c>>4)<<2 | (e>>4)<<4 | (g>>4)<<6
		}
	}
	binary.LittleEndian.PutUint16(blk[208:], binary.LittleEndian.Uint16(data[dAt+2*(r*(k/256)+b):]))
}

// DequantizeMatrixRow decodes row r of the [n, k] weight data (already
// checked with CheckBytes) into dst (k values), for every format: a
// row-major format's row is its own blocks; a Q6_KC16 row is decoded
// column by column, in dequantQ6_K's arithmetic (each weight
// float32(d·sc)·(q − 32), the same bits).
func DequantizeMatrixRow(f Format, dst []float32, data []byte, n, k, r int) {
	if f.RowMajor() {
		rowBytes := k / f.BlockSize() * f.BlockBytes()
		DequantizeRow(f, dst, data[r*rowBytes:(r+1)*rowBytes])
		return
	}
	_, scAt, dAt := columnsAt(n, k)
	var c [16]uint8
	for b := range k / 256 {
		d := f16(data[dAt+2*(r*(k/256)+b):])
		for s := range 16 {
			col := r*(k/16) + 16*b + s
			columnCodes(c[:], data, n, k, col)
			ds := d * float32(int8(data[scAt+col]))
			y := dst[256*b+16*s : 256*b+16*s+16]
			for j, q := range c {
				y[j] = ds * q6Values[q]
			}
		}
	}
}

package gguf

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"sync"
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
	out := make([]byte, len(data))
	if err := ConvertTo(out, data, from, to, n, k); err != nil {
		return nil, err
	}
	return out, nil
}

// ConvertTo is Convert into out, which must be as long as data and not
// overlap it (a stack of matrices converts into its own buffer, one part
// at a time).
func ConvertTo(out, data []byte, from, to Format, n, k int) error {
	if err := CheckBytes(from, data, n, k); err != nil {
		return err
	}
	if from.Storage() != to.Storage() {
		return fmt.Errorf("cannot convert a %v weight to %v: they store different blocks", from, to)
	}
	if len(out) != len(data) {
		return fmt.Errorf("converting %d bytes into %d", len(data), len(out))
	}
	switch {
	case from == to:
		copy(out, data)
	case to == Q6_KC16:
		inRows(n, k, func(r int) {
			for b := range k / 256 {
				blockColumns(out, data[(r*(k/256)+b)*210:][:210], n, k, r, b)
			}
		})
	default: // Q6_KC16 to Q6_K
		inRows(n, k, func(r int) {
			for b := range k / 256 {
				columnsBlock(out[(r*(k/256)+b)*210:][:210], data, n, k, r, b)
			}
		})
	}
	return nil
}

// inRows calls row(r) for each of the n rows of an [n, k] weight, spread
// over GOMAXPROCS goroutines when the weight is large enough for that to
// pay (each row writes only its own bytes).
func inRows(n, k int, row func(r int)) {
	workers := min(runtime.GOMAXPROCS(0), n*k/(1<<20))
	if workers < 2 {
		for r := range n {
			row(r)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for r := w * n / workers; r < (w+1)*n/workers; r++ {
				row(r)
			}
		})
	}
	wg.Wait()
}

// columnsAt returns the offsets of the four arrays of an [n, k] Q6_KC16
// weight.
func columnsAt(n, k int) (qh, sc, d int) { return n * k / 2, n * k * 3 / 4, n * k * 13 / 16 }

// A q6_k block holds weight 128h + 32u + l (h = 0, 1; u = 0..3; l =
// 0..31) as the low (u = 0, 1) or high (u = 2, 3) nibble of ql[64h +
// 32(u&1) + l] with bits 2u, 2u+1 of qh[32h + l] on top. Column s (0..15)
// of a block, weights 16s..16s+15, is h = s/8, u = s/2 mod 4 and l =
// 16(s&1) + i: sixteen consecutive bytes of ql and of qh, so each column
// moves as two 8-byte words of ql and four 4-byte words of qh.
func columnSource(s int) (ql, qh, u int) {
	h, u, p := s>>3, s>>1&3, s&1
	return 64*h + 32*(u&1) + 16*p, 128 + 32*h + 16*p, u
}

const (
	lowNibbles = 0x0F0F0F0F0F0F0F0F
	twoBits    = 0x03030303
)

// blockColumns writes q6_k block b of row r (blk, 210 bytes) into the
// Q6_KC16 weight out: each column's ql word is its codes' low nibbles,
// codes 0-7 in the bytes' low nibbles and 8-15 in their high ones; its qh
// word is the top two bits of codes 4+i, 12+i, i and 8+i in bits 0-1,
// 2-3, 4-5 and 6-7 of byte i.
func blockColumns(out, blk []byte, n, k, r, b int) {
	qhAt, scAt, dAt := columnsAt(n, k)
	col0 := r*(k/16) + 16*b
	le := binary.LittleEndian
	for s := range 16 {
		ql, qh, u := columnSource(s)
		lo, hi := le.Uint64(blk[ql:]), le.Uint64(blk[ql+8:])
		shift := 4 * uint(u>>1)
		le.PutUint64(out[8*(col0+s):], lo>>shift&lowNibbles|(hi>>shift&lowNibbles)<<4)
		h := blk[qh : qh+16]
		t := func(j int) uint32 { return le.Uint32(h[4*j:]) >> (2 * uint(u)) & twoBits }
		le.PutUint32(out[qhAt+4*(col0+s):], t(1)|t(3)<<2|t(0)<<4|t(2)<<6)
	}
	copy(out[scAt+col0:][:16], blk[192:208])
	copy(out[dAt+2*(r*(k/256)+b):][:2], blk[208:210])
}

// columnsBlock rebuilds q6_k block b of row r of the Q6_KC16 weight data
// in blk (210 bytes): blockColumns backwards, each column's bits ORed
// into the bytes it came from.
func columnsBlock(blk, data []byte, n, k, r, b int) {
	qhAt, scAt, dAt := columnsAt(n, k)
	col0 := r*(k/16) + 16*b
	le := binary.LittleEndian
	clear(blk[:192])
	for s := range 16 {
		ql, qh, u := columnSource(s)
		w := le.Uint64(data[8*(col0+s):])
		shift := 4 * uint(u>>1)
		le.PutUint64(blk[ql:], le.Uint64(blk[ql:])|(w&lowNibbles)<<shift)
		le.PutUint64(blk[ql+8:], le.Uint64(blk[ql+8:])|(w>>4&lowNibbles)<<shift)
		q := le.Uint32(data[qhAt+4*(col0+s):])
		for j, t := range [4]uint32{q >> 4, q, q >> 6, q >> 2} {
			at := qh + 4*j
			le.PutUint32(blk[at:], le.Uint32(blk[at:])|(t&twoBits)<<(2*uint(u)))
		}
	}
	copy(blk[192:208], data[scAt+col0:][:16])
	copy(blk[208:210], data[dAt+2*(r*(k/256)+b):][:2])
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

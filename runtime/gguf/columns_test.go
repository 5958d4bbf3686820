package gguf

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestColumnsLayout places known codes in a q6_k weight [2, 512] and reads
// the Q6_KC16 bytes back at the offsets columns.go documents.
func TestColumnsLayout(t *testing.T) {
	const n, k = 2, 512
	src := make([]byte, n*(k/256)*210)
	// Row 1, block 1: the block's weight 0 (column 32 of the row, its code
	// 0x21 ⇒ low nibble 1, top bits 2), weight 9 (0x3c) and weight 14 (0x15).
	blk := src[(1*2+1)*210:][:210]
	// Weight e < 32 of half 0: ql[e] low nibble, qh[e] bits 0-1.
	blk[0], blk[128] = 0x01, 0x02
	blk[9], blk[128+9] = 0x0c, 0x03
	blk[14], blk[128+14] = 0x05, 0x01
	blk[192] = 0xf9                 // column 32's scale, int8 −7
	blk[192+15] = 0x11              // the block's last column's scale
	blk[208], blk[209] = 0x00, 0x3c // d = 1
	got, err := Convert(src, Q6_K, Q6_KC16, n, k)
	if err != nil {
		t.Fatal(err)
	}
	const cols = k / 16
	col := 1*cols + 16 + 0 // row 1, block 1's first column
	qhAt, scAt, dAt := n*k/2, n*k*3/4, n*k*13/16
	// ql byte j: q[j] | q[8+j]<<4 (low nibbles); q[0] = 0x21, q[9] = 0x3c.
	if ql := got[8*col : 8*col+8]; ql[0] != 0x01 || ql[1] != 0xc0 || ql[6] != 0x50 { // q[14] = 0x15: 5 in ql[6]'s high nibble
		t.Errorf("ql of column %d = % x", col, ql)
	}
	// qh byte b: q[4+b]>>4 | q[12+b]>>4<<2 | q[b]>>4<<4 | q[8+b]>>4<<6.
	// q[0]>>4 = 2 → byte 0 bits 4-5; q[9]>>4 = 3 → byte 1 bits 6-7;
	// q[14]>>4 = 1 → byte 2 bits 2-3.
	if qh := got[qhAt+4*col : qhAt+4*col+4]; qh[0] != 0x20 || qh[1] != 0xc0 || qh[2] != 0x04 || qh[3] != 0 {
		t.Errorf("qh of column %d = % x", col, qh)
	}
	if got[scAt+col] != 0xf9 || got[scAt+col+15] != 0x11 {
		t.Errorf("scales of columns %d, %d = %#x, %#x", col, col+15, got[scAt+col], got[scAt+col+15])
	}
	if d := got[dAt+2*(1*2+1):][:2]; d[0] != 0x00 || d[1] != 0x3c {
		t.Errorf("d of row 1, block 1 = % x", d)
	}
	w, err := Dequantize(Q6_KC16, got, n, k)
	if err != nil {
		t.Fatal(err)
	}
	at := 1*k + 256
	if w[at] != -7*float32(0x21-32) || w[at+9] != -7*float32(0x3c-32) || w[at+14] != -7*float32(0x15-32) {
		t.Errorf("decoded weights %g, %g, %g", w[at], w[at+9], w[at+14])
	}
}

// TestColumnsRoundTrip converts arbitrary q6_k bytes to Q6_KC16 and back:
// the same bytes, and the same decoded bits, row by row and whole.
func TestColumnsRoundTrip(t *testing.T) {
	for _, sh := range [][2]int{{1, 256}, {3, 768}, {5, 2304}, {0, 512}} {
		n, k := sh[0], sh[1]
		src := randomBytes(n*(k/256)*210, uint32(n*7919+k))
		c, err := Convert(src, Q6_K, Q6_KC16, n, k)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Convert(c, Q6_KC16, Q6_K, n, k)
		if err != nil || !bytes.Equal(back, src) {
			t.Fatalf("[%d, %d]: round trip differs (%v)", n, k, err)
		}
		want, _ := Dequantize(Q6_K, src, n, k)
		got, err := Dequantize(Q6_KC16, c, n, k)
		if err != nil {
			t.Fatal(err)
		}
		row := make([]float32, k)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("[%d, %d]: weight %d is %g, want %g", n, k, i, got[i], want[i])
			}
			if i%k == k-1 {
				r := i / k
				DequantizeMatrixRow(Q6_KC16, row, c, n, k, r)
				for j := range row {
					if math.Float32bits(row[j]) != math.Float32bits(want[r*k+j]) {
						t.Fatalf("[%d, %d]: row %d weight %d is %g, want %g", n, k, r, j, row[j], want[r*k+j])
					}
				}
			}
		}
	}
}

// TestColumnsWords checks Convert's word-at-a-time rearrangement (both
// ways) byte for byte against the code-by-code one it replaced
// (refColumns, refBlock below), on random bytes at shapes small and
// large enough to run on two goroutines where GOMAXPROCS allows (520×4096
// is two million weights; inRows takes one goroutine a million).
func TestColumnsWords(t *testing.T) {
	for _, sh := range [][2]int{{1, 256}, {3, 768}, {7, 4096}, {520, 4096}} {
		n, k := sh[0], sh[1]
		src := randomBytes(n*(k/256)*210, uint32(n*31+k))
		want := make([]byte, len(src))
		var q [256]uint8
		for r := range n {
			for b := range k / 256 {
				blk := src[(r*(k/256)+b)*210:][:210]
				refCodes(&q, blk)
				refColumns(want, n, k, r, b, &q, blk[192:208], blk[208:210])
			}
		}
		got, err := Convert(src, Q6_K, Q6_KC16, n, k)
		if err != nil {
			t.Fatal(err)
		}
		if i := firstDiff(got, want); i >= 0 {
			t.Fatalf("[%d, %d] to q6_k_c16: byte %d is %#x, want %#x", n, k, i, got[i], want[i])
		}
		// Backwards from arbitrary column bytes (not only ones Convert
		// wrote), against the code-by-code rebuild.
		want = make([]byte, len(src))
		for r := range n {
			for b := range k / 256 {
				refBlock(want[(r*(k/256)+b)*210:][:210], src, n, k, r, b)
			}
		}
		got, err = Convert(src, Q6_KC16, Q6_K, n, k)
		if err != nil {
			t.Fatal(err)
		}
		if i := firstDiff(got, want); i >= 0 {
			t.Fatalf("[%d, %d] to q6_k: byte %d is %#x, want %#x", n, k, i, got[i], want[i])
		}
	}
}

// randomBytes returns n bytes of a linear congruential sequence from seed.
func randomBytes(n int, seed uint32) []byte {
	b := make([]byte, n)
	for i := range b {
		seed = seed*1664525 + 1013904223
		b[i] = byte(seed >> 24)
	}
	return b
}

func firstDiff(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// refCodes writes the 6-bit codes of a q6_k block's 256 weights into q
// (dequantQ6_K's layout: weight 128h + 32u + l, u = 0..3, takes the low
// nibble of ql[64h + l] (u = 0), of ql[64h + 32 + l] (1), or their high
// nibbles (2, 3), with bits 2u, 2u+1 of qh[32h + l] on top).
func refCodes(q *[256]uint8, blk []byte) {
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

// refColumns writes block b of row r (codes q, 16 scales, d's two bytes)
// into the Q6_KC16 weight out.
func refColumns(out []byte, n, k, r, b int, q *[256]uint8, scales, d []byte) {
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

// refBlock rebuilds q6_k block b of row r of the Q6_KC16 weight data
// in blk (210 bytes).
func refBlock(blk, data []byte, n, k, r, b int) {
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

func TestColumnsFormat(t *testing.T) {
	f, err := ParseFormat("q6_k_c16")
	if err != nil || f != Q6_KC16 || f.Storage() != Q6_K || f.RowMajor() || !Q6_K.RowMajor() || Q4_0.Storage() != Q4_0 {
		t.Errorf("q6_k_c16: %v %v storage %v", f, err, f.Storage())
	}
	if _, err := ParseFormat("q8_1"); err == nil || !strings.Contains(err.Error(), "q6_k_c16") {
		t.Errorf("ParseFormat(q8_1): %v", err)
	}
	if _, err := Convert(make([]byte, 18), Q4_0, Q6_KC16, 1, 32); err == nil || !strings.Contains(err.Error(), "different blocks") {
		t.Errorf("Convert q4_0 to q6_k_c16: %v", err)
	}
	if _, err := Convert(make([]byte, 209), Q6_K, Q6_KC16, 1, 256); err == nil {
		t.Error("Convert of a short weight succeeded")
	}
	if err := ConvertTo(make([]byte, 209), make([]byte, 210), Q6_K, Q6_KC16, 1, 256); err == nil || !strings.Contains(err.Error(), "210 bytes into 209") {
		t.Errorf("ConvertTo a short buffer: %v", err)
	}
	q, err := Quantize(Q6_KC16, make([]float32, 512), 2, 256)
	if err != nil || len(q) != 420 {
		t.Errorf("Quantize q6_k_c16: %d bytes, %v", len(q), err)
	}
	defer func() {
		if recover() == nil {
			t.Error("DequantizeRow of a q6_k_c16 row did not panic")
		}
	}()
	DequantizeRow(Q6_KC16, make([]float32, 256), make([]byte, 210))
}

// FuzzColumns: any q6_k bytes convert to Q6_KC16 and back unchanged.
func FuzzColumns(f *testing.F) {
	f.Add(uint8(1), uint8(1), make([]byte, 210))
	f.Fuzz(func(t *testing.T, n8, blocks uint8, data []byte) {
		n, k := int(n8%4), 256*int(blocks%4)
		c, err := Convert(data, Q6_K, Q6_KC16, n, k)
		if err != nil {
			return
		}
		back, err := Convert(c, Q6_KC16, Q6_K, n, k)
		if err != nil || !bytes.Equal(back, data) {
			t.Fatalf("[%d, %d]: round trip differs (%v)", n, k, err)
		}
	})
}

// ExampleConvert rearranges a q6_k weight [2, 512] into q6_k_c16's
// columns: the same bytes in other places, decoding to the same weights.
func ExampleConvert() {
	w := make([]float32, 2*512)
	for i := range w {
		w[i] = float32(i%29-14) / 32
	}
	q6, _ := Quantize(Q6_K, w, 2, 512)
	cols, err := Convert(q6, Q6_K, Q6_KC16, 2, 512)
	if err != nil {
		fmt.Println(err)
		return
	}
	a, _ := Dequantize(Q6_K, q6, 2, 512)
	b, _ := Dequantize(Q6_KC16, cols, 2, 512)
	fmt.Println(len(q6), len(cols), bytes.Equal(q6, cols), slices.Equal(a, b))
	// Output: 840 840 false true
}

// BenchmarkConvert times rearranging a q6_k weight of a real shape
// (14336×4096, 48 MB, as a 7–8B model's ffn_down) into Q6_KC16 and back:
// the cost a binder pays at load for each such projection
// (rlx-import --q6k-columns).
func BenchmarkConvert(b *testing.B) {
	n, k := 4096, 14336
	src := randomBytes(n*(k/256)*210, 1)
	c, err := Convert(src, Q6_K, Q6_KC16, n, k)
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		data     []byte
		from, to Format
	}{{"to_c16", src, Q6_K, Q6_KC16}, {"to_q6_k", c, Q6_KC16, Q6_K}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.data)))
			for b.Loop() {
				if _, err := Convert(tc.data, tc.from, tc.to, n, k); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

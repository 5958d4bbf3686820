package gguf

import (
	"bytes"
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
		src := make([]byte, n*(k/256)*210)
		s := uint32(n*7919 + k)
		for i := range src {
			s = s*1664525 + 1013904223
			src[i] = byte(s >> 24)
		}
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

func TestColumnsFormat(t *testing.T) {
	f, err := ParseFormat("q6_k_c16")
	if err != nil || f != Q6_KC16 || f.Storage() != Q6_K || f.RowMajor() || !Q6_K.RowMajor() || Q4_0.Storage() != Q4_0 {
		t.Errorf("q6_k_c16: %v %v storage %v", f, err, f.Storage())
	}
	if _, err := ParseFormat("q5_k"); err == nil || !strings.Contains(err.Error(), "q6_k_c16") {
		t.Errorf("ParseFormat(q5_k): %v", err)
	}
	if _, err := Convert(make([]byte, 18), Q4_0, Q6_KC16, 1, 32); err == nil || !strings.Contains(err.Error(), "different blocks") {
		t.Errorf("Convert q4_0 to q6_k_c16: %v", err)
	}
	if _, err := Convert(make([]byte, 209), Q6_K, Q6_KC16, 1, 256); err == nil {
		t.Error("Convert of a short weight succeeded")
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

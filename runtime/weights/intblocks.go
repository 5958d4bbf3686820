package weights

import (
	"encoding/binary"
	"math"
	"runtime"
	"sync"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// intMatrix is an int-quantised [rows, cols] matrix as the quantised
// checkpoint formats store one (compressed-tensors, GPTQ, AWQ): unsigned
// values u of bits bits (a signed format's q + 2^(bits−1)) and a grid of
// scales and zero points (in the same unsigned frame), element (i, j)
// standing for (u − zero)·scale of its cell.
type intMatrix struct {
	rows, cols, bits int
	// cell is the grid cell of element (i, j).
	cell func(i, j int) int
	// runs: each row's 32-column runs lie in one cell each.
	runs bool
}

// blockFormat is the gguf format that holds m's values exactly with the
// given scales and zero points: q8_0 or q4_0 where every zero point is
// the middle of the range, 2^(bits−1) (u − zero in [−2^(bits−1),
// 2^(bits−1))), q5_0 for 4 bits where u − zero lies in [−16, 15] (zero
// points from 0 to 16; q4_1 would need the offset −zero·scale as an f16
// as well, which a bf16 scale's 8 bits times a zero point's 4 rarely
// are), each block's scale an f16 exactly. 0 where none does: the
// matrix is read as BF16.
func (m intMatrix) blockFormat(scales, zeros []float32) gguf.Format {
	if !m.runs || m.cols%32 != 0 || (m.bits != 4 && m.bits != 8) {
		return 0
	}
	for _, s := range scales {
		if _, ok := exactF16(float64(s)); !ok {
			return 0
		}
	}
	mid := float32(int(1) << (m.bits - 1))
	zlo, zhi := float32(math.Inf(1)), float32(math.Inf(-1))
	for _, z := range zeros {
		zlo, zhi = min(zlo, z), max(zhi, z)
	}
	switch {
	case zlo == mid && zhi == mid && m.bits == 8:
		return gguf.Q8_0
	case zlo == mid && zhi == mid:
		return gguf.Q4_0
	case m.bits == 4 && zlo >= 0 && zhi <= 16: // zero points are whole: fields of the file
		return gguf.Q5_0
	}
	return 0
}

// exactF16 is v's f16 bits, and whether they hold v exactly.
func exactF16(v float64) (uint16, bool) {
	if v != float64(float32(v)) {
		return 0, false
	}
	h := tensor.F32ToF16Bits(float32(v))
	return h, float64(tensor.F16BitsToF32(h)) == v
}

// pack lays u [rows, cols] out in format f (blockFormat's), each 32
// columns of a row one block with its cell's scale: q8_0's values u −
// zero, q4_0's u − zero + 8, q5_0's u − zero + 16.
func (m intMatrix) pack(f gguf.Format, u []uint8, scales, zeros []float32) []byte {
	half := make([]uint16, len(scales))
	for c, s := range scales {
		half[c], _ = exactF16(float64(s))
	}
	bb := f.BlockBytes()
	out := make([]byte, m.rows*m.cols/32*bb)
	inParallel(m.rows, func(i int) {
		for b := range m.cols / 32 {
			blk := out[(i*m.cols/32+b)*bb:][:bb]
			c := m.cell(i, 32*b)
			binary.LittleEndian.PutUint16(blk, half[c])
			row := u[i*m.cols+32*b:][:32]
			z := int(zeros[c])
			switch f {
			case gguf.Q8_0:
				for t, v := range row {
					blk[2+t] = byte(int(v) - z)
				}
			case gguf.Q4_0:
				for t := range 16 {
					blk[2+t] = byte(int(row[t])-z+8) | byte(int(row[t+16])-z+8)<<4
				}
			case gguf.Q5_0:
				var qh uint32
				for t, v := range row {
					x := uint32(int(v) - z + 16)
					qh |= x >> 4 << t
					blk[6+t%16] |= byte(x&0xF) << (4 * (t / 16))
				}
				binary.LittleEndian.PutUint32(blk[2:], qh)
			}
		}
	})
	return out
}

// bf16 is u [rows, cols] as little-endian bf16, (u − zero)·scale in f32
// rounded.
func (m intMatrix) bf16(u []uint8, scales, zeros []float32) []byte {
	out := make([]byte, 2*m.rows*m.cols)
	inParallel(m.rows, func(i int) {
		for j := range m.cols {
			c := m.cell(i, j)
			v := (float32(u[i*m.cols+j]) - zeros[c]) * scales[c]
			binary.LittleEndian.PutUint16(out[2*(i*m.cols+j):], tensor.F32ToBF16Bits(v))
		}
	})
	return out
}

// inParallel calls f(0), …, f(n − 1), spread over GOMAXPROCS goroutines
// in contiguous ranges; each f must touch only its own part of the
// output. A matrix of a large checkpoint is unpacked at load time, where
// a Mac's cores would otherwise wait on one.
func inParallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w * n / workers; i < (w+1)*n/workers; i++ {
				f(i)
			}
		}()
	}
	wg.Wait()
}

package cuda

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Init says how a job buffer starts.
type Init uint8

const (
	Poison Init = iota // 0xff bytes (left uninitialised in the runner's exact mode)
	Data               // the buffer's Data
	Zero               // zeros (the status word)
	Random             // Fill(Elem, Size, Seed), made on the device
)

// Elem is the element code of a job buffer: what Random fills it with.
type Elem uint8

const (
	F32 Elem = iota
	F16
	BF16
	I32
	I64
	I8
	I1
	UI8
	U32
	Q4_0 // GGUF blocks, with finite scales
	Q8_0
	Q4_K
	Q6_K
	Q6_KC16 // q6_k's bytes in columns (runtime/gguf's Q6_KC16): its d array, the last 2/210 of the bytes, is the scales
	Q5_K
	Q2_K
	Q3_K
	Q4_1
	Q5_0
	Q5_1
	IQ4_NL
	IQ4_XS
	MXFP4

	// LastElem is the last element code (the fill checks walk them all).
	LastElem = MXFP4
)

// quantElems names the GGUF formats of the codes from Q4_0 on, in order
// (graph.dequant_matmul's spelling, runtime/gguf's ParseFormat).
var quantElems = [...]string{"q4_0", "q8_0", "q4_k", "q6_k", "q6_k_c16", "q5_k", "q2_k", "q3_k", "q4_1", "q5_0", "q5_1", "iq4_nl", "iq4_xs", "mxfp4"}

// ElemOf returns the element code of a manifest tensor type
// ("tensor<4x8xf16>"); quant names the GGUF format of a packed ui8 weight
// ("" for none).
func ElemOf(typ, quant string) (Elem, error) {
	if quant != "" {
		for e, name := range quantElems {
			if name == quant {
				return Q4_0 + Elem(e), nil
			}
		}
		return 0, fmt.Errorf("no element code for format %q", quant)
	}
	i := strings.LastIndexAny(typ, "x<")
	e := strings.TrimSuffix(typ[i+1:], ">")
	switch e {
	case "f32":
		return F32, nil
	case "f16":
		return F16, nil
	case "bf16":
		return BF16, nil
	case "i32":
		return I32, nil
	case "i64":
		return I64, nil
	case "i8":
		return I8, nil
	case "i1":
		return I1, nil
	case "ui8":
		return UI8, nil
	case "ui32", "u32":
		return U32, nil
	}
	return 0, fmt.Errorf("no element code for %q", typ)
}

// Buffer is one buffer of a job.
type Buffer struct {
	Size int64
	Init Init
	Elem Elem
	Seed uint32 // Random
	Data []byte // Data: Size bytes
}

// Dispatch is one kernel launch; Buffers[i] is the job buffer bound at
// index i.
type Dispatch struct {
	Kernel            string
	Grid, Threadgroup [3]int
	ThreadgroupMemory int
	Buffers           []int
}

// Job is a named set of buffers and the dispatches that run over them.
type Job struct {
	Name       string
	Buffers    []Buffer
	Dispatches []Dispatch
}

// WriteJobs writes jobs in the job-file format of shim/rlx_cuda_runtime.cu;
// kernels is the launch table's order (Sources.Kernels).
func WriteJobs(w io.Writer, jobs []*Job, kernels []string) error {
	index := map[string]int{}
	for i, k := range kernels {
		index[k] = i
	}
	bw := bufio.NewWriter(w)
	le := binary.LittleEndian
	u32 := func(v int) { bw.Write(le.AppendUint32(nil, uint32(v))) }
	u64 := func(v int64) { bw.Write(le.AppendUint64(nil, uint64(v))) }
	bw.WriteString("RLXCUJ1\n")
	u32(len(jobs))
	for _, j := range jobs {
		u32(len(j.Name))
		bw.WriteString(j.Name)
		u32(len(j.Buffers))
		for _, b := range j.Buffers {
			u64(b.Size)
			bw.WriteByte(byte(b.Init))
			bw.WriteByte(byte(b.Elem))
			if b.Init == Random {
				u32(int(b.Seed))
			}
			if b.Init == Data {
				if int64(len(b.Data)) != b.Size {
					return fmt.Errorf("job %s: buffer of %d bytes holds %d", j.Name, b.Size, len(b.Data))
				}
				bw.Write(b.Data)
			}
		}
		u32(len(j.Dispatches))
		for _, d := range j.Dispatches {
			k, ok := index[d.Kernel]
			if !ok {
				return fmt.Errorf("job %s: kernel %s is not in the table", j.Name, d.Kernel)
			}
			u32(k)
			for _, v := range d.Grid {
				u32(v)
			}
			for _, v := range d.Threadgroup {
				u32(v)
			}
			u64(int64(d.ThreadgroupMemory))
			u32(len(d.Buffers))
			for _, id := range d.Buffers {
				u32(id)
			}
		}
	}
	return bw.Flush()
}

// hash is the counter-based generator of Fill (rlx_hash in
// shim/rlx_cuda_runtime.cu computes the same): SplitMix64's finaliser of
// i·φ + seed, bits 16 to 47.
func hash(i uint64, seed uint32) uint32 {
	z := i*0x9e3779b97f4a7c15 + uint64(seed)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return uint32((z ^ (z >> 31)) >> 16)
}

// uniform is hash's value as a float in [-1, 1).
func uniform(h uint32) float32 { return float32(h>>8)*(2.0/16777216.0) - 1 }

// quantBlocks gives a row-major GGUF format's block size and the offsets
// of its f16 scales in a block (gguf.ScaleOffsets of one block: d, and
// dmin or m where the format has one); 0 for other codes.
func quantBlocks(e Elem) (bytes int, scales []int) {
	if e < Q4_0 || e > LastElem {
		return 0, nil
	}
	f, err := gguf.ParseFormat(quantElems[e-Q4_0])
	if err != nil || !f.RowMajor() {
		return 0, nil
	}
	return f.BlockBytes(), slices.Collect(gguf.ScaleOffsets(f, 1, f.BlockSize()))
}

// Fill returns the bytes a Random buffer starts with; the runtime's
// rlx_fill_random makes the same on the device, so that a reference
// computed here from Fill's bytes checks a run there. Floats are uniform
// in [-1, 1) (rounded to nearest even for f16 and bf16), integers in
// [0, 1024) (valid gather indices for the tables the suites use), booleans
// 0 or 1, bytes anything; GGUF blocks are random bytes with every f16
// scale set to uniform/64, finite (mxfp4's E8M0 exponent byte to 122 to
// 125: 2^-6 to 2^-3).
func Fill(e Elem, size int64, seed uint32) []byte {
	out := make([]byte, size)
	le := binary.LittleEndian
	switch e {
	case F32:
		for i := int64(0); i+4 <= size; i += 4 {
			le.PutUint32(out[i:], math.Float32bits(uniform(hash(uint64(i/4), seed))))
		}
	case F16:
		for i := int64(0); i+2 <= size; i += 2 {
			le.PutUint16(out[i:], tensor.F32ToF16Bits(uniform(hash(uint64(i/2), seed))))
		}
	case BF16:
		for i := int64(0); i+2 <= size; i += 2 {
			le.PutUint16(out[i:], tensor.F32ToBF16Bits(uniform(hash(uint64(i/2), seed))))
		}
	case I32, U32:
		for i := int64(0); i+4 <= size; i += 4 {
			le.PutUint32(out[i:], hash(uint64(i/4), seed)%1024)
		}
	case I64:
		for i := int64(0); i+8 <= size; i += 8 {
			le.PutUint64(out[i:], uint64(hash(uint64(i/8), seed)%1024))
		}
	case I1:
		for i := range out {
			out[i] = byte(hash(uint64(i), seed) & 1)
		}
	default:
		for i := range out {
			out[i] = byte(hash(uint64(i), seed))
		}
		// scale k of block b, an f16 at out[at:].
		scale := func(at, b int64, k int) {
			h := hash(uint64(b)*2+uint64(k), seed^0x51ca1e)
			le.PutUint16(out[at:], tensor.F32ToF16Bits(uniform(h)/64))
		}
		if e == Q6_KC16 {
			// The d array: the last size/105 bytes, f16 scales of
			// 2 bytes, scale b drawn as block b's d would be.
			at := size - size/105
			for b := int64(0); at+2*b+2 <= size; b++ {
				scale(at+2*b, b, 0)
			}
			break
		}
		bs, scales := quantBlocks(e)
		for b := int64(0); bs > 0 && (b+1)*int64(bs) <= size; b++ {
			for k, off := range scales {
				scale(b*int64(bs)+int64(off), b, k)
			}
			if e == MXFP4 {
				// Its E8M0 exponent: 2^-6 to 2^-3, so that no sum of
				// products overflows.
				out[b*int64(bs)] = byte(122 + hash(uint64(b)*2, seed^0x51ca1e)%4)
			}
		}
	}
	return out
}

package ref

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/rlx-compiler/rlx/internal/outfile"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Spec describes a tensor the caller supplies: a weight (graph.param) or a
// function argument.
type Spec struct {
	// Name is the weight's name, or "arg<i>" for argument i.
	Name string
	// Type is the IR type; dynamic dims are -1.
	Type TensorType
	// Quant is set for a ui8 weight that a graph.dequant_matmul reads as
	// its packed weight: the format and logical [N, K] shape.
	Quant *QuantUse
	// IndexBound, when positive, is the smallest size of a table axis the
	// value indexes as graph.gather indices.
	IndexBound int
}

// QuantUse is how a graph.dequant_matmul reads a packed weight.
type QuantUse struct {
	Format gguf.Format
	N, K   int
	// Stacked: the dequant_matmul reads the weight through graph.reshape,
	// graph.gather and graph.slice that select whole [N, K] matrices (an
	// MoE block's expert stack), so the weight holds one or more of them,
	// each packed on its own.
	Stacked bool
	// Partial: some gather or slice on the way selects less than whole
	// matrices; the weight's blocks can be neither generated nor
	// rearranged matrix by matrix.
	Partial bool
}

// Matrices returns how many packed [N, K] matrices a weight of size bytes
// holds as q reads it, or an error: one matrix's bytes unless q is
// Stacked, then a whole positive number of them.
func (q QuantUse) Matrices(size int) (int, error) {
	per, err := gguf.ByteCount(q.Format, q.N, q.K)
	if err != nil {
		return 0, err
	}
	switch {
	case q.Partial:
		return 0, fmt.Errorf("it is read as %v [%d, %d] through a gather or slice that cuts inside a matrix", q.Format, q.N, q.K)
	case size == per:
		return 1, nil
	case q.Stacked && per > 0 && size > 0 && size%per == 0:
		return size / per, nil
	case q.Stacked:
		return 0, fmt.Errorf("%d bytes, not a whole number of %v [%d, %d] matrices of %d bytes", size, q.Format, q.N, q.K, per)
	}
	return 0, fmt.Errorf("%d bytes, but a %v [%d, %d] weight needs %d", size, q.Format, q.N, q.K, per)
}

// Weights binds graph.param ops to tensors. The interpreter asks for a
// weight each time a graph.param op runs and checks the tensor against
// the param's type, so a source may generate weights on demand.
type Weights interface {
	Weight(s Spec) (*tensor.Tensor, error)
}

// TensorWeights are weights held in memory, by name.
type TensorWeights struct {
	Tensors map[string]*tensor.Tensor
	// Source names where the tensors came from, for error messages
	// (e.g. the safetensors file).
	Source string
	// Packed, where set, is the block format of the packed (ui8) tensors
	// it names. A dequant_matmul that reads one in another format storing
	// the same blocks (q6_k and q6_k_c16) gets it rearranged
	// (gguf.Convert), as the weights binder does for a checkpoint;
	// Materialize sets it.
	Packed map[string]gguf.Format

	mu        sync.Mutex
	converted map[convertKey]*tensor.Tensor // rearranged tensors
}

// convertKey names a rearranged tensor: a weight and the use it was
// rearranged for.
type convertKey struct {
	name string
	use  QuantUse
}

// Weight returns the tensor named s.Name after checking its type, its
// packed blocks rearranged where Packed and s.Quant ask for it.
func (w *TensorWeights) Weight(s Spec) (*tensor.Tensor, error) {
	t, ok := w.Tensors[s.Name]
	if !ok {
		return nil, fmt.Errorf("no weight named %q%s", s.Name, w.in())
	}
	if !s.Type.Matches(t) {
		return nil, fmt.Errorf("weight %q is %s%s, expected %v", s.Name, t.Type(), w.in(), s.Type)
	}
	f, ok := w.Packed[s.Name]
	if q := s.Quant; ok && q != nil && q.Format != f {
		return w.convert(t, s.Name, f, *q)
	}
	return t, nil
}

// convert returns t (packed as f) rearranged for q, once per name and
// use: a decode loop asks for its weights every step.
func (w *TensorWeights) convert(t *tensor.Tensor, name string, f gguf.Format, q QuantUse) (*tensor.Tensor, error) {
	key := convertKey{name, q}
	w.mu.Lock()
	defer w.mu.Unlock()
	if c, ok := w.converted[key]; ok {
		return c, nil
	}
	c, err := ConvertPacked(t, f, q, name, w.in())
	if err != nil {
		return nil, err
	}
	if w.converted == nil {
		w.converted = map[convertKey]*tensor.Tensor{}
	}
	w.converted[key] = c
	return c, nil
}

// ConvertPacked returns the packed weight t, stored as f, in the format
// q reads it in: rearranged when the two store the same blocks (q6_k and
// q6_k_c16, gguf.Convert), an error otherwise, since the blocks would
// decode to other values. Errors name the weight and, where it is not
// "", where it came from (" in FILE").
func ConvertPacked(t *tensor.Tensor, f gguf.Format, q QuantUse, name, where string) (*tensor.Tensor, error) {
	if f.Storage() != q.Format.Storage() {
		return nil, fmt.Errorf("weight %q is %v%s; the graph reads it as %v", name, f, where, q.Format)
	}
	src := t.Bytes()
	count, err := q.Matrices(len(src))
	if err != nil {
		return nil, fmt.Errorf("weight %q%s: %v", name, where, err)
	}
	per := len(src) / count
	out := make([]byte, len(src))
	for m := range count {
		part := src[m*per : (m+1)*per]
		if err := gguf.ConvertTo(out[m*per:(m+1)*per], part, f, q.Format, q.N, q.K); err != nil {
			return nil, fmt.Errorf("weight %q%s: %v", name, where, err)
		}
	}
	return tensor.FromBytes(t.Shape(), out)
}

func (w *TensorWeights) in() string {
	if w.Source == "" {
		return ""
	}
	return " in " + w.Source
}

// ReadWeights reads a safetensors file (dtypes F32, F16, BF16, U8, I32, I64,
// BOOL, I8; U8 tensors become ui8, which is how packed GGUF weights are
// stored).
func ReadWeights(path string) (*TensorWeights, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := tensor.ReadSafetensors(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &TensorWeights{Tensors: st.Tensors, Source: path}, nil
}

// WriteWeights writes w as a safetensors file. The file is written beside
// path and renamed over it when complete, so a failed write leaves path as
// it was.
func WriteWeights(path string, w *TensorWeights) error {
	return outfile.WriteWith(path, func(f io.Writer) error {
		return tensor.WriteSafetensors(f, &tensor.Safetensors{Tensors: w.Tensors})
	})
}

// Seeded returns weights generated from seed (see SeededTensor). Each
// weight is generated when its graph.param runs and dropped after its last
// use, so memory stays near the live tensors; use Materialize to generate
// them once for many runs.
func Seeded(seed uint64) Weights { return seeded(seed) }

type seeded uint64

func (s seeded) Weight(spec Spec) (*tensor.Tensor, error) {
	return SeededTensor(uint64(s), 'w', spec)
}

// SeededInputs returns one seeded tensor per function argument (see
// SeededTensor, kind 'i', names "arg0", "arg1", …). With several programs,
// which must have the same argument types, an integer argument used as
// gather indices stays below the smallest bound any of them needs.
func SeededInputs(seed uint64, progs ...*Program) ([]*tensor.Tensor, error) {
	if len(progs) == 0 {
		return nil, nil
	}
	args := append([]Spec(nil), progs[0].args...)
	for _, p := range progs[1:] {
		if len(p.args) != len(args) {
			return nil, fmt.Errorf("%s takes %d arguments, %s %d", progs[0].where(), len(args), p.where(), len(p.args))
		}
		for i, a := range p.args {
			if a.Type.String() != args[i].Type.String() {
				return nil, fmt.Errorf("argument #%d is %v in %s but %v in %s", i, args[i].Type, progs[0].where(), a.Type, p.where())
			}
			if a.IndexBound > 0 && (args[i].IndexBound == 0 || a.IndexBound < args[i].IndexBound) {
				args[i].IndexBound = a.IndexBound
			}
		}
	}
	out := make([]*tensor.Tensor, len(args))
	for i, a := range args {
		t, err := SeededTensor(seed, 'i', a)
		if err != nil {
			return nil, fmt.Errorf("argument #%d: %v", i, err)
		}
		out[i] = t
	}
	return out, nil
}

// Materialize generates or loads every weight that the programs read,
// once, and returns them in memory. When several programs read a weight,
// their specs are merged (the first known dequant_matmul consumer, the
// smallest gather bound), so programs compared with each other see the
// same tensors; a packed one goes to a program that reads its blocks in
// another layout (q6_k and q6_k_c16) rearranged (Packed).
func Materialize(w Weights, progs ...*Program) (*TensorWeights, error) {
	specs := map[string]Spec{}
	var names []string
	for _, p := range progs {
		for _, s := range p.params {
			old, ok := specs[s.Name]
			if !ok {
				names = append(names, s.Name)
				specs[s.Name] = s
				continue
			}
			if old.Quant == nil {
				old.Quant = s.Quant
			}
			if s.IndexBound > 0 && (old.IndexBound == 0 || s.IndexBound < old.IndexBound) {
				old.IndexBound = s.IndexBound
			}
			specs[s.Name] = old
		}
	}
	sort.Strings(names)
	out := &TensorWeights{Tensors: make(map[string]*tensor.Tensor, len(names)), Packed: map[string]gguf.Format{}}
	for _, n := range names {
		t, err := w.Weight(specs[n])
		if err != nil {
			return nil, err
		}
		out.Tensors[n] = t
		if q := specs[n].Quant; q != nil {
			out.Packed[n] = q.Format
		}
	}
	return out, nil
}

// StreamSeed returns the seed of the generator stream of one tensor: the
// FNV-1a 64 hash of seed (8 bytes, little-endian), the kind byte ('w' for
// weights, 'i' for inputs) and the name. Each tensor has its own stream, so
// adding a weight or input never changes the others.
func StreamSeed(seed uint64, kind byte, name string) uint64 {
	h := fnv.New64a()
	var b [9]byte
	binary.LittleEndian.PutUint64(b[:8], seed)
	b[8] = kind
	h.Write(b[:])
	h.Write([]byte(name))
	return h.Sum64()
}

// SeededTensor generates the tensor described by s from the stream
// StreamSeed(seed, kind, s.Name), with tensor.RNG:
//
//   - floating-point inputs ('i'), and weights of rank ≤ 1: Uniform in [−1, 1];
//   - floating-point weights of rank r ≥ 2: Uniform in [−b, b] with
//     b = 1/√(dim r−2), the contracted dim of a matmul's right operand, so
//     activations keep their scale through deep graphs;
//   - integers read as gather indices: Ints in [0, IndexBound); i1: {0, 1};
//     other integers: Ints in [1, 16) (never 0, so integer division works);
//   - ui8 packed weights read by a dequant_matmul: an f32 [N, K] matrix
//     Uniform in [−1/√K, 1/√K], encoded by gguf.Quantize in the consumer's
//     format, so every block is valid (a stack of such matrices, each
//     encoded on its own, when read through whole-matrix selections,
//     QuantUse.Stacked);
//   - ui8 inputs a dequant_matmul reads, and weights it reads through a
//     gather or slice that cuts a matrix (QuantUse.Partial): uniform
//     bytes, any block a caller might feed (f16 scales up to ±65504),
//     with every f16 scale made finite where the bytes are whole
//     matrices or whole blocks (gguf.FiniteScales: a non-finite scale's
//     result is NaN or ±Inf as a kernel factors it, not a value to
//     compare);
//   - other ui8 tensors: uniform bytes.
func SeededTensor(seed uint64, kind byte, s Spec) (*tensor.Tensor, error) {
	if !s.Type.Static() {
		return nil, fmt.Errorf("cannot generate %q: type %v has a dynamic dim", s.Name, s.Type)
	}
	if storageBytes(s.Type) == math.MaxInt64 {
		return nil, fmt.Errorf("cannot generate %q: type %v holds more bytes than fit in 64 bits", s.Name, s.Type)
	}
	stream := StreamSeed(seed, kind, s.Name)
	rng := tensor.NewRNG(stream)
	shape, dt := s.Type.Shape, s.Type.DType
	switch {
	case dt.IsFloat():
		b := float32(1)
		if r := len(shape); kind == 'w' && r >= 2 {
			b = float32(1 / math.Sqrt(float64(max(shape[r-2], 1))))
		}
		return uniform(stream, dt, shape, -b, b), nil
	case dt == tensor.UI8 && s.Quant != nil && !s.Quant.Partial && kind == 'w':
		q := s.Quant
		count, err := q.Matrices(tensor.NumElements(shape))
		if err != nil {
			return nil, fmt.Errorf("cannot generate %q: %v", s.Name, err)
		}
		b := float32(1 / math.Sqrt(float64(max(q.K, 1))))
		w := uniform(stream, tensor.F32, []int{count * q.N, q.K}, -b, b).Floats()
		var packed []byte
		for m := range count {
			p, err := gguf.Quantize(q.Format, w[m*q.N*q.K:(m+1)*q.N*q.K], q.N, q.K)
			if err != nil {
				return nil, err
			}
			packed = append(packed, p...)
		}
		return tensor.FromBytes(shape, packed)
	case dt == tensor.UI8:
		data := make([]byte, tensor.NumElements(shape))
		for i := range data {
			data[i] = byte(rng.Uint64() >> 56)
		}
		if s.Quant != nil {
			finiteScales(data, *s.Quant)
		}
		return tensor.FromBytes(shape, data)
	case s.IndexBound > 0:
		hi := int64(s.IndexBound)
		if _, top := dt.IntRange(); hi-1 > top {
			hi = top + 1
		}
		return rng.Ints(dt, shape, 0, hi)
	case dt == tensor.I1:
		return rng.Ints(dt, shape, 0, 2)
	default:
		return rng.Ints(dt, shape, 1, 16)
	}
}

// finiteScales makes the f16 scales of data, uniform bytes that a
// dequant_matmul reads as q, finite (gguf.FiniteScales): matrix by
// matrix where data holds whole [N, K] matrices, else block by block
// where it holds whole blocks of a row-major format; other bytes (a cut
// q6_k_c16 weight) stay as drawn.
func finiteScales(data []byte, q QuantUse) {
	f := q.Format
	per, err := gguf.ByteCount(f, q.N, q.K)
	switch {
	case err == nil && per > 0 && len(data)%per == 0:
		for m := 0; m < len(data); m += per {
			gguf.FiniteScales(f, data[m:m+per], q.N, q.K)
		}
	case f.RowMajor() && len(data)%f.BlockBytes() == 0:
		gguf.FiniteScales(f, data, len(data)/f.BlockBytes(), f.BlockSize())
	}
}

// uniform returns tensor.NewRNG(seed).Uniform(dt, shape, lo, hi), bit for
// bit, computed in parallel. Uniform takes one draw per element and
// splitmix64's state after i draws is seed + i·γ, so a chunk starting at
// element i can start its own generator there.
func uniform(seed uint64, dt tensor.DType, shape []int, lo, hi float32) *tensor.Tensor {
	const gamma, chunk = 0x9E3779B97F4A7C15, 1 << 16
	t := tensor.Zeros(dt, shape...)
	v := t.Floats()
	span := float64(hi) - float64(lo)
	fill := func(start, end int) {
		r := tensor.NewRNG(seed + uint64(start)*gamma)
		for i := start; i < end; i++ {
			x := float64(lo) + float64(span*r.Float64())
			v[i] = tensor.RoundFloat(dt, float32(x))
		}
	}
	workers := min(runtime.GOMAXPROCS(0), (len(v)+chunk-1)/chunk)
	if workers <= 1 {
		fill(0, len(v))
		return t
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				start := int(next.Add(chunk)) - chunk
				if start >= len(v) {
					return
				}
				fill(start, min(start+chunk, len(v)))
			}
		})
	}
	wg.Wait()
	return t
}

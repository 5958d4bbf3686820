package qckpt

import (
	"fmt"
	"math"
	"slices"

	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// GPTQ is a GPTQ or AWQ checkpoint's scheme.
type GPTQ struct {
	// AWQ writes AutoAWQ's GEMM layout (4 bits, zero points); otherwise
	// GPTQ's, V2 its gptq_v2 form (zero points stored as they are, not
	// one less).
	AWQ, V2 bool
	// Bits is 4 or 8; Group the input columns a scale covers (-1: a row).
	Bits, Group int
	// Sym: GPTQ's symmetric zero points, the middle of the range.
	Sym bool
	// Order writes g_idx with the groups of the input columns taken in
	// this order (desc_act's activation order): column Order[r] is the
	// r-th column of the groups' order. nil: columns in order (g_idx
	// k / Group, written for GPTQ), unless Shuffle: column 37·r mod in
	// (in not a multiple of 37).
	Order   []int
	Shuffle bool
}

// Config is the quantization_config of g.
func (g GPTQ) Config() map[string]any {
	if g.AWQ {
		return map[string]any{"quant_method": "awq", "bits": g.Bits, "group_size": g.Group, "zero_point": true,
			"version": "gemm", "modules_to_not_convert": nil}
	}
	format := "gptq"
	if g.V2 {
		format = "gptq_v2"
	}
	return map[string]any{"quant_method": "gptq", "bits": g.Bits, "group_size": g.Group, "desc_act": g.Order != nil || g.Shuffle,
		"sym": g.Sym, "damp_percent": 0.01, "true_sequential": true, "static_groups": false,
		"checkpoint_format": format, "model_name_or_path": nil, "model_file_base_name": nil,
		"meta": map[string]any{"quantizer": []string{"qckpt"}}}
}

// awqPack is AWQ's packing order: nibble i of a word holds value
// awqPack[i] of its eight.
var awqPack = [8]int{0, 2, 4, 6, 1, 3, 5, 7}

// awqNibble is the nibble of a word AWQ packs value pos (of eight) into.
func awqNibble(pos int) int {
	return slices.Index(awqPack[:], pos)
}

// Quantise quantises module's weight w [out, in] by g. It returns the
// module's tensors by name and the values they stand for, (q −
// zero)·scale in float64 rounded to f32 (the scales F16).
func (g GPTQ) Quantise(module string, w []float32, out, in int) (map[string]*tensor.Tensor, []float32, error) {
	if len(w) != out*in {
		return nil, nil, fmt.Errorf("qckpt: %d values for [%d, %d]", len(w), out, in)
	}
	size := g.Group
	if size <= 0 {
		size = in
	}
	groups := (in + size - 1) / size
	group := make([]int, in) // each input column's group
	for r := range in {
		k := r
		switch {
		case g.Order != nil:
			k = g.Order[r]
		case g.Shuffle:
			k = 37 * r % in
		}
		group[k] = r / size
	}
	top := float64(int(1)<<g.Bits - 1)
	scales, zeros := make([]float32, groups*out), make([]float64, groups*out)
	for c := range scales {
		lo, hi := 0.0, 0.0
		for k := range in {
			if group[k] == c/out {
				v := float64(w[c%out*in+k])
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		var s float64
		if g.Sym {
			s = math.Max(-lo, hi) / (top / 2)
			zeros[c] = (top + 1) / 2
		} else {
			s = (hi - lo) / top
		}
		if s == 0 {
			s = 1
		}
		scales[c] = tensor.RoundF16(float32(s))
		if !g.Sym {
			// GPTQ's first layout stores zero − 1, so a zero of 0 would
			// read back as 2^bits (AutoGPTQ's overflow): 1 at least there.
			least := 0.0
			if !g.AWQ && !g.V2 {
				least = 1
			}
			zeros[c] = math.Max(least, math.Min(top, math.Round(-lo/float64(scales[c]))))
		}
	}
	per := 32 / g.Bits
	q := make([]uint32, out*in)
	deq := make([]float32, out*in)
	for n := range out {
		for k := range in {
			c := group[k]*out + n
			v := math.Max(0, math.Min(top, math.Round(float64(w[n*in+k])/float64(scales[c])+zeros[c])))
			q[n*in+k] = uint32(v)
			deq[n*in+k] = float32((v - zeros[c]) * float64(scales[c]))
		}
	}
	var qweight, qzeros []int64
	var wshape, zshape []int
	stored := func(z float64) uint32 {
		if !g.AWQ && !g.V2 {
			z-- // AutoGPTQ's offset: stored one less
		}
		return uint32(int64(z)) & (uint32(1)<<g.Bits - 1)
	}
	if g.AWQ {
		words := (out + per - 1) / per
		qweight, wshape = make([]int64, in*words), []int{in, words}
		qzeros, zshape = make([]int64, groups*words), []int{groups, words}
		for k := range in {
			for n := range out {
				qweight[k*words+n/per] |= int64(q[n*in+k] << (g.Bits * awqNibble(n%per)))
			}
		}
		for c := range groups * out {
			gr, n := c/out, c%out
			qzeros[gr*words+n/per] |= int64(stored(zeros[c]) << (g.Bits * awqNibble(n%per)))
		}
	} else {
		rows, words := (in+per-1)/per, (out+per-1)/per
		qweight, wshape = make([]int64, rows*out), []int{rows, out}
		qzeros, zshape = make([]int64, groups*words), []int{groups, words}
		for k := range in {
			for n := range out {
				qweight[k/per*out+n] |= int64(q[n*in+k] << (g.Bits * (k % per)))
			}
		}
		for c := range groups * out {
			gr, n := c/out, c%out
			qzeros[gr*words+n/per] |= int64(stored(zeros[c]) << (g.Bits * (n % per)))
		}
	}
	for _, words := range [][]int64{qweight, qzeros} {
		for i := range words {
			words[i] = int64(int32(uint32(words[i])))
		}
	}
	ts := map[string]*tensor.Tensor{}
	var err error
	add := func(name string, t *tensor.Tensor, e error) {
		if err == nil && e != nil {
			err = fmt.Errorf("qckpt: %s: %v", name, e)
		}
		ts[name] = t
	}
	t, e := tensor.FromInt64(tensor.I32, wshape, qweight)
	add(module+".qweight", t, e)
	t, e = tensor.FromInt64(tensor.I32, zshape, qzeros)
	add(module+".qzeros", t, e)
	t, e = tensor.FromFloat32(tensor.F16, []int{groups, out}, scales)
	add(module+".scales", t, e)
	if !g.AWQ {
		idx := make([]int64, in)
		for k, gr := range group {
			idx[k] = int64(gr)
		}
		t, e = tensor.FromInt64(tensor.I32, []int{in}, idx)
		add(module+".g_idx", t, e)
	}
	if err != nil {
		return nil, nil, err
	}
	return ts, deq, nil
}

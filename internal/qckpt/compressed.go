package qckpt

import (
	"fmt"
	"math"

	"github.com/rlx-compiler/rlx/runtime/tensor"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

// Scheme is a module's weights scheme as a config group writes it.
type Scheme struct {
	// Bits is 4 or 8; Float is float8 (E4M3) rather than int.
	Bits  int
	Float bool
	// Strategy is "tensor", "channel", "group" (of Group columns) or
	// "block" (of Block rows × columns).
	Strategy string
	Group    int
	Block    [2]int
	// Asym stores zero points; Packed packs the values into I32
	// (pack-quantized); Pad pads a block-quantised weight to whole blocks
	// and stores its shape before (weight_shape_original).
	Asym, Packed, Pad bool
	// Scale is the scales' element type (F32 where zero).
	Scale tensor.DType
}

// Format is the compressed-tensors format that stores s.
func (s Scheme) Format() string {
	switch {
	case s.Packed:
		return "pack-quantized"
	case s.Float:
		return "float-quantized"
	}
	return "int-quantized"
}

// Args is s as a config group's "weights".
func (s Scheme) Args() map[string]any {
	typ := "int"
	if s.Float {
		typ = "float"
	}
	a := map[string]any{"num_bits": s.Bits, "type": typ, "strategy": s.Strategy, "symmetric": !s.Asym,
		"dynamic": false, "group_size": nil, "block_structure": nil, "actorder": nil, "observer": "minmax", "observer_kwargs": map[string]any{}}
	switch s.Strategy {
	case "group":
		a["group_size"] = s.Group
	case "block":
		a["block_structure"] = []int{s.Block[0], s.Block[1]}
	}
	return a
}

// Config is the quantization_config of a checkpoint whose Linear
// modules are all quantised by s, lm_head left as it is.
func (s Scheme) Config() map[string]any {
	return map[string]any{
		"quant_method": "compressed-tensors", "format": s.Format(), "quantization_status": "compressed",
		"ignore": []string{"lm_head"}, "kv_cache_scheme": nil, "global_compression_ratio": nil, "version": "0.12.2",
		"config_groups": map[string]any{"group_0": map[string]any{
			"targets": []string{"Linear"}, "weights": s.Args(), "input_activations": nil, "output_activations": nil,
		}},
	}
}

// Quantise quantises module's weight w [rows, cols] by s. It returns the
// module's tensors by name, the names stored as F8_E4M3 (for
// tensor.Safetensors.Stored), and the values they stand for, (q −
// zero)·scale in float64 rounded to f32.
func Quantise(module string, w []float32, rows, cols int, s Scheme) (map[string]*tensor.Tensor, map[string]string, []float32, error) {
	if len(w) != rows*cols {
		return nil, nil, nil, fmt.Errorf("qckpt: %d values for [%d, %d]", len(w), rows, cols)
	}
	sdt := s.Scale
	if sdt == 0 {
		sdt = tensor.F32
	}
	srows, scols, at := grid(s, rows, cols)
	lo, hi := make([]float64, srows*scols), make([]float64, srows*scols)
	for i := range rows {
		for j := range cols {
			g, v := at(i, j), float64(w[i*cols+j])
			lo[g], hi[g] = math.Min(lo[g], v), math.Max(hi[g], v)
		}
	}
	qmax := float64(int(1)<<(s.Bits-1)) - 1 // 7 or 127: symmetric range ±qmax
	scales, zeros := make([]float32, len(lo)), make([]float64, len(lo))
	for g := range lo {
		var sc float64
		switch {
		case s.Float:
			sc = math.Max(-lo[g], hi[g]) / 448
		case s.Asym:
			sc = (hi[g] - lo[g]) / (2*qmax + 1)
		default:
			sc = math.Max(-lo[g], hi[g]) / qmax
		}
		if sc == 0 {
			sc = 1
		}
		scales[g] = round(sdt, float32(sc))
		if s.Asym {
			zeros[g] = math.Max(-qmax-1, math.Min(qmax, math.Round(-qmax-1-lo[g]/float64(scales[g]))))
		}
	}
	q := make([]float64, rows*cols)
	deq := make([]float32, rows*cols)
	codes := make([]byte, rows*cols)
	for i := range rows {
		for j := range cols {
			k, g := i*cols+j, at(i, j)
			x := float64(w[k]) / float64(scales[g])
			if s.Float {
				codes[k] = weights.EncodeE4M3(float32(x))
				q[k] = float64(weights.DecodeE4M3(codes[k]))
			} else {
				q[k] = math.Max(-qmax-1, math.Min(qmax, math.Round(x)+zeros[g]))
			}
			deq[k] = float32((q[k] - zeros[g]) * float64(scales[g]))
		}
	}
	out := map[string]*tensor.Tensor{}
	stored := map[string]string{}
	add := func(name string, t *tensor.Tensor, err error) error {
		if err != nil {
			return fmt.Errorf("qckpt: %s: %v", name, err)
		}
		out[name] = t
		return nil
	}
	var err error
	wrows, wcols := rows, cols
	if s.Pad {
		wrows = (rows + s.Block[0] - 1) / s.Block[0] * s.Block[0]
		wcols = (cols + s.Block[1] - 1) / s.Block[1] * s.Block[1]
		t, e := tensor.FromInt64(tensor.I64, []int{2}, []int64{int64(rows), int64(cols)})
		err = add(module+".weight_shape_original", t, e)
	}
	switch {
	case err != nil:
	case s.Packed:
		per := 32 / s.Bits
		words := make([]int64, rows*((cols+per-1)/per))
		for i := range rows {
			for j := range cols {
				u := uint32(int64(q[i*cols+j])+int64(qmax)+1) << (s.Bits * (j % per))
				words[i*((cols+per-1)/per)+j/per] |= int64(u)
			}
		}
		for k := range words {
			words[k] = int64(int32(uint32(words[k])))
		}
		t, e := tensor.FromInt64(tensor.I32, []int{rows, (cols + per - 1) / per}, words)
		if err = add(module+".weight_packed", t, e); err == nil {
			t, e = tensor.FromInt64(tensor.I64, []int{2}, []int64{int64(rows), int64(cols)})
			err = add(module+".weight_shape", t, e)
		}
	case s.Float:
		padded := make([]byte, wrows*wcols)
		for i := range rows {
			copy(padded[i*wcols:], codes[i*cols:(i+1)*cols])
		}
		t, e := tensor.FromBytes([]int{wrows, wcols}, padded)
		err = add(module+".weight", t, e)
		stored[module+".weight"] = "F8_E4M3"
	default:
		ints := make([]int64, wrows*wcols)
		for i := range rows {
			for j := range cols {
				ints[i*wcols+j] = int64(q[i*cols+j])
			}
		}
		t, e := tensor.FromInt64(tensor.I8, []int{wrows, wcols}, ints)
		err = add(module+".weight", t, e)
	}
	if err == nil {
		shape := []int{srows, scols}
		t, e := tensor.FromFloat32(sdt, shape, scales)
		err = add(module+".weight_scale", t, e)
	}
	if err == nil && s.Asym {
		var t *tensor.Tensor
		var e error
		if s.Packed { // along the rows, as the values
			per := 32 / s.Bits
			words := make([]int64, (srows+per-1)/per*scols)
			for r := range srows {
				for c := range scols {
					u := uint32(int64(zeros[r*scols+c])+int64(qmax)+1) << (s.Bits * (r % per))
					words[r/per*scols+c] |= int64(u)
				}
			}
			for k := range words {
				words[k] = int64(int32(uint32(words[k])))
			}
			t, e = tensor.FromInt64(tensor.I32, []int{(srows + per - 1) / per, scols}, words)
		} else {
			ints := make([]int64, len(zeros))
			for g, z := range zeros {
				ints[g] = int64(z)
			}
			t, e = tensor.FromInt64(tensor.I8, []int{srows, scols}, ints)
		}
		err = add(module+".weight_zero_point", t, e)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	return out, stored, deq, nil
}

// grid is the scale grid of s over a [rows, cols] matrix and the cell of
// each element.
func grid(s Scheme, rows, cols int) (int, int, func(i, j int) int) {
	switch s.Strategy {
	case "tensor":
		return 1, 1, func(int, int) int { return 0 }
	case "channel":
		return rows, 1, func(i, _ int) int { return i }
	case "group":
		n := (cols + s.Group - 1) / s.Group
		return rows, n, func(i, j int) int { return i*n + j/s.Group }
	}
	n := (cols + s.Block[1] - 1) / s.Block[1]
	return (rows + s.Block[0] - 1) / s.Block[0], n, func(i, j int) int { return i/s.Block[0]*n + j/s.Block[1] }
}

func round(dt tensor.DType, v float32) float32 {
	switch dt {
	case tensor.BF16:
		return tensor.RoundBF16(v)
	case tensor.F16:
		return tensor.RoundF16(v)
	}
	return v
}

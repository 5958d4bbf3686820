package weights

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// GPTQ is what rlx reads of a GPTQ or AWQ quantization_config
// (quant_method "gptq": AutoGPTQ's, GPTQModel's and optimum's
// checkpoints; "awq": AutoAWQ's GEMM layout, as Qwen's -AWQ releases
// ship). ParseGPTQ makes one.
type GPTQ struct {
	awq bool
	// bits is 4 or 8 (AWQ: 4); group the columns a scale covers (0: a
	// row, GPTQ's group_size −1).
	bits, group int
	// v1: GPTQ's checkpoint_format "gptq", whose stored zero points are
	// one less than the zero points (AutoGPTQ's offset); "gptq_v2" not.
	v1 bool
}

// gptqBenign are fields of a GPTQ quantization_config that describe how
// the checkpoint was made, not how its tensors are read.
var gptqBenign = []string{
	"damp_percent", "damp_auto_increment", "desc_act", "static_groups", "sym", "true_sequential",
	"lm_head", "model_name_or_path", "model_file_base_name", "meta", "tokenizer", "dataset",
	"use_exllama", "exllama_config", "use_cuda_fp16", "max_input_length", "cache_block_outputs",
	"batch_size", "module_name_preceding_first_block", "modules_in_block_to_quantize",
	"block_name_to_quantize", "backend", "disable_exllama", "quantizer", "mse", "act_group_aware",
	"hyb_act", "v2", "v2_alpha", "true_sequential_level", "modules_to_not_convert",
	"model_seqlen", "pad_token_id", "uri", "fail_safe", "offload_to_disk", "offload_to_disk_path",
}

// awqBenign are those of an AWQ quantization_config.
var awqBenign = []string{"modules_to_not_convert", "backend", "do_fuse", "fuse_max_seq_len", "exllama_config", "modules_to_fuse"}

// ParseGPTQ reads a GPTQ or AWQ quantization_config (the JSON object).
// It refuses what rlx cannot read — other bit widths, GPTQ's marlin,
// bitblas and other repacked formats, per-module overrides (dynamic),
// AWQ's GEMV, exllama and marlin layouts and AWQ without zero points —
// and fields it does not know.
func ParseGPTQ(raw []byte) (*GPTQ, error) {
	var f map[string]json.RawMessage
	if err := strictJSON(raw, &f); err != nil {
		return nil, fmt.Errorf("not a JSON object: %v", err)
	}
	var method string
	if err := json.Unmarshal(f["quant_method"], &method); err != nil || (method != "gptq" && method != "awq") {
		return nil, fmt.Errorf("field \"quant_method\" = %s, want \"gptq\" or \"awq\"", f["quant_method"])
	}
	q := &GPTQ{awq: method == "awq", v1: method == "gptq"}
	benign := gptqBenign
	if q.awq {
		benign = awqBenign
	}
	group := 0
	for key, v := range f {
		var err error
		switch key {
		case "quant_method":
		case "bits", "w_bit":
			err = json.Unmarshal(v, &q.bits)
		case "group_size", "q_group_size":
			err = json.Unmarshal(v, &group)
		case "checkpoint_format", "format":
			var s string
			if err = json.Unmarshal(v, &s); err == nil {
				switch {
				case q.awq:
					err = fmt.Errorf("not an AWQ field")
				case s == "gptq":
				case s == "gptq_v2":
					q.v1 = false
				default:
					err = fmt.Errorf("rlx reads GPTQ's own layouts, \"gptq\" and \"gptq_v2\"")
				}
			}
		case "is_marlin_format":
			var b bool
			if err = json.Unmarshal(v, &b); err == nil && b {
				err = fmt.Errorf("rlx reads GPTQ's own layouts, not marlin's")
			}
		case "pack_dtype":
			if string(v) != `"int32"` {
				err = fmt.Errorf("rlx reads values packed into int32")
			}
		case "dynamic":
			if !isNull(v) && !isEmptyObject(v) {
				err = fmt.Errorf("per-module overrides are not supported")
			}
		case "version":
			if !q.awq || !strings.EqualFold(strings.Trim(string(v), `"`), "gemm") {
				err = fmt.Errorf("rlx reads AWQ's GEMM layout (version \"gemm\")")
			}
		case "zero_point":
			var b bool
			if err = json.Unmarshal(v, &b); err == nil && (!q.awq || !b) {
				err = fmt.Errorf("rlx reads AWQ with zero points")
			}
		default:
			if !slices.Contains(benign, key) {
				err = fmt.Errorf("rlx does not know what it changes")
			}
		}
		if err != nil {
			return nil, fmt.Errorf("field %q = %s: %v", key, v, err)
		}
	}
	if q.bits != 4 && (q.awq || q.bits != 8) {
		return nil, fmt.Errorf("field \"bits\" = %d is not supported (rlx reads %s)", q.bits, map[bool]string{false: "4 and 8", true: "4"}[q.awq])
	}
	switch {
	case group > 0:
		q.group = group
	case group == -1 && !q.awq:
	default:
		return nil, fmt.Errorf("field \"group_size\" = %d: want a positive size%s", group, map[bool]string{false: " or -1 (a row)", true: ""}[q.awq])
	}
	return q, nil
}

// pairGPTQ replaces each quantised module's tensors — NAME.qweight,
// NAME.qzeros, NAME.scales and, for GPTQ, NAME.g_idx where stored — by
// one tensor NAME.weight [out, in]: gguf blocks where its values fit
// them exactly (intMatrix.blockFormat: symmetric 4-bit as q4_0, with
// zero points as q5_0, symmetric 8-bit as q8_0), else BF16. The scales
// are F16 [groups, out]; GPTQ packs qweight [in·bits/32, out] along its
// input rows and qzeros [groups, out·bits/32] along a row, and its
// zero points are stored one less (checkpoint_format "gptq"); AWQ packs
// both along a row, eight nibbles a word in the order 0, 2, 4, 6, 1, 3,
// 5, 7, qweight [in, out/8].
func (s *Source) pairGPTQ(q *GPTQ) error {
	for _, name := range slices.Clone(s.names) {
		if module, ok := strings.CutSuffix(name, ".qweight"); ok {
			if err := s.pairGPTQModule(q, module); err != nil {
				return err
			}
		}
	}
	s.compactNames()
	return nil
}

// gptqModule is one GPTQ or AWQ module's tensors and shape.
type gptqModule struct {
	q                           *GPTQ
	qweight, qzeros, scales, gi *entry
	in, out, groups             int
	order                       []int // g_idx: each input column's group
	quant                       gguf.Format
}

func (s *Source) pairGPTQModule(q *GPTQ, module string) error {
	m := &gptqModule{q: q, qweight: s.entries[module+".qweight"]}
	w := m.qweight
	for _, part := range []struct {
		e   **entry
		sfx string
	}{{&m.qzeros, ".qzeros"}, {&m.scales, ".scales"}} {
		var ok bool
		if *part.e, ok = s.entries[module+part.sfx]; !ok {
			return fmt.Errorf("%s: tensor %q is without its %q", w.File, w.Name, module+part.sfx)
		}
	}
	m.gi = s.entries[module+".g_idx"]
	if err := m.check(); err != nil {
		return err
	}
	scales, zeros, err := m.grid()
	if err != nil {
		return err
	}
	m.quant = m.matrix().blockFormat(scales, zeros)
	info := Info{Name: module + ".weight", File: w.File, Shape: []int{m.out, m.in}, Type: w.Type}
	if m.quant.Valid() {
		info.Quant = m.quant
	} else {
		info.DType, info.Widened = tensor.BF16, true
	}
	var old []string
	for _, e := range []*entry{m.qweight, m.qzeros, m.scales, m.gi} {
		if e != nil {
			old = append(old, e.Name)
		}
	}
	if err := s.replace(&entry{Info: info, read: m.read}, old...); err != nil {
		return err
	}
	return s.addOrdered(m, scales, zeros)
}

// Ordered and Order name the second form of a GPTQ module whose g_idx
// (desc_act's activation order) scatters its groups over the input
// columns, so that NAME.weight is BF16: NAME.weight + Ordered holds its
// columns sorted by group (each group then whole runs of 32: gguf
// blocks), and NAME.weight + Order, I32 [in], the input column each of
// them was. A projection reads x's columns in that order and multiplies
// the blocks: W·x = W[:, order]·x[order]. Both are Info.Alt of
// NAME.weight; a consumer that reads only NAME.weight (an expert stack)
// gets the BF16 form.
const (
	Ordered = ".ordered"
	Order   = ".order"
)

// addOrdered adds the ordered form of m (Ordered, Order) where its
// columns sorted by group give gguf blocks.
func (s *Source) addOrdered(m *gptqModule, scales, zeros []float32) error {
	if m.order == nil || m.quant.Valid() {
		return nil
	}
	perm := make([]int, m.in)
	for k := range perm {
		perm[k] = k
	}
	slices.SortStableFunc(perm, func(a, b int) int { return m.order[a] - m.order[b] })
	sorted := m.matrix()
	sorted.cell = func(i, j int) int { return m.order[perm[j]]*m.out + i }
	sorted.runs = m.in%32 == 0
	for j := 0; sorted.runs && j < m.in; j++ {
		sorted.runs = m.order[perm[j]] == m.order[perm[j-j%32]]
	}
	f := sorted.blockFormat(scales, zeros)
	if !f.Valid() {
		return nil
	}
	name := strings.TrimSuffix(m.qweight.Name, ".qweight") + ".weight"
	blocks := Info{Name: name + Ordered, File: m.qweight.File, Shape: []int{m.out, m.in}, Quant: f, Type: m.qweight.Type, Alt: name}
	read := func() ([]byte, error) {
		u, scales, zeros, err := m.unpack()
		if err != nil {
			return nil, err
		}
		v := make([]uint8, len(u))
		inParallel(m.out, func(i int) {
			for j, k := range perm {
				v[i*m.in+j] = u[i*m.in+k]
			}
		})
		return sorted.pack(f, v, scales, zeros), nil
	}
	if err := s.add(&entry{Info: blocks, read: read}); err != nil {
		return err
	}
	order := Info{Name: name + Order, File: m.qweight.File, Shape: []int{m.in}, DType: tensor.I32, Type: "I32", Alt: name}
	return s.add(&entry{Info: order, read: func() ([]byte, error) {
		out := make([]byte, 4*len(perm))
		for j, k := range perm {
			binary.LittleEndian.PutUint32(out[4*j:], uint32(k))
		}
		return out, nil
	}})
}

// check ties the module's tensors' shapes to one another and reads its
// g_idx.
func (m *gptqModule) check() error {
	q, w, z, sc := m.q, m.qweight, m.qzeros, m.scales
	per := 32 / q.bits
	fail := func(e *entry, format string, args ...any) error {
		return fmt.Errorf("%s: tensor %q: %s", e.File, e.Name, fmt.Sprintf(format, args...))
	}
	if w.DType != tensor.I32 || len(w.Shape) != 2 {
		return fail(w, "is %v; packed weights are I32 matrices", w.Info)
	}
	if q.awq {
		m.in, m.out = w.Shape[0], w.Shape[1]*per
	} else {
		m.in, m.out = w.Shape[0]*per, w.Shape[1]
	}
	if sc.DType != tensor.F16 && sc.DType != tensor.BF16 && sc.DType != tensor.F32 || len(sc.Shape) != 2 || sc.Shape[1] != m.out {
		return fail(sc, "is %v; the scales of %s %v are F16 [groups, %d]", sc.Info, w.Name, w.Info, m.out)
	}
	m.groups = sc.Shape[0]
	if q.group > 0 && m.groups != (m.in+q.group-1)/q.group || q.group == 0 && m.groups != 1 {
		return fail(sc, "is %v: not one row a group of %d of the %d input columns", sc.Info, q.group, m.in)
	}
	if z.DType != tensor.I32 || !slices.Equal(z.Shape, []int{m.groups, (m.out + per - 1) / per}) {
		return fail(z, "is %v; the zero points of %s %v are I32 [%d, %d]", z.Info, w.Name, w.Info, m.groups, (m.out+per-1)/per)
	}
	if m.gi == nil {
		return nil
	}
	if q.awq || m.gi.DType != tensor.I32 || !slices.Equal(m.gi.Shape, []int{m.in}) {
		return fail(m.gi, "is %v; a group index of %s %v is I32 [%d]", m.gi.Info, w.Name, w.Info, m.in)
	}
	raw, err := m.gi.read()
	if err != nil || len(raw) != 4*m.in {
		return fail(m.gi, "holds %d bytes (%v)", len(raw), err)
	}
	m.order = make([]int, m.in)
	for k := range m.order {
		g := int(int32(binary.LittleEndian.Uint32(raw[4*k:])))
		if g < 0 || g >= m.groups {
			return fail(m.gi, "column %d's group %d is not one of the %d", k, g, m.groups)
		}
		m.order[k] = g
	}
	return nil
}

// group is input column k's group.
func (m *gptqModule) group(k int) int {
	switch {
	case m.order != nil:
		return m.order[k]
	case m.q.group == 0:
		return 0
	}
	return k / m.q.group
}

// matrix is the module's weight [out, in] as an intMatrix: unsigned
// values, a cell a (group, output row).
func (m *gptqModule) matrix() intMatrix {
	runs := m.in%32 == 0
	for k := 0; runs && k < m.in; k++ {
		runs = m.group(k) == m.group(k-k%32)
	}
	return intMatrix{rows: m.out, cols: m.in, bits: m.q.bits, cell: func(i, j int) int { return m.group(j)*m.out + i }, runs: runs}
}

// awqOrder is where AWQ puts a word's eight values: value j of a word
// (output row 8·word + j) is its nibble awqOrder[j].
var awqOrder = [8]int{0, 4, 1, 5, 2, 6, 3, 7}

// field is value j of a word packed with per values of bits bits each,
// in the module's order.
func (m *gptqModule) field(word uint32, j int) float32 {
	per := 32 / m.q.bits
	pos := j % per
	if m.q.awq {
		pos = awqOrder[pos]
	}
	return float32(word >> (m.q.bits * pos) & (uint32(1)<<m.q.bits - 1))
}

// grid reads the scales and the zero points, [groups, out] each.
func (m *gptqModule) grid() (scales, zeros []float32, err error) {
	raw, err := m.scales.read()
	if err == nil {
		var st *tensor.Tensor
		if st, err = tensor.DecodeRaw(m.scales.DType, m.scales.Shape, raw); err == nil {
			scales = st.Floats()
		}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: tensor %q: %v", m.scales.File, m.scales.Name, err)
	}
	zraw, err := m.qzeros.read()
	per := 32 / m.q.bits
	words := (m.out + per - 1) / per
	if err == nil && len(zraw) != 4*m.groups*words {
		err = fmt.Errorf("holds %d bytes for %v", len(zraw), m.qzeros.Info)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: tensor %q: %v", m.qzeros.File, m.qzeros.Name, err)
	}
	zeros = make([]float32, m.groups*m.out)
	for g := range m.groups {
		for n := range m.out {
			z := m.field(binary.LittleEndian.Uint32(zraw[4*(g*words+n/per):]), n)
			if m.q.v1 {
				z++
			}
			zeros[g*m.out+n] = z
		}
	}
	return scales, zeros, nil
}

// read unpacks the module's weight [out, in]: m.quant's blocks, or BF16.
func (m *gptqModule) read() ([]byte, error) {
	u, scales, zeros, err := m.unpack()
	if err != nil {
		return nil, err
	}
	if m.quant.Valid() {
		return m.matrix().pack(m.quant, u, scales, zeros), nil
	}
	return m.matrix().bf16(u, scales, zeros), nil
}

// unpack reads the module's values u [out, in], scales and zero points.
func (m *gptqModule) unpack() (u []uint8, scales, zeros []float32, err error) {
	raw, err := m.qweight.read()
	w := m.qweight
	if err == nil && len(raw) != 4*w.Shape[0]*w.Shape[1] {
		err = fmt.Errorf("holds %d bytes for %v", len(raw), w.Info)
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: tensor %q: %v", w.File, w.Name, err)
	}
	if scales, zeros, err = m.grid(); err != nil {
		return nil, nil, nil, err
	}
	// Each word's values to their places in u [out, in].
	per, cols, bits := 32/m.q.bits, w.Shape[1], m.q.bits
	mask := uint32(1)<<bits - 1
	u = make([]uint8, m.out*m.in)
	// Sixteen columns of words (a cache line of each row) at a time: the
	// reads stay in cache, the writes in a few rows of u.
	inParallel((cols+15)/16, func(tile int) { // tiles write rows of their own
		c0 := 16 * tile
		for r := range w.Shape[0] {
			for c := c0; c < min(c0+16, cols); c++ {
				word := binary.LittleEndian.Uint32(raw[4*(r*cols+c):])
				if m.q.awq { // [in, out/8]: word c of input column r, output rows 8c…8c+7
					for j := 0; j < per && c*per+j < m.out; j++ {
						u[(c*per+j)*m.in+r] = uint8(word >> (bits * awqOrder[j]) & mask)
					}
					continue
				}
				// [in·bits/32, out]: output row c's input columns per·r…
				row := u[c*m.in:]
				for j := 0; j < per && r*per+j < m.in; j++ {
					row[r*per+j] = uint8(word >> (bits * j) & mask)
				}
			}
		}
	})
	return u, scales, zeros, nil
}

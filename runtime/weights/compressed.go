package weights

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Compressed is what rlx reads of a compressed-tensors quantization_config
// (quant_method "compressed-tensors": llm-compressor's checkpoints, Red
// Hat's and Neural Magic's FP8, W8A16 and W4A16 releases): each config
// group's targets and weight scheme. ParseCompressed makes one.
type Compressed struct {
	groups []ctGroup
}

// ctGroup is one of config_groups.
type ctGroup struct {
	name    string
	format  string
	byName  []*regexp.Regexp // "re:" targets and module names
	byClass bool             // a class-name target ("Linear")
	w       ctArgs
}

// ctArgs is a group's weights: num_bits of type int or float, scales a
// tensor, a row (channel), a group of a row's columns, or a block.
type ctArgs struct {
	bits     int
	float    bool
	strategy string
	group    int
	block    [2]int
}

func (a ctArgs) String() string {
	typ := "int"
	if a.float {
		typ = "float"
	}
	s := fmt.Sprintf("%s%d by %s", typ, a.bits, a.strategy)
	switch a.strategy {
	case "group":
		s += fmt.Sprintf(" of %d", a.group)
	case "block":
		s += fmt.Sprintf(" of %d×%d", a.block[0], a.block[1])
	}
	return s
}

// ctFormats are the compressed-tensors formats rlx reads, and the weights
// each holds.
var ctFormats = map[string]string{
	"float-quantized": "float8",
	"naive-quantized": "float8 or int8",
	"int-quantized":   "int8",
	"pack-quantized":  "int4 or int8",
}

// ParseCompressed reads a compressed-tensors quantization_config (the
// JSON object). Every field it does not know is an error, as are the
// formats and schemes rlx cannot read: it reads float8 weights
// (float-quantized, naive-quantized), int8 (int-quantized,
// naive-quantized, pack-quantized) and packed int4 (pack-quantized), by
// tensor, channel, group or block, symmetric or with zero points, and
// mixed-precision checkpoints whose groups each name one of those
// formats. Activation schemes are accepted and not applied: rlx runs the
// activations unquantised (docs/import.md).
func ParseCompressed(raw []byte) (*Compressed, error) {
	var top map[string]json.RawMessage
	if err := strictJSON(raw, &top); err != nil {
		return nil, fmt.Errorf("not a JSON object: %v", err)
	}
	var method, format, status string
	var groups map[string]json.RawMessage
	for key, v := range top {
		var err error
		switch key {
		case "quant_method":
			err = json.Unmarshal(v, &method)
		case "format":
			err = json.Unmarshal(v, &format)
		case "quantization_status":
			if err = json.Unmarshal(v, &status); err == nil && status != "compressed" {
				err = fmt.Errorf("rlx reads compressed checkpoints only")
			}
		case "config_groups":
			err = json.Unmarshal(v, &groups)
		case "kv_cache_scheme":
			if !isNull(v) {
				err = fmt.Errorf("rlx keeps the key-value cache in the model's precision; a quantised cache is not supported")
			}
		case "sparsity_config", "transform_config":
			if !isNull(v) && !isEmptyObject(v) {
				err = fmt.Errorf("not supported")
			}
		case "ignore", "global_compression_ratio", "version", "provider":
			// ignore: modules left unquantised hold float weights, read as stored.
		default:
			err = fmt.Errorf("rlx does not know what it changes")
		}
		if err != nil {
			return nil, fmt.Errorf("field %q = %s: %v", key, v, err)
		}
	}
	if method != "compressed-tensors" {
		return nil, fmt.Errorf("field \"quant_method\" = %q, want \"compressed-tensors\"", method)
	}
	if _, ok := ctFormats[format]; !ok && format != "mixed-precision" {
		return nil, fmt.Errorf("field \"format\" = %q is not supported (rlx reads %s, and mixed-precision of those)", format, ctFormatList())
	}
	if len(groups) == 0 {
		return nil, fmt.Errorf("field \"config_groups\" names no group")
	}
	c := &Compressed{}
	names := make([]string, 0, len(groups))
	for name := range groups {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		g, err := parseGroup(name, groups[name], format)
		if err != nil {
			return nil, fmt.Errorf("config group %q: %v", name, err)
		}
		c.groups = append(c.groups, g)
	}
	return c, nil
}

func ctFormatList() string {
	var names []string
	for f, holds := range ctFormats {
		names = append(names, fmt.Sprintf("%s (%s)", f, holds))
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// parseGroup reads one config group; format is the config's, which a
// group's own format field overrides (mixed-precision).
func parseGroup(name string, raw json.RawMessage, format string) (ctGroup, error) {
	g := ctGroup{name: name, format: format}
	var fields map[string]json.RawMessage
	if err := strictJSON(raw, &fields); err != nil {
		return g, fmt.Errorf("not a JSON object: %v", err)
	}
	var weights json.RawMessage
	for key, v := range fields {
		var err error
		switch key {
		case "targets":
			var targets []string
			if err = json.Unmarshal(v, &targets); err == nil {
				err = g.readTargets(targets)
			}
		case "weights":
			weights = v
		case "format":
			err = json.Unmarshal(v, &g.format)
		case "input_activations":
			// Accepted, not applied: rlx runs activations unquantised.
		case "output_activations":
			if !isNull(v) {
				err = fmt.Errorf("not supported")
			}
		default:
			err = fmt.Errorf("rlx does not know what it changes")
		}
		if err != nil {
			return g, fmt.Errorf("field %q = %s: %v", key, v, err)
		}
	}
	holds, ok := ctFormats[g.format]
	if !ok {
		return g, fmt.Errorf("format %q is not supported (rlx reads %s)", g.format, ctFormatList())
	}
	if isNull(weights) {
		return g, fmt.Errorf("no weights scheme (rlx reads quantised weights; activation-only schemes are not supported)")
	}
	w, err := parseArgs(weights)
	if err != nil {
		return g, fmt.Errorf("weights: %v", err)
	}
	kind := fmt.Sprintf("int%d", w.bits)
	if w.float {
		kind = fmt.Sprintf("float%d", w.bits)
	}
	if !strings.Contains(holds, kind) {
		return g, fmt.Errorf("weights of %s in format %s are not supported (it holds %s here)", kind, g.format, holds)
	}
	g.w = w
	return g, nil
}

// readTargets sorts a group's targets into module-name patterns ("re:"
// regular expressions, matched at the start of a module's name, and
// names) and class names (capitalised, as "Linear").
func (g *ctGroup) readTargets(targets []string) error {
	if len(targets) == 0 {
		return fmt.Errorf("no targets")
	}
	for _, t := range targets {
		switch {
		case strings.HasPrefix(t, "re:"):
			re, err := regexp.Compile(`^(?:` + strings.TrimPrefix(t, "re:") + `)`)
			if err != nil {
				return fmt.Errorf("target %q: %v", t, err)
			}
			g.byName = append(g.byName, re)
		case t != "" && t[0] >= 'A' && t[0] <= 'Z' && !strings.Contains(t, "."):
			g.byClass = true
		default:
			g.byName = append(g.byName, regexp.MustCompile(`^`+regexp.QuoteMeta(t)+`$`))
		}
	}
	return nil
}

// parseArgs reads a group's weights scheme.
func parseArgs(raw json.RawMessage) (ctArgs, error) {
	var a ctArgs
	var f map[string]json.RawMessage
	if err := strictJSON(raw, &f); err != nil {
		return a, fmt.Errorf("not a JSON object: %v", err)
	}
	var typ string
	var groupSize *int
	var block []int
	for key, v := range f {
		var err error
		switch key {
		case "num_bits":
			err = json.Unmarshal(v, &a.bits)
		case "type":
			err = json.Unmarshal(v, &typ)
		case "strategy":
			err = json.Unmarshal(v, &a.strategy)
		case "group_size":
			err = json.Unmarshal(v, &groupSize)
		case "block_structure":
			err = json.Unmarshal(v, &block)
		case "dynamic":
			var dyn bool
			if err = json.Unmarshal(v, &dyn); err == nil && dyn {
				err = fmt.Errorf("dynamic weights are not supported")
			}
		case "actorder":
			// "group" stores a column order (weight_g_idx), refused where
			// a tensor has one; the others change nothing stored.
		case "symmetric", "observer", "observer_kwargs", "zp_dtype":
			// Symmetric or not, a tensor's zero points tell.
		case "scale_dtype":
			if !isNull(v) && string(v) != `"float32"` && string(v) != `"bfloat16"` && string(v) != `"float16"` {
				err = fmt.Errorf("rlx reads f32, bf16 and f16 scales")
			}
		default:
			err = fmt.Errorf("rlx does not know what it changes")
		}
		if err != nil {
			return a, fmt.Errorf("field %q = %s: %v", key, v, err)
		}
	}
	switch typ {
	case "int":
	case "float":
		a.float = true
	default:
		return a, fmt.Errorf("field \"type\" = %q, want \"int\" or \"float\"", typ)
	}
	if !(a.bits == 8 || (a.bits == 4 && !a.float)) {
		return a, fmt.Errorf("%s weights of %d bits are not supported (rlx reads int4, int8 and float8)", typ, a.bits)
	}
	switch a.strategy {
	case "tensor", "channel":
	case "group":
		if groupSize == nil || *groupSize < 1 {
			return a, fmt.Errorf("strategy \"group\" needs a positive group_size")
		}
		a.group = *groupSize
	case "block":
		if len(block) != 2 || block[0] < 1 || block[1] < 1 {
			return a, fmt.Errorf("strategy \"block\" needs block_structure [rows, columns], two positive sizes")
		}
		a.block = [2]int{block[0], block[1]}
	default:
		return a, fmt.Errorf("strategy %q is not supported (rlx reads tensor, channel, group and block)", a.strategy)
	}
	return a, nil
}

// strictJSON decodes data into v, refusing trailing data.
func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("data after the object")
	}
	return nil
}

func isNull(v json.RawMessage) bool { return len(v) == 0 || string(v) == "null" }

func isEmptyObject(v json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(v, &m) == nil && len(m) == 0
}

// argsFor is the weights scheme of the module named module: the groups
// whose names or regular expressions match it, else those targeting a
// class; one scheme, or an error.
func (c *Compressed) argsFor(module string) (ctArgs, string, error) {
	var named, classed []ctGroup
	for _, g := range c.groups {
		for _, re := range g.byName {
			if re.MatchString(module) {
				named = append(named, g)
				break
			}
		}
		if g.byClass {
			classed = append(classed, g)
		}
	}
	cands := named
	if len(cands) == 0 {
		cands = classed
	}
	if len(cands) == 0 {
		return ctArgs{}, "", fmt.Errorf("no config group targets module %q", module)
	}
	for _, g := range cands[1:] {
		if g.w != cands[0].w || g.format != cands[0].format {
			return ctArgs{}, "", fmt.Errorf("config groups %q (%v) and %q (%v) both target module %q", cands[0].name, cands[0].w, g.name, g.w, module)
		}
	}
	return cands[0].w, cands[0].format, nil
}

// quantConfig reads the checkpoint directory dir's config.json once:
// its path and its quantization_config (nil where it has none). A
// config.json that is missing or unreadable as JSON gives none: the
// importer reports it.
func quantConfig(dir string) (string, json.RawMessage, error) {
	path := filepath.Join(dir, "config.json")
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return path, nil, nil
	}
	if err != nil {
		return path, nil, err
	}
	var cfg struct {
		Quant json.RawMessage `json:"quantization_config"`
	}
	if json.Unmarshal(data, &cfg) != nil || isNull(cfg.Quant) {
		return path, nil, nil
	}
	return path, cfg.Quant, nil
}

// parsePairing reads a quantization_config whose quant_method is
// compressed-tensors', GPTQ's or AWQ's, and returns the pairing that
// reads such a checkpoint's modules (pairCompressed, pairGPTQ); nil, nil
// for any other method.
func parsePairing(quant []byte) (func(*Source) error, error) {
	var method struct {
		Method string `json:"quant_method"`
	}
	if json.Unmarshal(quant, &method) != nil {
		return nil, nil
	}
	switch method.Method {
	case "compressed-tensors":
		c, err := ParseCompressed(quant)
		if err != nil {
			return nil, err
		}
		return func(s *Source) error { return s.pairCompressed(c) }, nil
	case "gptq", "awq":
		q, err := ParseGPTQ(quant)
		if err != nil {
			return nil, err
		}
		return func(s *Source) error { return s.pairGPTQ(q) }, nil
	}
	return nil, nil
}

// CheckQuantization reads a quantization_config as Open does: known is
// whether its quant_method is one package weights pairs itself
// (compressed-tensors, GPTQ, AWQ: ParseCompressed, ParseGPTQ), err what
// it refuses of it.
func CheckQuantization(quant []byte) (known bool, err error) {
	pair, err := parsePairing(quant)
	return pair != nil || err != nil, err
}

// pairConfigured pairs each quantised module's tensors where the
// quantization_config quant (read from path) is compressed-tensors',
// GPTQ's or AWQ's (parsePairing).
func (s *Source) pairConfigured(path string, quant json.RawMessage) error {
	if quant == nil {
		return nil
	}
	pair, err := parsePairing(quant)
	if err != nil {
		return fmt.Errorf("%s: quantization_config: %v", path, err)
	}
	if pair == nil {
		return nil
	}
	return pair(s)
}

// The tensors of a compressed module NAME besides its weight.
const (
	ctScale  = ".weight_scale"
	ctZero   = ".weight_zero_point"
	ctShape  = ".weight_shape"          // pack-quantized: the [rows, columns] unpacked
	ctPadded = ".weight_shape_original" // block strategy: the shape before padding
	ctOrder  = ".weight_g_idx"
)

// pairCompressed replaces each compressed module's tensors (NAME.weight
// F8_E4M3 or I8, or NAME.weight_packed I32; NAME.weight_scale; and, where
// stored, NAME.weight_zero_point, NAME.weight_shape and
// NAME.weight_shape_original) by one tensor NAME.weight of the module's
// unpacked shape: gguf blocks where each 32 columns of a row share one
// scale and that scale is an f16 exactly — int8 as q8_0, int4 as q4_0
// or, with zero points, q5_0, the values exactly (q − zero)·scale — and
// otherwise BF16, (q − zero)·scale rounded to bf16 as compressed-tensors
// decompresses into a bf16 model.
func (s *Source) pairCompressed(c *Compressed) error {
	for _, name := range slices.Clone(s.names) {
		module, packed := strings.CutSuffix(name, ".weight_packed")
		if !packed {
			var ok bool
			if module, ok = strings.CutSuffix(name, ".weight"); !ok {
				continue
			}
			if _, scaled := s.entries[module+ctScale]; !scaled {
				continue
			}
		}
		if err := s.pairModule(c, module, packed); err != nil {
			return err
		}
	}
	s.compactNames()
	for _, name := range s.names {
		if strings.HasSuffix(name, ctScale) {
			e := s.entries[name]
			return fmt.Errorf("%s: tensor %q has no compressed weight %q beside it", e.File, name, strings.TrimSuffix(name, ctScale)+".weight")
		}
	}
	return nil
}

// ctModule is one compressed module's tensors, its scheme and its
// unpacked shape.
type ctModule struct {
	name                          string
	w, scale, zero, shape, padded *entry
	args                          ctArgs
	format                        string
	rows, cols                    int         // unpacked and unpadded
	srows, scols                  int         // the scale's grid
	quant                         gguf.Format // the blocks it is read as; 0: BF16
}

func (s *Source) pairModule(c *Compressed, module string, packed bool) error {
	m := &ctModule{name: module}
	wname := module + ".weight"
	if packed {
		wname += "_packed"
	}
	m.w = s.entries[wname]
	if o, ok := s.entries[module+ctOrder]; ok {
		return fmt.Errorf("%s: tensor %q: activation-ordered groups (actorder \"group\") are not supported", o.File, o.Name)
	}
	var ok bool
	if m.scale, ok = s.entries[module+ctScale]; !ok {
		return fmt.Errorf("%s: tensor %q is packed without its scales %q", m.w.File, wname, module+ctScale)
	}
	m.zero = s.entries[module+ctZero]
	m.shape = s.entries[module+ctShape]
	m.padded = s.entries[module+ctPadded]
	var err error
	if m.args, m.format, err = c.argsFor(module); err != nil {
		return fmt.Errorf("%s: tensor %q: %v", m.w.File, wname, err)
	}
	if err := m.check(packed); err != nil {
		return err
	}
	if err := m.choose(); err != nil {
		return err
	}
	info := Info{Name: module + ".weight", File: m.w.File, Shape: []int{m.rows, m.cols}, Type: m.w.Type}
	if m.quant.Valid() {
		info.Quant = m.quant
	} else {
		info.DType, info.Widened = tensor.BF16, !m.args.float
	}
	var old []string
	for _, e := range []*entry{m.w, m.scale, m.zero, m.shape, m.padded} {
		if e != nil {
			old = append(old, e.Name)
		}
	}
	return s.replace(&entry{Info: info, read: m.read}, old...)
}

// check ties the module's tensors to its scheme: the weight's type, the
// unpacked shape, and the scale grid its strategy gives.
func (m *ctModule) check(packed bool) error {
	a, w := m.args, m.w
	fail := func(e *entry, format string, args ...any) error {
		return fmt.Errorf("%s: tensor %q: %s", e.File, e.Name, fmt.Sprintf(format, args...))
	}
	if len(w.Shape) != 2 {
		return fail(w, "is %s: rlx reads compressed matrices only", w.Info.String())
	}
	switch {
	case packed:
		if w.DType != tensor.I32 || a.float || m.format != "pack-quantized" {
			return fail(w, "is %s, packed weights of %v in format %s: rlx reads pack-quantized int4 and int8 packed into I32", w.Info.String(), a, m.format)
		}
		if m.shape == nil {
			return fail(w, "is packed without its shape %q", m.name+ctShape)
		}
		dims, err := readInts(m.shape)
		if err != nil {
			return err
		}
		if len(dims) != 2 || dims[0] != w.Shape[0] || dims[1] < 1 || (dims[1]*a.bits+31)/32 != w.Shape[1] {
			return fail(m.shape, "is %v: not the unpacked shape of %s %s holding %d-bit values", dims, w.Name, w.Info.String(), a.bits)
		}
		m.rows, m.cols = dims[0], dims[1]
	case a.float && w.Type == TypeFP8, !a.float && a.bits == 8 && w.DType == tensor.I8:
		m.rows, m.cols = w.Shape[0], w.Shape[1]
	default:
		return fail(w, "is %s, but its config group quantises it as %v in format %s", w.Info.String(), a, m.format)
	}
	prows, pcols := m.rows, m.cols
	if m.padded != nil {
		dims, err := readInts(m.padded)
		if err != nil {
			return err
		}
		if packed || a.strategy != "block" || len(dims) != 2 || dims[0] < 1 || dims[1] < 1 || dims[0] > prows || dims[1] > pcols {
			return fail(m.padded, "is %v: not the shape within %s %s that a block strategy padded", dims, w.Name, w.Info.String())
		}
		m.rows, m.cols = dims[0], dims[1]
	}
	switch a.strategy {
	case "tensor":
		m.srows, m.scols = 1, 1
	case "channel":
		m.srows, m.scols = prows, 1
	case "group":
		m.srows, m.scols = prows, (pcols+a.group-1)/a.group
	case "block":
		m.srows, m.scols = (prows+a.block[0]-1)/a.block[0], (pcols+a.block[1]-1)/a.block[1]
	}
	sc := m.scale
	if !sc.DType.IsFloat() || !gridShape(sc.Shape, m.srows, m.scols) {
		return fail(sc, "is %s; the scales of %s %s by %v are F32, BF16 or F16 [%d, %d]", sc.Info.String(), w.Name, w.Info.String(), a, m.srows, m.scols)
	}
	if z := m.zero; z != nil {
		switch {
		case a.float:
			return fail(z, "zero points of float weights are not supported")
		case packed:
			if z.DType != tensor.I32 || !slices.Equal(z.Shape, []int{(m.srows*a.bits + 31) / 32, m.scols}) {
				return fail(z, "is %s; the zero points of %s, packed, are I32 [%d, %d]", z.Info.String(), w.Name, (m.srows*a.bits+31)/32, m.scols)
			}
		default:
			if z.DType != tensor.I8 || !gridShape(z.Shape, m.srows, m.scols) {
				return fail(z, "is %s; the zero points of %s are I8 [%d, %d]", z.Info.String(), w.Name, m.srows, m.scols)
			}
		}
	}
	return nil
}

// gridShape reports whether shape holds rows × cols values as the
// strategies store them: [rows, cols], or [] and [1] for one scale, [rows]
// for one a row.
func gridShape(shape []int, rows, cols int) bool {
	switch len(shape) {
	case 0:
		return rows == 1 && cols == 1
	case 1:
		return cols == 1 && shape[0] == rows
	case 2:
		return shape[0] == rows && shape[1] == cols
	}
	return false
}

// readInts reads a small I64 or I32 tensor.
func readInts(e *entry) ([]int, error) {
	if (e.DType != tensor.I64 && e.DType != tensor.I32) || len(e.Shape) != 1 || e.Shape[0] > 8 {
		return nil, fmt.Errorf("%s: tensor %q is %s, want I64 or I32 [2]", e.File, e.Name, e.Info.String())
	}
	raw, err := e.read()
	if err != nil {
		return nil, fmt.Errorf("%s: tensor %q: %v", e.File, e.Name, err)
	}
	size := 8
	if e.DType == tensor.I32 {
		size = 4
	}
	if len(raw) != size*e.Shape[0] {
		return nil, fmt.Errorf("%s: tensor %q holds %d bytes for %s", e.File, e.Name, len(raw), e.Info.String())
	}
	out := make([]int, e.Shape[0])
	for i := range out {
		if size == 8 {
			out[i] = int(int64(binary.LittleEndian.Uint64(raw[8*i:])))
		} else {
			out[i] = int(int32(binary.LittleEndian.Uint32(raw[4*i:])))
		}
	}
	return out, nil
}

// matrix is the module's int weights as an intMatrix: the scale grid's
// cells.
func (m *ctModule) matrix() intMatrix {
	a := m.args
	runs := a.strategy == "tensor" || a.strategy == "channel" ||
		(a.strategy == "group" && a.group%32 == 0) || (a.strategy == "block" && a.block[1]%32 == 0)
	base, width := m.rowCells()
	cell := func(i, j int) int { return base(i) + j/width }
	return intMatrix{rows: m.rows, cols: m.cols, bits: a.bits, cell: cell, runs: runs}
}

// choose sets m.quant: the gguf blocks that hold the module's int
// weights exactly (intMatrix.blockFormat: q8_0, q4_0, or q5_0 for int4
// with zero points), or 0 for BF16 (float8, and int weights no block
// holds). It reads the scales and zero points, a small part of the
// module's bytes.
func (m *ctModule) choose() error {
	if m.args.float {
		return nil
	}
	scales, zeros, err := m.grid()
	if err != nil {
		return err
	}
	m.quant = m.matrix().blockFormat(scales, zeros)
	return nil
}

// read unpacks the module's weight: m.quant's blocks, or BF16.
func (m *ctModule) read() ([]byte, error) {
	raw, err := m.w.read()
	if err == nil && len(raw) != m.w.Shape[0]*m.w.Shape[1]*m.w.DType.ByteSize() {
		err = fmt.Errorf("holds %d bytes for %s", len(raw), m.w.Info.String())
	}
	if err != nil {
		return nil, fmt.Errorf("%s: tensor %q: %v", m.w.File, m.w.Name, err)
	}
	scales, zeros, err := m.grid()
	if err != nil {
		return nil, err
	}
	if m.args.float {
		return m.fp8(raw, scales), nil
	}
	u := m.unsigned(raw)
	if m.quant.Valid() {
		return m.matrix().pack(m.quant, u, scales, zeros), nil
	}
	return m.matrix().bf16(u, scales, zeros), nil
}

// fp8 is the module's E4M3 codes raw (the padding dropped) × their
// scales, as little-endian bf16.
func (m *ctModule) fp8(raw []byte, scales []float32) []byte {
	base, width := m.rowCells()
	return e4m3BF16(raw, m.rows, m.cols, m.w.Shape[1], scales, base, width)
}

// rowCells gives the scale grid by rows: element (i, j)'s cell is
// base(i) + j/width.
func (m *ctModule) rowCells() (base func(i int) int, width int) {
	switch a := m.args; a.strategy {
	case "tensor":
		return func(int) int { return 0 }, m.cols
	case "channel":
		return func(i int) int { return i }, m.cols
	case "group":
		return func(i int) int { return i * m.scols }, a.group
	default:
		return func(i int) int { return i / a.block[0] * m.scols }, a.block[1]
	}
}

// unsigned is the module's int values [rows, cols] (the padding
// dropped) as unsigned ones, q + 2^(bits−1): int8 less −128, packed
// values as stored.
func (m *ctModule) unsigned(raw []byte) []uint8 {
	wcols := m.w.Shape[1]
	u := make([]uint8, m.rows*m.cols)
	if m.w.DType == tensor.I8 {
		inParallel(m.rows, func(i int) {
			for j, b := range raw[i*wcols : i*wcols+m.cols] {
				u[i*m.cols+j] = b ^ 0x80
			}
		})
		return u
	}
	bits := m.args.bits
	per, mask := 32/bits, uint32(1)<<bits-1
	inParallel(m.rows, func(i int) {
		row := u[i*m.cols : (i+1)*m.cols]
		for w := range wcols {
			word := binary.LittleEndian.Uint32(raw[4*(i*wcols+w):])
			for t := 0; t < per && w*per+t < m.cols; t++ {
				row[w*per+t] = uint8(word >> (bits * t) & mask)
			}
		}
	})
	return u
}

// grid reads the scales and zero points (2^(bits−1), q's 0, where none
// are stored), a value for each cell of the scale grid, the zero points
// in the unsigned frame of intMatrix.
func (m *ctModule) grid() (scales, zeros []float32, err error) {
	raw, err := m.scale.read()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: tensor %q: %v", m.scale.File, m.scale.Name, err)
	}
	st, err := tensor.DecodeRaw(m.scale.DType, m.scale.Shape, raw)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: tensor %q: %v", m.scale.File, m.scale.Name, err)
	}
	scales = st.Floats()
	for g, s := range scales {
		if math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) {
			return nil, nil, fmt.Errorf("%s: tensor %q: scale #%d is %v", m.scale.File, m.scale.Name, g, s)
		}
	}
	// Zero points in the unsigned frame: q's zero 0 is 2^(bits−1).
	offset := float32(int(1) << (m.args.bits - 1))
	zeros = make([]float32, len(scales))
	for g := range zeros {
		zeros[g] = offset
	}
	z := m.zero
	if z == nil {
		return scales, zeros, nil
	}
	zraw, err := z.read()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: tensor %q: %v", z.File, z.Name, err)
	}
	if want := tensor.NumElements(z.Shape) * z.DType.ByteSize(); len(zraw) != want {
		return nil, nil, fmt.Errorf("%s: tensor %q holds %d bytes for %s", z.File, z.Name, len(zraw), z.Info.String())
	}
	if z.DType == tensor.I8 {
		for g := range zeros {
			zeros[g] += float32(int8(zraw[g]))
		}
		return scales, zeros, nil
	}
	// Packed along the rows: word (r/per, c) holds row r's value at bit
	// bits·(r mod per), unsigned as stored.
	bits := m.args.bits
	per, mask := 32/bits, uint32(1)<<bits-1
	for r := range m.srows {
		for c := range m.scols {
			word := binary.LittleEndian.Uint32(zraw[4*(r/per*m.scols+c):])
			zeros[r*m.scols+c] = float32(word >> (bits * (r % per)) & mask)
		}
	}
	return scales, zeros, nil
}

package weights

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Info describes one tensor of a checkpoint, without its data.
type Info struct {
	Name string
	// File is the file that holds it.
	File string
	// Shape is row-major (a GGUF matrix with ne = [k, n] is [n, k]).
	Shape []int
	// DType is the element type, or 0 for a quantised GGUF tensor.
	DType tensor.DType
	// Quant is a quantised tensor's block format.
	Quant gguf.Format
	// Type is the stored type as the file names it ("BF16", "Q8_0").
	Type string
	// Widened: a quantised checkpoint's int matrix (compressed-tensors,
	// GPTQ, AWQ) that no gguf block holds exactly, read as BF16: two
	// bytes a weight where the file holds one or half of one.
	Widened bool
	// Alt names the tensor this one is a second form of (a GPTQ module's
	// Ordered blocks and their Order), or is empty.
	Alt string
}

// String describes the tensor as messages show it: "BF16 [256, 64]".
func (i Info) String() string { return fmt.Sprintf("%s %v", i.Type, shapeString(i.Shape)) }

// typeString is the stored type as the IR spells types
// ("tensor<256x64xbf16>"), or the GGUF type and shape ("Q8_0 [64, 64]").
func (i Info) typeString() string {
	if i.DType.Valid() {
		return tensor.TypeString(i.DType, i.Shape)
	}
	return i.String()
}

func shapeString(s []int) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.Itoa(d)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Source is the tensors of a checkpoint, by name. It is safe for
// concurrent use.
type Source struct {
	// Path is the file or directory the source was opened from.
	Path string
	// GGUF is the header of a GGUF source (nil otherwise).
	GGUF *gguf.File

	entries map[string]*entry
	names   []string
	closers []io.Closer

	mu    sync.Mutex
	cache map[cacheKey]*tensor.Tensor
}

// cacheKey names a bound tensor: the weight, the type it was read as and,
// for packed blocks, the use they were converted for (the zero QuantUse
// for none).
type cacheKey struct {
	name, typ string
	use       ref.QuantUse
}

type entry struct {
	Info
	read func() ([]byte, error)
}

// Open opens a checkpoint: a GGUF file (recognised by its magic), a
// safetensors file, or a directory holding model.safetensors.index.json
// and its shards, or a single model.safetensors. gpt-oss's MXFP4 pairs
// are read as one tensor (pairMXFP4); a directory's compressed-tensors
// modules as gguf blocks or BF16 (pairCompressed), and its F8_E4M3
// weights with their block scales as BF16 (pairFP8).
func Open(path string) (*Source, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	s := &Source{Path: path, entries: map[string]*entry{}, cache: map[cacheKey]*tensor.Tensor{}}
	_, isGGUF := gguf.Sniff(path)
	switch {
	case st.IsDir():
		err = s.openDir(path)
	case isGGUF:
		err = s.openGGUF(path)
	default:
		err = s.openSafetensors(path, nil)
	}
	if err == nil && !isGGUF {
		err = s.pairMXFP4()
	}
	var cfgPath string // a directory's config.json, read once for both pairings
	var quant json.RawMessage
	if err == nil && st.IsDir() {
		if cfgPath, quant, err = quantConfig(path); err == nil {
			err = s.pairConfigured(cfgPath, quant)
		}
	}
	if err == nil && !isGGUF {
		err = s.pairFP8(cfgPath, quant)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	sort.Strings(s.names)
	return s, nil
}

// TypeMXFP4 is the Info.Type of a tensor made of a safetensors MXFP4 pair
// (pairMXFP4): [..., rows, columns] as its blocks are laid out.
const TypeMXFP4 = "MXFP4"

// pairMXFP4 replaces each pair NAME_blocks (U8 [..., rows, groups, 16])
// and NAME_scales (U8 [..., rows, groups]) of a safetensors checkpoint,
// the MXFP4 tensors of gpt-oss's published checkpoints, by one tensor
// NAME [..., rows, 32·groups] in gguf.MXFP4 blocks (Info.Quant; Info.Type
// TypeMXFP4), the pair's bytes rearranged when read (packMXFP4Pair): in
// each group of 32 of the pair, value 2j is the E2M1 code in the low
// nibble of byte j and value 2j + 1 the one in its high nibble, each ×
// 2^(scale − 127), which GGUF's block holds as its scale byte and the
// codes in q4_0's order. Read as f32 (gguf.Dequantize) its values are
// exact.
func (s *Source) pairMXFP4() error {
	for _, name := range slices.Clone(s.names) {
		base, ok := strings.CutSuffix(name, "_blocks")
		sc, paired := s.entries[base+"_scales"]
		if !ok || !paired {
			continue
		}
		bl := s.entries[name]
		n := len(bl.Shape)
		if bl.DType != tensor.UI8 || sc.DType != tensor.UI8 || n < 2 || bl.Shape[n-1] != 16 || !slices.Equal(sc.Shape, bl.Shape[:n-1]) {
			return fmt.Errorf("%s: tensors %q (%s) and %q (%s) are not MXFP4 blocks [..., 16] and their scales, both U8", bl.File, name, bl.Info.typeString(), base+"_scales", sc.Info.typeString())
		}
		if old, dup := s.entries[base]; dup {
			return fmt.Errorf("%s: tensor %q is also the MXFP4 pair %q, %q", old.File, base, name, base+"_scales")
		}
		shape := slices.Clone(sc.Shape)
		shape[len(shape)-1] *= 32
		info := Info{Name: base, File: bl.File, Shape: shape, Quant: gguf.MXFP4, Type: TypeMXFP4}
		if err := s.replace(&entry{Info: info, read: func() ([]byte, error) { return packMXFP4Pair(bl, sc) }}, name, base+"_scales"); err != nil {
			return err
		}
	}
	s.compactNames()
	return nil
}

// packMXFP4Pair reads an MXFP4 pair and lays it out as gguf.MXFP4
// blocks: each group's scale byte, then byte j the codes of values j
// (low nibble) and j + 16 (high).
func packMXFP4Pair(bl, sc *entry) ([]byte, error) {
	blocks, err := bl.read()
	if err != nil {
		return nil, fmt.Errorf("%s: tensor %q: %v", bl.File, bl.Name, err)
	}
	scales, err := sc.read()
	if err != nil {
		return nil, fmt.Errorf("%s: tensor %q: %v", sc.File, sc.Name, err)
	}
	if len(blocks) != 16*len(scales) {
		return nil, fmt.Errorf("%s: tensor %q holds %d bytes for %d scales", bl.File, bl.Name, len(blocks), len(scales))
	}
	out := make([]byte, 17*len(scales))
	for g, e := range scales {
		in, o := blocks[16*g:16*g+16], out[17*g:17*g+17]
		code := func(v int) byte { return in[v/2] >> (4 * (v % 2)) & 0xF }
		o[0] = e
		for j := range 16 {
			o[1+j] = code(j) | code(j+16)<<4
		}
	}
	return out, nil
}

// Close closes the source's files.
func (s *Source) Close() error {
	var first error
	for _, c := range s.closers {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	s.closers = nil
	return first
}

// Names returns the tensor names, sorted.
func (s *Source) Names() []string { return s.names }

// Info describes the tensor named name. A name with one `*` describes the
// stack of the tensors it matches (see the package doc).
func (s *Source) Info(name string) (Info, bool) {
	if strings.Contains(name, "*") {
		members, err := s.stackMembers(name)
		if err != nil {
			return Info{}, false
		}
		first := s.entries[members[0]].Info
		first.Name = name
		first.Shape = append([]int{len(members)}, first.Shape...)
		return first, true
	}
	e, ok := s.entries[name]
	if !ok {
		return Info{}, false
	}
	return e.Info, true
}

// Expand returns the checkpoint tensors a weight name binds: the members
// of a `*` stack, or the name itself when the checkpoint holds it.
func (s *Source) Expand(name string) []string {
	if strings.Contains(name, "*") {
		members, _ := s.stackMembers(name)
		return members
	}
	if _, ok := s.entries[name]; ok {
		return []string{name}
	}
	return nil
}

// replace takes the tensors named old out of the source and adds e in
// their place (e may take one of their names). The pairings call it a
// module at a time and compactNames once at their end: a checkpoint of
// 10⁵ tensors is paired in linear time.
func (s *Source) replace(e *entry, old ...string) error {
	for _, name := range old {
		delete(s.entries, name)
	}
	return s.add(e)
}

// compactNames drops from s.names what replace took out, and the second
// of a name replace gave back.
func (s *Source) compactNames() {
	seen := make(map[string]bool, len(s.entries))
	s.names = slices.DeleteFunc(s.names, func(x string) bool {
		_, ok := s.entries[x]
		drop := !ok || seen[x]
		seen[x] = true
		return drop
	})
}

func (s *Source) add(e *entry) error {
	if old, dup := s.entries[e.Name]; dup {
		return fmt.Errorf("%s: tensor %q is also in %s", e.File, e.Name, old.File)
	}
	s.entries[e.Name] = e
	s.names = append(s.names, e.Name)
	return nil
}

// openDir opens a Hugging Face checkpoint directory.
func (s *Source) openDir(dir string) error {
	index := filepath.Join(dir, "model.safetensors.index.json")
	if data, err := os.ReadFile(index); err == nil {
		var idx struct {
			WeightMap map[string]string `json:"weight_map"`
		}
		if err := json.Unmarshal(data, &idx); err != nil {
			return fmt.Errorf("%s: %v", index, err)
		}
		if len(idx.WeightMap) == 0 {
			return fmt.Errorf("%s: no weight_map", index)
		}
		byFile := map[string][]string{}
		for name, file := range idx.WeightMap {
			if file != filepath.Base(file) || file == "." || file == ".." {
				return fmt.Errorf("%s: tensor %q names shard %q outside the directory", index, name, file)
			}
			byFile[file] = append(byFile[file], name)
		}
		files := make([]string, 0, len(byFile))
		for f := range byFile {
			files = append(files, f)
		}
		sort.Strings(files)
		for _, f := range files {
			want := byFile[f]
			sort.Strings(want)
			if err := s.openSafetensors(filepath.Join(dir, f), want); err != nil {
				return err
			}
		}
		return nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	single := filepath.Join(dir, "model.safetensors")
	if _, err := os.Stat(single); err != nil {
		return fmt.Errorf("%s: no model.safetensors or model.safetensors.index.json in the directory", dir)
	}
	return s.openSafetensors(single, nil)
}

// openSafetensors adds the tensors of one safetensors file; with want (a
// shard of an index), exactly those tensors must be in it.
func (s *Source) openSafetensors(path string, want []string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	s.closers = append(s.closers, f)
	h, err := tensor.ReadSafetensorsHeader(f)
	if err != nil {
		return fmt.Errorf("%s: %v", path, strings.TrimPrefix(err.Error(), "safetensors: "))
	}
	st, err := f.Stat()
	if err != nil {
		return err
	}
	size := uint64(st.Size())
	var names []string
	for _, e := range h.Entries {
		if end := h.DataStart + e.End; end > size {
			return fmt.Errorf("%s: truncated: tensor %q needs bytes [%d, %d) of the file, which has %d",
				path, e.Name, h.DataStart+e.Begin, end, size)
		}
		begin, n := int64(h.DataStart+e.Begin), int(e.End-e.Begin)
		info := Info{Name: e.Name, File: path, Shape: e.Shape, DType: e.DType, Type: safetensorsName(e.DType)}
		if e.Stored != "" {
			info.Type = e.Stored // F8_E4M3, read as U8 until pairFP8 pairs it
		}
		if err := s.add(&entry{Info: info, read: func() ([]byte, error) {
			buf := make([]byte, n)
			_, err := f.ReadAt(buf, begin)
			return buf, err
		}}); err != nil {
			return err
		}
		names = append(names, e.Name)
	}
	if size > h.DataStart+h.DataSize {
		return fmt.Errorf("%s: %d bytes after the last tensor", path, size-h.DataStart-h.DataSize)
	}
	if want != nil {
		sort.Strings(names)
		for _, n := range want {
			if _, ok := slices.BinarySearch(names, n); !ok {
				return fmt.Errorf("%s: tensor %q, which model.safetensors.index.json places in this shard, is missing", path, n)
			}
		}
	}
	return nil
}

func safetensorsName(dt tensor.DType) string {
	switch dt {
	case tensor.F32:
		return "F32"
	case tensor.F16:
		return "F16"
	case tensor.BF16:
		return "BF16"
	case tensor.UI8:
		return "U8"
	case tensor.I8:
		return "I8"
	case tensor.I32:
		return "I32"
	case tensor.I64:
		return "I64"
	case tensor.I1:
		return "BOOL"
	}
	return dt.String()
}

// openGGUF adds the tensors of a GGUF file.
func (s *Source) openGGUF(path string) error {
	g, err := gguf.Open(path)
	if err != nil {
		return err
	}
	s.GGUF = g
	s.closers = append(s.closers, g)
	parts, err := splitParts(g, path)
	if err != nil {
		return err
	}
	tensors := len(g.Tensors)
	if err := s.addGGUF(g, path); err != nil {
		return err
	}
	for i, part := range parts[1:] {
		if g, err = gguf.Open(part); err != nil {
			return fmt.Errorf("%s: part %d of %d: %v", path, i+2, len(parts), err)
		}
		s.closers = append(s.closers, g)
		if err := checkPart(g, part, i+1, len(parts)); err != nil {
			return err
		}
		tensors += len(g.Tensors)
		if err := s.addGGUF(g, part); err != nil {
			return err
		}
	}
	if want, err := s.GGUF.Uint("split.tensors.count"); err == nil && len(parts) > 1 && int(want) != tensors {
		return fmt.Errorf("%s: split.tensors.count = %d, but its %d parts hold %d tensors", path, want, len(parts), tensors)
	}
	return nil
}

// splitPart is llama.cpp's name for part i (from 1) of n of a split
// GGUF file (llama-gguf-split): PREFIX-0000i-of-0000n.gguf.
var splitPart = regexp.MustCompile(`^(.*)-(\d{5})-of-(\d{5})\.gguf$`)

// splitParts returns the files of the GGUF file g opened from path: path
// alone, or, where its split.count is above 1, every part by llama.cpp's
// names (path must be the first part, which holds the metadata).
func splitParts(g *gguf.File, path string) ([]string, error) {
	n, err := g.Uint("split.count")
	if err != nil || n <= 1 {
		return []string{path}, nil
	}
	// The count must be the name's (five digits), which also bounds it.
	m := splitPart.FindStringSubmatch(path)
	switch {
	case m == nil:
		return nil, fmt.Errorf("%s: split.count = %d, but the name is not llama.cpp's PREFIX-00001-of-%05d.gguf, from which the other parts are named", path, n, n)
	case m[2] != "00001":
		return nil, fmt.Errorf("%s: part %s of a split GGUF file: open the first, %s-00001-of-%s.gguf, which holds the metadata", path, m[2], m[1], m[3])
	case m[3] != fmt.Sprintf("%05d", n):
		return nil, fmt.Errorf("%s: split.count = %d, but the name says %s parts", path, n, m[3])
	}
	if err := checkPart(g, path, 0, int(n)); err != nil {
		return nil, err
	}
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("%s-%05d-of-%05d.gguf", m[1], i+1, n)
	}
	return parts, nil
}

// checkPart checks that g, opened from path, is part i of n, counted from
// 0 as split.no counts (the message's numbers too).
func checkPart(g *gguf.File, path string, i, n int) error {
	no, err1 := g.Uint("split.no")
	count, err2 := g.Uint("split.count")
	if err1 != nil || err2 != nil || int(no) != i || int(count) != n {
		return fmt.Errorf("%s: split.no %d, split.count %d: not part %d of %d of the file it is named after", path, no, count, i, n)
	}
	return nil
}

// addGGUF adds the tensors of the GGUF file g (read from path).
func (s *Source) addGGUF(g *gguf.File, path string) error {
	for i := range g.Tensors {
		t := &g.Tensors[i]
		info := Info{Name: t.Name, File: path, Shape: t.Shape(), Type: t.Type.String()}
		switch t.Type {
		case gguf.TypeF32:
			info.DType = tensor.F32
		case gguf.TypeF16:
			info.DType = tensor.F16
		case gguf.TypeBF16:
			info.DType = tensor.BF16
		default:
			if f, ok := t.Type.Format(); ok {
				info.Quant = f
			}
		}
		if err := s.add(&entry{Info: info, read: func() ([]byte, error) { return g.TensorData(t) }}); err != nil {
			return err
		}
	}
	return nil
}

// Weight returns the tensor a graph.param of spec binds (ref.Weights).
func (s *Source) Weight(spec ref.Spec) (*tensor.Tensor, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := cacheKey{name: spec.Name, typ: spec.Type.String()}
	if spec.Quant != nil {
		key.use = *spec.Quant // a conversion depends on the whole use
	}
	if t, ok := s.cache[key]; ok {
		return t, nil
	}
	var t *tensor.Tensor
	var err error
	if strings.Contains(spec.Name, "*") {
		t, err = s.stack(spec)
	} else {
		t, err = s.load(spec.Name, spec.Type)
	}
	if err == nil {
		t, err = s.convert(t, spec)
	}
	if err != nil {
		return nil, err
	}
	s.cache[key] = t
	return t, nil
}

// convert gives the packed blocks t of a quantised weight the format the
// graph.dequant_matmul reading them asks for (spec.Quant): as stored, or
// rearranged by ref.ConvertPacked (q6_k into q6_k_c16's columns), which
// refuses any other difference of format.
func (s *Source) convert(t *tensor.Tensor, spec ref.Spec) (*tensor.Tensor, error) {
	q := spec.Quant
	if q == nil || t.DType() != tensor.UI8 {
		return t, nil
	}
	e, ok := s.entries[strings.Replace(spec.Name, "*", "0", 1)]
	if !ok || !e.Quant.Valid() || e.Quant == q.Format {
		return t, nil
	}
	return ref.ConvertPacked(t, e.Quant, *q, spec.Name, " in "+e.File)
}

// load reads the tensor name as type want.
func (s *Source) load(name string, want ref.TensorType) (*tensor.Tensor, error) {
	e, ok := s.entries[name]
	if !ok {
		return nil, fmt.Errorf("no weight named %q in %s", name, s.Path)
	}
	mismatch := func() error {
		return fmt.Errorf("weight %q is %s in %s, expected %v", name, e.Info.typeString(), e.File, want)
	}
	raw, err := e.read()
	if err != nil {
		return nil, fmt.Errorf("%s: tensor %q: %v", e.File, name, err)
	}
	switch {
	case e.Quant.Valid() && want.DType == tensor.UI8:
		if tensor.NumElements(want.Shape) != len(raw) {
			return nil, mismatch()
		}
		return tensor.FromBytes(want.Shape, raw)
	case e.Quant.Valid() && want.DType == tensor.F32:
		if !slices.Equal(want.Shape, e.Shape) || len(e.Shape) < 2 {
			return nil, mismatch()
		}
		k := e.Shape[len(e.Shape)-1]
		v, err := gguf.Dequantize(e.Quant, raw, len(raw)/(k/e.Quant.BlockSize()*e.Quant.BlockBytes()), k)
		if err != nil {
			return nil, fmt.Errorf("%s: tensor %q: %v", e.File, name, err)
		}
		return tensor.FromFloat32(tensor.F32, want.Shape, v)
	case e.DType == 0 || e.DType != want.DType || !slices.Equal(want.Shape, e.Shape):
		return nil, mismatch()
	}
	return tensor.DecodeRaw(e.DType, e.Shape, raw)
}

// stackMembers returns the names a stacked name matches: `*` replaced by
// 0, 1, 2, … for as long as such a tensor exists.
func (s *Source) stackMembers(name string) ([]string, error) {
	if strings.Count(name, "*") != 1 {
		return nil, fmt.Errorf("weight name %q has more than one `*`", name)
	}
	var members []string
	for i := 0; ; i++ {
		m := strings.Replace(name, "*", strconv.Itoa(i), 1)
		if _, ok := s.entries[m]; !ok {
			break
		}
		members = append(members, m)
	}
	if len(members) == 0 {
		return nil, fmt.Errorf("no weight named %q in %s (for the stacked weight %q)", strings.Replace(name, "*", "0", 1), s.Path, name)
	}
	return members, nil
}

// stack binds a `*` param: the members as type want minus its leading
// dim, stacked.
func (s *Source) stack(spec ref.Spec) (*tensor.Tensor, error) {
	members, err := s.stackMembers(spec.Name)
	if err != nil {
		return nil, err
	}
	want := spec.Type
	one := ref.TensorType{DType: want.DType}
	switch {
	case spec.Quant != nil && want.DType == tensor.UI8 && len(want.Shape) == 1 && want.Shape[0]%len(members) == 0:
		// Quantised blocks, packed flat: the members' bytes end to end.
		one.Shape = []int{want.Shape[0] / len(members)}
	case len(want.Shape) == 0 || want.Shape[0] != len(members):
		return nil, fmt.Errorf("weight %q stacks %d tensors in %s, expected %v", spec.Name, len(members), s.Path, want)
	default:
		one.Shape = want.Shape[1:]
	}
	var buf bytes.Buffer
	var floats []float32
	for _, m := range members {
		t, err := s.load(m, one)
		if err != nil {
			return nil, err
		}
		switch {
		case t.DType().IsFloat():
			floats = append(floats, t.Floats()...)
		case t.DType() == tensor.UI8:
			buf.Write(t.Bytes())
		default:
			return nil, fmt.Errorf("weight %q: stacking %v tensors is not supported", spec.Name, t.DType())
		}
	}
	if want.DType == tensor.UI8 {
		return tensor.FromBytes(want.Shape, buf.Bytes())
	}
	return tensor.FromFloat32(want.DType, want.Shape, floats)
}

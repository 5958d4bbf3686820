package vocab

import (
	"container/heap"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rlx-compiler/rlx/runtime/gguf"
)

// Encoding text as the tokenizers library encodes it with a BPE
// tokenizer.json: the added tokens split out first (leftmost-longest,
// the normalized ones after the normalizer), the normalizer, the
// pre-tokeniser (ByteLevel, Metaspace, Split by a regex),
// BPE merges by rank over each piece (byte fallback, ignore_merges), and
// the post-processor's template (TemplateProcessing's special tokens
// around the text).

// preJSON is a tokenizer.json pre_tokenizer.
type preJSON struct {
	Type           string     `json:"type"`
	PreTokenizers  []*preJSON `json:"pretokenizers"`
	AddPrefixSpace bool       `json:"add_prefix_space"`
	UseRegex       *bool      `json:"use_regex"`
	Pattern        struct {
		Regex  *string `json:"Regex"`
		String *string `json:"String"`
	} `json:"pattern"`
	Behavior string `json:"behavior"`
	Invert   bool   `json:"invert"`
	// Metaspace's.
	Replacement   string  `json:"replacement"`
	PrependScheme *string `json:"prepend_scheme"`
	Split         *bool   `json:"split"`
	// Digits'.
	IndividualDigits bool `json:"individual_digits"`
}

// postJSON is a tokenizer.json post_processor.
type postJSON struct {
	Type       string      `json:"type"`
	Processors []*postJSON `json:"processors"`
	Single     []struct {
		SpecialToken *struct {
			ID string `json:"id"`
		} `json:"SpecialToken"`
		Sequence *struct {
			ID string `json:"id"`
		} `json:"Sequence"`
	} `json:"single"`
	SpecialTokens map[string]struct {
		IDs []int `json:"ids"`
	} `json:"special_tokens"`
}

// gpt2Pattern is GPT-2's pre-tokeniser regex, which a ByteLevel
// pre-tokeniser with use_regex splits by.
const gpt2Pattern = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`

// encoder encodes text for one tokenizer.json.
type encoder struct {
	vocab  map[string]int
	merges map[[2]int]merge
	// added are the added tokens: raw ones matched in the text,
	// normalized ones in each normalized segment.
	raw, normalized addedSet
	normalizer      *normalizerJSON
	pre             []preStep
	ignoreMerges    bool
	byteFallback    bool
	fuseUnk         bool
	unk             int // -1: none
	// prefix and suffix are the post-processor's special tokens around
	// the text.
	prefix, suffix []int
	postErr        error
}

type merge struct{ rank, id int }

// preStep is one pre-tokeniser: it splits a piece into pieces; first
// says the piece starts the whole text.
type preStep func(piece string, first bool) []string

// byteLevelStep is ByteLevel: a space before a piece that has none
// (add_prefix_space, to every piece it meets), the split (GPT-2's regex
// where use_regex; none when split is nil), each part's bytes spelled
// with GPT-2's table.
func byteLevelStep(prefixSpace bool, split *splitter) preStep {
	return func(p string, _ bool) []string {
		if prefixSpace && !strings.HasPrefix(p, " ") {
			p = " " + p
		}
		parts := []string{p}
		if split != nil {
			parts = split.split(p)
		}
		for i, q := range parts {
			parts[i] = gpt2Spell(q)
		}
		return parts
	}
}

// metaspaceStep is Metaspace: spaces as the replacement, which is
// prepended per the scheme ("always", or "first" at the text's start
// only, or "never"); with split, a piece starts at each replacement.
func metaspaceStep(meta, scheme string, split bool) preStep {
	return func(p string, first bool) []string {
		p = strings.ReplaceAll(p, " ", meta)
		if !strings.HasPrefix(p, meta) && (scheme == "always" || scheme == "first" && first) {
			p = meta + p
		}
		if split {
			return splitBefore(p, meta)
		}
		return []string{p}
	}
}

func newEncoder(t *tokenizerJSON) (*encoder, error) {
	m := &t.Model
	switch {
	case m.Dropout != nil && *m.Dropout != 0:
		return nil, errors.New("BPE dropout is set: encoding would be random")
	case m.SubwordPrefix != nil && *m.SubwordPrefix != "", m.EndOfWordSuffix != nil && *m.EndOfWordSuffix != "":
		return nil, errors.New("BPE with a continuing_subword_prefix or end_of_word_suffix is not supported")
	}
	e := &encoder{vocab: m.Vocab, ignoreMerges: m.IgnoreMerges, byteFallback: m.ByteFallback, fuseUnk: m.FuseUnk, unk: -1, normalizer: t.Normalizer}
	if m.UnkToken != nil {
		id, ok := m.Vocab[*m.UnkToken]
		if !ok {
			return nil, fmt.Errorf("unk_token %q is not in the vocab", *m.UnkToken)
		}
		e.unk = id
	}
	if err := e.readMerges(m.Merges); err != nil {
		return nil, err
	}
	for _, a := range t.AddedTokens {
		if a.SingleWord || a.LStrip || a.RStrip {
			return nil, fmt.Errorf("added token %q has single_word, lstrip or rstrip, which rlx does not apply", a.Content)
		}
		if a.Content == "" {
			continue
		}
		// The library matches the tokens marked normalized, special or
		// not, in the normalized text, as normalized themselves.
		if a.Normalized {
			text, err := t.Normalizer.normalize(a.Content)
			if err != nil {
				return nil, fmt.Errorf("added token %q: %v", a.Content, err)
			}
			e.normalized.add(added{text, a.ID})
		} else {
			e.raw.add(added{a.Content, a.ID})
		}
	}
	if _, err := t.Normalizer.normalize("x"); err != nil {
		return nil, err
	}
	var err error
	if e.pre, err = preSteps(t.PreTokenizer); err != nil {
		return nil, err
	}
	e.prefix, e.suffix, e.postErr = template(t.PostProcessor)
	return e, nil
}

// readMerges reads the merges, as ["a", "b"] pairs or "a b" strings.
func (e *encoder) readMerges(raw json.RawMessage) error {
	e.merges = map[[2]int]merge{}
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return fmt.Errorf("merges: %v", err)
	}
	for rank, it := range items {
		var pair []string
		if err := json.Unmarshal(it, &pair); err != nil {
			var s string
			if json.Unmarshal(it, &s) != nil {
				return fmt.Errorf("merge #%d is %s, want [\"a\", \"b\"] or \"a b\"", rank, it)
			}
			pair = strings.Split(s, " ")
		}
		if len(pair) != 2 {
			return fmt.Errorf("merge #%d is %s, want two tokens", rank, it)
		}
		if err := e.addMerge(rank, pair[0], pair[1]); err != nil {
			return err
		}
	}
	return nil
}

// addMerge adds the merge of a and b, of the given rank.
func (e *encoder) addMerge(rank int, a, b string) error {
	ia, okA := e.vocab[a]
	ib, okB := e.vocab[b]
	id, okN := e.vocab[a+b]
	if !okA || !okB || !okN {
		return fmt.Errorf("merge #%d (%q, %q) names a token the vocab lacks", rank, a, b)
	}
	if _, dup := e.merges[[2]int{ia, ib}]; !dup {
		e.merges[[2]int{ia, ib}] = merge{rank, id}
	}
	return nil
}

// ggufEncoder builds the encoder of a GGUF "gpt2" vocabulary:
// tokenizer.ggml.merges, the pre-tokeniser tokenizer.ggml.pre names,
// control and user-defined tokens matched in the text as llama.cpp does
// when it parses special tokens, and tokenizer.ggml.add_bos_token.
func ggufEncoder(f *gguf.File, v *Vocab) (*encoder, error) {
	// llama.cpp takes a file without tokenizer.ggml.pre as "default".
	pre, err := f.String("tokenizer.ggml.pre")
	if err != nil {
		pre = "default"
	}
	p, ok := ggufPre[pre]
	if !ok {
		return nil, fmt.Errorf("tokenizer.ggml.pre %q is not one rlx encodes with (those of llama.cpp's default, GPT-2, StarCoder, Falcon, BLOOM, Chameleon, SuperBPE, Qwen2, Qwen3.5, Llama 3, DBRX, DeepSeek LLM, Coder and V3, tekken and GPT-4o and their kin: see llama-vocab.cpp)", pre)
	}
	e := &encoder{merges: map[[2]int]merge{}, unk: -1, ignoreMerges: p.ignoreMerges}
	e.vocab, e.raw = ggufTokens(v)
	if e.pre, err = p.steps(); err != nil {
		return nil, err
	}
	raw, _ := f.Get("tokenizer.ggml.merges")
	merges, isArray := raw.([]any)
	if !isArray {
		return nil, errors.New("tokenizer.ggml.merges is missing or not an array")
	}
	for rank, m := range merges {
		s, ok := m.(string)
		a, b, found := strings.Cut(s, " ")
		if !ok || !found {
			return nil, fmt.Errorf("tokenizer.ggml.merges[%d] is %v, want \"a b\"", rank, m)
		}
		if err := e.addMerge(rank, a, b); err != nil {
			return nil, fmt.Errorf("tokenizer.ggml.merges: %v", err)
		}
	}
	if e.prefix, err = ggufBOS(f, v, p.addBOS); err != nil {
		return nil, err
	}
	return e, nil
}

// ggufTokens returns a GGUF vocabulary's ids by piece (the first id of a
// piece listed twice) and its control and user-defined tokens, which
// llama.cpp matches in the text when it parses special tokens.
func ggufTokens(v *Vocab) (map[string]int, addedSet) {
	ids := map[string]int{}
	var special addedSet
	for i, piece := range v.Pieces {
		if piece == "" {
			continue
		}
		if _, dup := ids[piece]; !dup {
			ids[piece] = i
		}
		if v.Raw[i] {
			special.add(added{piece, i})
		}
	}
	return ids, special
}

// ggufBOS returns the token a GGUF vocabulary puts first:
// tokenizer.ggml.bos_token_id where tokenizer.ggml.add_bos_token is
// true, or where it is absent and on is llama.cpp's default.
func ggufBOS(f *gguf.File, v *Vocab, on bool) ([]int, error) {
	if b, ok := f.Get("tokenizer.ggml.add_bos_token"); ok {
		on = b == true
	}
	if !on {
		return nil, nil
	}
	bos, err := f.Uint("tokenizer.ggml.bos_token_id")
	if err != nil || bos >= uint64(len(v.Pieces)) {
		return nil, errors.New("tokenizer.ggml.bos_token_id is missing or past the tokens, and add_bos_token is on")
	}
	return []int{int(bos)}, nil
}

// preSteps reads a pre_tokenizer.
func preSteps(p *preJSON) ([]preStep, error) {
	if p == nil {
		return nil, nil
	}
	switch p.Type {
	case "Sequence":
		var steps []preStep
		for _, q := range p.PreTokenizers {
			if q == nil {
				return nil, errors.New("a null pre-tokenizer in the sequence")
			}
			s, err := preSteps(q)
			if err != nil {
				return nil, err
			}
			steps = append(steps, s...)
		}
		return steps, nil
	case "ByteLevel":
		var split *splitter
		if p.UseRegex == nil || *p.UseRegex {
			var err error
			if split, err = newSplitter(gpt2Pattern); err != nil {
				return nil, err
			}
		}
		return []preStep{byteLevelStep(p.AddPrefixSpace, split)}, nil
	case "Metaspace":
		scheme := "always"
		if p.PrependScheme != nil {
			scheme = *p.PrependScheme
		} else if !p.AddPrefixSpace {
			scheme = "never"
		}
		switch {
		case utf8.RuneCountInString(p.Replacement) != 1:
			return nil, fmt.Errorf("a Metaspace pre-tokenizer's replacement %q is not one character", p.Replacement)
		case scheme != "always" && scheme != "first" && scheme != "never":
			return nil, fmt.Errorf("a Metaspace pre-tokenizer's prepend_scheme %q is not always, first or never", scheme)
		}
		return []preStep{metaspaceStep(p.Replacement, scheme, p.Split == nil || *p.Split)}, nil
	case "Split":
		if p.Invert || p.Behavior != "Isolated" {
			return nil, fmt.Errorf("a Split pre-tokenizer with behavior %q (invert %v) is not supported (rlx applies Isolated)", p.Behavior, p.Invert)
		}
		var pattern string
		switch {
		case p.Pattern.Regex != nil:
			pattern = *p.Pattern.Regex
		case p.Pattern.String != nil:
			pattern = regexp.QuoteMeta(*p.Pattern.String)
		default:
			return nil, errors.New("a Split pre-tokenizer without a pattern")
		}
		s, err := newSplitter(pattern)
		if err != nil {
			return nil, err
		}
		return []preStep{func(p string, _ bool) []string { return s.split(p) }}, nil
	case "Digits":
		individual := p.IndividualDigits
		return []preStep{func(p string, _ bool) []string { return splitDigits(p, individual) }}, nil
	}
	return nil, fmt.Errorf("pre-tokenizer %q is not supported (rlx applies ByteLevel, Metaspace, Split, Digits and Sequence)", p.Type)
}

// splitDigits isolates the numbers (Unicode category N) of s, each
// alone when individual, else runs of them, as the tokenizers library's
// Digits pre-tokeniser does.
func splitDigits(s string, individual bool) []string {
	var out []string
	start, inDigits := 0, false
	for i, r := range s {
		digit := unicode.IsNumber(r)
		if i > start && (digit != inDigits || digit && individual) {
			out = append(out, s[start:i])
			start = i
		}
		inDigits = digit
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// template reads the post-processor's special tokens around a single
// sequence.
func template(p *postJSON) (prefix, suffix []int, err error) {
	if p == nil {
		return nil, nil, nil
	}
	switch p.Type {
	case "ByteLevel":
		return nil, nil, nil // offsets only
	case "Sequence":
		for _, q := range p.Processors {
			if q == nil {
				return nil, nil, errors.New("a null post-processor in the sequence")
			}
			pre, suf, err := template(q)
			if err != nil {
				return nil, nil, err
			}
			if len(pre)+len(suf) > 0 && len(prefix)+len(suffix) > 0 {
				return nil, nil, errors.New("two post-processors add special tokens")
			}
			if len(pre)+len(suf) > 0 {
				prefix, suffix = pre, suf
			}
		}
		return prefix, suffix, nil
	case "TemplateProcessing":
		seen := false
		for _, it := range p.Single {
			switch {
			case it.Sequence != nil && it.Sequence.ID == "A" && !seen:
				seen = true
			case it.SpecialToken != nil:
				st, ok := p.SpecialTokens[it.SpecialToken.ID]
				if !ok {
					return nil, nil, fmt.Errorf("the template's special token %q is not among its special_tokens", it.SpecialToken.ID)
				}
				if seen {
					suffix = append(suffix, st.IDs...)
				} else {
					prefix = append(prefix, st.IDs...)
				}
			default:
				return nil, nil, errors.New("the template's single sequence is not special tokens around $A")
			}
		}
		if !seen {
			return nil, nil, errors.New("the template has no $A")
		}
		return prefix, suffix, nil
	}
	return nil, nil, fmt.Errorf("post-processor %q is not supported (rlx applies TemplateProcessing, ByteLevel and Sequence)", p.Type)
}

// Encode returns the ids of text as the tokenizers library's encode
// gives them; withSpecial adds the special tokens the post-processor's
// template puts around the text (transformers' tokenizer(text) does), or
// for a GGUF vocabulary the BOS token add_bos_token asks for.
func (v *Vocab) Encode(text string, withSpecial bool) ([]int, error) {
	switch {
	case !utf8.ValidString(text):
		return nil, errors.New("the text is not UTF-8")
	case v.encErr != nil:
		return nil, v.encErr
	case v.enc == nil:
		return nil, errors.New("this vocabulary cannot encode text")
	}
	return v.enc.encode(text, withSpecial)
}

func (e *encoder) encode(text string, withSpecial bool) ([]int, error) {
	if withSpecial && e.postErr != nil {
		return nil, e.postErr
	}
	var ids []int
	if withSpecial {
		ids = append(ids, e.prefix...)
	}
	for i, seg := range e.raw.split(text) {
		if seg.id >= 0 {
			ids = append(ids, seg.id)
			continue
		}
		norm, err := e.normalizer.normalize(seg.text)
		if err != nil {
			return nil, err
		}
		for j, s2 := range e.normalized.split(norm) {
			if s2.id >= 0 {
				ids = append(ids, s2.id)
				continue
			}
			// Metaspace's "first" prepends only at the text's start.
			for _, word := range e.preTokenize(s2.text, i == 0 && j == 0) {
				ids = append(ids, e.bpe(word)...)
			}
		}
	}
	if withSpecial {
		ids = append(ids, e.suffix...)
	}
	return ids, nil
}

// preTokenize applies the pre-tokenisers in order to text, which is at
// the start of the whole text when atStart.
func (e *encoder) preTokenize(text string, atStart bool) []string {
	pieces := []string{text}
	for _, step := range e.pre {
		var next []string
		for k, p := range pieces {
			next = append(next, step(p, atStart && k == 0)...)
		}
		pieces = next
	}
	return pieces
}

// splitBefore splits s before each sep (the sep stays with what follows).
func splitBefore(s, sep string) []string {
	var out []string
	for len(s) > 1 {
		i := strings.Index(s[1:], sep)
		if i < 0 {
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

// gpt2Spell spells s's bytes with GPT-2's table.
func gpt2Spell(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(gpt2Rune(s[i]))
	}
	return b.String()
}

// gpt2Rune is GPT-2's bytes_to_unicode for one byte (gpt2Byte inverts it).
func gpt2Rune(c byte) rune {
	switch {
	case c >= '!' && c <= '~', c >= 0xA1 && c <= 0xAC, c >= 0xAE:
		return rune(c)
	case c <= 32:
		return 0x100 + rune(c)
	case c <= 160:
		return 0x100 + 33 + rune(c-127)
	}
	return 0x100 + 67 // 173
}

// bpe encodes one pre-tokenised piece.
func (e *encoder) bpe(word string) []int {
	if word == "" {
		return nil
	}
	if id, ok := e.vocab[word]; ok && e.ignoreMerges {
		return []int{id}
	}
	var syms []int
	for _, r := range word {
		if id, ok := e.vocab[string(r)]; ok {
			syms = append(syms, id)
			continue
		}
		if e.byteFallback {
			var bytes []int
			for _, c := range []byte(string(r)) {
				id, ok := e.vocab[fmt.Sprintf("<0x%02X>", c)]
				if !ok {
					bytes = nil
					break
				}
				bytes = append(bytes, id)
			}
			if bytes != nil {
				syms = append(syms, bytes...)
				continue
			}
		}
		if e.unk < 0 {
			continue // the library drops a character it cannot spell
		}
		if e.fuseUnk && len(syms) > 0 && syms[len(syms)-1] == e.unk {
			continue
		}
		syms = append(syms, e.unk)
	}
	return e.mergeAll(syms)
}

// mergeAll applies the merges to syms, the lowest rank first and, among
// equal ranks, the leftmost (the tokenizers library's order), in
// O(n log n): the symbols as a linked list, the candidate pairs in a heap
// whose stale entries are skipped.
func (e *encoder) mergeAll(syms []int) []int {
	n := len(syms)
	next, prev := make([]int, n), make([]int, n)
	for i := range syms {
		next[i], prev[i] = i+1, i-1
	}
	h := &heapOf[pair]{less: func(a, b pair) bool { return a.rank < b.rank || a.rank == b.rank && a.pos < b.pos }}
	push := func(i int) {
		if i < 0 || next[i] >= n {
			return
		}
		if m, ok := e.merges[[2]int{syms[i], syms[next[i]]}]; ok {
			heap.Push(h, pair{m.rank, i, syms[i], syms[next[i]], m.id})
		}
	}
	for i := range n - 1 {
		push(i)
	}
	gone := make([]bool, n)
	for h.Len() > 0 {
		p := heap.Pop(h).(pair)
		j := next[p.pos]
		if gone[p.pos] || j >= n || syms[p.pos] != p.left || syms[j] != p.right {
			continue // stale: a symbol changed since the pair was pushed
		}
		syms[p.pos] = p.id
		gone[j] = true
		next[p.pos] = next[j]
		if next[j] < n {
			prev[next[j]] = p.pos
		}
		push(prev[p.pos])
		push(p.pos)
	}
	out := syms[:0]
	for i := 0; i < n; i = next[i] {
		out = append(out, syms[i])
	}
	return out
}

// pair is a candidate merge of the symbols at pos and after it.
type pair struct{ rank, pos, left, right, id int }

// heapOf is a container/heap of T ordered by less.
type heapOf[T any] struct {
	items []T
	less  func(a, b T) bool
}

func (h *heapOf[T]) Len() int           { return len(h.items) }
func (h *heapOf[T]) Less(i, j int) bool { return h.less(h.items[i], h.items[j]) }
func (h *heapOf[T]) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *heapOf[T]) Push(x any)         { h.items = append(h.items, x.(T)) }
func (h *heapOf[T]) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

package vocab

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rlx-compiler/rlx/runtime/gguf"
)

// ErrNone is returned by Open for a checkpoint that carries no
// vocabulary.
var ErrNone = errors.New("no vocabulary")

// Kind is how a vocabulary's pieces spell text.
type Kind int

const (
	// ByteLevel is GPT-2's byte-level BPE.
	ByteLevel Kind = iota + 1
	// SentencePiece is SentencePiece's "▁" and <0xNN> pieces.
	SentencePiece
)

func (k Kind) String() string {
	switch k {
	case ByteLevel:
		return "byte-level BPE"
	case SentencePiece:
		return "SentencePiece"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Vocab is a vocabulary: a piece for each token id.
type Vocab struct {
	Kind Kind
	// Pieces are the tokens' strings by id; "" for an id the vocabulary
	// leaves unused.
	Pieces []string
	// Raw marks the ids whose piece is text as it is (control and added
	// tokens), not spelled in the vocabulary's scheme.
	Raw map[int]bool
	// Special marks the special tokens (a tokenizer.json's added tokens
	// marked special, a GGUF's control tokens): the ones
	// DecodeSkipSpecial leaves out.
	Special map[int]bool
	// StripSpace: the text drops one leading space (the tokenizer's
	// prefix space before the first word).
	StripSpace bool
	// ByteFallback: a SentencePiece vocabulary's <0xNN> pieces are bytes
	// (else their text).
	ByteFallback bool
	// FirstDropsSpaces: every "▁" of the first token is dropped rather
	// than made a space (the tokenizers library's Metaspace decoder).
	FirstDropsSpaces bool
	// Lossy: bytes that do not form UTF-8 become U+FFFD as the tokenizers
	// library's decoders make them (a tokenizer.json); otherwise they are
	// kept (llama.cpp's detokeniser, for a GGUF vocabulary).
	Lossy bool

	// enc encodes text (a tokenizer.json's BPE, a GGUF's BPE or
	// SentencePiece), else encErr says why not.
	enc    textEncoder
	encErr error
}

// textEncoder is how a vocabulary encodes text: Encode's work once the
// text is known to be UTF-8.
type textEncoder interface {
	encode(text string, withSpecial bool) ([]int, error)
}

// maxTokens bounds a vocabulary's size (the largest real ones hold a few
// hundred thousand pieces).
const maxTokens = 1 << 22

// Open reads the vocabulary of a checkpoint: a GGUF file's metadata, a
// tokenizer.json named itself (any file ending in .json), or the
// tokenizer.json of a checkpoint directory (or of the directory of a
// safetensors file). It returns ErrNone (wrapped, naming the place) when
// there is none.
func Open(path string) (*Vocab, error) {
	f, dir, err := Locate(path)
	if err != nil {
		return nil, err
	}
	if f != nil {
		defer f.Close()
		return FromGGUF(f)
	}
	name := filepath.Join(dir, "tokenizer.json")
	if dir != path && strings.HasSuffix(path, ".json") {
		name = path
	}
	data, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w (no tokenizer.json)", dir, ErrNone)
	}
	if err != nil {
		return nil, err
	}
	v, err := FromTokenizerJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return v, nil
}

// Locate finds the checkpoint path names, as Open and StopTokens read
// it: a GGUF file, opened (the caller closes it), or else a checkpoint
// directory: path, or the directory of the file path names.
func Locate(path string) (*gguf.File, string, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, "", err
	case st.IsDir():
		return nil, path, nil
	}
	if _, ok := gguf.Sniff(path); ok {
		f, err := gguf.Open(path)
		return f, "", err
	}
	return nil, filepath.Dir(path), nil
}

// GGUF's token types (tokenizer.ggml.token_type).
const (
	ggufControl     = 3
	ggufUserDefined = 4
	ggufUnused      = 5
	ggufByte        = 6
)

// FromGGUF reads the vocabulary of a GGUF file: tokenizer.ggml.model
// ("gpt2" or "llama"), tokenizer.ggml.tokens and, where present,
// tokenizer.ggml.token_type and tokenizer.ggml.add_space_prefix.
func FromGGUF(f *gguf.File) (*Vocab, error) {
	v, err := ggufPieces(f)
	if err != nil {
		return nil, err
	}
	// What the vocabulary cannot encode with is said when it is asked to.
	if v.Kind == ByteLevel {
		v.enc, err = ggufEncoder(f, v)
	} else {
		v.enc, err = ggufSPM(f, v)
	}
	if err != nil {
		v.enc, v.encErr = nil, fmt.Errorf("%s: %v", f.Name, err)
	}
	return v, nil
}

// ggufPieces reads a GGUF vocabulary's kind, pieces and token types.
func ggufPieces(f *gguf.File) (*Vocab, error) {
	model, err := f.String("tokenizer.ggml.model")
	if err != nil {
		return nil, fmt.Errorf("%s: %w (no tokenizer.ggml.model)", f.Name, ErrNone)
	}
	v := &Vocab{Raw: map[int]bool{}, Special: map[int]bool{}}
	switch model {
	case "gpt2":
		v.Kind = ByteLevel
	case "llama":
		v.Kind, v.ByteFallback = SentencePiece, true
		v.StripSpace = true
		if b, ok := f.Get("tokenizer.ggml.add_space_prefix"); ok {
			on, isBool := b.(bool)
			if !isBool {
				return nil, fmt.Errorf("%s: tokenizer.ggml.add_space_prefix is %v (%T), want a bool", f.Name, b, b)
			}
			v.StripSpace = on
		}
	case "no_vocab":
		return nil, fmt.Errorf("%s: %w (tokenizer.ggml.model is no_vocab)", f.Name, ErrNone)
	default:
		return nil, fmt.Errorf("%s: tokenizer.ggml.model %q is not supported (rlx decodes gpt2 and llama)", f.Name, model)
	}
	tokens, ok, err := ggufTokenList(f)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, fmt.Errorf("%s: tokenizer.ggml.model is %q but tokenizer.ggml.tokens is missing", f.Name, model)
	case len(tokens) == 0 || len(tokens) > maxTokens:
		return nil, fmt.Errorf("%s: tokenizer.ggml.tokens holds %d tokens (want 1 to %d)", f.Name, len(tokens), maxTokens)
	}
	v.Pieces = tokens
	if raw, ok := f.Get("tokenizer.ggml.token_type"); ok {
		types, isArray := raw.([]any)
		if !isArray || len(types) != len(tokens) {
			return nil, fmt.Errorf("%s: tokenizer.ggml.token_type must be an array of %d integers, one a token", f.Name, len(tokens))
		}
		for i, t := range types {
			n, ok := t.(int32)
			if !ok {
				return nil, fmt.Errorf("%s: tokenizer.ggml.token_type[%d] is %v (%T), want an int32", f.Name, i, t, t)
			}
			switch n {
			case ggufControl, ggufUserDefined:
				v.Raw[i] = true
				v.Special[i] = n == ggufControl
			case ggufUnused:
				v.Pieces[i] = ""
			case ggufByte:
				if _, ok := bytePiece(v.Pieces[i]); !ok {
					return nil, fmt.Errorf("%s: token %d, %q, is of type byte but is not <0xNN>", f.Name, i, v.Pieces[i])
				}
			}
		}
	}
	return v, nil
}

// ggufTokenList reads tokenizer.ggml.tokens as strings; ok is false
// where the file has no such key.
func ggufTokenList(f *gguf.File) (tokens []string, ok bool, err error) {
	raw, ok := f.Get("tokenizer.ggml.tokens")
	if !ok {
		return nil, false, nil
	}
	list, isArray := raw.([]any)
	if !isArray {
		return nil, true, fmt.Errorf("%s: tokenizer.ggml.tokens is %T, want an array of strings", f.Name, raw)
	}
	tokens = make([]string, len(list))
	for i, t := range list {
		s, isString := t.(string)
		if !isString {
			return nil, true, fmt.Errorf("%s: tokenizer.ggml.tokens[%d] is %T, want a string", f.Name, i, t)
		}
		tokens[i] = s
	}
	return tokens, true, nil
}

// tokenizerJSON is what FromTokenizerJSON reads of a tokenizer.json.
type tokenizerJSON struct {
	Model struct {
		Type  string         `json:"type"`
		Vocab map[string]int `json:"vocab"`
		// What encoding reads (encode.go).
		Merges          json.RawMessage `json:"merges"`
		Dropout         *float64        `json:"dropout"`
		UnkToken        *string         `json:"unk_token"`
		SubwordPrefix   *string         `json:"continuing_subword_prefix"`
		EndOfWordSuffix *string         `json:"end_of_word_suffix"`
		FuseUnk         bool            `json:"fuse_unk"`
		ByteFallback    bool            `json:"byte_fallback"`
		IgnoreMerges    bool            `json:"ignore_merges"`
	} `json:"model"`
	AddedTokens   []addedJSON     `json:"added_tokens"`
	Normalizer    *normalizerJSON `json:"normalizer"`
	PreTokenizer  *preJSON        `json:"pre_tokenizer"`
	PostProcessor *postJSON       `json:"post_processor"`
	Decoder       *decoderJSON    `json:"decoder"`
}

type addedJSON struct {
	ID         int    `json:"id"`
	Content    string `json:"content"`
	Special    bool   `json:"special"`
	Normalized bool   `json:"normalized"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
}

type normalizerJSON struct {
	Type        string            `json:"type"`
	Normalizers []*normalizerJSON `json:"normalizers"`
	Prepend     string            `json:"prepend"`
	Pattern     struct {
		String *string `json:"String"`
	} `json:"pattern"`
	Content string `json:"content"`
}

// normalize applies n to s: the tokenizers library decodes a non-special
// added token marked normalized as its normalized text. rlx applies
// Prepend, Replace of a string and Sequences of them.
func (n *normalizerJSON) normalize(s string) (string, error) {
	switch {
	case n == nil:
		return s, nil
	case n.Type == "Sequence":
		for _, m := range n.Normalizers {
			var err error
			if s, err = m.normalize(s); err != nil {
				return "", err
			}
		}
		return s, nil
	case n.Type == "Prepend":
		if s == "" {
			return s, nil
		}
		return n.Prepend + s, nil
	case n.Type == "Replace" && n.Pattern.String != nil && *n.Pattern.String != "":
		return strings.ReplaceAll(s, *n.Pattern.String, n.Content), nil
	case n.Type == "NFC":
		if r, ok := nfcStable(s); !ok {
			return "", fmt.Errorf("the NFC normalizer: the text has %U, and rlx applies NFC only to text it leaves unchanged (Latin, Cyrillic, CJK, kana, Hangul syllables, emoji, common punctuation, without combining marks)", r)
		}
		return s, nil
	}
	return "", fmt.Errorf("normalizer %q is not supported (rlx applies Prepend, Replace of a string, NFC to text it leaves unchanged, and Sequence)", n.Type)
}

// nfcStable reports whether NFC leaves s unchanged because every rune is
// in a range that has no combining marks, no singleton decompositions and
// no composition exclusions; else it returns the first rune outside them.
func nfcStable(s string) (rune, bool) {
	for _, r := range s {
		switch {
		case r < 0x300, r >= 0x400 && r < 0x483, r >= 0x48A && r < 0x500,
			r >= 0x2010 && r < 0x2028, r >= 0x2030 && r < 0x205F,
			r >= 0x3000 && r < 0x302A, r >= 0x3030 && r < 0x3099, r >= 0x309B && r < 0x3100,
			r >= 0x4E00 && r < 0xA000, r >= 0xAC00 && r < 0xD7A4,
			r >= 0xFF00 && r < 0xFFF0, r >= 0x1F000 && r < 0x1FB00:
		default:
			return r, false
		}
	}
	return 0, true
}

type decoderJSON struct {
	Type     string         `json:"type"`
	Decoders []*decoderJSON `json:"decoders"`
	Pattern  struct {
		String string `json:"String"`
	} `json:"pattern"`
	Content string `json:"content"`
	Start   int    `json:"start"`
	Stop    int    `json:"stop"`
	// Metaspace's.
	Replacement    string  `json:"replacement"`
	PrependScheme  *string `json:"prepend_scheme"`
	AddPrefixSpace bool    `json:"add_prefix_space"`
}

// FromTokenizerJSON reads a Hugging Face tokenizer.json: a BPE model's
// vocab and added tokens, and a decoder that is ByteLevel, or
// SentencePiece's sequence (Replace "▁" by " ", ByteFallback, Fuse, and
// an optional Strip of one leading space).
func FromTokenizerJSON(data []byte) (*Vocab, error) {
	var t tokenizerJSON
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, err
	}
	if t.Model.Type != "BPE" {
		return nil, fmt.Errorf("model type %q is not supported (rlx decodes BPE vocabularies)", t.Model.Type)
	}
	v := &Vocab{Raw: map[int]bool{}, Special: map[int]bool{}, Lossy: true}
	if err := v.readDecoder(t.Decoder); err != nil {
		return nil, err
	}
	size := 0
	check := func(id int, piece string) error {
		if id < 0 || id >= maxTokens {
			return fmt.Errorf("token %q has id %d (want 0 to %d)", piece, id, maxTokens-1)
		}
		size = max(size, id+1)
		return nil
	}
	for piece, id := range t.Model.Vocab {
		if err := check(id, piece); err != nil {
			return nil, err
		}
	}
	for _, a := range t.AddedTokens {
		if err := check(a.ID, a.Content); err != nil {
			return nil, err
		}
	}
	if size == 0 {
		return nil, errors.New("the vocab is empty")
	}
	v.Pieces = make([]string, size)
	for piece, id := range t.Model.Vocab {
		if v.Pieces[id] != "" && v.Pieces[id] != piece {
			return nil, fmt.Errorf("tokens %q and %q share the id %d", v.Pieces[id], piece, id)
		}
		v.Pieces[id] = piece
	}
	// Added tokens go through the decoder like the others, as in the
	// tokenizers library; a non-special one marked normalized is decoded
	// from its normalized text.
	for _, a := range t.AddedTokens {
		p := a.Content
		if a.Normalized && !a.Special {
			var err error
			if p, err = t.Normalizer.normalize(p); err != nil {
				return nil, fmt.Errorf("added token %q: %v", a.Content, err)
			}
		}
		v.Pieces[a.ID] = p
		if a.Special {
			v.Special[a.ID] = true
		}
	}
	var err error
	if v.enc, err = newEncoder(&t); err != nil {
		v.enc, v.encErr = nil, err
	}
	return v, nil
}

// readDecoder sets v's kind from a tokenizer.json decoder.
func (v *Vocab) readDecoder(d *decoderJSON) error {
	if d == nil {
		return errors.New("no decoder (rlx decodes ByteLevel and SentencePiece's Replace, ByteFallback, Fuse, Strip)")
	}
	switch d.Type {
	case "ByteLevel":
		v.Kind = ByteLevel
		return nil
	case "Metaspace":
		// "▁" as a space, but in the first token dropped, every one of
		// them, unless the pre-tokeniser never prepends it; byte pieces
		// stay text.
		scheme := "always"
		if d.PrependScheme != nil {
			scheme = *d.PrependScheme
		} else if !d.AddPrefixSpace {
			scheme = "never"
		}
		if d.Replacement != "▁" {
			return fmt.Errorf("a Metaspace decoder's replacement %q is not \"▁\"", d.Replacement)
		}
		v.Kind, v.FirstDropsSpaces = SentencePiece, scheme != "never"
		return nil
	case "Sequence":
	default:
		return fmt.Errorf("decoder %q is not supported (rlx decodes ByteLevel, Metaspace and SentencePiece's Replace, ByteFallback, Fuse, Strip)", d.Type)
	}
	v.Kind = SentencePiece
	replaced, fused := false, false
	for _, s := range d.Decoders {
		switch {
		case s == nil:
			return errors.New("a null decoder in the sequence")
		case s.Type == "Replace" && s.Pattern.String == "▁" && s.Content == " ":
			replaced = true
		case s.Type == "ByteFallback":
			v.ByteFallback = true
		case s.Type == "Fuse":
			fused = true
		case s.Type == "Strip" && s.Content == " " && s.Start <= 1 && s.Stop == 0 && fused:
			// After Fuse, the one token left is the whole text.
			v.StripSpace = s.Start == 1
		default:
			return fmt.Errorf("decoder %s in the sequence is not supported (rlx decodes SentencePiece's Replace \"▁\" by \" \", ByteFallback, Fuse, and after Fuse a Strip of one leading space)", s.describe())
		}
	}
	if !replaced {
		return errors.New("a decoder sequence without Replace \"▁\" by \" \" is not SentencePiece's; rlx does not decode it")
	}
	return nil
}

func (d *decoderJSON) describe() string {
	switch d.Type {
	case "Replace":
		return fmt.Sprintf("Replace %q by %q", d.Pattern.String, d.Content)
	case "Strip":
		return fmt.Sprintf("Strip %q (start %d, stop %d)", d.Content, d.Start, d.Stop)
	}
	return strconv.Quote(d.Type)
}

// Decode returns the text of the tokens ids. An id the vocabulary does
// not have is an error naming it.
func (v *Vocab) Decode(ids []int) (string, error) {
	for i, id := range ids {
		if id < 0 || id >= len(v.Pieces) {
			return "", fmt.Errorf("token %d (#%d) is past the vocabulary's %d pieces", id, i, len(v.Pieces))
		}
	}
	var s string
	if v.Kind == ByteLevel {
		s = v.byteLevel(ids)
	} else {
		s = v.sentencePiece(ids)
	}
	if v.StripSpace {
		s = strings.TrimPrefix(s, " ")
	}
	return s, nil
}

// DecodeSkipSpecial is Decode without the special tokens
// (transformers' decode(skip_special_tokens=True), llama.cpp's
// detokeniser without its control tokens): the text of a reply.
func (v *Vocab) DecodeSkipSpecial(ids []int) (string, error) {
	return v.Decode(slices.DeleteFunc(slices.Clone(ids), func(id int) bool { return v.Special[id] }))
}

// byteLevel joins the bytes GPT-2's table spells; a piece with a rune
// outside the table (an added token's text) is its own UTF-8, as the
// tokenizers library's ByteLevel decoder takes it.
func (v *Vocab) byteLevel(ids []int) string {
	var b []byte
	for _, id := range ids {
		p := v.Pieces[id]
		if v.Raw[id] {
			b = append(b, p...)
			continue
		}
		n := len(b)
		for _, r := range p {
			c, ok := gpt2Byte(r)
			if !ok {
				b = append(b[:n], p...)
				break
			}
			b = append(b, c)
		}
	}
	if v.Lossy {
		return lossy(b)
	}
	return string(b)
}

// sentencePiece joins the pieces with "▁" as a space and runs of byte
// pieces as their bytes: with Lossy, as the tokenizers library's
// ByteFallback does, a run that is not UTF-8 becomes one U+FFFD a byte.
func (v *Vocab) sentencePiece(ids []int) string {
	var out strings.Builder
	var run []byte
	flush := func() {
		switch {
		case !v.Lossy || utf8.Valid(run):
			out.Write(run)
		default:
			out.WriteString(strings.Repeat("\uFFFD", len(run)))
		}
		run = run[:0]
	}
	for i, id := range ids {
		p := v.Pieces[id]
		if v.isByte(id) {
			c, _ := bytePiece(p)
			run = append(run, c)
			continue
		}
		flush()
		switch {
		case v.Raw[id]:
			out.WriteString(p)
		case i == 0 && v.FirstDropsSpaces:
			out.WriteString(strings.ReplaceAll(p, "▁", ""))
		default:
			out.WriteString(strings.ReplaceAll(p, "▁", " "))
		}
	}
	flush()
	return out.String()
}

// isByte reports whether a SentencePiece decode reads token id as a
// byte (a <0xNN> piece with ByteFallback).
func (v *Vocab) isByte(id int) bool {
	_, ok := bytePiece(v.Pieces[id])
	return ok && v.ByteFallback && !v.Raw[id]
}

// lossy returns b as UTF-8 with each maximal ill-formed subsequence
// replaced by U+FFFD (Unicode's recommended practice, which Rust's
// from_utf8_lossy follows).
func lossy(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var s strings.Builder
	for len(b) > 0 {
		if r, n := utf8.DecodeRune(b); r != utf8.RuneError || n > 1 {
			s.Write(b[:n])
			b = b[n:]
			continue
		}
		s.WriteRune(utf8.RuneError)
		b = b[maximalSubpart(b):]
	}
	return s.String()
}

// maximalSubpart returns the length of the ill-formed sequence at the
// start of b: its lead byte and the continuation bytes that fit it.
func maximalSubpart(b []byte) int {
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	}
	i := 1
	for ; i <= need && i < len(b) && b[i] >= lo && b[i] <= hi; i++ {
		lo, hi = 0x80, 0xBF
	}
	return i
}

// bytePiece reads a SentencePiece byte piece, "<0xNN>".
func bytePiece(p string) (byte, bool) {
	if len(p) != 6 || !strings.HasPrefix(p, "<0x") || p[5] != '>' {
		return 0, false
	}
	n, err := strconv.ParseUint(p[3:5], 16, 8)
	return byte(n), err == nil
}

// gpt2Byte inverts GPT-2's bytes_to_unicode: the bytes '!'..'~',
// '¡'..'¬' and '®'..'ÿ' stand for themselves; the other 68, in order
// (0..32, 127..160, 173), for U+0100 onwards.
func gpt2Byte(r rune) (byte, bool) {
	switch n := r - 0x100; {
	case r >= '!' && r <= '~', r >= 0xA1 && r <= 0xAC, r >= 0xAE && r <= 0xFF:
		return byte(r), true
	case n >= 0 && n < 33:
		return byte(n), true
	case n >= 33 && n < 67:
		return byte(127 + n - 33), true
	case n == 67:
		return 173, true
	}
	return 0, false
}

// StopTokens returns the end-of-sequence tokens of a checkpoint, where
// generation stops: a GGUF file's end-of-generation tokens as llama.cpp
// finds them (ggufStopTokens: eos, eot, eom, and the tokens whose text
// ends a chat turn, such as Gemma's <end_of_turn>), or a checkpoint
// directory's (or a
// safetensors file's directory's) generation_config.json eos_token_id,
// else its config.json's (or its text_config's), an id or a list of
// them, as transformers' generate takes them. None is an empty list.
func StopTokens(path string) ([]int, error) {
	f, dir, err := Locate(path)
	if err != nil {
		return nil, err
	}
	if f != nil {
		defer f.Close()
		return ggufStopTokens(f)
	}
	for _, name := range []string{"generation_config.json", "config.json"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var c struct {
			EOS        json.RawMessage `json:"eos_token_id"`
			TextConfig *struct {
				EOS json.RawMessage `json:"eos_token_id"`
			} `json:"text_config"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Join(dir, name), err)
		}
		raw := c.EOS
		if (len(raw) == 0 || string(raw) == "null") && c.TextConfig != nil {
			raw = c.TextConfig.EOS
		}
		if len(raw) == 0 || string(raw) == "null" {
			continue
		}
		var one int
		var many []int
		if json.Unmarshal(raw, &one) == nil {
			many = []int{one}
		} else if err := json.Unmarshal(raw, &many); err != nil {
			return nil, fmt.Errorf("%s: eos_token_id is %s, want an id or a list of ids", filepath.Join(dir, name), raw)
		}
		for _, id := range many {
			if id < 0 || id >= maxTokens {
				return nil, fmt.Errorf("%s: eos_token_id %d is not a token id", filepath.Join(dir, name), id)
			}
		}
		return many, nil
	}
	return nil, nil
}

package vocab

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestWhiteSpace: isSpace and the class \s becomes are both Oniguruma's
// Unicode \s (0009–000D, 0085, and the Zs, Zl and Zp categories).
func TestWhiteSpace(t *testing.T) {
	re := regexp.MustCompile(`^[` + whiteSpace + `]$`)
	n := 0
	for r := rune(0); r < 0x10000; r++ {
		in := re.MatchString(string(r))
		if in != isSpace(r) {
			t.Errorf("U+%04X: class %v, isSpace %v", r, in, isSpace(r))
		}
		if in {
			n++
		}
	}
	if n != 25 {
		t.Errorf("%d white-space characters below U+10000, Unicode has 25", n)
	}
}

// TestSplitter splits by Qwen2's pattern as Oniguruma does: a whitespace
// run leaves its last character to the next word (\s+(?!\S)), a
// no-break space is white space, the contractions ignore case.
func TestSplitter(t *testing.T) {
	const qwen2 = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	s, err := newSplitter(qwen2)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Hello   world", []string{"Hello", "  ", " world"}},
		{"a \n\n  b", []string{"a", " \n\n", " ", " b"}},
		{"x\u00a0!", []string{"x", "\u00a0", "!"}},
		{"I'LL 123", []string{"I", "'LL", " ", "1", "2", "3"}},
		{"end  ", []string{"end", "  "}},
		{"é🙂!!\n", []string{"é", "🙂!!\n"}},
	} {
		if got := s.split(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := topAlternatives(`a|[|]|(b|c)|\||d`); !slices.Equal(got, []string{"a", "[|]", "(b|c)", `\|`, "d"}) {
		t.Errorf("alternatives: %q", got)
	}
	if _, err := newSplitter(`a(?=b)|c`); err == nil || !strings.Contains(err.Error(), "lookaround") {
		t.Errorf("lookahead: %v", err)
	}
}

// TestEncodeRefusals: what rlx does not encode is refused by name, and a
// GGUF vocabulary does not encode.
func TestEncodeRefusals(t *testing.T) {
	base := `{"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": [["a", "b"]]MODEL}, "decoder": {"type": "ByteLevel"}EXTRA}`
	tmpl := `{"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "a"}}, {"Sequence": {"id": "A"}}], "special_tokens": {"a": {"ids": [0]}}}`
	build := func(model, extra string) string {
		return strings.Replace(strings.Replace(base, "MODEL", model, 1), "EXTRA", extra, 1)
	}
	v, err := FromTokenizerJSON([]byte(build("", "")))
	if err != nil {
		t.Fatal(err)
	}
	if ids, err := v.Encode("aab", true); err != nil || !slices.Equal(ids, []int{0, 2}) {
		t.Errorf("aab: %v, %v", ids, err)
	}
	for _, tc := range []struct {
		model, extra, want string
		special            bool
	}{
		{`, "dropout": 0.1`, "", "BPE dropout is set", false},
		{`, "continuing_subword_prefix": "##"`, "", "continuing_subword_prefix", false},
		{`, "unk_token": "<unk>"`, "", `unk_token "<unk>" is not in the vocab`, false},
		{"", `, "pre_tokenizer": {"type": "Whitespace"}`, `pre-tokenizer "Whitespace" is not supported`, false},
		{"", `, "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "a"}, "behavior": "Removed"}`, `behavior "Removed"`, false},
		{"", `, "normalizer": {"type": "NFKC"}`, `normalizer "NFKC" is not supported`, false},
		{"", `, "added_tokens": [{"id": 0, "content": "a", "lstrip": true}]`, `added token "a" has single_word, lstrip or rstrip`, false},
		{"", `, "post_processor": {"type": "RobertaProcessing"}`, `post-processor "RobertaProcessing" is not supported`, true},
		{`, "merges": [["a", "b", "c"]]`, "", `merge #0 is ["a", "b", "c"], want two tokens`, false},
		{`, "merges": [3]`, "", `merge #0 is 3, want ["a", "b"] or "a b"`, false},
		{`, "merges": {}`, "", "merges: json: cannot unmarshal", false},
		{"", `, "pre_tokenizer": {"type": "Sequence", "pretokenizers": [null]}`, "a null pre-tokenizer in the sequence", false},
		{"", `, "pre_tokenizer": {"type": "Metaspace", "replacement": "ab"}`, `a Metaspace pre-tokenizer's replacement "ab" is not one character`, false},
		{"", `, "pre_tokenizer": {"type": "Metaspace", "replacement": "_", "prepend_scheme": "sometimes"}`, `prepend_scheme "sometimes" is not always, first or never`, false},
		{"", `, "pre_tokenizer": {"type": "Split", "behavior": "Isolated"}`, "a Split pre-tokenizer without a pattern", false},
		{"", `, "post_processor": {"type": "Sequence", "processors": [null]}`, "a null post-processor in the sequence", true},
		{"", `, "post_processor": {"type": "Sequence", "processors": [` + tmpl + `, ` + tmpl + `]}`, "two post-processors add special tokens", true},
		{"", `, "post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<x>"}}, {"Sequence": {"id": "A"}}], "special_tokens": {}}`, `the template's special token "<x>" is not among its special_tokens`, true},
		{"", `, "post_processor": {"type": "TemplateProcessing", "single": [{"Sequence": {"id": "B"}}], "special_tokens": {}}`, "the template's single sequence is not special tokens around $A", true},
		{"", `, "post_processor": {"type": "TemplateProcessing", "single": [], "special_tokens": {}}`, "the template has no $A", true},
	} {
		v, err := FromTokenizerJSON([]byte(build(tc.model, tc.extra)))
		if err == nil {
			_, err = v.Encode("ab", tc.special)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s%s: %v, want %q", tc.model, tc.extra, err, tc.want)
		}
	}
	// Merges as "a b" strings, older tokenizer.json's form; a template's
	// tokens after $A.
	v, err = FromTokenizerJSON([]byte(build(`, "merges": ["a b"]`, `, "post_processor": {"type": "TemplateProcessing", "single": [{"Sequence": {"id": "A"}}, {"SpecialToken": {"id": "b"}}], "special_tokens": {"b": {"ids": [1]}}}`)))
	if ids, err2 := v.Encode("ab", true); err != nil || err2 != nil || !slices.Equal(ids, []int{2, 1}) {
		t.Errorf("string merges, a suffix: %v, %v, %v", ids, err, err2)
	}
	// A post-processor rlx cannot apply still encodes without specials.
	v, _ = FromTokenizerJSON([]byte(build("", `, "post_processor": {"type": "RobertaProcessing"}`)))
	if ids, err := v.Encode("ab", false); err != nil || !slices.Equal(ids, []int{2}) {
		t.Errorf("without specials: %v, %v", ids, err)
	}
	// NFC (Qwen's normalizer) on text it leaves unchanged, refused on a
	// combining mark.
	v, _ = FromTokenizerJSON([]byte(build("", `, "normalizer": {"type": "NFC"}`)))
	if ids, err := v.Encode("ab", false); err != nil || !slices.Equal(ids, []int{2}) {
		t.Errorf("NFC: %v, %v", ids, err)
	}
	if _, err := v.Encode("ae\u0301", false); err == nil || !strings.Contains(err.Error(), "the NFC normalizer: the text has U+0301") {
		t.Errorf("NFC of a combining mark: %v", err)
	}
	for _, ok := range []string{"café Grüße", "Привет", "数学", "ひらがな", "한국어", "🙂🚀", "“quotes” — dash"} {
		if _, stable := nfcStable(ok); !stable {
			t.Errorf("%q is NFC-stable", ok)
		}
	}
	for _, r := range []rune{0x301, 0x3099, 0x2126, 0x212B, 0x958, 0xF900, 0x1100, 0x0374} {
		if _, stable := nfcStable(string(r)); stable {
			t.Errorf("%U is taken as NFC-stable", r)
		}
	}
	for _, tc := range []struct {
		kv   map[string]any
		want string
	}{
		{map[string]any{"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.tokens": []string{"a"}}, "tokenizer.ggml.merges is missing"},
		{map[string]any{"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.pre": "jais-2", "tokenizer.ggml.tokens": []string{"a"}}, `tokenizer.ggml.pre "jais-2" is not one rlx encodes with`},
		{map[string]any{"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.pre": "qwen2", "tokenizer.ggml.tokens": []string{"a"}}, "tokenizer.ggml.merges is missing"},
		{map[string]any{"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.pre": "qwen2", "tokenizer.ggml.tokens": []string{"a"}, "tokenizer.ggml.merges": []string{"a a"}}, `merge #0 ("a", "a") names a token the vocab lacks`},
		{map[string]any{"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.pre": "qwen2", "tokenizer.ggml.tokens": []string{"a"}, "tokenizer.ggml.merges": []string{"a"}}, `tokenizer.ggml.merges[0] is a, want "a b"`},
		{map[string]any{"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.pre": "qwen2", "tokenizer.ggml.tokens": []string{"a"}, "tokenizer.ggml.merges": []string{}, "tokenizer.ggml.add_bos_token": true}, "tokenizer.ggml.bos_token_id is missing"},
		{map[string]any{"tokenizer.ggml.model": "llama", "tokenizer.ggml.tokens": []string{"a"}}, "tokenizer.ggml.scores must be an array of 1 float32, one a token"},
		{map[string]any{"tokenizer.ggml.model": "llama", "tokenizer.ggml.tokens": []string{"a"}, "tokenizer.ggml.scores": []float32{0}}, "tokenizer.ggml.bos_token_id is missing"},
		{map[string]any{"tokenizer.ggml.model": "llama", "tokenizer.ggml.tokens": []string{"a"}, "tokenizer.ggml.scores": []int32{0}}, "tokenizer.ggml.scores[0] is 0 (int32), want a float32"},
		{map[string]any{"tokenizer.ggml.model": "llama", "tokenizer.ggml.tokens": []string{"a", "b"}, "tokenizer.ggml.scores": []float32{0, 0}, "tokenizer.ggml.add_bos_token": false}, "the byte 0xE2 has no <0xE2> token"},
	} {
		g, err := FromGGUF(ggufFile(t, tc.kv))
		if err == nil {
			_, err = g.Encode("a", true)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.kv, err, tc.want)
		}
	}
}

// TestMetaspace: spaces become "▁", prepended at the text's start
// ("first"), at every piece ("always") or never; with split, a piece
// starts at each "▁".
func TestMetaspace(t *testing.T) {
	vocab := `{"▁a": 0, "▁b": 1, "a": 2, "b": 3, "▁": 4, "<s>": 5}`
	for _, tc := range []struct {
		pre, text string
		want      []int
	}{
		{`{"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": false}`, "a b", []int{0, 1}},
		{`{"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": false}`, "<s>a b", []int{5, 2, 1}},
		{`{"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": true}`, "<s>a b", []int{5, 0, 1}},
		{`{"type": "Metaspace", "replacement": "▁", "prepend_scheme": "never", "split": true}`, "a  b", []int{2, 4, 1}},
		{`{"type": "Metaspace", "replacement": "▁", "add_prefix_space": true}`, "b", []int{1}},
	} {
		src := `{"model": {"type": "BPE", "vocab": ` + vocab + `, "merges": [["▁", "a"], ["▁", "b"]]}, "added_tokens": [{"id": 5, "content": "<s>", "special": true}],
		  "pre_tokenizer": ` + tc.pre + `, "decoder": {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "}]}}`
		v, err := FromTokenizerJSON([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if ids, err := v.Encode(tc.text, false); err != nil || !slices.Equal(ids, tc.want) {
			t.Errorf("%s %q: %v, %v; want %v", tc.pre, tc.text, ids, err, tc.want)
		}
	}
	if got := splitBefore("▁a▁▁b", "▁"); !slices.Equal(got, []string{"▁a", "▁", "▁b"}) {
		t.Errorf("splitBefore: %q", got)
	}
	for _, s := range []string{"", "▁", "a"} {
		if got := splitBefore(s, "▁"); len(got) != min(len(s), 1) {
			t.Errorf("splitBefore(%q) = %q", s, got)
		}
	}
}

// TestAddedSplit: added tokens split the text leftmost-longest (of equal
// ones, the first added), one of no text never matched, by bytes that
// need not start with an ASCII character.
func TestAddedSplit(t *testing.T) {
	var s addedSet
	for i, text := range []string{"<", "<a>", "<a>b", "", "é!", "<a>b"} {
		s.add(added{text, i})
	}
	got := s.split("x<a>bc<a><é!é")
	want := []segment{{"x", -1}, {"<a>b", 2}, {"c", -1}, {"<a>", 1}, {"<", 0}, {"é!", 4}, {"é", -1}}
	if !slices.Equal(got, want) {
		t.Errorf("split: %v, want %v", got, want)
	}
	if got := s.split(""); got != nil {
		t.Errorf("empty text: %v", got)
	}
	var none addedSet
	if got := none.split("abc"); !slices.Equal(got, []segment{{"abc", -1}}) {
		t.Errorf("no tokens: %v", got)
	}
}

// BenchmarkAddedSplit splits a 10,000-character text at 6,000 added
// tokens (Gemma's user-defined tokens are about that many).
func BenchmarkAddedSplit(b *testing.B) {
	var s addedSet
	for i := range 6000 {
		s.add(added{fmt.Sprintf("<unused%d>", i), i})
	}
	text := strings.Repeat("Hello <unused17> world, <unused5999>! ", 270)
	b.ResetTimer()
	for range b.N {
		if len(s.split(text)) != 1081 {
			b.Fatal("wrong split")
		}
	}
}

// TestSplitDigits: the Digits pre-tokeniser isolates numbers of every
// script and kind (Nd, Nl, No), alone or in runs.
func TestSplitDigits(t *testing.T) {
	for _, tc := range []struct {
		in         string
		individual bool
		want       []string
	}{
		{"a12b٣½Ⅻc", true, []string{"a", "1", "2", "b", "٣", "½", "Ⅻ", "c"}},
		{"a12b٣½Ⅻc", false, []string{"a", "12", "b", "٣½Ⅻ", "c"}},
		{"123", false, []string{"123"}},
		{"", true, nil},
		{"xyz", true, []string{"xyz"}},
	} {
		if got := splitDigits(tc.in, tc.individual); !slices.Equal(got, tc.want) {
			t.Errorf("%q (individual %v): %q, want %q", tc.in, tc.individual, got, tc.want)
		}
	}
}

package vocab

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// ggufSplit returns the pieces the GGUF pre-tokeniser name splits text
// into, as text (the last step's GPT-2 spelling undone).
func ggufSplit(t *testing.T, name, text string) []string {
	t.Helper()
	p, ok := ggufPre[name]
	if !ok {
		t.Fatalf("%q is not in ggufPre", name)
	}
	steps, err := p.steps()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	pieces := (&encoder{pre: steps}).preTokenize(text, true)
	for i, q := range pieces {
		var b []byte
		for _, r := range q {
			c, ok := gpt2Byte(r)
			if !ok {
				t.Fatalf("%s: piece %q is not in GPT-2's spelling", name, q)
			}
			b = append(b, c)
		}
		pieces[i] = string(b)
	}
	return pieces
}

// TestGGUFPreSplit splits text by the pre-tokenisers added beyond the
// first ones (llama.cpp's default for a file without
// tokenizer.ggml.pre, Falcon's, DeepSeek LLM's and Coder's, Chameleon's,
// SuperBPE's, BLOOM's and Viking's, and Qwen2's and DeepSeek V3's other
// kin), each name of a group alike. The pieces follow from the regexes
// (leftmost-first alternatives, each regex in turn on each piece, text
// between matches kept), and each group has texts that its neighbours
// split otherwise (noted where it is not plain).
func TestGGUFPreSplit(t *testing.T) {
	type split struct {
		text   string
		pieces []string
	}
	for _, g := range []struct {
		names  []string
		splits []split
	}{
		// GPT-2's would keep " 1234567", " 12", "'m" and "`!" whole and
		// put the space with ",".
		{[]string{"default"}, []split{
			{"Hello, world!! 1234567 x$+y", []string{"Hello", ",", " world", "!!", " ", "123", "456", "7", " x", "$+", "y"}},
			{" 12 x`!", []string{" ", "12", " x", "`", "!"}},
			{"a ,b", []string{"a", " ", ",", "b"}},
			{"I'm don't", []string{"I", "'", "m", " don", "'", "t"}},
			{"a \n\n  b\tc", []string{"a", " \n\n ", " b", "\t", "c"}},
			{"café 数学 ١٢٣", []string{"café", " 数学", " ", "١٢٣"}},
		}},
		// Unlike the default: ` is punctuation, a number keeps its space,
		// only ASCII digits split in threes.
		{[]string{"falcon"}, []split{
			{"Hello, world!! 1234567 x$+y", []string{"Hello", ",", " world", "!!", " ", "123", "456", "7", " x", "$+", "y"}},
			{" 12 x`!", []string{" 12", " x", "`!"}},
			{"a ,b", []string{"a", " ", ",", "b"}},
			{"I'm don't", []string{"I", "'", "m", " don", "'", "t"}},
			{"1234", []string{"123", "4"}},
			{"café 数学 ١٢٣", []string{"café", " 数学", " ١٢٣"}},
		}},
		// The punctuation class takes ASCII letters (:-~) but not é, so
		// " Héllo" splits at it; 。 goes apart from 数学 before the CJK
		// split; white space ending a piece goes apart (after 🙂, which no
		// other regex splits off).
		{[]string{"deepseek-llm"}, []split{
			{"Hello, World!\n  123 ok", []string{"Hello", ",", " World", "!", "\n", "  ", "123", " ok"}},
			{" Héllo 数学。", []string{" H", "é", "llo", " ", "数学", "。"}},
			{"x  y  ", []string{"x", " ", " y", "  "}},
			{"🙂  x🙂  ", []string{"🙂", " ", " x", "🙂", "  "}},
			{"3.14!", []string{"3", ".", "14", "!"}},
			{"a\r\nb", []string{"a", "\r", "\n", "b"}},
			{"한국어 テキスト", []string{"한국어", " ", "テキスト"}},
		}},
		// Unlike DeepSeek LLM's: all letters, each digit alone, and only
		// Unicode punctuation (not + or =) after the letters.
		{[]string{"deepseek-coder"}, []split{
			{"Hello, World!\n  123 ok", []string{"Hello", ",", " World", "!", "\n", "  ", "1", "2", "3", " ok"}},
			{" Héllo 数学。", []string{" Héllo", " ", "数学", "。"}},
			{"a+b=c, d", []string{"a", "+", "b", "=", "c", ",", " d"}},
			{"a\r\nb", []string{"a", "\r", "\n", "b"}},
		}},
		// The digit split comes after the sentinel's, so a sentinel's
		// text splits too (as a special token it is matched before).
		{[]string{"chameleon"}, []split{
			{"<sentinel:12>IMGIMGABZ ok", []string{"<", "sentinel", ":", "1", "2", ">", "IMGIMGABZ", " ok"}},
			{"a      b", []string{"a", "    ", "  ", "b"}},
			{"c d\n\te", []string{"c", " d", "\n", "\t", "e"}},
			{"x+=1.5!", []string{"x", "+", "=", "1", ".", "5", "!"}},
			{"don't", []string{"don", "'", "t"}},
		}},
		// Numbers apart, in threes from the right; no split at spaces.
		{[]string{"superbpe"}, []split{
			{"a1234567 b, 12 ok", []string{"a", "1", "234", "567", " b, ", "12", " ok"}},
			{"123456", []string{"123", "456"}},
			{"١٢٣٤", []string{"١", "٢٣٤"}},
			{"12½3456", []string{"12½3", "456"}},
			{"hello  world\n", []string{"hello  world\n"}},
		}},
		// What is not matched (sentence punctuation, a space before a
		// space or "(") is kept between the matches, a run as one.
		{[]string{"bloom", "gpt3-finnish", "poro-chat"}, []split{
			{"Hello, world! (x|y)", []string{"Hello", ",", " world", "! (", "x", "|", "y", ")"}},
			{"a  b\n\nc", []string{"a", " ", " b", "\n\n", "c"}},
			{"数学，是。123 don't", []string{"数学", "，", "是", "。", "123", " don't"}},
			{"wait… ok", []string{"wait", "…", " ok"}},
		}},
		{[]string{"viking"}, []split{
			{"Hello, world! (x|y)", []string{"Hello", ",", " world", "! (", "x", "|", "y", ")"}},
			{"数学，是。123 don't", []string{"数学", "，", "是", "。", "1", "2", "3", " don't"}},
			{" 42", []string{" ", "4", "2"}},
		}},
		{[]string{"deepseek-v3", "hy_v4"}, []split{
			{"x12345 数学かな .NET", []string{"x", "123", "45", " ", "数学かな", " .", "NET"}},
		}},
		// Qwen2's would split "'d" off.
		{[]string{"ufakzeka"}, []split{
			{"İstanbul'da 12 kişi", []string{"İstanbul", "'da", " ", "1", "2", " kişi"}},
		}},
		// As Qwen2's; GPT-2's would split "'LL", keep "\n\n " and " 123".
		{[]string{"bailingmoe", "bailingmoe2", "llada-moe", "qwen2"}, []split{
			{"I'LL x\n\n  y 123", []string{"I", "'LL", " x", "\n\n", " ", " y", " ", "1", "2", "3"}},
		}},
		// Qwen2's would keep "!!\n\n" whole.
		{[]string{"seed-coder"}, []split{
			{"x!!\n\ny 12", []string{"x", "!!", "\n\n", "y", " ", "1", "2"}},
		}},
		// Words take marks and single spaces between letters; punctuation
		// takes one newline or slash.
		{[]string{"exaone-moe"}, []split{
			{"Hello world, I'm 12!!\n\n", []string{"Hello world", ",", " I", "'m", " ", "1", "2", "!!\n", "\n"}},
			{"a  b", []string{"a", " ", " b"}},
			{"e\u0301te\u0301 x/\n", []string{"e\u0301te\u0301 x", "/\n"}},
		}},
		// Qwen2's would split each digit.
		{[]string{"minicpm5"}, []split{
			{"x 1234567 I'LL", []string{"x", " ", "123", "456", "7", " I", "'LL"}},
		}},
		// Qwen2's would give "a", " \n", "b", "!\n\n", " c".
		{[]string{"laguna"}, []split{
			{"a \nb!\n\n c", []string{"a", " ", "\n", "b", "!", "\n\n", " c"}},
		}},
		// DeepSeek V3's would give "x", "123", "45", " ok", "!\n\n".
		{[]string{"spark2_5"}, []split{
			{"x12345 ok!\n\n", []string{"x", "1", "2", "3", "4", "5", " ok", "!", "\n", "\n"}},
		}},
	} {
		for _, name := range g.names {
			for _, s := range g.splits {
				if got := ggufSplit(t, name, s.text); !slices.Equal(got, s.pieces) {
					t.Errorf("%s %q: %q, want %q", name, s.text, got, s.pieces)
				}
			}
		}
	}
}

// TestGGUFPreTable: every name's regexes compile; the names llama.cpp
// groups split alike; the ones with ignore_merges are llama.cpp's.
func TestGGUFPreTable(t *testing.T) {
	for name, p := range ggufPre {
		if _, err := p.steps(); err != nil || len(p.patterns) == 0 {
			t.Errorf("%s: %v (%d regexes)", name, err, len(p.patterns))
		}
	}
	for _, kin := range [][]string{
		{"bloom", "gpt3-finnish", "poro-chat"},
		{"deepseek-v3", "hunyuan-dense", "joyai-llm", "hy_v4"},
		{"bailingmoe", "bailingmoe2", "llada-moe"},
	} {
		for _, name := range kin[1:] {
			if a, b := ggufPre[kin[0]], ggufPre[name]; !slices.Equal(a.patterns, b.patterns) || a.ignoreMerges != b.ignoreMerges {
				t.Errorf("%s is not as %s", name, kin[0])
			}
		}
	}
	var ignore []string
	for name, p := range ggufPre {
		if p.ignoreMerges {
			ignore = append(ignore, name)
		}
	}
	slices.Sort(ignore)
	want := []string{"falcon-h1", "falcon3", "jina-v5-nano", "lfm2", "llama-bpe", "llama-v3", "llama3", "midm-2.0", "minicpm5", "pixtral", "tekken"}
	if !slices.Equal(ignore, want) {
		t.Errorf("ignore_merges: %q, want %q", ignore, want)
	}
}

// TestGGUFPreDefault: a GGUF vocabulary without tokenizer.ggml.pre
// encodes, as llama.cpp does, with the "default" pre-tokeniser, which
// splits " 1234 x" as " ", "123", "4", " x" where GPT-2's keeps " 1234";
// a name rlx does not know is refused by name.
func TestGGUFPreDefault(t *testing.T) {
	kv := map[string]any{
		"tokenizer.ggml.model":  "gpt2",
		"tokenizer.ggml.tokens": []string{"Ġ", "1", "2", "3", "4", "x", "12", "123", "Ġ1", "Ġx"},
		"tokenizer.ggml.merges": []string{"Ġ 1", "1 2", "12 3", "Ġ x"},
	}
	for _, tc := range []struct {
		pre  string // "": none
		want []int
	}{{"", []int{0, 7, 4, 9}}, {"default", []int{0, 7, 4, 9}}, {"gpt-2", []int{8, 2, 3, 4, 9}}} {
		delete(kv, "tokenizer.ggml.pre")
		if tc.pre != "" {
			kv["tokenizer.ggml.pre"] = tc.pre
		}
		v, err := FromGGUF(ggufFile(t, kv))
		if err != nil {
			t.Fatal(err)
		}
		if ids, err := v.Encode(" 1234 x", true); err != nil || !slices.Equal(ids, tc.want) {
			t.Errorf("pre %q: %v, %v; want %v", tc.pre, ids, err, tc.want)
		}
	}
	// Left out: a regex with a lookaround rlx does not apply (jais-2,
	// tiny_aya), a split in code (kimi-k2, afmoe), the SEP token appended
	// (roberta-bpe), no byte-level spelling (gemma4, whitespace), a
	// rewrite without its original (youtu).
	for _, pre := range []string{"no-such-pre", "jais-2", "tiny_aya", "kimi-k2", "afmoe", "roberta-bpe", "gemma4", "whitespace", "youtu"} {
		kv["tokenizer.ggml.pre"] = pre
		v, err := FromGGUF(ggufFile(t, kv))
		if err == nil {
			_, err = v.Encode("x", false)
		}
		if want := `tokenizer.ggml.pre "` + pre + `" is not one rlx encodes with`; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", pre, err, want)
		}
	}
}

// TestDigitGroups: SuperBPE's lookahead splits before each group of
// three digits counted from a number's end (decimal digits of any
// script, not ½), alone; with other alternatives it is refused.
func TestDigitGroups(t *testing.T) {
	s, err := newSplitter(digitGroups)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"12", []string{"12"}},
		{"123", []string{"123"}},
		{"1234", []string{"1", "234"}},
		{"a1234b12345", []string{"a1", "234b12", "345"}},
		{"x123456789", []string{"x", "123", "456", "789"}},
		{"١٢٣٤", []string{"١", "٢٣٤"}},
		{"12½3456", []string{"12½3", "456"}},
	} {
		if got := s.split(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
		}
	}
	if _, err := newSplitter(digitGroups + `|\s+`); err == nil || !strings.Contains(err.Error(), "lookaround") {
		t.Errorf("digitGroups among other alternatives: %v", err)
	}
}

// TestPreSplitLibrary compares the pieces of testdata/pre_split.json,
// the tokenizers library's pre_tokenize_str for each added
// tokenizer.ggml.pre name's regexes (Splits with behavior Isolated, then
// ByteLevel without its regex) on texts of every kind, with rlx's
// (tools/hf-fixtures/pre_split.py writes the file where the library is).
// A split of source "rlx" must have rlx's regexes, or the file is stale;
// one of another source ("tokenizer.json": BLOOM's nested class,
// Bailing's possessive quantifiers; "llama.cpp": GPT-2's regex without
// its trailing \s+) ran the other spelling of a regex rlx rewrites, and
// its pieces must be rlx's all the same.
func TestPreSplitLibrary(t *testing.T) {
	path := filepath.Join("testdata", "pre_split.json")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent: python3 tools/hf-fixtures/pre_split.py --out runtime/vocab/%s where the tokenizers library is", path, path)
	}
	var fx struct {
		Texts  []string `json:"texts"`
		Splits []struct {
			Pre      string     `json:"pre"`
			Source   string     `json:"source"`
			Patterns []string   `json:"patterns"`
			Pieces   [][]string `json:"pieces"`
		} `json:"splits"`
	}
	readJSON(t, path, &fx)
	if len(fx.Texts) < 20 || len(fx.Splits) == 0 {
		t.Fatalf("%d texts, %d splits", len(fx.Texts), len(fx.Splits))
	}
	for _, sp := range fx.Splits {
		p, ok := ggufPre[sp.Pre]
		switch {
		case !ok:
			t.Errorf("%s: not in ggufPre", sp.Pre)
			continue
		case sp.Source == "rlx" && !slices.Equal(sp.Patterns, p.patterns):
			t.Errorf("%s: the file's regexes are not rlx's (stale: run pre_split.py again)\n  file %q\n  rlx  %q", sp.Pre, sp.Patterns, p.patterns)
			continue
		case sp.Source == "", len(sp.Pieces) != len(fx.Texts):
			t.Errorf("%s: source %q, %d pieces for %d texts", sp.Pre, sp.Source, len(sp.Pieces), len(fx.Texts))
			continue
		}
		steps, err := p.steps()
		if err != nil {
			t.Fatal(err)
		}
		e := &encoder{pre: steps}
		for i, text := range fx.Texts {
			if got := e.preTokenize(text, true); !slices.Equal(got, sp.Pieces[i]) {
				t.Errorf("%s (%s) %q:\n  rlx %q\n  lib %q", sp.Pre, sp.Source, text, got, sp.Pieces[i])
			}
		}
	}
}

// FuzzGGUFPreSplit: every regex of every GGUF pre-tokeniser rlx encodes
// with splits any valid UTF-8 text into non-empty pieces that put
// together give the text back (a Split with behavior Isolated keeps the
// matches and the text between them), without panicking.
func FuzzGGUFPreSplit(f *testing.F) {
	for _, s := range []string{"", "Hello, world!", "1234567 apples", "  \n\t x", "数学是科学的语言。", "can't WON'T", "a\u0301b", "٣٤٥٦"} {
		f.Add(s)
	}
	var splitters []*splitter
	for _, name := range slices.Sorted(maps.Keys(ggufPre)) {
		for _, pattern := range ggufPre[name].patterns {
			sp, err := newSplitter(pattern)
			if err != nil {
				f.Fatalf("%s: %v", name, err)
			}
			splitters = append(splitters, sp)
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return
		}
		for _, sp := range splitters {
			pieces := sp.split(text)
			if slices.Contains(pieces, "") {
				t.Fatalf("%q: an empty piece in %q", text, pieces)
			}
			if got := strings.Join(pieces, ""); got != text {
				t.Fatalf("%q: the pieces %q give back %q", text, pieces, got)
			}
		}
	})
}

package vocab

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
)

// TestGPT2Table checks gpt2Rune and its inverse gpt2Byte against GPT-2's
// bytes_to_unicode, built here as GPT-2's encoder.py builds it.
func TestGPT2Table(t *testing.T) {
	var bs []int
	self := map[int]bool{}
	for _, r := range [][2]int{{'!', '~'}, {0xA1, 0xAC}, {0xAE, 0xFF}} {
		for b := r[0]; b <= r[1]; b++ {
			bs = append(bs, b)
			self[b] = true
		}
	}
	cs := append([]int{}, bs...)
	n := 0
	for b := range 256 {
		if !self[b] {
			bs, cs = append(bs, b), append(cs, 256+n)
			n++
		}
	}
	seen := map[rune]bool{}
	for i := range bs {
		if got := gpt2Rune(byte(bs[i])); got != rune(cs[i]) {
			t.Errorf("byte %d: spelled U+%04X, want U+%04X", bs[i], got, cs[i])
		}
		got, ok := gpt2Byte(rune(cs[i]))
		if !ok || int(got) != bs[i] {
			t.Errorf("U+%04X: %d, %v; want byte %d", cs[i], got, ok, bs[i])
		}
		seen[rune(cs[i])] = true
	}
	for r := rune(0); r < 0x200; r++ {
		if _, ok := gpt2Byte(r); ok != seen[r] {
			t.Errorf("U+%04X: in the table %v, want %v", r, ok, seen[r])
		}
	}
}

func ggufFile(t *testing.T, kv map[string]any) *gguf.File {
	t.Helper()
	var w gguf.Writer
	w.Add("general.architecture", "llama")
	for _, k := range []string{"tokenizer.ggml.model", "tokenizer.ggml.pre", "tokenizer.ggml.tokens", "tokenizer.ggml.token_type",
		"tokenizer.ggml.merges", "tokenizer.ggml.scores", "tokenizer.ggml.add_space_prefix", "tokenizer.ggml.add_bos_token", "tokenizer.ggml.bos_token_id"} {
		if v, ok := kv[k]; ok {
			w.Add(k, v)
		}
	}
	f, err := w.File("v.gguf")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func decode(t *testing.T, v *Vocab, ids ...int) string {
	t.Helper()
	s, err := v.Decode(ids)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGGUF decodes a byte-level vocabulary (spaces, newlines and UTF-8
// spelled by GPT-2's table, a control token as its text) and a
// SentencePiece one (▁, byte pieces, the leading space dropped or kept
// as add_space_prefix says).
func TestGGUF(t *testing.T) {
	v, err := FromGGUF(ggufFile(t, map[string]any{
		"tokenizer.ggml.model":      "gpt2",
		"tokenizer.ggml.tokens":     []string{"Hello", "Ġworld", "Ċ", "<|im_end|>", "Ã©", "ĠĠ"},
		"tokenizer.ggml.token_type": []int32{1, 1, 1, 3, 1, 1},
	}))
	if err != nil {
		t.Fatal(err)
	}
	if got := decode(t, v, 0, 1, 2, 3, 4, 5); got != "Hello world\n<|im_end|>é  " || v.Kind != ByteLevel {
		t.Errorf("gpt2: %q (%v)", got, v.Kind)
	}
	spm := map[string]any{
		"tokenizer.ggml.model":      "llama",
		"tokenizer.ggml.tokens":     []string{"<unk>", "<s>", "▁Hello", "▁world", "<0x0A>", "<0xC3>", "<0xA9>", "<unused0>"},
		"tokenizer.ggml.token_type": []int32{2, 3, 1, 1, 6, 6, 6, 5},
	}
	v, err = FromGGUF(ggufFile(t, spm))
	if err != nil {
		t.Fatal(err)
	}
	if got := decode(t, v, 2, 3, 4, 5, 6); got != "Hello world\né" || v.Kind != SentencePiece {
		t.Errorf("llama: %q (%v)", got, v.Kind)
	}
	if got := decode(t, v, 1, 2, 7); got != "<s> Hello" {
		t.Errorf("llama, control token first: %q", got)
	}
	spm["tokenizer.ggml.add_space_prefix"] = false
	v, _ = FromGGUF(ggufFile(t, spm))
	if got := decode(t, v, 2, 3); got != " Hello world" {
		t.Errorf("llama without a space prefix: %q", got)
	}
	if _, err := v.Decode([]int{2, 8}); err == nil || err.Error() != "token 8 (#1) is past the vocabulary's 8 pieces" {
		t.Errorf("id past the vocabulary: %v", err)
	}
}

func TestGGUFErrors(t *testing.T) {
	tokens := []string{"a", "b"}
	for _, tc := range []struct {
		kv   map[string]any
		want string
	}{
		{map[string]any{}, "no vocabulary (no tokenizer.ggml.model)"},
		{map[string]any{"tokenizer.ggml.model": "no_vocab"}, "no vocabulary (tokenizer.ggml.model is no_vocab)"},
		{map[string]any{"tokenizer.ggml.model": "bert", "tokenizer.ggml.tokens": tokens}, `tokenizer.ggml.model "bert" is not supported (rlx decodes gpt2 and llama)`},
		{map[string]any{"tokenizer.ggml.model": "gpt2"}, `tokenizer.ggml.model is "gpt2" but tokenizer.ggml.tokens is missing`},
		{map[string]any{"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.tokens": "ab"}, "tokenizer.ggml.tokens is string, want an array of strings"},
		{map[string]any{"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.tokens": []int32{1}}, "tokenizer.ggml.tokens[0] is int32, want a string"},
		{map[string]any{"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.tokens": []string{}}, "tokenizer.ggml.tokens holds 0 tokens"},
		{map[string]any{"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.tokens": tokens, "tokenizer.ggml.token_type": []int32{1}}, "tokenizer.ggml.token_type must be an array of 2 integers, one a token"},
		{map[string]any{"tokenizer.ggml.model": "gpt2", "tokenizer.ggml.tokens": tokens, "tokenizer.ggml.token_type": []int64{1, 1}}, "tokenizer.ggml.token_type[0] is 1 (int64), want an int32"},
		{map[string]any{"tokenizer.ggml.model": "llama", "tokenizer.ggml.tokens": tokens, "tokenizer.ggml.token_type": []int32{1, 6}}, `token 1, "b", is of type byte but is not <0xNN>`},
		{map[string]any{"tokenizer.ggml.model": "llama", "tokenizer.ggml.tokens": tokens, "tokenizer.ggml.add_space_prefix": int32(1)}, "tokenizer.ggml.add_space_prefix is 1 (int32), want a bool"},
	} {
		_, err := FromGGUF(ggufFile(t, tc.kv))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.kv, err, tc.want)
		}
	}
}

// TestTokenizerJSON reads transformers' two decoder kinds, and refuses
// what it does not decode.
func TestTokenizerJSON(t *testing.T) {
	bl := `{"model": {"type": "BPE", "vocab": {"Hi": 0, "Ġthere": 1, "Ċ": 2}}, "added_tokens": [{"id": 3, "content": "<|endoftext|>", "special": true}], "decoder": {"type": "ByteLevel", "add_prefix_space": false}}`
	v, err := FromTokenizerJSON([]byte(bl))
	if err != nil {
		t.Fatal(err)
	}
	if got := decode(t, v, 0, 1, 2, 3); got != "Hi there\n<|endoftext|>" {
		t.Errorf("ByteLevel: %q", got)
	}
	seq := `{"model": {"type": "BPE", "vocab": {"<unk>": 0, "<s>": 1, "▁Hi": 2, "<0x21>": 3}}, "added_tokens": [{"id": 1, "content": "<s>", "special": true}],
	  "decoder": {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "}, {"type": "ByteFallback"}, {"type": "Fuse"}, {"type": "Strip", "content": " ", "start": 1, "stop": 0}]}}`
	v, err = FromTokenizerJSON([]byte(seq))
	if err != nil {
		t.Fatal(err)
	}
	if got := decode(t, v, 2, 3, 2); got != "Hi! Hi" || !v.StripSpace {
		t.Errorf("SentencePiece: %q", got)
	}
	// A non-special added token marked normalized decodes from its
	// normalized text; a special one, or one not marked, from its own.
	norm := `{"model": {"type": "BPE", "vocab": {"a": 0}}, "normalizer": {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"}, {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
	  "added_tokens": [{"id": 1, "content": "x y", "normalized": true}, {"id": 2, "content": "x y", "normalized": true, "special": true}, {"id": 3, "content": "x y", "normalized": false}],
	  "decoder": {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "}]}}`
	if v, err = FromTokenizerJSON([]byte(norm)); err != nil || decode(t, v, 0, 1, 2, 3) != "a x yx yx y" {
		t.Errorf("normalized added tokens: %v", err)
	}
	// Metaspace's decoder: "▁" as a space, but dropped in the first token,
	// byte pieces as their text; a sequence without ByteFallback keeps
	// them as text too.
	meta := `{"model": {"type": "BPE", "vocab": {"▁Hi": 0, "<0x21>": 1, "▁a▁b": 2}}, "decoder": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": false}}`
	if v, err = FromTokenizerJSON([]byte(meta)); err != nil || decode(t, v, 0, 1, 0) != "Hi<0x21> Hi" || decode(t, v, 2, 2) != "ab a b" {
		t.Errorf("Metaspace decoder: %v", err)
	}
	noFallback := strings.Replace(seq, `{"type": "ByteFallback"}, `, "", 1)
	if v, err = FromTokenizerJSON([]byte(noFallback)); err != nil || decode(t, v, 2, 3) != "Hi<0x21>" {
		t.Errorf("without ByteFallback: %v", err)
	}
	stripFirst := strings.Replace(seq, `{"type": "Fuse"}, {"type": "Strip", "content": " ", "start": 1, "stop": 0}`, `{"type": "Strip", "content": " ", "start": 1, "stop": 0}, {"type": "Fuse"}`, 1)
	if _, err := FromTokenizerJSON([]byte(stripFirst)); err == nil || !strings.Contains(err.Error(), `decoder Strip " " (start 1, stop 0) in the sequence is not supported`) {
		t.Errorf("Strip before Fuse: %v", err)
	}
	noStrip := strings.Replace(seq, `, {"type": "Strip", "content": " ", "start": 1, "stop": 0}`, "", 1)
	if v, err = FromTokenizerJSON([]byte(noStrip)); err != nil || decode(t, v, 2) != " Hi" {
		t.Errorf("SentencePiece without Strip: %v", err)
	}
	for _, tc := range []struct{ src, want string }{
		{`{"model": {"type": "WordPiece", "vocab": {"a": 0}}, "decoder": {"type": "ByteLevel"}}`, `model type "WordPiece" is not supported`},
		{`{"model": {"type": "BPE", "vocab": {"a": 0}}}`, "no decoder"},
		{`{"model": {"type": "BPE", "vocab": {"a": 0}}, "decoder": {"type": "WordPiece"}}`, `decoder "WordPiece" is not supported`},
		{`{"model": {"type": "BPE", "vocab": {"a": 0}}, "decoder": {"type": "Sequence", "decoders": [{"type": "Fuse"}]}}`, `without Replace "▁" by " "`},
		{`{"model": {"type": "BPE", "vocab": {"a": 0}}, "decoder": {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "_"}, "content": " "}]}}`, `decoder Replace "_" by " " in the sequence is not supported`},
		{`{"model": {"type": "BPE", "vocab": {"a": 0}}, "decoder": {"type": "Sequence", "decoders": [null]}}`, "a null decoder in the sequence"},
		{`{"model": {"type": "BPE", "vocab": {"a": -1}}, "decoder": {"type": "ByteLevel"}}`, `token "a" has id -1`},
		{`{"model": {"type": "BPE", "vocab": {"a": 0, "b": 0}}, "decoder": {"type": "ByteLevel"}}`, `share the id 0`},
		{`{"model": {"type": "BPE", "vocab": {}}, "decoder": {"type": "ByteLevel"}}`, "the vocab is empty"},
		{`{"model": 3}`, "cannot unmarshal"},
		{`{"model": {"type": "BPE", "vocab": {"a": 0}}, "added_tokens": [{"id": 1, "content": "b", "normalized": true}], "normalizer": {"type": "NFKC"}, "decoder": {"type": "ByteLevel"}}`,
			`added token "b": normalizer "NFKC" is not supported`},
	} {
		if _, err := FromTokenizerJSON([]byte(tc.src)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.src, err, tc.want)
		}
	}
}

// TestOpen finds the vocabulary of a GGUF file, a checkpoint directory
// and a safetensors file in one, and says when there is none.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(dir); !errors.Is(err, ErrNone) {
		t.Errorf("empty directory: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "tokenizer.json"), []byte(`{"model": {"type": "BPE", "vocab": {"a": 0}}, "decoder": {"type": "ByteLevel"}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "model.safetensors"), nil, 0o644)
	for _, p := range []string{dir, filepath.Join(dir, "model.safetensors")} {
		if v, err := Open(p); err != nil || v.Kind != ByteLevel || len(v.Pieces) != 1 {
			t.Errorf("%s: %v", p, err)
		}
	}
	os.WriteFile(filepath.Join(dir, "tokenizer.json"), []byte(`{"model": {"type": "Unigram"}}`), 0o644)
	if _, err := Open(dir); err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, "tokenizer.json")+": model type") {
		t.Errorf("bad tokenizer.json: %v", err)
	}
	var w gguf.Writer
	w.Add("general.architecture", "llama")
	path := filepath.Join(dir, "m.gguf")
	w.WriteFile(path)
	if _, err := Open(path); !errors.Is(err, ErrNone) {
		t.Errorf("GGUF without a vocabulary: %v", err)
	}
	if _, err := Open(filepath.Join(dir, "absent")); err == nil {
		t.Error("absent path opened")
	}
}

// FuzzFromTokenizerJSON: any tokenizer.json is read or refused, and a
// vocabulary read decodes every one of its ids and encodes text to ids
// of its own or refuses to.
func FuzzFromTokenizerJSON(f *testing.F) {
	f.Add([]byte(`{"model": {"type": "BPE", "vocab": {"Hi": 0, "Ġthere": 1}}, "added_tokens": [{"id": 3, "content": "<|x|>"}], "decoder": {"type": "ByteLevel"}}`))
	f.Add([]byte(`{"model": {"type": "BPE", "vocab": {"▁Hi": 0, "<0x21>": 1}}, "decoder": {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "}, {"type": "ByteFallback"}, {"type": "Fuse"}, {"type": "Strip", "content": " ", "start": 1, "stop": 0}]}}`))
	for _, name := range hfVocabs {
		data, err := os.ReadFile(filepath.Join("testdata", "hf", name, "tokenizer.json"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := FromTokenizerJSON(data)
		if err != nil {
			return
		}
		ids := make([]int, len(v.Pieces))
		for i := range ids {
			ids[i] = i
		}
		if _, err := v.Decode(ids); err != nil {
			t.Fatal(err)
		}
		// Encoding with whatever it holds: ids or a refusal, no panic,
		// and every id one of the vocabulary's.
		for _, special := range []bool{false, true} {
			got, err := v.Encode("Hello  world\n数学 <s>\u00a0'LL 12345", special)
			for _, id := range got {
				if err == nil && (id < 0 || id >= len(v.Pieces)) {
					t.Fatalf("encoded to %d, past the %d pieces", id, len(v.Pieces))
				}
			}
		}
	})
}

// TestLossy replaces ill-formed UTF-8 as Unicode's recommended practice
// does: the standard's example of maximal subparts, and byte pieces that
// are not UTF-8 as one U+FFFD each (the tokenizers library's
// ByteFallback).
func TestLossy(t *testing.T) {
	const r = "\uFFFD"
	in := "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"
	if got, want := lossy([]byte(in)), "a"+r+r+r+"b"+r+"c"+r+r+"d"; got != want {
		t.Errorf("lossy: %q, want %q", got, want)
	}
	for _, s := range []string{"", "abc", "é🙂", "\uFFFD"} {
		if got := lossy([]byte(s)); got != s {
			t.Errorf("lossy(%q) = %q", s, got)
		}
	}
	if got := lossy([]byte("\xF0\x9F\x99")); got != r {
		t.Errorf("a truncated 4-byte sequence: %q", got)
	}
	if got := lossy([]byte("\xED\xA0\x80")); got != r+r+r {
		t.Errorf("a surrogate: %q", got)
	}
	v := &Vocab{Kind: SentencePiece, Pieces: []string{"<0xC3>", "<0xA9>", "▁x", "<0xFF>"}, Lossy: true, ByteFallback: true}
	if got := decode(t, v, 0, 1, 2, 0, 3, 2); got != "é x"+r+r+" x" {
		t.Errorf("byte pieces: %q", got)
	}
	v.Lossy = false
	if got := decode(t, v, 0, 3); got != "\xC3\xFF" {
		t.Errorf("byte pieces kept: %q", got)
	}
	b := &Vocab{Kind: ByteLevel, Pieces: []string{"a b", "é", "Ã©"}, Lossy: true}
	if got := decode(t, b, 0, 1, 2); got != "a b"+r+"é" {
		t.Errorf("byte-level: %q", got)
	}
}

// TestStopTokens reads the end-of-sequence tokens from GGUF metadata,
// generation_config.json, else config.json (or its text_config).
func TestStopTokens(t *testing.T) {
	var w gguf.Writer
	w.Add("general.architecture", "llama")
	w.Add("tokenizer.ggml.eos_token_id", uint32(7))
	w.Add("tokenizer.ggml.eot_token_id", uint32(9))
	dir := t.TempDir()
	path := filepath.Join(dir, "m.gguf")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if ids, err := StopTokens(path); err != nil || !slices.Equal(ids, []int{7, 9}) {
		t.Errorf("GGUF: %v, %v", ids, err)
	}
	var bad gguf.Writer
	bad.Add("general.architecture", "llama")
	bad.Add("tokenizer.ggml.eos_token_id", "two")
	badPath := filepath.Join(t.TempDir(), "bad.gguf")
	if err := bad.WriteFile(badPath); err != nil {
		t.Fatal(err)
	}
	if _, err := StopTokens(badPath); err == nil || !strings.Contains(err.Error(), "tokenizer.ggml.eos_token_id is not a token id") {
		t.Errorf("GGUF eos a string: %v", err)
	}
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if ids, err := StopTokens(dir); err != nil || ids != nil {
		t.Errorf("none: %v, %v", ids, err)
	}
	write("config.json", `{"eos_token_id": null, "text_config": {"eos_token_id": 3}}`)
	if ids, err := StopTokens(dir); err != nil || !slices.Equal(ids, []int{3}) {
		t.Errorf("text_config: %v, %v", ids, err)
	}
	write("generation_config.json", `{"eos_token_id": [5, 6]}`)
	write("model.safetensors", "")
	if ids, err := StopTokens(filepath.Join(dir, "model.safetensors")); err != nil || !slices.Equal(ids, []int{5, 6}) {
		t.Errorf("generation_config.json: %v, %v", ids, err)
	}
	write("generation_config.json", `{"eos_token_id": "x"}`)
	if _, err := StopTokens(dir); err == nil || !strings.Contains(err.Error(), `generation_config.json: eos_token_id is "x", want an id or a list of ids`) {
		t.Errorf("a string: %v", err)
	}
	write("generation_config.json", `{"eos_token_id": -1}`)
	if _, err := StopTokens(dir); err == nil || !strings.Contains(err.Error(), "eos_token_id -1 is not a token id") {
		t.Errorf("negative: %v", err)
	}
}

// TestGGUFStopTokens: a GGUF vocabulary stops where llama.cpp's
// end-of-generation set does: eos (its default when the key is absent or
// past the vocabulary), eot, eom and the fill-in-the-middle pad, repo and
// separator tokens (by key or text), every token whose text ends a chat
// turn, and llama.cpp's two exceptions.
func TestGGUFStopTokens(t *testing.T) {
	stops := func(model string, tokens []string, kv map[string]any) ([]int, error) {
		t.Helper()
		var w gguf.Writer
		w.Add("general.architecture", "llama")
		w.Add("tokenizer.ggml.model", model)
		w.Add("tokenizer.ggml.tokens", tokens)
		for k, v := range kv {
			w.Add(k, v)
		}
		f, err := w.File("m.gguf")
		if err != nil {
			t.Fatal(err)
		}
		return ggufStopTokens(f)
	}
	for _, tc := range []struct {
		name   string
		model  string
		tokens []string
		kv     map[string]any
		want   []int
	}{
		{"qwen", "gpt2", []string{"a", "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>", "b"},
			map[string]any{"tokenizer.ggml.eos_token_id": uint32(3)}, []int{1, 3, 4, 5, 6}},
		{"gemma 3", "llama", []string{"<pad>", "<eos>", "<bos>", "a", "<start_of_turn>", "<end_of_turn>"},
			map[string]any{"tokenizer.ggml.eos_token_id": uint32(1)}, []int{1, 5}},
		{"llama 3.1", "gpt2", []string{"a", "<|begin_of_text|>", "<|end_of_text|>", "<|eom_id|>", "<|eot_id|>"},
			map[string]any{"tokenizer.ggml.eos_token_id": uint32(4)}, []int{2, 3, 4}},
		// gpt-oss: <|end|> ends a message, not the generation.
		{"gpt-oss", "gpt2", []string{"a", "<|return|>", "<|call|>", "<|end|>", "<|endoftext|>"},
			map[string]any{"tokenizer.ggml.eos_token_id": uint32(1)}, []int{1, 2, 4}},
		// Phi-3: <|end|> does.
		{"phi-3", "llama", []string{"<unk>", "<s>", "</s>", "<|end|>", "<|endoftext|>"},
			map[string]any{"tokenizer.ggml.eos_token_id": uint32(4)}, []int{2, 3, 4}},
		{"gemma 4", "gpt2", []string{"a", "</s>", "<|tool_response>", "<turn|>"},
			map[string]any{"tokenizer.ggml.eos_token_id": uint32(3)}, []int{2, 3}},
		// Defaults: eos 2 for llama, 11 for gpt2 (none in 3 tokens); a
		// key past the vocabulary is ignored; eot and the FIM ids by key.
		{"llama default", "llama", []string{"<unk>", "<s>", "x", "y"}, nil, []int{2}},
		{"gpt2 default", "gpt2", []string{"a", "b", "c"}, nil, []int{}},
		{"out of range", "llama", []string{"<unk>", "<s>", "x"},
			map[string]any{"tokenizer.ggml.eos_token_id": uint32(9), "tokenizer.ggml.eot_token_id": uint32(1), "tokenizer.ggml.fim_sep_token_id": uint32(0)}, []int{0, 1, 2}},
	} {
		got, err := stops(tc.model, tc.tokens, tc.kv)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	if _, err := stops("gpt2", []string{"a"}, map[string]any{"tokenizer.ggml.eom_token_id": "x"}); err == nil || !strings.Contains(err.Error(), "tokenizer.ggml.eom_token_id is not a token id") {
		t.Errorf("eom a string: %v", err)
	}
}

package chat

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlx-compiler/rlx/internal/ggufgen"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/jinja"
	"github.com/rlx-compiler/rlx/runtime/vocab"
)

// chatML is the layout of Qwen's templates, reduced.
const chatML = `{%- for m in messages %}{{ '<|im_start|>' + m.role + '\n' + m.content + '<|im_end|>\n' }}{%- endfor %}
{%- if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{%- endif %}`

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	return path
}

func render(t *testing.T, tmpl *Template, gen bool, msgs ...Message) string {
	t.Helper()
	out, err := tmpl.Render(msgs, gen)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOpen finds the template where transformers looks for it, in its
// order, with the special tokens of tokenizer_config.json.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(dir); !errors.Is(err, ErrNone) || !strings.Contains(err.Error(), "no chat_template.jinja, and no chat_template in tokenizer_config.json or chat_template.json") {
		t.Errorf("empty directory: %v", err)
	}
	write(t, dir, "chat_template.json", `{"chat_template": "J{{ bos_token }}"}`)
	tmpl, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := render(t, tmpl, false); got != "J" || tmpl.Source != filepath.Join(dir, "chat_template.json") {
		t.Errorf("chat_template.json: %q from %s", got, tmpl.Source)
	}
	write(t, dir, "tokenizer_config.json", `{"bos_token": {"content": "<s>", "lstrip": false}, "eos_token": "</s>",
	  "chat_template": "C{{ bos_token }}{{ eos_token }}"}`)
	weights := write(t, dir, "model.safetensors", "")
	if tmpl, err = Open(weights); err != nil {
		t.Fatal(err)
	}
	if got := render(t, tmpl, false); got != "C<s></s>" {
		t.Errorf("tokenizer_config.json: %q", got)
	}
	write(t, dir, "tokenizer_config.json", `{"chat_template": [{"name": "tool_use", "template": "T"}, {"name": "default", "template": "D"}]}`)
	if tmpl, err = Open(dir); err != nil || render(t, tmpl, false) != "D" {
		t.Errorf("named templates: %v", err)
	}
	write(t, dir, "chat_template.jinja", chatML)
	if tmpl, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	got := render(t, tmpl, true, Message{Role: "system", Content: "Be brief."}, Message{Role: "user", Content: "Hi"})
	if want := "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"; got != want {
		t.Errorf("chat_template.jinja: %q, want %q", got, want)
	}
	// A template file named itself; the directory's tokens.
	other := write(t, t.TempDir(), "mine.jinja", "{{ messages[0].content | upper }}{{ eos_token }}")
	if tmpl, err = Open(other); err != nil || render(t, tmpl, false, Message{Role: "user", Content: "a"}) != "A" {
		t.Errorf("a .jinja file: %v", err)
	}
	for _, tc := range []struct{ config, want string }{
		{`{"chat_template": [{"name": "rag", "template": "T"}]}`, `tokenizer_config.json: chat_template lists no "default" or "tool_use" template (it has "rag")`},
		{`{"chat_template": 3}`, "tokenizer_config.json: chat_template is neither a string nor a list of {name, template}"},
		{`{"bos_token": 3, "chat_template": "x"}`, "tokenizer_config.json: bos_token: 3 is neither a string nor {\"content\": ...}"},
		{`{"chat_template": "{% if %}"}`, "tokenizer_config.json:1:"},
		{`{`, "tokenizer_config.json: unexpected end of JSON input"},
	} {
		d := t.TempDir()
		write(t, d, "tokenizer_config.json", tc.config)
		if _, err := Open(d); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.config, err, tc.want)
		}
	}
	if _, err := Open(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing path opened")
	}
	// A template file of any other name is the template's text; a .json
	// other than the two that hold templates stands for its directory.
	j2 := write(t, dir, "other.j2", "J2{{ bos_token }}")
	if tmpl, err = Open(j2); err != nil || render(t, tmpl, false) != "J2" {
		t.Errorf("a .j2 file: %v", err)
	}
	if tmpl, err = Open(write(t, dir, "config.json", "{}")); err != nil || tmpl.Source != filepath.Join(dir, "chat_template.jinja") {
		t.Errorf("config.json: %v", err)
	}
	empty := t.TempDir()
	if _, err := Open(write(t, empty, "chat_template.json", "{}")); !errors.Is(err, ErrNone) || !strings.Contains(err.Error(), "chat_template.json: no chat template (no chat_template)") {
		t.Errorf("chat_template.json without one: %v", err)
	}
}

// TestToolUse: a checkpoint that names its templates renders "tool_use"
// when tools are given and "default" otherwise, as apply_chat_template
// picks them, from tokenizer_config.json, from a GGUF file's
// tokenizer.chat_template.tool_use, and from chat_template.jinja with
// additional_chat_templates/tool_use.jinja; tools and documents are
// none, not undefined, when not given; a variable may set bos_token.
func TestToolUse(t *testing.T) {
	tools := []any{jinja.NewDict()}
	check := func(what string, tmpl *Template) {
		t.Helper()
		if got := render(t, tmpl, false, Message{Role: "user", Content: "a"}); got != "D a none none" {
			t.Errorf("%s without tools: %q", what, got)
		}
		tmpl.Vars = map[string]any{"tools": tools}
		if got := render(t, tmpl, false, Message{Role: "user", Content: "a"}); got != "T 1" {
			t.Errorf("%s with tools: %q", what, got)
		}
		tmpl.Vars = nil
	}
	const def, tool = `D {{ messages[0].content }} {{ tools is none and "none" }} {{ documents is none and "none" }}`, `T {{ tools | length }}`
	dir := t.TempDir()
	write(t, dir, "tokenizer_config.json", `{"chat_template": [{"name": "default", "template": "`+strings.ReplaceAll(def, `"`, `\"`)+`"}, {"name": "tool_use", "template": "`+tool+`"}]}`)
	tmpl, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	check("tokenizer_config.json", tmpl)
	write(t, dir, "chat_template.jinja", def)
	os.Mkdir(filepath.Join(dir, "additional_chat_templates"), 0o777)
	write(t, dir, filepath.Join("additional_chat_templates", "tool_use.jinja"), tool)
	if tmpl, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	check("chat_template.jinja", tmpl)
	var w gguf.Writer
	w.Add("general.architecture", "llama")
	w.Add("tokenizer.ggml.model", "gpt2")
	w.Add("tokenizer.ggml.tokens", []string{"<s>", "a"})
	w.Add("tokenizer.ggml.token_type", []int32{3, 1})
	w.Add("tokenizer.ggml.bos_token_id", uint32(0))
	w.Add("tokenizer.chat_template", def)
	w.Add("tokenizer.chat_template.tool_use", tool)
	path := filepath.Join(t.TempDir(), "m.gguf")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if tmpl, err = Open(path); err != nil {
		t.Fatal(err)
	}
	check("GGUF", tmpl)
	if bos, eos, err := SpecialTokens(path); bos != "<s>" || eos != "" || err != nil {
		t.Errorf("GGUF SpecialTokens: %q %q %v", bos, eos, err)
	}
	// Only tool_use: without tools there is nothing to render.
	only := t.TempDir()
	write(t, only, "tokenizer_config.json", `{"bos_token": "<s>", "chat_template": [{"name": "tool_use", "template": "T"}]}`)
	if tmpl, err = Open(only); err != nil {
		t.Fatal(err)
	}
	if _, err := tmpl.Render(nil, false); err == nil || !strings.Contains(err.Error(), `the checkpoint has only a "tool_use" template, which wants tools`) {
		t.Errorf("tool_use only: %v", err)
	}
	if bos, _, err := SpecialTokens(filepath.Join(only, "tokenizer_config.json")); bos != "<s>" || err != nil {
		t.Errorf("SpecialTokens: %q %v", bos, err)
	}
	// A variable overrides bos_token; messages may not be set so.
	tmpl, _ = Parse("t", "{{ bos_token }}", "<s>", "")
	tmpl.Vars = map[string]any{"bos_token": "B"}
	if got := render(t, tmpl, false); got != "B" {
		t.Errorf("bos_token variable: %q", got)
	}
	tmpl.Vars = map[string]any{"messages": []any{}}
	if _, err := tmpl.Render(nil, false); err == nil || !strings.Contains(err.Error(), "messages is the conversation's own") {
		t.Errorf("messages variable: %v", err)
	}
}

// TestOpenGGUF reads tokenizer.chat_template, the special tokens' text
// from the vocabulary's pieces.
func TestOpenGGUF(t *testing.T) {
	file := func(kv map[string]any) string {
		var w gguf.Writer
		w.Add("general.architecture", "llama")
		w.Add("tokenizer.ggml.model", "gpt2")
		w.Add("tokenizer.ggml.tokens", []string{"<s>", "</s>", "a"})
		w.Add("tokenizer.ggml.token_type", []int32{3, 3, 1})
		for k, v := range kv {
			w.Add(k, v)
		}
		path := filepath.Join(t.TempDir(), "m.gguf")
		if err := w.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	path := file(map[string]any{"tokenizer.chat_template": "{{ bos_token }}[{{ messages[0].content }}]{{ eos_token }}",
		"tokenizer.ggml.bos_token_id": uint32(0), "tokenizer.ggml.eos_token_id": uint32(1)})
	tmpl, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := render(t, tmpl, true, Message{Role: "user", Content: "q"}); got != "<s>[q]</s>" {
		t.Errorf("GGUF: %q", got)
	}
	if _, err := Open(file(nil)); !errors.Is(err, ErrNone) || !strings.Contains(err.Error(), "no tokenizer.chat_template") {
		t.Errorf("no template: %v", err)
	}
	if _, err := Open(file(map[string]any{"tokenizer.chat_template": "x", "tokenizer.ggml.eos_token_id": uint32(7)})); err == nil || !strings.Contains(err.Error(), "tokenizer.ggml.eos_token_id is not a token of its vocabulary") {
		t.Errorf("eos past the vocabulary: %v", err)
	}
}

// TestRender: raise_exception's message, located; strftime_now at Now;
// content given as parts; extra keys; messages read from JSON in order.
func TestRender(t *testing.T) {
	tmpl, err := Parse("t.jinja", `{% if messages[0].role != 'user' %}{{ raise_exception('Conversations must start with the user') }}{% endif %}`+
		`{{ strftime_now('%d %b %Y') }}|{% for p in messages[0].content %}{{ p.text }}{% endfor %}|{{ messages[0].name }}`, "", "")
	if err != nil {
		t.Fatal(err)
	}
	tmpl.Now = time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
	msgs, err := ReadMessages([]byte(`[{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "name": "n"}]`))
	if err != nil {
		t.Fatal(err)
	}
	if got := render(t, tmpl, false, msgs...); got != "06 Dec 2026|ab|n" {
		t.Errorf("render: %q", got)
	}
	// A message read from JSON keeps its keys' order.
	order, _ := Parse("o", "{% for k, v in messages[0].items() %}{{ k }},{% endfor %}", "", "")
	msgs, err = ReadMessages([]byte(`[{"content": "x", "role": "user", "z": 1, "b": 2}]`))
	if err != nil {
		t.Fatal(err)
	}
	if got := render(t, order, false, msgs...); got != "content,role,z,b," {
		t.Errorf("key order: %q", got)
	}
	// Its values are the message's as it stands: an edit shows.
	msgs[0].Content, msgs[0].Extra["b"] = "y", 3
	delete(msgs[0].Extra, "z")
	msgs[0].Extra["a"] = 0
	both, _ := Parse("o", "{% for k, v in messages[0].items() %}{{ k }}={{ v }},{% endfor %}", "", "")
	if got := render(t, both, false, msgs...); got != "content=y,role=user,b=3,a=0," {
		t.Errorf("an edited message: %q", got)
	}
	if _, err := tmpl.Render([]Message{{Role: "system", Content: "x"}}, false); err == nil || err.Error() != "t.jinja: the template refuses the conversation: Conversations must start with the user" {
		t.Errorf("raise_exception: %v", err)
	}
	for _, tc := range []struct{ json, want string }{
		{`{}`, "the messages are not a JSON list"},
		{`[3]`, "message 0 is not an object"},
		{`[{"content": "x"}]`, `message 0 has no "role" string`},
		{`[{"role": "user"}]`, `message 0 has no "content"`},
		{`[`, ""},
		{" \n", "the file is empty, not a JSON list of messages"},
	} {
		if _, err := ReadMessages([]byte(tc.json)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.json, err, tc.want)
		}
	}
}

// applyCase is one case of testdata/apply.json.
type applyCase struct {
	Vocab, Template string
	BOS             *string           `json:"bos_token"`
	EOS             *string           `json:"eos_token"`
	Messages        []json.RawMessage `json:"messages"`
	Gen             bool              `json:"add_generation_prompt"`
	Vars            json.RawMessage   `json:"vars"`
	Text            *string           `json:"text"`
	IDs             []int             `json:"ids"`
	Error           string            `json:"error"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// checkApply renders each case with the template and vocabulary open
// gives it (nil to leave the case out) and compares the text and ids
// with transformers'. It returns how many texts and id lists were equal
// and how many refusals had transformers' message.
func checkApply(t *testing.T, open func(c applyCase, src string) (*Template, *vocab.Vocab)) (texts, ids, refused, cases int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "apply.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Now   string      `json:"now"`
		Cases []applyCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &fx); err != nil {
		t.Fatal(err)
	}
	now, err := time.Parse("2006-01-02", fx.Now)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range fx.Cases {
		src, err := os.ReadFile(filepath.Join("..", "jinja", "testdata", "templates", c.Template+".jinja"))
		if err != nil {
			t.Fatal(err)
		}
		tmpl, v := open(c, string(src))
		if tmpl == nil {
			continue
		}
		cases++
		tmpl.Now = now
		vars, err := jinja.DecodeJSON(c.Vars)
		if err != nil {
			t.Fatal(err)
		}
		tmpl.Vars = map[string]any{}
		for _, k := range vars.(*jinja.Dict).Keys() {
			tmpl.Vars[k.(string)], _ = vars.(*jinja.Dict).Get(k)
		}
		list, err := json.Marshal(c.Messages)
		if err != nil {
			t.Fatal(err)
		}
		msgs, err := ReadMessages(list)
		if err != nil {
			t.Fatal(err)
		}
		text, err := tmpl.Render(msgs, c.Gen)
		if c.Error != "" {
			if err == nil || !strings.HasSuffix(err.Error(), ": the template refuses the conversation: "+c.Error) {
				t.Errorf("case %d (%s): %v, transformers refused with %q", i, c.Template, err, c.Error)
			}
			refused++
			continue
		}
		if err != nil || text != str(c.Text) {
			t.Errorf("case %d (%s): %q (%v), transformers %q", i, c.Template, text, err, str(c.Text))
			continue
		}
		texts++
		got, err := v.Encode(text, false)
		if err != nil || !slices.Equal(got, c.IDs) {
			t.Errorf("case %d (%s on %s): ids %v (%v), transformers %v", i, c.Template, c.Vocab, got, err, c.IDs)
			continue
		}
		ids++
	}
	return texts, ids, refused, cases
}

// TestApplyChatTemplate checks Render and the vocabulary's Encode
// together against transformers' apply_chat_template
// (testdata/apply.json, tools/hf-fixtures/chat_tokens.py on the GPU
// machine): ten real templates (runtime/jinja/testdata/templates) on
// runtime/vocab's library-made vocabularies of their layouts, four
// conversations each with and without the generation prompt, and one
// with tools offered (four templates) or Qwen3's enable_thinking=False
// (Template.Vars): the text (tokenize=False) and the ids (tokenize=True,
// the text encoded without the vocabulary's own specials), or the
// template's refusal.
func TestApplyChatTemplate(t *testing.T) {
	vocabs := map[string]*vocab.Vocab{}
	texts, ids, refused, cases := checkApply(t, func(c applyCase, src string) (*Template, *vocab.Vocab) {
		v := vocabs[c.Vocab]
		if v == nil {
			var err error
			if v, err = vocab.Open(filepath.Join("..", "vocab", "testdata", "hf", c.Vocab, "tokenizer.json")); err != nil {
				t.Fatal(err)
			}
			vocabs[c.Vocab] = v
		}
		tmpl, err := Parse(c.Template, src, str(c.BOS), str(c.EOS))
		if err != nil {
			t.Fatal(err)
		}
		return tmpl, v
	})
	if cases != 92 || texts != 88 || ids != 88 || refused != 4 {
		t.Errorf("%d cases: %d texts and %d id lists equal, %d refusals", cases, texts, ids, refused)
	}
}

// TestApplyChatTemplateGGUF runs the cases of the byte-level
// vocabularies (Qwen2's and Llama 3's layouts: six templates) from one
// GGUF file each, as a llama.cpp user has them: the vocabulary
// converted as convert_hf_to_gguf.py writes it, the template in
// tokenizer.chat_template, bos and eos as token ids. Open reads the
// template and the tokens' text, and vocab.Open the vocabulary, from the
// file: the texts and ids are transformers'.
func TestApplyChatTemplateGGUF(t *testing.T) {
	files := map[string]string{}
	texts, ids, refused, cases := checkApply(t, func(c applyCase, src string) (*Template, *vocab.Vocab) {
		pre := map[string]string{"qwen2": "qwen2", "llama3": "llama-bpe"}[c.Vocab]
		if pre == "" {
			return nil, nil
		}
		key := c.Vocab + " " + c.Template + " " + str(c.BOS) + " " + str(c.EOS)
		path, ok := files[key]
		if !ok {
			path = ggufCheckpoint(t, c.Vocab, pre, src, str(c.BOS), str(c.EOS))
			files[key] = path
		}
		tmpl, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		v, err := vocab.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		return tmpl, v
	})
	if cases != 50 || texts != 50 || ids != 50 || refused != 0 {
		t.Errorf("%d cases: %d texts and %d id lists equal, %d refusals", cases, texts, ids, refused)
	}
}

// ggufCheckpoint writes a GGUF file holding runtime/vocab's test
// vocabulary name (with the pre-tokeniser pre) laid out as
// convert_hf_to_gguf.py lays it out (tokens by id; special added tokens
// control, other added tokens user-defined; merges "a b"), the chat
// template, and bos and eos as the ids of those pieces.
func ggufCheckpoint(t *testing.T, name, pre, template, bos, eos string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "vocab", "testdata", "hf", name, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	tj, err := ggufgen.ReadTokenizer(data)
	if err != nil {
		t.Fatal(err)
	}
	var w gguf.Writer
	w.Add("general.architecture", "llama")
	tj.AddBPE(&w, pre)
	w.Add("tokenizer.chat_template", template)
	tokens, _ := tj.Tokens()
	for key, piece := range map[string]string{"tokenizer.ggml.bos_token_id": bos, "tokenizer.ggml.eos_token_id": eos} {
		if i := slices.Index(tokens, piece); piece != "" && i >= 0 {
			w.Add(key, uint32(i))
		}
	}
	path := filepath.Join(t.TempDir(), name+".gguf")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

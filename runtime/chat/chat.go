package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/jinja"
	"github.com/rlx-compiler/rlx/runtime/vocab"
)

// ErrNone says a checkpoint has no chat template.
var ErrNone = errors.New("no chat template")

// Template is a checkpoint's chat template and the special tokens' text
// it is rendered with.
type Template struct {
	// Source names where the template was read: a file, or a GGUF
	// file and its key.
	Source string
	// BOS and EOS are the text of the beginning- and end-of-sequence
	// tokens (bos_token and eos_token in the template); "" when the
	// checkpoint names none.
	BOS, EOS string
	// Now is the time strftime_now formats (the current time when zero).
	Now time.Time
	// Vars are further variables the template reads, as the keyword
	// arguments of apply_chat_template: tools (a list of function
	// schemas), enable_thinking (Qwen3), documents, ... (package jinja's
	// values; DecodeJSON reads them). The conversation and the special
	// tokens take precedence.
	Vars map[string]any

	t *jinja.Template
}

// Message is one turn of a conversation. Content is a string, or any
// other value a template takes (a list of {"type": "text", "text": ...}
// parts, say), as package jinja's values.
type Message struct {
	Role    string
	Content any
	// Extra are further keys of the message (tool_calls, name, ...).
	Extra map[string]any
}

// Parse returns the template text, read from source (for its errors),
// rendered with the tokens bos and eos.
func Parse(source, text, bos, eos string) (*Template, error) {
	t, err := jinja.Parse(source, text)
	if err != nil {
		return nil, err
	}
	return &Template{Source: source, BOS: bos, EOS: eos, t: t}, nil
}

// Open reads the chat template of a checkpoint: path is a template file
// (*.jinja), a GGUF file, a checkpoint directory, or a file in one
// (tokenizer_config.json, a safetensors file). In a directory,
// chat_template.jinja comes first, then tokenizer_config.json's
// "chat_template" (a string, or a list of named templates, of which
// "default"), then chat_template.json's; the special tokens' text is
// tokenizer_config.json's bos_token and eos_token. It returns ErrNone
// (wrapped, naming the place) when there is none.
func Open(path string) (*Template, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		if strings.HasSuffix(path, ".jinja") {
			text, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			bos, eos, err := specialTokens(filepath.Dir(path))
			if err != nil {
				return nil, err
			}
			return Parse(path, string(text), bos, eos)
		}
		if _, ok := gguf.Sniff(path); ok {
			return openGGUF(path)
		}
		path = filepath.Dir(path)
	}
	bos, eos, err := specialTokens(path)
	if err != nil {
		return nil, err
	}
	name := filepath.Join(path, "chat_template.jinja")
	text, err := os.ReadFile(name)
	if err == nil {
		return Parse(name, string(text), bos, eos)
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for _, file := range []string{"tokenizer_config.json", "chat_template.json"} {
		name := filepath.Join(path, file)
		text, ok, err := jsonTemplate(name)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if ok {
			return Parse(name, text, bos, eos)
		}
	}
	return nil, fmt.Errorf("%s: %w (no chat_template.jinja, and no chat_template in tokenizer_config.json or chat_template.json)", path, ErrNone)
}

// jsonTemplate reads the "chat_template" of a JSON file, when the file
// and the key are there.
func jsonTemplate(name string) (string, bool, error) {
	data, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	var c struct {
		Template json.RawMessage `json:"chat_template"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return "", false, err
	}
	if len(c.Template) == 0 || string(c.Template) == "null" {
		return "", false, nil
	}
	var text string
	if json.Unmarshal(c.Template, &text) == nil {
		return text, true, nil
	}
	var named []struct {
		Name     string `json:"name"`
		Template string `json:"template"`
	}
	if err := json.Unmarshal(c.Template, &named); err != nil {
		return "", false, errors.New("chat_template is neither a string nor a list of {name, template}")
	}
	var names []string
	for _, n := range named {
		if n.Name == "default" {
			return n.Template, true, nil
		}
		names = append(names, fmt.Sprintf("%q", n.Name))
	}
	return "", false, fmt.Errorf("chat_template lists no \"default\" template (it has %s)", strings.Join(names, ", "))
}

// specialTokens reads bos_token and eos_token from a directory's
// tokenizer_config.json: a string, or an added token {"content": ...}.
func specialTokens(dir string) (bos, eos string, err error) {
	name := filepath.Join(dir, "tokenizer_config.json")
	data, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return "", "", nil
	}
	if err != nil {
		return "", "", err
	}
	var c struct {
		BOS json.RawMessage `json:"bos_token"`
		EOS json.RawMessage `json:"eos_token"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return "", "", fmt.Errorf("%s: %v", name, err)
	}
	if bos, err = tokenText(c.BOS); err != nil {
		return "", "", fmt.Errorf("%s: bos_token: %v", name, err)
	}
	if eos, err = tokenText(c.EOS); err != nil {
		return "", "", fmt.Errorf("%s: eos_token: %v", name, err)
	}
	return bos, eos, nil
}

// tokenText is a special token's text: a string, an added token's
// content, or "" for null or nothing.
func tokenText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var t struct {
		Content *string `json:"content"`
	}
	if json.Unmarshal(raw, &t) != nil || t.Content == nil {
		return "", fmt.Errorf("%s is neither a string nor {\"content\": ...}", raw)
	}
	return *t.Content, nil
}

// openGGUF reads tokenizer.chat_template from a GGUF file, the special
// tokens' text from its vocabulary's pieces.
func openGGUF(path string) (*Template, error) {
	f, err := gguf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	const key = "tokenizer.chat_template"
	if _, ok := f.Get(key); !ok {
		return nil, fmt.Errorf("%s: %w (no %s)", path, ErrNone, key)
	}
	text, err := f.String(key)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %v", path, key, err)
	}
	v, err := vocab.FromGGUF(f)
	if err != nil {
		return nil, err
	}
	piece := func(key string) (string, error) {
		if _, ok := f.Get(key); !ok {
			return "", nil
		}
		id, err := f.Uint(key)
		if err != nil || id >= uint64(len(v.Pieces)) {
			return "", fmt.Errorf("%s: %s is not a token of its vocabulary", path, key)
		}
		return v.Pieces[id], nil
	}
	bos, err := piece("tokenizer.ggml.bos_token_id")
	if err != nil {
		return nil, err
	}
	eos, err := piece("tokenizer.ggml.eos_token_id")
	if err != nil {
		return nil, err
	}
	return Parse(path+" ("+key+")", text, bos, eos)
}

// Render renders the conversation as the template lays it out, with
// the assistant's turn opened after it when addGenerationPrompt (what
// a prompt for generation wants), as apply_chat_template(messages,
// add_generation_prompt=...) renders it. The template's errors, and its
// raise_exception messages, come back located in Source.
func (t *Template) Render(messages []Message, addGenerationPrompt bool) (string, error) {
	list := make([]any, len(messages))
	for i, m := range messages {
		d := jinja.NewDict()
		d.Set("role", m.Role)
		d.Set("content", m.Content)
		keys := make([]string, 0, len(m.Extra))
		for k := range m.Extra {
			if k != "role" && k != "content" {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			d.Set(k, m.Extra[k])
		}
		list[i] = d
	}
	vars := map[string]any{}
	for k, v := range t.Vars {
		vars[k] = v
	}
	vars["messages"] = list
	vars["add_generation_prompt"] = addGenerationPrompt
	vars["bos_token"] = t.BOS
	vars["eos_token"] = t.EOS
	now := t.Now
	if now.IsZero() {
		now = time.Now()
	}
	text, err := t.t.RenderAt(vars, now)
	if err != nil {
		var ex *jinja.Exception
		if errors.As(err, &ex) {
			return "", fmt.Errorf("%s: the template refuses the conversation: %s", t.Source, ex.Msg)
		}
		return "", err
	}
	return text, nil
}

// ReadMessages reads a conversation from JSON: a list of messages, each
// an object with a "role" string and a "content" (a string, or any
// value the template takes), other keys kept as Extra.
func ReadMessages(data []byte) ([]Message, error) {
	v, err := jinja.DecodeJSON(data)
	if err != nil {
		return nil, err
	}
	list, ok := v.([]any)
	if !ok {
		return nil, errors.New("the messages are not a JSON list")
	}
	out := make([]Message, len(list))
	for i, x := range list {
		d, ok := x.(*jinja.Dict)
		if !ok {
			return nil, fmt.Errorf("message %d is not an object", i)
		}
		role, _ := d.Get("role")
		r, ok := role.(string)
		if !ok {
			return nil, fmt.Errorf("message %d has no \"role\" string", i)
		}
		content, ok := d.Get("content")
		if !ok {
			return nil, fmt.Errorf("message %d has no \"content\"", i)
		}
		m := Message{Role: r, Content: content}
		for _, k := range d.Keys() {
			if k, ok := k.(string); ok && k != "role" && k != "content" {
				if m.Extra == nil {
					m.Extra = map[string]any{}
				}
				m.Extra[k], _ = d.Get(k)
			}
		}
		out[i] = m
	}
	return out, nil
}

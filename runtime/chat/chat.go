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
	// schemas), documents, enable_thinking (Qwen3), ... (package jinja's
	// values; DecodeJSON reads them). They may override bos_token and
	// eos_token, as apply_chat_template's keyword arguments do; tools and
	// documents are none unless given.
	Vars map[string]any

	// t is the template, nil where the checkpoint names its templates
	// and has no "default"; toolUse is its "tool_use" template, which
	// renders when tools are given, as apply_chat_template picks it.
	t, toolUse *jinja.Template
}

// Message is one turn of a conversation. Content is a string, or any
// other value a template takes (a list of {"type": "text", "text": ...}
// parts, say), as package jinja's values.
type Message struct {
	Role    string
	Content any
	// Extra are further keys of the message (tool_calls, name, ...),
	// given to the template after role and content in sorted order, or
	// in the JSON's order for a message ReadMessages read.
	Extra map[string]any

	// order is the JSON's order of the keys (role and content among
	// them) of a message ReadMessages read.
	order []string
}

// dict is the message as the template sees it: its keys in order, their
// values as the message holds them now.
func (m Message) dict() *jinja.Dict {
	d := jinja.NewDict()
	set := func(k string) {
		switch k {
		case "role":
			d.Set(k, m.Role)
		case "content":
			d.Set(k, m.Content)
		default:
			if v, ok := m.Extra[k]; ok {
				d.Set(k, v)
			}
		}
	}
	for _, k := range m.order {
		set(k)
	}
	set("role")
	set("content")
	keys := make([]string, 0, len(m.Extra))
	for k := range m.Extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if _, done := d.Get(k); !done {
			set(k)
		}
	}
	return d
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

// Open reads the chat template of a checkpoint. path is a checkpoint
// directory, a GGUF file (tokenizer.chat_template, and
// tokenizer.chat_template.tool_use), tokenizer_config.json or
// chat_template.json named themselves, another .json or a safetensors
// file (its directory), or any other file, which is the template's text
// (chat_template.jinja, mine.j2). In a directory, chat_template.jinja
// comes first (with additional_chat_templates/tool_use.jinja beside
// it), then tokenizer_config.json's "chat_template" (a string, or a list
// of named templates: "default", and "tool_use" where present), then
// chat_template.json's. The special tokens' text is the directory's
// tokenizer_config.json's bos_token and eos_token (a GGUF file's pieces
// of its bos and eos ids); SpecialTokens reads them elsewhere. It
// returns ErrNone (wrapped, naming the place) when there is no template.
func Open(path string) (*Template, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		if _, ok := gguf.Sniff(path); ok {
			return openGGUF(path)
		}
		base := filepath.Base(path)
		switch {
		case base == "tokenizer_config.json" || base == "chat_template.json":
			t, ok, err := openJSON(path)
			if err == nil && !ok {
				err = fmt.Errorf("%s: %w (no chat_template)", path, ErrNone)
			}
			return t, err
		case strings.HasSuffix(base, ".json") || strings.HasSuffix(base, ".safetensors"):
			path = filepath.Dir(path)
		default:
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
	}
	name := filepath.Join(path, "chat_template.jinja")
	text, err := os.ReadFile(name)
	if err == nil {
		bos, eos, err := specialTokens(path)
		if err != nil {
			return nil, err
		}
		t, err := Parse(name, string(text), bos, eos)
		if err != nil {
			return nil, err
		}
		toolName := filepath.Join(path, "additional_chat_templates", "tool_use.jinja")
		if text, err := os.ReadFile(toolName); err == nil {
			if t.toolUse, err = jinja.Parse(toolName, string(text)); err != nil {
				return nil, err
			}
		}
		return t, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for _, file := range []string{"tokenizer_config.json", "chat_template.json"} {
		t, ok, err := openJSON(filepath.Join(path, file))
		if ok || err != nil {
			return t, err
		}
	}
	return nil, fmt.Errorf("%s: %w (no chat_template.jinja, and no chat_template in tokenizer_config.json or chat_template.json)", path, ErrNone)
}

// openJSON reads the "chat_template" of a JSON file, when the file and
// the key are there: a string, or a list of {name, template} of which
// "default" and "tool_use" are read.
func openJSON(name string) (*Template, bool, error) {
	data, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var c struct {
		Template json.RawMessage `json:"chat_template"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, false, fmt.Errorf("%s: %v", name, err)
	}
	if len(c.Template) == 0 || string(c.Template) == "null" {
		return nil, false, nil
	}
	bos, eos, err := specialTokens(filepath.Dir(name))
	if err != nil {
		return nil, false, err
	}
	var text string
	if json.Unmarshal(c.Template, &text) == nil {
		t, err := Parse(name, text, bos, eos)
		return t, err == nil, err
	}
	var named []struct {
		Name     string `json:"name"`
		Template string `json:"template"`
	}
	if err := json.Unmarshal(c.Template, &named); err != nil {
		return nil, false, fmt.Errorf("%s: chat_template is neither a string nor a list of {name, template}", name)
	}
	t := &Template{Source: name, BOS: bos, EOS: eos}
	var names []string
	for _, n := range named {
		names = append(names, fmt.Sprintf("%q", n.Name))
		var err error
		switch n.Name {
		case "default":
			t.t, err = jinja.Parse(name, n.Template)
		case "tool_use":
			t.toolUse, err = jinja.Parse(name+" (tool_use)", n.Template)
		}
		if err != nil {
			return nil, false, err
		}
	}
	if t.t == nil && t.toolUse == nil {
		return nil, false, fmt.Errorf("%s: chat_template lists no \"default\" or \"tool_use\" template (it has %s)", name, strings.Join(names, ", "))
	}
	return t, true, nil
}

// SpecialTokens returns the beginning- and end-of-sequence tokens' text
// of a checkpoint: path is a directory or a file in one
// (tokenizer_config.json's bos_token and eos_token) or a GGUF file (the
// pieces of its bos and eos ids); "" for those it does not name.
func SpecialTokens(path string) (bos, eos string, err error) {
	f, dir, err := vocab.Locate(path)
	if err != nil {
		return "", "", err
	}
	if f == nil {
		return specialTokens(dir)
	}
	defer f.Close()
	return ggufSpecials(f)
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

// ggufKey is where a GGUF file keeps its chat template; a named one is
// under the key and its name (tokenizer.chat_template.tool_use).
const ggufKey = "tokenizer.chat_template"

// openGGUF reads tokenizer.chat_template (and .tool_use) from a GGUF
// file, the special tokens' text from its vocabulary's pieces.
func openGGUF(path string) (*Template, error) {
	f, err := gguf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t := &Template{Source: path + " (" + ggufKey + ")"}
	for _, key := range []string{ggufKey, ggufKey + ".tool_use"} {
		if _, ok := f.Get(key); !ok {
			continue
		}
		text, err := f.String(key)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", path, key, err)
		}
		tmpl, err := jinja.Parse(path+" ("+key+")", text)
		if err != nil {
			return nil, err
		}
		if key == ggufKey {
			t.t = tmpl
		} else {
			t.toolUse = tmpl
		}
	}
	if t.t == nil && t.toolUse == nil {
		return nil, fmt.Errorf("%s: %w (no %s)", path, ErrNone, ggufKey)
	}
	if t.BOS, t.EOS, err = ggufSpecials(f); err != nil {
		return nil, err
	}
	return t, nil
}

// ggufSpecials returns the pieces of a GGUF file's bos and eos ids,
// from tokenizer.ggml.tokens as it stands (the vocabulary itself, its
// merges and encoder, is not needed for two special tokens' text).
func ggufSpecials(f *gguf.File) (bos, eos string, err error) {
	raw, _ := f.Get("tokenizer.ggml.tokens")
	tokens, _ := raw.([]any)
	piece := func(key string) (string, error) {
		if _, ok := f.Get(key); !ok {
			return "", nil
		}
		id, err := f.Uint(key)
		if err == nil && id < uint64(len(tokens)) {
			if s, ok := tokens[id].(string); ok {
				return s, nil
			}
		}
		return "", fmt.Errorf("%s: %s is not a token of its vocabulary", f.Name, key)
	}
	if bos, err = piece("tokenizer.ggml.bos_token_id"); err != nil {
		return "", "", err
	}
	eos, err = piece("tokenizer.ggml.eos_token_id")
	return bos, eos, err
}

// Render renders the conversation as the template lays it out, with
// the assistant's turn opened after it when addGenerationPrompt (what
// a prompt for generation wants), as apply_chat_template(messages,
// add_generation_prompt=..., **Vars) renders it: the "tool_use"
// template where the checkpoint has one and tools are given. The
// template's errors, and its raise_exception messages, come back
// located in Source.
func (t *Template) Render(messages []Message, addGenerationPrompt bool) (string, error) {
	vars := map[string]any{"tools": nil, "documents": nil, "bos_token": t.BOS, "eos_token": t.EOS}
	for k, v := range t.Vars {
		if k == "messages" || k == "add_generation_prompt" {
			return "", fmt.Errorf("%s: %s is the conversation's own, not a variable to set", t.Source, k)
		}
		vars[k] = v
	}
	tmpl := t.t
	if vars["tools"] != nil && t.toolUse != nil {
		tmpl = t.toolUse
	}
	if tmpl == nil {
		return "", fmt.Errorf("%s: the checkpoint has only a \"tool_use\" template, which wants tools", t.Source)
	}
	list := make([]any, len(messages))
	for i, m := range messages {
		list[i] = m.dict()
	}
	vars["messages"] = list
	vars["add_generation_prompt"] = addGenerationPrompt
	now := t.Now
	if now.IsZero() {
		now = time.Now()
	}
	text, err := tmpl.RenderAt(vars, now)
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
// value the template takes), other keys kept as Extra; Render gives the
// template each message's keys in the JSON's order.
func ReadMessages(data []byte) ([]Message, error) {
	v, err := jinja.DecodeJSON(data)
	if err != nil {
		if len(strings.TrimSpace(string(data))) == 0 {
			return nil, errors.New("the file is empty, not a JSON list of messages")
		}
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
			k, ok := k.(string) // JSON keys are
			if !ok {
				continue
			}
			m.order = append(m.order, k)
			if k != "role" && k != "content" {
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

package jinja_test

import (
	"fmt"

	"github.com/rlx-compiler/rlx/runtime/jinja"
)

// A ChatML template, as Qwen's checkpoints carry it, rendered for a
// system and a user message with the generation prompt.
func ExampleTemplate_Render() {
	const chatML = `{%- for message in messages %}
    {{- '<|im_start|>' + message['role'] + '\n' + message['content'] | trim + '<|im_end|>\n' }}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
{%- endif %}`
	t, err := jinja.Parse("chatml.jinja", chatML)
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := t.Render(map[string]any{
		"messages": []any{
			map[string]any{"role": "system", "content": "You are terse."},
			map[string]any{"role": "user", "content": " Hello! "},
		},
		"add_generation_prompt": true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(out)
	// Output:
	// <|im_start|>system
	// You are terse.<|im_end|>
	// <|im_start|>user
	// Hello!<|im_end|>
	// <|im_start|>assistant
}

// Messages and tools decoded from JSON keep their key order, which tojson
// and items() follow.
func ExampleDecodeJSON() {
	tools, _ := jinja.DecodeJSON([]byte(`[{"name": "get_weather", "parameters": {"type": "object", "properties": {}}}]`))
	t, _ := jinja.Parse("tools.jinja", `{% for tool in tools %}{{ tool | tojson }}{% endfor %}`)
	out, err := t.Render(map[string]any{"tools": tools})
	fmt.Println(out, err)
	// Output:
	// {"name": "get_weather", "parameters": {"type": "object", "properties": {}}} <nil>
}

// A construct outside the subset is refused where it stands.
func ExampleParse() {
	_, err := jinja.Parse("chat_template.jinja", "{{ messages[0].content | wordwrap(40) }}")
	fmt.Println(err)
	// Output:
	// chat_template.jinja:1:26: the filter "wordwrap" is not supported
}

package chat_test

import (
	"fmt"

	"github.com/rlx-compiler/rlx/runtime/chat"
)

// A ChatML template (Qwen's layout, reduced) lays a conversation out
// and opens the assistant's turn; chat.Open finds a checkpoint's own.
func ExampleTemplate_Render() {
	t, err := chat.Parse("chatml", `{% for m in messages %}<|im_start|>{{ m.role }}
{{ m.content }}<|im_end|>
{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant
{% endif %}`, "", "<|im_end|>")
	if err != nil {
		fmt.Println(err)
		return
	}
	text, err := t.Render([]chat.Message{
		{Role: "system", Content: "You are terse."},
		{Role: "user", Content: "Name a prime."},
	}, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(text)
	// Output:
	// <|im_start|>system
	// You are terse.<|im_end|>
	// <|im_start|>user
	// Name a prime.<|im_end|>
	// <|im_start|>assistant
}

package vocab_test

import (
	"fmt"

	"github.com/rlx-compiler/rlx/runtime/vocab"
)

// A byte-level vocabulary, as a tokenizer.json of Qwen or Llama 3 holds
// it, turns generated ids back into text.
func ExampleFromTokenizerJSON() {
	v, err := vocab.FromTokenizerJSON([]byte(`{
	  "model": {"type": "BPE", "vocab": {"Hello": 0, "Ġworld": 1, "!": 2, "Ċ": 3}},
	  "added_tokens": [{"id": 4, "content": "<|im_end|>", "special": true}],
	  "decoder": {"type": "ByteLevel"}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	text, err := v.Decode([]int{0, 1, 2, 3, 4})
	fmt.Printf("%v: %q %v\n", v.Kind, text, err)
	// Output: byte-level BPE: "Hello world!\n<|im_end|>" <nil>
}

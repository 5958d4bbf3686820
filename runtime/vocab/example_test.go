package vocab_test

import (
	"fmt"
	"strconv"

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

// A tokenizer.json's encoding: Llama 3's layout (Split by its regex, then
// byte-level) with a template that puts <|begin_of_text|> first.
func ExampleVocab_Encode() {
	v, err := vocab.FromTokenizerJSON([]byte(`{
	  "model": {"type": "BPE", "vocab": {"<|begin_of_text|>": 0, "H": 1, "i": 2, "Hi": 3, "Ġ": 4, "t": 5, "Ġt": 6, "!": 7},
	    "merges": [["H", "i"], ["Ġ", "t"]]},
	  "added_tokens": [{"id": 0, "content": "<|begin_of_text|>", "special": true}],
	  "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
	    {"type": "Split", "pattern": {"Regex": "[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\s+(?!\\S)|\\s+|."}, "behavior": "Isolated"},
	    {"type": "ByteLevel", "add_prefix_space": false, "use_regex": false}]},
	  "post_processor": {"type": "TemplateProcessing",
	    "single": [{"SpecialToken": {"id": "<|begin_of_text|>"}}, {"Sequence": {"id": "A"}}],
	    "special_tokens": {"<|begin_of_text|>": {"ids": [0]}}},
	  "decoder": {"type": "ByteLevel"}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	ids, err := v.Encode("Hi t!", true)
	text, _ := v.Decode(ids)
	fmt.Println(ids, err, strconv.Quote(text))
	// Output: [0 3 6 7] <nil> "<|begin_of_text|>Hi t!"
}

// A reply printed while it is generated: "é" is two byte tokens (Ã and
// ©, GPT-2's spelling of its UTF-8), so its text comes with the second;
// the special token at the end has none.
func ExampleVocab_NewStream() {
	v, err := vocab.FromTokenizerJSON([]byte(`{
	  "model": {"type": "BPE", "vocab": {"caf": 0, "Ã": 1, "©": 2, "!": 3}},
	  "added_tokens": [{"id": 4, "content": "<|im_end|>", "special": true}],
	  "decoder": {"type": "ByteLevel"}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	s := v.NewStream(true)
	for _, id := range []int{0, 1, 2, 3, 4} {
		piece, err := s.Add(id)
		fmt.Printf("%d: %q %v\n", id, piece, err)
	}
	fmt.Printf("rest: %q\n", s.Flush())
	// Output:
	// 0: "caf" <nil>
	// 1: "" <nil>
	// 2: "é" <nil>
	// 3: "!" <nil>
	// 4: "" <nil>
	// rest: ""
}

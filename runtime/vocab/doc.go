// Package vocab reads a checkpoint's vocabulary and turns token ids back
// into text: what rlx-run --generate prints beside the ids.
//
// Two kinds of vocabulary cover the architectures rlx imports:
//
//   - Byte-level BPE (GPT-2's scheme; Qwen, Llama 3, Phi-3.5's GGUFs
//     marked "gpt2"): each piece spells bytes through GPT-2's table of
//     printable stand-ins (a space is "Ġ", a newline "Ċ").
//   - SentencePiece (Llama 2, Mistral, Gemma; GGUF's "llama"): "▁" is a
//     space, a piece "<0x0A>" is the byte 0x0A, and the text may drop the
//     one space the tokenizer put before the first word.
//
// A vocabulary comes from a GGUF file's tokenizer.ggml.* metadata or from
// a Hugging Face checkpoint directory's tokenizer.json. Decoding joins
// the pieces as transformers' decode with skip_special_tokens=False does
// (control tokens such as "<|im_end|>" appear as their text), without its
// clean-up of spaces around punctuation. Bytes that do not form UTF-8
// are kept as they are; callers print the text quoted.
//
// Encoding text into ids (the merges and pre-tokenisers) is not here.
package vocab

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
// A vocabulary comes from a Hugging Face checkpoint directory's
// tokenizer.json, and then decodes as the tokenizers library's decode
// with skip_special_tokens=False (every token through the decoder,
// special ones included, a non-special added token marked normalized
// from its normalized text; bytes that do not form UTF-8 replaced by
// U+FFFD as its decoders replace them), without transformers' clean-up
// of spaces around punctuation. testdata/hf holds the library's own
// decodings of 206 id sequences in two vocabularies it trained
// (tools/hf-fixtures/make_vocab.py, run on the GPU machine, which has
// the library), and the tests match them all. Or it comes from a GGUF file's
// tokenizer.ggml.* metadata, and then decodes as llama.cpp's detokeniser
// does with special tokens shown: control and user-defined tokens as
// their text, bytes kept as they are. Callers print the text quoted.
//
// Encoding text into ids (the merges and pre-tokenisers) is not here.
package vocab

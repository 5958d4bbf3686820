// Package vocab reads a checkpoint's vocabulary, turns token ids back
// into text and text into ids: what rlx-run --prompt encodes and
// --generate prints beside the ids.
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
// of spaces around punctuation. It encodes as the library's encode
// (Encode): added tokens split out leftmost-longest, the normalizer
// (Prepend, Replace, and NFC on text NFC leaves unchanged), the
// pre-tokenisers (ByteLevel, Metaspace, Digits, and Split by a regex run
// as Oniguruma runs it: Unicode's \s, the \s+(?!\S) lookahead), BPE merges by
// rank with byte fallback and ignore_merges, and the post-processor's
// template of special tokens. Anything else in a tokenizer.json is
// refused by name when encoding.
//
// DecodeSkipSpecial leaves the special tokens out (decode with
// skip_special_tokens=True: a tokenizer.json's added tokens marked
// special, a GGUF's control tokens), and a Stream turns tokens into text
// as they come, for a reply printed while it is generated: its pieces
// join to the whole text, a character split over byte tokens sent once
// it is whole (a run of byte-fallback tokens once it ends, since the
// library replaces a whole run that is not UTF-8).
//
// testdata/hf holds the library's own results for ten vocabularies it
// trained (GPT-2's, Qwen2's, Llama 3's, Qwen3.5's, DeepSeek V3's,
// SmolLM's, tekken's and GPT-4o's pre-tokenisers; Llama 2's and Mistral
// v0.3's SentencePiece layouts): 206 id sequences decoded and 206
// texts encoded with and without special tokens each
// (tools/hf-fixtures/make_vocab.py, run on the GPU machine, which has
// the library). The tests match every one. A wider run, not kept (5,000
// texts a vocabulary of code points from fifteen scripts and blocks,
// controls, combining marks and Unicode spaces among them; a quarter
// decoded back), matched all 25,000 encodings and 6,250 decodings; the
// two of its texts that tell Unicode's \s from ASCII's are
// TestUnicodeSpace.
//
// Or a vocabulary comes from a GGUF file's tokenizer.ggml.* metadata,
// and then decodes as llama.cpp's detokeniser does with special tokens
// shown: control and user-defined tokens as their text, bytes kept as
// they are. A byte-level ("gpt2") GGUF vocabulary encodes as llama.cpp
// does with special tokens parsed, for the pre-tokenisers
// tokenizer.ggml.pre names: GPT-2's (gpt-2, olmo, mpt, ...),
// StarCoder's (digits alone, then GPT-2's: starcoder, smollm,
// command-r, ...), Qwen2's (qwen2, deepseek-r1-qwen, ...), Qwen3.5's
// (qwen35), Llama 3's (llama-bpe, llama3, ...; dbrx and glm4 without
// ignore_merges), DeepSeek V3's (deepseek-v3, hy_v4, ...; three regexes
// in turn), Mistral's tekken and GPT-4o's (gpt-4o, llama4, ...);
// llama.cpp's default (also for a file without tokenizer.ggml.pre) and
// Falcon's (punctuation runs, GPT-2's, digits in threes), BLOOM's
// (bloom, gpt3-finnish, poro-chat; viking with digits alone),
// Chameleon's, SuperBPE's (numbers in threes from the right, a
// lookahead the splitter applies as itself), DeepSeek LLM's and
// Coder's, Spark 2.5's, and Qwen2's other kin (ufakzeka, bailingmoe,
// seed-coder, exaone-moe, minicpm5, laguna); by llama.cpp's names and
// regexes (llama-vocab.cpp), with the tokenizer.json's where llama.cpp
// rewrites one for its engine (tekken's and GPT-4o's letter classes,
// which llama.cpp's rewrite takes differently for non-ASCII lowercase
// letters and combining marks: rlx splits as the model's own tokenizer
// does). Tests convert the GPT-2, Qwen2, Llama 3, Qwen3.5, DeepSeek V3,
// SmolLM, tekken and GPT-4o vocabularies of testdata/hf to GGUF
// metadata as convert_hf_to_gguf.py does and get the library's ids for
// every text; the later names' splits are checked by hand
// (TestGGUFPreSplit) and, where testdata/pre_split.json is
// (tools/hf-fixtures/pre_split.py, on a machine with the library),
// against the library's. Others are refused by name: jais-2 and
// tiny_aya (lookarounds rlx does not apply), kimi-k2 and afmoe (split
// by code), gemma4, sarvam-moe and whitespace (not byte-level),
// roberta-bpe, jina-v1-en and jina-v2-code (a SEP token appended),
// youtu and granite-embed-multi-97m (llama.cpp's rewrites, whose
// originals it does not give). A SentencePiece ("llama") GGUF
// vocabulary encodes with llama.cpp's SPM algorithm (pairs merged by
// the score of their joined piece, tokenizer.ggml.scores; a space
// prefix at the start and after special tokens; bytes for what is
// left): with the SentencePiece-style vocabulary of testdata/hf
// converted to llama metadata, each piece's score the negated rank of
// its merge (how a BPE SentencePiece model orders its pieces), it gives
// the library's ids for 205 of its 206 texts, the one left out holding
// an added token the library matches only after normalizing. That
// checks the algorithm as described against the library's BPE, not
// against llama.cpp itself, which is not on these machines. Callers
// print the text quoted.
package vocab

package vocab

import (
	"fmt"
	"slices"

	"github.com/rlx-compiler/rlx/runtime/gguf"
)

// eogTexts are the token texts llama.cpp ends generation at whatever the
// metadata says (llama-vocab.cpp's end-of-generation list: chat turns'
// ends of Llama 3, ChatML, Phi-3, Gemma, gpt-oss, Kimi K2, ...).
var eogTexts = []string{
	"<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<|flush|>", "<|calls|>",
	"<end_of_turn>", "<|endoftext|>", "</s>", "<|eom_id|>", "<EOT>", "_<EOT>", "[EOT]", "[EOS]",
	"<|end_of_text|>", "<end_of_utterance>", "<eos>", "<turn|>", "<|tool_response>",
	"<｜end▁of▁sentence｜>", "[e~[",
}

// ggufSpecialIDs are the special-token keys whose ids end generation in
// llama.cpp, each with the token texts it looks for when the key is
// absent (eot's and eom's texts are among eogTexts already).
var ggufSpecialIDs = []struct {
	key   string
	texts []string
}{
	{"tokenizer.ggml.eos_token_id", nil},
	{"tokenizer.ggml.eot_token_id", nil},
	{"tokenizer.ggml.eom_token_id", nil},
	{"tokenizer.ggml.fim_pad_token_id", []string{"<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]"}},
	{"tokenizer.ggml.fim_rep_token_id", []string{"<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>"}},
	{"tokenizer.ggml.fim_sep_token_id", []string{"<|file_sep|>"}},
}

// ggufStopTokens returns the tokens llama.cpp ends generation at for the
// GGUF file f (its end-of-generation set): the ids of eos (by default 2
// for a "llama" vocabulary, 11 for "gpt2", as llama.cpp assumes), eot and
// eom, and of the fill-in-the-middle pad, repo and separator tokens (by
// their texts when their keys are absent; the lowest id where several
// texts match); every token whose text is one of eogTexts; then, as
// llama.cpp works around two vocabularies, without "<|end|>" when
// "<|return|>" or "<|flush|>" is there with "<|call|>" or "<|calls|>",
// and without "</s>" when "<|tool_response>" is there. An id past the
// vocabulary is ignored (eos then takes its default). Without
// tokenizer.ggml.tokens, the ids the keys give. Sorted.
func ggufStopTokens(f *gguf.File) ([]int, error) {
	pieces, _, err := ggufTokenList(f)
	if err != nil {
		return nil, err
	}
	known := func(id int) bool { return len(pieces) == 0 || id < len(pieces) }
	eog := map[int]bool{}
	for _, sp := range ggufSpecialIDs {
		id := -1
		if _, ok := f.Get(sp.key); ok {
			n, err := f.Uint(sp.key)
			if err != nil || n >= maxTokens {
				return nil, fmt.Errorf("%s: %s is not a token id", f.Name, sp.key)
			}
			if known(int(n)) {
				id = int(n)
			}
		}
		if id < 0 && sp.key == "tokenizer.ggml.eos_token_id" && len(pieces) > 0 {
			model, _ := f.String("tokenizer.ggml.model")
			if def := map[string]int{"llama": 2, "gpt2": 11}[model]; def > 0 && known(def) {
				id = def
			}
		}
		if id < 0 {
			for i, p := range pieces {
				if slices.Contains(sp.texts, p) {
					id = i
					break
				}
			}
		}
		if id >= 0 {
			eog[id] = true
		}
	}
	where := map[string]int{}
	for i, p := range pieces {
		if slices.Contains(eogTexts, p) {
			eog[i] = true
			if _, dup := where[p]; !dup {
				where[p] = i
			}
		}
	}
	has := func(text string) bool {
		i, ok := where[text]
		return ok && eog[i]
	}
	if end, ok := where["<|end|>"]; ok && (has("<|call|>") || has("<|calls|>")) && (has("<|return|>") || has("<|flush|>")) {
		delete(eog, end)
	}
	if s, ok := where["</s>"]; ok && has("<|tool_response>") {
		delete(eog, s)
	}
	ids := make([]int, 0, len(eog))
	for id := range eog {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids, nil
}

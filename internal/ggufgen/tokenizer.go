package ggufgen

import (
	"encoding/json"

	"github.com/rlx-compiler/rlx/runtime/gguf"
)

// Tokenizer is what a byte-level BPE tokenizer.json says of its tokens,
// read to lay them out as GGUF metadata.
type Tokenizer struct {
	Model struct {
		Vocab  map[string]int `json:"vocab"`
		Merges [][2]string    `json:"merges"`
	} `json:"model"`
	Added []struct {
		ID      int    `json:"id"`
		Content string `json:"content"`
		Special bool   `json:"special"`
	} `json:"added_tokens"`
}

// ReadTokenizer reads a tokenizer.json (merges as pairs).
func ReadTokenizer(data []byte) (*Tokenizer, error) {
	tj := &Tokenizer{}
	if err := json.Unmarshal(data, tj); err != nil {
		return nil, err
	}
	return tj, nil
}

// Tokens lays the tokens out by id as llama.cpp's convert_hf_to_gguf.py
// does: normal tokens of type 1, special added tokens control (3), other
// added tokens user-defined (4).
func (tj *Tokenizer) Tokens() (tokens []string, types []int32) {
	n := len(tj.Model.Vocab)
	for _, a := range tj.Added {
		n = max(n, a.ID+1)
	}
	tokens, types = make([]string, n), make([]int32, n)
	for piece, id := range tj.Model.Vocab {
		tokens[id], types[id] = piece, 1
	}
	for _, a := range tj.Added {
		tokens[a.ID], types[a.ID] = a.Content, 4
		if a.Special {
			types[a.ID] = 3
		}
	}
	return tokens, types
}

// Merges are the merges as GGUF writes them, "a b".
func (tj *Tokenizer) Merges() []string {
	merges := make([]string, len(tj.Model.Merges))
	for i, m := range tj.Model.Merges {
		merges[i] = m[0] + " " + m[1]
	}
	return merges
}

// AddBPE adds the metadata of a byte-level ("gpt2") vocabulary with the
// pre-tokeniser pre to w: tokenizer.ggml.model, pre, tokens, token_type
// and merges.
func (tj *Tokenizer) AddBPE(w *gguf.Writer, pre string) {
	tokens, types := tj.Tokens()
	w.Add("tokenizer.ggml.model", "gpt2")
	w.Add("tokenizer.ggml.pre", pre)
	w.Add("tokenizer.ggml.tokens", tokens)
	w.Add("tokenizer.ggml.token_type", types)
	w.Add("tokenizer.ggml.merges", tj.Merges())
}

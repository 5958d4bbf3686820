package vocab

import (
	"container/heap"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rlx-compiler/rlx/runtime/gguf"
)

// spmEncoder encodes with a SentencePiece ("llama") GGUF vocabulary as
// llama.cpp's SPM tokeniser does: the text's spaces as "▁", with one
// prepended at the start and after each special token
// (tokenizer.ggml.add_space_prefix, default on); the characters merged
// pair by pair, the pair whose joined piece has the highest score
// (tokenizer.ggml.scores) first, the leftmost among equals; a character
// left that is not a token as its bytes (<0xNN>). (A merged piece is
// always a token: a pair is merged only when its joined piece is one.)
type spmEncoder struct {
	vocab       map[string]int
	scores      []float32
	special     addedSet
	spacePrefix bool
	prefix      []int
}

func ggufSPM(f *gguf.File, v *Vocab) (*spmEncoder, error) {
	raw, _ := f.Get("tokenizer.ggml.scores")
	scores, ok := raw.([]any)
	if !ok || len(scores) != len(v.Pieces) {
		return nil, fmt.Errorf("tokenizer.ggml.scores must be an array of %d float32, one a token", len(v.Pieces))
	}
	e := &spmEncoder{scores: make([]float32, len(scores)), spacePrefix: v.StripSpace}
	for i, s := range scores {
		x, ok := s.(float32)
		if !ok {
			return nil, fmt.Errorf("tokenizer.ggml.scores[%d] is %v (%T), want a float32", i, s, s)
		}
		e.scores[i] = x
	}
	e.vocab, e.special = ggufTokens(v)
	// llama.cpp puts BOS first in a SentencePiece text unless told not to.
	var err error
	if e.prefix, err = ggufBOS(f, v, true); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *spmEncoder) encode(text string, withSpecial bool) ([]int, error) {
	var ids []int
	if withSpecial {
		ids = append(ids, e.prefix...)
	}
	prevSpecial := true
	for _, seg := range e.special.split(text) {
		if seg.id >= 0 {
			ids = append(ids, seg.id)
			prevSpecial = true
			continue
		}
		s := seg.text
		if e.spacePrefix && prevSpecial {
			s = " " + s
		}
		prevSpecial = false
		out, err := e.tokenize(strings.ReplaceAll(s, " ", "▁"))
		if err != nil {
			return nil, err
		}
		ids = append(ids, out...)
	}
	return ids, nil
}

// spmSym is a symbol: text[start:start+n] (n 0 once merged away).
type spmSym struct{ start, n, prev, next int }

type bigram struct {
	left, right, size int
	score             float32
}

func (e *spmEncoder) tokenize(text string) ([]int, error) {
	var syms []spmSym
	for i := 0; i < len(text); {
		_, n := utf8.DecodeRuneInString(text[i:])
		syms = append(syms, spmSym{i, n, len(syms) - 1, len(syms) + 1})
		i += n
	}
	if len(syms) == 0 {
		return nil, nil
	}
	syms[len(syms)-1].next = -1
	// The highest score first, the leftmost among equals.
	h := &heapOf[bigram]{less: func(a, b bigram) bool { return a.score > b.score || a.score == b.score && a.left < b.left }}
	tryAdd := func(l, r int) {
		if l < 0 || r < 0 {
			return
		}
		piece := text[syms[l].start : syms[r].start+syms[r].n]
		id, ok := e.vocab[piece]
		if !ok {
			return
		}
		heap.Push(h, bigram{l, r, len(piece), e.scores[id]})
	}
	for i := 1; i < len(syms); i++ {
		tryAdd(i-1, i)
	}
	for h.Len() > 0 {
		b := heap.Pop(h).(bigram)
		l, r := &syms[b.left], &syms[b.right]
		if l.n == 0 || r.n == 0 || l.n+r.n != b.size {
			continue
		}
		l.n += r.n
		r.n = 0
		l.next = r.next
		if r.next >= 0 {
			syms[r.next].prev = b.left
		}
		tryAdd(l.prev, b.left)
		tryAdd(b.left, l.next)
	}
	var out []int
	for i := 0; i != -1; i = syms[i].next {
		piece := text[syms[i].start : syms[i].start+syms[i].n]
		if id, ok := e.vocab[piece]; ok {
			out = append(out, id)
			continue
		}
		for j := 0; j < len(piece); j++ {
			id, ok := e.vocab[fmt.Sprintf("<0x%02X>", piece[j])]
			if !ok {
				return nil, fmt.Errorf("the byte 0x%02X has no <0x%02X> token", piece[j], piece[j])
			}
			out = append(out, id)
		}
	}
	return out, nil
}

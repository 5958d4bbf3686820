package vocab

import (
	"strings"
	"unicode/utf8"
)

// Stream turns tokens into text as they come, for a reply printed while
// it is generated: Add returns what each token adds to the text, and
// the pieces joined are the text of all the tokens (DecodeSkipSpecial's,
// or Decode's), except that a token's bytes that do not yet form UTF-8
// (a character split over byte tokens) wait for the tokens that finish
// them. Flush returns what is left at the end.
type Stream struct {
	v           *Vocab
	skipSpecial bool
	// ids are the tokens taken, without those skipped.
	ids  []int
	sent string
}

// NewStream returns a stream of text from tokens of v; with skipSpecial
// the special tokens have no text.
func (v *Vocab) NewStream(skipSpecial bool) *Stream {
	return &Stream{v: v, skipSpecial: skipSpecial}
}

// Add takes the next token and returns the text it adds, "" while that
// is held back. An id the vocabulary does not have is an error, and the
// stream goes on without it.
func (s *Stream) Add(id int) (string, error) {
	if _, err := s.v.Decode([]int{id}); err != nil {
		return "", err
	}
	if s.skipSpecial && s.v.Special[id] {
		return "", nil
	}
	s.ids = append(s.ids, id)
	// A lossy byte-fallback decoder makes a whole run of byte tokens
	// U+FFFD when the run is not UTF-8 (the tokenizers library's
	// ByteFallback), so a run is held until it ends.
	n := len(s.ids)
	if s.v.Kind == SentencePiece && s.v.ByteFallback && s.v.Lossy {
		for n > 0 && s.v.isByte(s.ids[n-1]) {
			n--
		}
	}
	text, err := s.v.Decode(s.ids[:n])
	if err != nil {
		return "", err
	}
	return s.send(held(text)), nil
}

// Flush returns the text the stream still holds back: at the end, bytes
// that never formed UTF-8 (as Decode gives them).
func (s *Stream) Flush() string {
	text, err := s.v.Decode(s.ids)
	if err != nil {
		return ""
	}
	return s.send(text)
}

// send returns what text adds to the text sent so far and records it as
// sent. Decoding more tokens only appends to a text, once its held-back
// tail is left out; should a decoder ever change what was sent, the
// stream sends nothing more rather than text that does not follow.
func (s *Stream) send(text string) string {
	if !strings.HasPrefix(text, s.sent) {
		return ""
	}
	add := text[len(s.sent):]
	s.sent = text
	return add
}

// held returns text without its tail that a later token may still
// change: trailing U+FFFD (what a lossy decoder makes of an unfinished
// character) and trailing bytes that begin a UTF-8 sequence but do not
// end it.
func held(text string) string {
	for {
		r, size := utf8.DecodeLastRuneInString(text)
		if r != utf8.RuneError || size == 0 {
			return text
		}
		text = text[:len(text)-size]
	}
}

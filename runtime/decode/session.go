package decode

import (
	"fmt"
	"slices"

	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// Session decodes one sequence that goes on from call to call: it keeps
// the tokens fed and the states after them, so that a conversation's
// next turn feeds only its new tokens (Sync). Generate and Run start a
// session of their own each time.
type Session struct {
	d      *Decoder
	w      ref.Weights
	args   []*tensor.Tensor
	tokens []int
	logits []float32
	mark   *point
	// Step, when set, is called after each step fed with the token's
	// position and all the step's results (a copy of the list).
	Step func(t int, results []*tensor.Tensor)
}

// point is a place in a session to go back to: its tokens, the states
// after them and the last step's logits.
type point struct {
	tokens []int
	states []*tensor.Tensor
	logits []float32
}

// NewSession returns a session at the start of a sequence (zero states)
// that reads the weights w.
func (d *Decoder) NewSession(w ref.Weights) *Session {
	s := &Session{d: d, w: w, args: make([]*tensor.Tensor, len(d.p.Args()))}
	s.Reset()
	return s
}

// Reset goes back to the start of the sequence: no tokens, zero states.
// A Mark stays.
func (s *Session) Reset() {
	for _, st := range s.d.states {
		t := s.d.p.Args()[st.arg].Type
		s.args[st.arg] = tensor.Zeros(t.DType, t.Shape...)
	}
	s.tokens, s.logits = nil, nil
}

// Tokens returns the tokens fed so far.
func (s *Session) Tokens() []int { return slices.Clone(s.tokens) }

// Logits returns the last step's logits (Decoder.Vocab of them), or nil
// before the first token.
func (s *Session) Logits() []float32 { return s.logits }

// Feed runs one step for each token, in order, after those fed so far.
// The tokens must fit the model's capacity (Decoder.MaxTokens) after
// them; on an error the tokens before the one that failed stay fed.
func (s *Session) Feed(tokens ...int) error {
	d := s.d
	switch total := len(s.tokens) + len(tokens); {
	case d.MaxTokens > 0 && total > d.MaxTokens:
		return fmt.Errorf("%d tokens exceed the model's capacity of %d (rlx.max_tokens; import with a larger --max-tokens)", total, d.MaxTokens)
	case d.pos < 0 && total > 1:
		return fmt.Errorf("the step function has no \"pos\" argument, so it cannot decode more than one token")
	}
	for _, tok := range tokens {
		t := len(s.tokens)
		if tok < 0 || tok >= 1<<31 {
			return fmt.Errorf("token %d (step %d) is not an i32 token id", tok, t)
		}
		var err error
		if s.args[d.token], err = tensor.FromInt64(tensor.I32, []int{1, 1}, []int64{int64(tok)}); err != nil {
			return err
		}
		if d.pos >= 0 {
			if s.args[d.pos], err = tensor.FromInt64(tensor.I32, []int{1}, []int64{int64(t)}); err != nil {
				return err
			}
		}
		var res []*tensor.Tensor
		if d.Step != nil {
			res, err = d.Step(s.args)
		} else {
			res, err = d.p.Run(s.args, s.w)
		}
		if err != nil {
			return fmt.Errorf("step %d (token %d): %w", t, tok, err)
		}
		s.logits = res[d.logits].Floats()
		for _, st := range d.states {
			s.args[st.arg] = res[st.res]
		}
		s.tokens = append(s.tokens, tok)
		if s.Step != nil {
			s.Step(t, slices.Clone(res))
		}
	}
	return nil
}

// Next picks the token that would follow those fed, with the decoder's
// Pick (the arg-max when it is nil), from the last step's logits; ok is
// false when it is one of the decoder's Stop tokens. Next feeds nothing.
// It panics before the first token.
func (s *Session) Next() (tok int, ok bool) {
	if s.logits == nil {
		panic("decode: Session.Next before any token was fed")
	}
	if s.d.Pick != nil {
		tok = s.d.Pick(s.tokens, s.logits)
	} else {
		tok = ArgMax(s.logits)
	}
	return tok, !slices.Contains(s.d.Stop, tok)
}

// Generate picks and feeds up to n tokens (n < 0: no bound), each
// Next's, calling emit (when not nil) with each before it is fed; it
// ends early when Next picks a Stop token, which is not fed (stopped is
// then true, and the token is stop), when emit returns false, or at the
// model's capacity (Decoder.MaxTokens tokens fed). It returns the
// tokens generated.
func (s *Session) Generate(n int, emit func(tok int) bool) (generated []int, stop int, stopped bool, err error) {
	for n < 0 || len(generated) < n {
		if s.d.MaxTokens > 0 && len(s.tokens) >= s.d.MaxTokens {
			break
		}
		tok, ok := s.Next()
		if !ok {
			return generated, tok, true, nil
		}
		if emit != nil && !emit(tok) {
			break
		}
		if err := s.Feed(tok); err != nil {
			return generated, 0, false, err
		}
		generated = append(generated, tok)
	}
	return generated, 0, false, nil
}

// Mark saves the session's place, the one Sync may go back to. It
// copies nothing (tensors are immutable once built: a step makes new
// states), but the states there stay held while the session goes on.
func (s *Session) Mark() {
	p := &point{tokens: slices.Clone(s.tokens), logits: s.logits}
	for _, st := range s.d.states {
		p.states = append(p.states, s.args[st.arg])
	}
	s.mark = p
}

// Sync brings the session to tokens: it feeds what follows the tokens
// fed so far when they begin tokens, else what follows the Mark's when
// those do (a conversation whose last reply the template lays out
// other than it was generated), else all of tokens from the start. It
// returns how many of tokens were already fed.
func (s *Session) Sync(tokens []int) (reused int, err error) {
	switch {
	case isPrefix(s.tokens, tokens):
	case s.mark != nil && isPrefix(s.mark.tokens, tokens):
		s.tokens, s.logits = slices.Clone(s.mark.tokens), s.mark.logits
		for i, st := range s.d.states {
			s.args[st.arg] = s.mark.states[i]
		}
	default:
		s.Reset()
	}
	reused = len(s.tokens)
	return reused, s.Feed(tokens[reused:]...)
}

func isPrefix(p, s []int) bool { return len(p) <= len(s) && slices.Equal(p, s[:len(p)]) }

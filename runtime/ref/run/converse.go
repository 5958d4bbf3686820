package run

import (
	"bufio"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rlx-compiler/rlx/runtime/chat"
	"github.com/rlx-compiler/rlx/runtime/decode"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/vocab"
)

// maxLine bounds one line of --interactive's input (a message).
const maxLine = 1 << 20

// converse runs --interactive: a conversation on r.stdin, one user
// message a line (a line ending in a backslash goes on to the next, a
// newline in the message; an empty line is skipped), after --messages'
// or --system's. Each turn lays the whole conversation out with the chat
// template, feeds only the tokens that follow those already fed (a
// decode.Session: going back to the end of the last prompt when the
// template lays the last reply out other than it was generated), and
// streams the reply's text to stdout as it is generated, ending it with
// a newline; the reply, without its special tokens, joins the
// conversation as the assistant's message. A "> " prompt and each
// turn's counts go to stderr.
func (r *runner) converse(p *ref.Program) int {
	o := r.o
	voc, err := vocab.Open(r.vocabPath())
	if err != nil {
		return r.fail(fmt.Errorf("--interactive: %v", err))
	}
	t, err := r.template()
	if err != nil {
		return r.fail(fmt.Errorf("--interactive: %v", err))
	}
	msgs, err := r.messages()
	if err != nil {
		return r.fail(fmt.Errorf("--messages: %v", err))
	}
	w, err := r.weights([]*ref.Program{p})
	if err != nil {
		return r.fail(err)
	}
	d, err := decode.New(p)
	if err != nil {
		return r.fail(err)
	}
	if m := o.maxTokens; m > 0 && (d.MaxTokens == 0 || m < d.MaxTokens) {
		d.MaxTokens = m
	}
	if o.backend != "" {
		b, err := r.open(o.backend, p, w)
		if err != nil {
			return r.fail(err)
		}
		defer b.Close()
		d.Step = b.Run
	}
	if d.Stop, err = r.stopTokens(); err != nil {
		return r.fail(err)
	}
	sampling, err := r.sampling()
	if err != nil {
		return r.fail(err)
	}
	if d.Pick, err = sampling.Sampler(); err != nil {
		return r.fail(fmt.Errorf("--interactive: %v", err))
	}
	// Each reply: --generate tokens at most, else until an
	// end-of-sequence token or the model's capacity.
	limit := -1
	if o.generate > 0 {
		limit = o.generate
	}
	s := d.NewSession(w)
	in := bufio.NewScanner(r.stdin)
	in.Buffer(nil, maxLine)
	for turn := 1; ; turn++ {
		fmt.Fprint(r.stderr, "> ")
		if !in.Scan() {
			break
		}
		line := in.Text()
		// A line ending in a backslash goes on: the message holds a
		// newline there.
		for strings.HasSuffix(line, "\\") && in.Scan() {
			line = strings.TrimSuffix(line, "\\") + "\n" + in.Text()
		}
		if strings.TrimSpace(line) == "" {
			turn--
			continue
		}
		msgs = append(msgs, chat.Message{Role: "user", Content: line})
		reply, err := r.turn(p, d, s, t, voc, msgs, limit)
		if err != nil {
			return r.fail(fmt.Errorf("--interactive: turn %d: %v", turn, err))
		}
		msgs = append(msgs, chat.Message{Role: "assistant", Content: reply})
	}
	fmt.Fprintln(r.stderr)
	if err := in.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("a line of more than %d bytes", maxLine)
		}
		return r.fail(fmt.Errorf("--interactive: standard input: %v", err))
	}
	return 0
}

// turn lays msgs out with t, brings s (a session of d, p's decoder) to
// their tokens, and generates
// and streams the reply (at most limit tokens; limit < 0: until an
// end-of-sequence token or the capacity). It returns the reply's text.
func (r *runner) turn(p *ref.Program, d *decode.Decoder, s *decode.Session, t *chat.Template, voc *vocab.Vocab, msgs []chat.Message, limit int) (string, error) {
	text, err := t.Render(msgs, true)
	if err != nil {
		return "", err
	}
	ids, err := voc.Encode(text, false)
	if err != nil {
		return "", fmt.Errorf("%s: %v", r.vocabPath(), err)
	}
	if err := r.pastLogits(p, d, ids, "the conversation"); err != nil {
		return "", err
	}
	start := time.Now()
	reused, err := s.Sync(ids)
	if err != nil {
		return "", err
	}
	s.Mark()
	prompted := time.Now()
	stream := voc.NewStream(true)
	var werr error
	gen, _, stopped, err := s.Generate(limit, func(tok int) bool {
		piece, err := stream.Add(tok)
		if err == nil {
			_, err = fmt.Fprint(r.stdout, piece)
		}
		werr = err
		return err == nil
	})
	if err == nil {
		err = werr
	}
	// The reply's line ends, whole or not.
	fmt.Fprintln(r.stdout, stream.Flush())
	if err != nil {
		return "", err
	}
	elapsed := time.Since(prompted).Seconds()
	fmt.Fprintf(r.stderr, "[%d tokens: %d reused, %d fed in %.2f s; %d generated, %.1f a second]\n",
		len(ids), reused, len(ids)-reused, prompted.Sub(start).Seconds(), len(gen), float64(len(gen))/max(elapsed, 1e-9))
	if !stopped && (limit < 0 || len(gen) < limit) {
		return "", fmt.Errorf("the conversation reached the model's capacity of %d tokens (rlx.max_tokens; import with a larger --max-tokens)", d.MaxTokens)
	}
	return voc.DecodeSkipSpecial(gen)
}

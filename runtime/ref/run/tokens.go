package run

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/internal/outfile"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/runtime/chat"
	"github.com/rlx-compiler/rlx/runtime/decode"
	"github.com/rlx-compiler/rlx/runtime/jinja"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
	"github.com/rlx-compiler/rlx/runtime/vocab"
)

// decode runs --tokens: the first program decodes the tokens from zero
// states (runtime/decode), then --generate more by arg-max, and prints
// each step's arg-max; --logits saves its logits; --compare-with decodes
// the same tokens (those generated too) with the other program and
// compares the two programs' logits of all steps as one result.
func (r *runner) decode(progs []*ref.Program) int {
	// The vocabulary, read once, where the prompt or the text needs it.
	var voc *vocab.Vocab
	var vocErr error
	if r.vocabPath() != "" && (r.o.given["prompt"] || r.o.chats() || r.o.generate > 0) {
		voc, vocErr = vocab.Open(r.vocabPath())
	}
	tokens, err := r.promptTokens(voc, vocErr)
	if err != nil {
		return r.fail(err)
	}
	fed := len(tokens)
	if m := r.o.maxTokens; m > 0 && len(tokens)+r.o.generate > m {
		given := fmt.Sprintf("--tokens lists %d tokens", len(tokens))
		if flag := r.textFlag(); flag != "tokens" {
			given = fmt.Sprintf("--%s encodes to %d tokens", flag, len(tokens))
		}
		if r.o.generate == 0 {
			return r.fail(fmt.Errorf("%s, more than --max-tokens %d", given, m))
		}
		return r.fail(fmt.Errorf("%s and --generate asks for %d more, more than --max-tokens %d", given, r.o.generate, m))
	}
	if len(tokens) == 0 {
		return r.fail(fmt.Errorf("--%s: the text has no tokens", r.textFlag()))
	}
	w, err := r.weights(progs)
	if err != nil {
		return r.fail(err)
	}
	var logits []*tensor.Tensor
	var stop, picks []int
	asked := len(tokens) + r.o.generate
	for i, p := range progs {
		d, err := decode.New(p)
		if err != nil {
			return r.fail(err)
		}
		if r.o.given["prompt"] || r.o.chats() {
			if err := r.pastLogits(p, d, tokens, "--"+r.textFlag()); err != nil {
				return r.fail(err)
			}
		}
		if name := []string{r.o.backend, r.o.compareBackend}[i]; name != "" {
			b, err := r.open(name, p, w)
			if err != nil {
				return r.fail(err)
			}
			defer b.Close()
			d.Step = b.Run
		}
		var l *tensor.Tensor
		if i == 0 {
			if stop, err = r.stopTokens(); err != nil {
				return r.fail(err)
			}
			d.Stop = stop
			sampling, serr := r.sampling()
			if serr != nil {
				return r.fail(serr)
			}
			pick, perr := sampling.Sampler()
			if perr != nil {
				return r.fail(fmt.Errorf("--generate: %v", perr))
			}
			d.Pick = func(seq []int, l []float32) int {
				next := pick(seq, l)
				picks = append(picks, next)
				return next
			}
			// One program prints each step as it runs (two are compared
			// after).
			prompt := tokens
			tokens, l, err = d.GenerateSteps(prompt, r.o.generate, w, func(t int, res []*tensor.Tensor) {
				if len(progs) == 1 {
					// The token fed: the prompt's, then each picked.
					tok := 0
					if t < len(prompt) {
						tok = prompt[t]
					} else {
						tok = picks[t-len(prompt)]
					}
					row := d.StepLogits(res)
					best := decode.ArgMax(row)
					fmt.Fprintf(r.stdout, "step %d: token %d -> arg-max %d (logit %s)\n", t, tok, best, strconv.FormatFloat(float64(row[best]), 'g', -1, 32))
				}
			})
		} else {
			l, err = d.Run(tokens, w)
		}
		if err != nil {
			return r.fail(located(p, err))
		}
		logits = append(logits, l)
	}
	if r.o.logits != "" {
		if err := writeNPY(r.o.logits, logits[0]); err != nil {
			return r.fail(err)
		}
	}
	if len(logits) == 2 {
		return r.compare(logits[:1], logits[1:])
	}
	// Generation ended early on the last token picked, not fed.
	if len(tokens) < asked && len(picks) > 0 && slices.Contains(stop, picks[len(picks)-1]) {
		fmt.Fprintf(r.stdout, "stopped: %d is an end-of-sequence token (--ignore-eos goes on)\n", picks[len(picks)-1])
	}
	if r.o.generate > 0 || r.o.given["prompt"] || r.o.chats() {
		ids := make([]string, len(tokens))
		for i, tok := range tokens {
			ids[i] = strconv.Itoa(tok)
		}
		fmt.Fprintf(r.stdout, "tokens: %s\n", strings.Join(ids, ","))
		r.printText(voc, vocErr, "text", tokens)
		if r.o.chats() && r.o.generate > 0 {
			r.printText(voc, vocErr, "reply", tokens[fed:])
		}
	}
	fmt.Fprintf(r.stdout, "logits: %s checksum %016x\n", logits[0].Type(), ref.Checksum(logits[0]))
	return 0
}

// sampling returns how --generate picks its tokens: the sampling flags,
// over the checkpoint's generation_config.json with --generation-config
// as transformers' generate(**flags) merges its arguments into the
// checkpoint's: --temperature T samples (0: greedy) with the file's
// top_k, top_p and min_p under the flags given; without it the file's
// do_sample decides.
func (r *runner) sampling() (decode.Sampling, error) {
	o := r.o
	s := decode.Sampling{Temperature: o.temperature, TopK: o.topK, TopP: o.topP, MinP: o.minP, RepetitionPenalty: o.penalty, Seed: o.seed}
	if !o.genConfig {
		return s, nil
	}
	c, sample, name, err := r.generationConfig()
	if err != nil {
		return s, err
	}
	if !sample {
		c.Temperature = 0
	}
	if o.given["temperature"] {
		c.Temperature = o.temperature
	}
	if o.given["top-k"] {
		c.TopK = o.topK
	}
	if o.given["top-p"] {
		c.TopP = o.topP
	}
	if o.given["min-p"] {
		c.MinP = o.minP
	}
	if o.given["repetition-penalty"] {
		c.RepetitionPenalty = o.penalty
	}
	switch {
	case c.Temperature == 0 && sample && !o.given["temperature"]:
		return s, fmt.Errorf("--generation-config: %s: do_sample with temperature 0 (transformers refuses it too; give --temperature)", name)
	case c.Temperature == 0 && (o.given["top-k"] || o.given["top-p"] || o.given["min-p"]):
		return s, fmt.Errorf("--top-k, --top-p and --min-p apply to sampling, and %s decodes greedily: give --temperature too", name)
	}
	c.Seed = o.seed
	return c, nil
}

// generationConfig reads the sampling the checkpoint of --vocab or
// --weights recommends: its directory's generation_config.json (or that
// of the directory of a file in it), or a GGUF file's general.sampling.*
// keys. It returns the settings, whether they sample, and their source.
func (r *runner) generationConfig() (decode.Sampling, bool, string, error) {
	path := r.vocabPath()
	if path == "" {
		return decode.Sampling{}, false, "", errors.New("--generation-config needs a checkpoint: --weights or --vocab (its directory holds generation_config.json)")
	}
	f, dir, err := vocab.Locate(path)
	if err != nil {
		return decode.Sampling{}, false, "", fmt.Errorf("--generation-config: %v", err)
	}
	if f != nil {
		defer f.Close()
		s, sample, ok, err := decode.GGUFSampling(f)
		switch {
		case err != nil:
			return s, false, "", fmt.Errorf("--generation-config: %v", err)
		case !ok:
			return s, false, "", fmt.Errorf("--generation-config: %s has no general.sampling.* keys: give the sampling flags", path)
		}
		return s, sample, path, nil
	}
	name := filepath.Join(dir, "generation_config.json")
	data, err := os.ReadFile(name)
	if err != nil {
		return decode.Sampling{}, false, "", fmt.Errorf("--generation-config: %v", err)
	}
	s, sample, err := decode.GenerationConfig(data)
	if err != nil {
		return s, false, "", fmt.Errorf("--generation-config: %s: %v", name, err)
	}
	return s, sample, name, nil
}

// stopTokens returns the checkpoint's end-of-sequence tokens, where
// --generate stops (none without --generate, or with --ignore-eos).
func (r *runner) stopTokens() ([]int, error) {
	if !r.o.generates() || r.o.ignoreEOS || r.vocabPath() == "" {
		return nil, nil
	}
	ids, err := vocab.StopTokens(r.vocabPath())
	if err != nil {
		return nil, fmt.Errorf("--generate: %v (--ignore-eos does without)", err)
	}
	return ids, nil
}

// promptTokens returns --tokens, or --prompt encoded in the vocabulary
// v (or the error that opening it gave), or --chat's or --messages'
// conversation laid out by the chat template and encoded.
func (r *runner) promptTokens(v *vocab.Vocab, vErr error) ([]int, error) {
	if r.o.given["tokens"] {
		return parseTokens(r.o.tokens)
	}
	flag := r.textFlag()
	if vErr != nil {
		return nil, fmt.Errorf("--%s: %v", flag, vErr)
	}
	text, special := r.o.prompt, true
	if r.o.chats() {
		var err error
		if text, err = r.chatText(); err != nil {
			return nil, fmt.Errorf("--%s: %v", flag, err)
		}
		special = false // the template wrote them
	}
	ids, err := v.Encode(text, special)
	if err != nil {
		return nil, fmt.Errorf("--%s: %s: %v", flag, r.vocabPath(), err)
	}
	return ids, nil
}

// textFlag names the flag the text to decode came from.
func (r *runner) textFlag() string {
	switch {
	case r.o.given["chat"]:
		return "chat"
	case r.o.given["messages"]:
		return "messages"
	case r.o.given["prompt"]:
		return "prompt"
	}
	return "tokens"
}

// chatText lays out --chat (after --system) or --messages with the chat
// template of --chat-template, else of the vocabulary's checkpoint,
// opening the assistant's turn.
func (r *runner) chatText() (string, error) {
	t, err := r.template()
	if err != nil {
		return "", err
	}
	msgs, err := r.messages()
	if err != nil {
		return "", err
	}
	if !r.o.interactive {
		msgs = append(msgs, chat.Message{Role: "user", Content: r.o.chat})
	}
	return t.Render(msgs, true)
}

// template opens the chat template of --chat-template, else of the
// vocabulary's checkpoint, with --tools and --chat-var as its further
// variables.
func (r *runner) template() (*chat.Template, error) {
	path := r.o.chatTemplate
	if path == "" {
		path = r.vocabPath()
	}
	t, err := chat.Open(path)
	if err != nil {
		return nil, err
	}
	// A template from elsewhere (a .jinja file on its own) is rendered
	// with the checkpoint's special tokens.
	if t.BOS == "" && t.EOS == "" && r.o.chatTemplate != "" && r.vocabPath() != "" {
		if t.BOS, t.EOS, err = chat.SpecialTokens(r.vocabPath()); err != nil {
			return nil, err
		}
	}
	if t.Vars, err = r.chatVars(); err != nil {
		return nil, err
	}
	return t, nil
}

// messages returns the conversation before --chat's message (or
// --interactive's first): --messages, else --system's message when
// given.
func (r *runner) messages() ([]chat.Message, error) {
	if r.o.given["messages"] {
		data, err := os.ReadFile(r.o.messages)
		if err != nil {
			return nil, err
		}
		msgs, err := chat.ReadMessages(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", r.o.messages, err)
		}
		return msgs, nil
	}
	if r.o.given["system"] {
		return []chat.Message{{Role: "system", Content: r.o.system}}, nil
	}
	return nil, nil
}

// chatVars reads --tools and --chat-var: the template's further
// variables.
func (r *runner) chatVars() (map[string]any, error) {
	vars := map[string]any{}
	if r.o.tools != "" {
		data, err := os.ReadFile(r.o.tools)
		if err != nil {
			return nil, err
		}
		tools, err := jinja.DecodeJSON(data)
		if _, isList := tools.([]any); err == nil && !isList {
			err = errors.New("the tools are not a JSON list")
		}
		if err != nil {
			return nil, fmt.Errorf("--tools: %s: %v", r.o.tools, err)
		}
		vars["tools"] = tools
	}
	for _, nv := range r.o.chatVars {
		name, value, ok := strings.Cut(nv, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("--chat-var %q: want NAME=JSON (enable_thinking=false)", nv)
		}
		v, err := jinja.DecodeJSON([]byte(value))
		if err != nil {
			return nil, fmt.Errorf("--chat-var %s: %q is not JSON: %v (a string needs its quotes: %s='\"text\"')", name, value, err, name)
		}
		vars[name] = v
	}
	return vars, nil
}

// vocabPath is where the vocabulary is read: --vocab, else --weights.
func (r *runner) vocabPath() string {
	if r.o.vocab != "" {
		return r.o.vocab
	}
	return r.o.weights
}

// printText prints the text of tokens in the vocabulary v (runtime/vocab;
// err is what opening it gave), when there is one; a vocabulary that cannot be read (or that --vocab
// names and is not there) or does not hold the tokens is a warning on
// stderr.
func (r *runner) printText(v *vocab.Vocab, err error, label string, tokens []int) {
	if r.vocabPath() == "" || errors.Is(err, vocab.ErrNone) && r.o.vocab == "" {
		return
	}
	var text string
	if err == nil {
		text, err = v.Decode(tokens)
	}
	if err != nil {
		fmt.Fprintf(r.stderr, "rlx-run: warning: no text for the tokens: %v\n", err)
		return
	}
	fmt.Fprintf(r.stdout, "%s: %s\n", label, strconv.Quote(text))
}

// pastLogits is a located error for the first of tokens, encoded from
// what (a flag, the conversation), that the model has no logit for: the
// vocabulary is another model's.
func (r *runner) pastLogits(p *ref.Program, d *decode.Decoder, tokens []int, what string) error {
	for _, tok := range tokens {
		if tok >= d.Vocab {
			return ir.OpErrorPlain(p.Func(), "%s encodes to token %d, past the model's %d logits: is the vocabulary (%s) the model's?", what, tok, d.Vocab, r.vocabPath())
		}
	}
	return nil
}

// located keeps a step's diagnostic located at its op, with the step in
// the message.
func located(p *ref.Program, err error) error {
	if d, ok := unwrapDiagnostic(err); ok {
		return d
	}
	return ir.OpErrorPlain(p.Func(), "%v", err)
}

func unwrapDiagnostic(err error) (*ir.Diagnostic, bool) {
	for e := err; e != nil; {
		if d, ok := e.(*ir.Diagnostic); ok {
			return d, true
		}
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			return nil, false
		}
		e = u.Unwrap()
	}
	return nil, false
}

func parseTokens(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("--tokens: %q is not a token id (want non-negative integers separated by commas)", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// writeNPY writes t to the file name whole, beside it first and renamed
// into place, so that a failed write leaves no truncated file.
func writeNPY(name string, t *tensor.Tensor) error {
	if err := outfile.WriteWith(name, func(w io.Writer) error { return tensor.WriteNPY(w, t) }); err != nil {
		return fmt.Errorf("cannot write %s: %v", name, unwrapPath(err))
	}
	return nil
}

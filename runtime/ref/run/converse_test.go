package run

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/models/importer"
)

// The tiny Qwen3 checkpoint (random weights, 256 logits) and a
// vocabulary of the same layout, as lit-tests/rlx-run/chat.test uses
// them.
var (
	qwen3Dir   = filepath.Join("..", "..", "..", "models", "importer", "testdata", "hf", "qwen3")
	qwen2Vocab = filepath.Join("..", "..", "..", "runtime", "vocab", "testdata", "hf", "qwen2", "tokenizer.json")
	plainChat  = filepath.Join("..", "..", "..", "lit-tests", "rlx-run", "Inputs", "plain.jinja")
)

// importQwen3 writes the tiny Qwen3 as MLIR with room for maxTokens.
func importQwen3(t *testing.T, maxTokens int) string {
	t.Helper()
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := importer.ImportHF(ctx, qwen3Dir, importer.Options{MaxTokens: maxTokens})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "qwen3.mlir")
	if err := os.WriteFile(file, []byte(ir.Sprint(m.Module, ir.PrintOptions{})), 0o666); err != nil {
		t.Fatal(err)
	}
	return file
}

// converse runs --interactive on the tiny Qwen3 with the messages lines
// as standard input.
func converse(t *testing.T, file, input string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb strings.Builder
	args = append([]string{file, "--weights", qwen3Dir, "--vocab", qwen2Vocab, "--interactive"}, args...)
	code := Main(args, strings.NewReader(input), &out, &errb)
	return code, out.String(), errb.String()
}

// TestInteractive: --interactive replies to each line, feeding only the
// tokens that follow those fed (the whole last turn when the template
// lays its reply out as it was generated, back to the end of the last
// prompt when not), and each reply is the one --messages of the same
// conversation generates from scratch.
func TestInteractive(t *testing.T) {
	file := importQwen3(t, 40)
	userOnly := filepath.Join(t.TempDir(), "user.jinja")
	os.WriteFile(userOnly, []byte(`{%- for m in messages %}{%- if m.role == "user" %}{{ m.content }}{%- endif %}{%- endfor %}`), 0o666)
	users := []string{"zq!", "q!", "z"}
	for _, tc := range []struct {
		template string
		counts   []string
	}{
		// "�4", the second reply, lays out as other tokens than those
		// generated: turn 3 goes back to turn 2's prompt.
		{plainChat, []string{"[3 tokens: 0 reused, 3 fed", "[7 tokens: 5 reused, 2 fed", "[12 tokens: 7 reused, 5 fed"}},
		// The replies are not in the prompt: each turn goes back to the
		// last prompt's end.
		{userOnly, []string{"[3 tokens: 0 reused, 3 fed", "[5 tokens: 3 reused, 2 fed", "[6 tokens: 5 reused, 1 fed"}},
	} {
		code, out, stderr := converse(t, file, strings.Join(users[:2], "\n")+"\n\n"+users[2]+"\n", "--chat-template", tc.template, "--generate", "2")
		replies := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if code != 0 || len(replies) != 3 {
			t.Fatalf("%s: code %d, stdout %q, stderr %q", tc.template, code, out, stderr)
		}
		for i, c := range tc.counts {
			if !strings.Contains(stderr, "> "+c) {
				t.Errorf("%s: turn %d: stderr %q, want %q", tc.template, i+1, stderr, c)
			}
		}
		// The same conversation from scratch: the same last reply.
		var msgs []map[string]string
		for i, u := range users {
			msgs = append(msgs, map[string]string{"role": "user", "content": u})
			if i < 2 {
				msgs = append(msgs, map[string]string{"role": "assistant", "content": replies[i]})
			}
		}
		data, _ := json.Marshal(msgs)
		path := filepath.Join(t.TempDir(), "m.json")
		os.WriteFile(path, data, 0o666)
		code, whole, stderr := main1(t, file, "--weights", qwen3Dir, "--vocab", qwen2Vocab, "--messages", path, "--chat-template", tc.template, "--generate", "2")
		if want := "reply: " + strconv.Quote(replies[2]) + "\n"; code != 0 || !strings.Contains(whole, want) {
			t.Errorf("%s: --messages of the conversation: code %d, stdout %q, stderr %q; want %q", tc.template, code, whole, stderr, want)
		}
	}
	// A line ending in a backslash goes on to the next: the message is
	// "zq\n!", as from --messages.
	code, out, stderr := converse(t, file, "zq\\\n!\n", "--chat-template", plainChat, "--generate", "2")
	path := filepath.Join(t.TempDir(), "m.json")
	os.WriteFile(path, []byte(`[{"role": "user", "content": "zq\n!"}]`), 0o666)
	_, whole, _ := main1(t, file, "--weights", qwen3Dir, "--vocab", qwen2Vocab, "--messages", path, "--chat-template", plainChat, "--generate", "2")
	if reply := strings.TrimSuffix(out, "\n"); code != 0 || strings.Contains(reply, "\n") || !strings.Contains(whole, "reply: "+strconv.Quote(reply)+"\n") || !strings.Contains(stderr, "[4 tokens") {
		t.Errorf("a continued line: code %d, stdout %q, stderr %q; --messages gives %q", code, out, stderr, whole)
	}
	// --system begins the conversation; the capacity ends it.
	code, out, stderr = converse(t, importQwen3(t, 8), "zq!\nq!\n", "--chat-template", plainChat, "--generate", "2", "--system", "z")
	if code != 1 || out != "!!\n\n" || !strings.Contains(stderr, "> [4 tokens: 0 reused") ||
		!strings.Contains(stderr, "rlx-run: error: --interactive: turn 2: the conversation reached the model's capacity of 8 tokens") {
		t.Errorf("capacity: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	// A message the model has no logits for (the fixture's 256).
	if code, _, stderr := converse(t, file, "zq!ab\n", "--chat-template", plainChat); code != 1 ||
		!strings.Contains(stderr, "--interactive: turn 1: ") || !strings.Contains(stderr, "the conversation encodes to token 295, past the model's 256 logits") {
		t.Errorf("tokens past the logits: code %d, stderr %q", code, stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--chat", "A"}, "rlx-run: error: --interactive reads the user's messages from standard input: give no --tokens, --prompt or --chat"},
		{[]string{"--logits", "l.npy"}, "rlx-run: error: --interactive takes no --logits or --compare-with"},
		{[]string{"--messages", "m.json", "--system", "A"}, "rlx-run: error: --system and --messages: give the system message in --messages"},
		{nil, "rlx-run: error: --interactive: " + filepath.Dir(qwen2Vocab)},
	} {
		if code, _, stderr := converse(t, file, "A\n", tc.args...); code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: code %d, stderr %q, want %q", tc.args, code, stderr, tc.want)
		}
	}
}

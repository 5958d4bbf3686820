package run

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/internal/outfile/outfiletest"
	"github.com/rlx-compiler/rlx/runtime/gguf"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

const model = `func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %w = graph.param "w" : tensor<4x4xf32>
  %0 = graph.matmul %x, %w : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
`

func main1(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestCLI(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "m.mlir")
	if err := os.WriteFile(file, []byte(model), 0o666); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.mlir")
	trailing := filepath.Join(dir, "trailing.npy")
	var npy bytes.Buffer
	if err := tensor.WriteNPY(&npy, tensor.Zeros(tensor.F32, 2, 4)); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		other:    "func.func @main(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {\n  %0 = graph.exp %x : (tensor<2x5xf32>) -> tensor<2x5xf32>\n  return %0 : tensor<2x5xf32>\n}\n",
		trailing: npy.String() + "x",
	} {
		if err := os.WriteFile(name, []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	code, base, stderr := main1(t, file)
	if code != 0 || !strings.HasPrefix(base, "result 0: tensor<2x4xf32> checksum ") || stderr != "" {
		t.Fatalf("code %d, stdout %q, stderr %q", code, base, stderr)
	}
	// Flag spellings and positions do not matter.
	for _, args := range [][]string{
		{"--seed=0", file},
		{file, "-seed", "0"},
		{"--num-values", "8", file, "--entry=main"},
	} {
		if code, out, _ := main1(t, args...); code != 0 || out != base {
			t.Errorf("%v: code %d, output %q, want %q", args, code, out, base)
		}
	}
	if code, out, _ := main1(t, file, "--seed", "1"); code != 0 || out == base {
		t.Errorf("another seed gives the same output")
	}
	if code, out, _ := main1(t, "--help"); code != 0 || !strings.Contains(out, "usage: rlx-run") {
		t.Errorf("--help: code %d, %q", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{file, "--seed", "x"}, `rlx-run: error: invalid value "x" for flag -seed`},
		{[]string{file, "--num-values", "-1"}, "rlx-run: error: --num-values must not be negative, got -1"},
		{[]string{file, "--generate", "-1", "--tokens", "1"}, "rlx-run: error: --generate must not be negative, got -1"},
		{[]string{file, "--generate", "2"}, "rlx-run: error: --logits, --max-tokens, --generate and --vocab need --tokens, --prompt, --chat or --messages"},
		{[]string{file, "--tokens", "1", "--prompt", "a"}, "rlx-run: error: give one of --tokens, --prompt, --chat and --messages"},
		{[]string{file, "--tokens", "1", "--ignore-eos"}, "rlx-run: error: --ignore-eos applies to --generate, which is not given"},
		{[]string{file, "--tokens", "1", "--temperature", "0.7"}, "rlx-run: error: --temperature applies to --generate, which is not given"},
		{[]string{file, "--tokens", "1", "--generate", "2", "--top-k", "5"}, "rlx-run: error: --top-k, --top-p and --min-p apply to sampling: give --temperature too"},
		{[]string{file, "--tokens", "1", "--generate", "2", "--min-p", "0.1"}, "rlx-run: error: --top-k, --top-p and --min-p apply to sampling: give --temperature too"},
		{[]string{file, "--tokens", "1", "--repetition-penalty", "1.1"}, "rlx-run: error: --repetition-penalty applies to --generate, which is not given"},
		{[]string{file, "--tokens", "1", "--generation-config"}, "rlx-run: error: --generation-config applies to --generate, which is not given"},
		{[]string{file, "--chat", "a", "--messages", "m.json"}, "rlx-run: error: give one of --tokens, --prompt, --chat and --messages"},
		{[]string{file, "--tokens", "1", "--system", "s"}, "rlx-run: error: --system applies to --chat and --interactive, which are not given"},
		{[]string{file, "--prompt", "a", "--chat-template", "t.jinja"}, "rlx-run: error: --chat-template, --tools and --chat-var apply to --chat, --messages and --interactive, which are not given"},
		{[]string{file, "--tokens", "1", "--chat-var", "x=1"}, "rlx-run: error: --chat-template, --tools and --chat-var apply to --chat, --messages and --interactive, which are not given"},
		{[]string{file, "--chat", "a"}, "rlx-run: error: --prompt, --chat and --messages need a vocabulary"},
		{[]string{file, "--prompt", "a"}, "rlx-run: error: --prompt, --chat and --messages need a vocabulary: --weights with one (a tokenizer.json beside the safetensors) or --vocab"},
		{[]string{file, "--weights", filepath.Join(dir, "none.safetensors")}, "rlx-run: error: cannot read weights: no such file or directory"},
		{[]string{file, "--inputs", "a.npy,b.npy"}, "m.mlir:1:1: error: @main takes 1 arguments, but --inputs names 2 files"},
		{[]string{file, "--tolerance", "0.1"}, "rlx-run: error: --tolerance applies to --compare-with, which is not given"},
		{[]string{file, "--compare-backend", "ref"}, "rlx-run: error: --compare-backend applies to --compare-with, which is not given"},
		{[]string{file, "--inputs", ""}, "rlx-run: error: --inputs names no files (leave it out to generate inputs from --seed)"},
		{[]string{file, "--inputs", trailing}, trailing + ": npy: data continues after the array (which ends 32 bytes after the header)"},
		{[]string{file, "--compare-with", other}, "m.mlir:1:1: error: argument #0 is tensor<2x4xf32> in @main (" + file + ") but tensor<2x5xf32> in @main (" + other + "); pass --inputs"},
		{[]string{file, "--max-memory", "16x"}, `rlx-run: error: invalid value "16x" for flag -max-memory: want a size in bytes, with an optional suffix K, M, G or T (16G), got "16x"`},
		{[]string{file, "--max-memory", "95"}, "m.mlir:2:8: error: 'graph.param' op result needs 64 bytes, and the run would hold 96 bytes at this point, over the memory budget of 95 bytes"},
	} {
		code, _, stderr := main1(t, c.args...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: code %d, stderr %q, want %q", c.args, code, stderr, c.want)
		}
	}
	code, _, stderr = main1(t, file, "--profile")
	if code != 0 || !strings.Contains(stderr, "profile of @main (2 ops,") || !strings.Contains(stderr, "graph.matmul") {
		t.Errorf("--profile: %q", stderr)
	}
}

// TestOutDirReplacesWhole checks that --out-dir files replace old ones
// whole (written beside them and renamed), so a failed run leaves no
// truncated file and a reader of the old file is not disturbed.
func TestOutDirReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "m.mlir")
	if err := os.WriteFile(file, []byte(model), 0o666); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o777); err != nil {
		t.Fatal(err)
	}
	outfiletest.Replaced(t, filepath.Join(out, "out0.npy"), func() {
		if code, _, stderr := main1(t, file, "--out-dir", out); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	})
}

// TestInputsDir checks that --inputs takes a directory of in0.npy, in1.npy,
// … as --save-inputs and rlx-gen --inputs write it.
func TestInputsDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "m.mlir")
	if err := os.WriteFile(file, []byte(model), 0o666); err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(dir, "in")
	code, base, stderr := main1(t, file, "--seed", "3", "--save-inputs", saved)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, out, stderr := main1(t, file, "--seed", "3", "--inputs", saved)
	if code != 0 || out != base {
		t.Errorf("--inputs DIR: exit %d, stdout %q, stderr %q; want %q", code, out, stderr, base)
	}
}

// TestUsageListsEveryFlag: --help documents each flag rlx-run takes (the
// runtime's --backend, --plan, --guard and the rest were once missing).
func TestUsageListsEveryFlag(t *testing.T) {
	n := 0
	newFlags(&options{}).VisitAll(func(f *flag.Flag) {
		n++
		if !strings.Contains(usage, "  --"+f.Name+" ") && !strings.Contains(usage, "  --"+f.Name+"\n") {
			t.Errorf("usage does not list --%s", f.Name)
		}
	})
	if n < 20 {
		t.Errorf("%d flags, want more than 20", n)
	}
}

// chooser is a decode step whose logits are [t, 2 − t, 1] for token t,
// with one weight (scale, 1) so that it binds a checkpoint.
const chooser = `func.func @step(%tok: tensor<1x1xi32> {rlx.name = "token"}, %pos: tensor<1xi32> {rlx.name = "pos"}) -> (tensor<1x3xf32> {rlx.name = "logits"}) {
  %t = graph.cast %tok : (tensor<1x1xi32>) -> tensor<1x1xf32>
  %w = graph.param "scale" : tensor<3xf32>
  %b = graph.constant dense<[0.0, 2.0, 1.0]> : tensor<3xf32>
  %m = graph.mul %t, %w : (tensor<1x1xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  %l = graph.add %m, %b : (tensor<1x3xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  return %l : tensor<1x3xf32>
}
`

// chooserDir writes the chooser step and its weights (scale [1, −1, 0])
// into a new checkpoint directory and returns the step's file and the
// directory.
func chooserDir(t *testing.T) (file, dir string) {
	t.Helper()
	dir = t.TempDir()
	file = filepath.Join(dir, "step.mlir")
	os.WriteFile(file, []byte(chooser), 0o666)
	scale, err := tensor.FromFloat32(tensor.F32, []int{3}, []float32{1, -1, 0})
	if err != nil {
		t.Fatal(err)
	}
	var st bytes.Buffer
	if err := tensor.WriteSafetensors(&st, &tensor.Safetensors{Tensors: map[string]*tensor.Tensor{"scale": scale}}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "model.safetensors"), st.Bytes(), 0o666)
	return file, dir
}

// TestChat: --chat lays the message out with the checkpoint's chat
// template and encodes it without the vocabulary's own specials (no
// leading <s> here, though the tokenizer's template adds one), then
// prints the reply's text; --system, --messages and --chat-template;
// a template's refusal and a missing template are located errors.
func TestChat(t *testing.T) {
	file, dir := chooserDir(t)
	os.WriteFile(filepath.Join(dir, "tokenizer.json"), []byte(`{"model": {"type": "BPE", "vocab": {"A": 0, "<s>": 1, "ĠB": 2, "Ġ": 3, "B": 4}, "merges": [["Ġ", "B"]]},
	  "added_tokens": [{"id": 1, "content": "<s>", "special": true}], "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false},
	  "post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}], "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}},
	  "decoder": {"type": "ByteLevel"}}`), 0o666)
	os.WriteFile(filepath.Join(dir, "tokenizer_config.json"), []byte(`{"bos_token": "<s>",
	  "chat_template": "{% if messages[0].role == 'tool' %}{{ raise_exception('no tools here') }}{% endif %}{% for m in messages %}{% if m.role == 'system' %}{{ bos_token }}{% endif %}{{ m.content }}{% endfor %}"}`), 0o666)
	// "A B" is A, ĠB: 0, 2; the chooser then gives 0, then 1 (<s>).
	code, out, stderr := main1(t, file, "--weights", dir, "--chat", "A B", "--generate", "2", "--ignore-eos")
	if code != 0 || !strings.Contains(out, "tokens: 0,2,0,1\ntext: \"A BA<s>\"\nreply: \"A<s>\"\n") || stderr != "" {
		t.Errorf("--chat: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, stderr = main1(t, file, "--weights", dir, "--chat", "A", "--system", "A")
	if code != 0 || !strings.Contains(out, "tokens: 1,0,0\ntext: \"<s>AA\"\n") || strings.Contains(out, "reply:") {
		t.Errorf("--system: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	msgs := filepath.Join(t.TempDir(), "m.json")
	os.WriteFile(msgs, []byte(`[{"role": "user", "content": "A"}, {"role": "assistant", "content": " B"}]`), 0o666)
	code, out, _ = main1(t, file, "--weights", dir, "--messages", msgs)
	if code != 0 || !strings.Contains(out, "tokens: 0,2\n") {
		t.Errorf("--messages: code %d, stdout %q", code, out)
	}
	other := filepath.Join(t.TempDir(), "t.jinja")
	os.WriteFile(other, []byte("{{ messages[0].content }} B"), 0o666)
	code, out, _ = main1(t, file, "--weights", dir, "--chat", "A", "--chat-template", other)
	if code != 0 || !strings.Contains(out, "tokens: 0,2\n") {
		t.Errorf("--chat-template: code %d, stdout %q", code, out)
	}
	// --chat-var and --tools reach the template as variables.
	os.WriteFile(other, []byte("{{ messages[0].content }}{% if extra %} B{% endif %}{% for t in tools %}{{ t.name }}{% endfor %}"), 0o666)
	tools := filepath.Join(t.TempDir(), "tools.json")
	os.WriteFile(tools, []byte(`[{"name": "A"}, {"name": "A"}]`), 0o666)
	code, out, stderr = main1(t, file, "--weights", dir, "--chat", "A", "--chat-template", other, "--chat-var", "extra=true", "--tools", tools)
	if code != 0 || !strings.Contains(out, "tokens: 0,2,0,0\ntext: \"A BAA\"\n") {
		t.Errorf("--chat-var, --tools: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--chat-var", "extra"}, `rlx-run: error: --chat: --chat-var "extra": want NAME=JSON (enable_thinking=false)`},
		{[]string{"--chat-var", "extra=yes"}, `rlx-run: error: --chat: --chat-var extra: "yes" is not JSON: invalid character 'y' looking for beginning of value (a string needs its quotes: extra='"text"')`},
		{[]string{"--tools", other}, "rlx-run: error: --chat: --tools: " + other + ": "},
		{[]string{"--tools", filepath.Join(dir, "tokenizer_config.json")}, "rlx-run: error: --chat: --tools: " + filepath.Join(dir, "tokenizer_config.json") + ": the tools are not a JSON list"},
	} {
		code, _, stderr = main1(t, append([]string{file, "--weights", dir, "--chat", "A", "--chat-template", other}, tc.args...)...)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: code %d, stderr %q, want %q", tc.args, code, stderr, tc.want)
		}
	}
	// A template file of its own takes the checkpoint's special tokens;
	// an empty --chat is an empty message, given.
	bosFile := filepath.Join(t.TempDir(), "bos.j2")
	os.WriteFile(bosFile, []byte("{{ bos_token }}{{ messages[0].content }}"), 0o666)
	if code, out, stderr := main1(t, file, "--weights", dir, "--chat", "A", "--chat-template", bosFile); code != 0 || !strings.Contains(out, "tokens: 1,0\n") {
		t.Errorf("a .j2 template elsewhere: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	if code, out, stderr := main1(t, file, "--weights", dir, "--chat", "", "--chat-template", bosFile, "--generate", "1", "--ignore-eos"); code != 0 || !strings.Contains(out, "tokens: 1,0\n") {
		t.Errorf("--chat \"\": code %d, stdout %q, stderr %q", code, out, stderr)
	}
	if code, _, stderr := main1(t, file, "--weights", dir, "--chat", "A", "--max-tokens", "1", "--generate", "1"); code != 1 || !strings.Contains(stderr, "rlx-run: error: --chat encodes to 1 tokens and --generate asks for 1 more, more than --max-tokens 1") {
		t.Errorf("--max-tokens: code %d, stderr %q", code, stderr)
	}
	os.WriteFile(msgs, []byte(`[{"role": "tool", "content": "A"}]`), 0o666)
	code, _, stderr = main1(t, file, "--weights", dir, "--messages", msgs)
	if code != 1 || !strings.Contains(stderr, "rlx-run: error: --messages: "+filepath.Join(dir, "tokenizer_config.json")+": the template refuses the conversation: no tools here") {
		t.Errorf("refusal: code %d, stderr %q", code, stderr)
	}
	os.WriteFile(msgs, []byte(`{"role": "user"}`), 0o666)
	code, _, stderr = main1(t, file, "--weights", dir, "--messages", msgs)
	if code != 1 || !strings.Contains(stderr, "rlx-run: error: --messages: "+msgs+": the messages are not a JSON list") {
		t.Errorf("bad messages: code %d, stderr %q", code, stderr)
	}
	os.WriteFile(other, []byte("{% for %}"), 0o666)
	code, _, stderr = main1(t, file, "--weights", dir, "--chat", "A", "--chat-template", other)
	if code != 1 || !strings.Contains(stderr, "rlx-run: error: --chat: "+other+":1:") {
		t.Errorf("bad template: code %d, stderr %q", code, stderr)
	}
	os.Remove(filepath.Join(dir, "tokenizer_config.json"))
	code, _, stderr = main1(t, file, "--weights", dir, "--chat", "A")
	if code != 1 || !strings.Contains(stderr, "rlx-run: error: --chat: "+dir+": no chat template (no chat_template.jinja, and no chat_template in tokenizer_config.json or chat_template.json)") {
		t.Errorf("no template: code %d, stderr %q", code, stderr)
	}
}

// TestGenerateText: --generate prints the tokens and, from the
// checkpoint's tokenizer.json, their text; a tokenizer.json rlx cannot
// read is a warning, and none is no text line.
func TestGenerateText(t *testing.T) {
	file, dir := chooserDir(t)
	code, out, stderr := main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "3")
	if code != 0 || !strings.Contains(out, "step 3: token 0 -> arg-max 1 (logit 2)\ntokens: 2,0,1,0\nlogits: tensor<4x3xf32>") || strings.Contains(out, "text:") || stderr != "" {
		t.Errorf("no tokenizer: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	tok := filepath.Join(dir, "tokenizer.json")
	os.WriteFile(tok, []byte(`{"model": {"type": "BPE", "vocab": {"A": 0, "ĠB": 1, "Ċ": 2}}, "decoder": {"type": "ByteLevel"}}`), 0o666)
	code, out, stderr = main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "3")
	if code != 0 || !strings.Contains(out, "tokens: 2,0,1,0\ntext: \"\\nA BA\"\nlogits:") || stderr != "" {
		t.Errorf("tokenizer.json: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	// --prompt encodes with the vocabulary (its template's <s> first),
	// from --weights' directory or --vocab.
	os.WriteFile(tok, []byte(`{"model": {"type": "BPE", "vocab": {"A": 0, "<s>": 1, "ĠB": 2, "Ċ": 3, "Ġ": 4, "B": 5}, "merges": [["Ġ", "B"]]},
	  "added_tokens": [{"id": 1, "content": "<s>", "special": true}], "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false},
	  "post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}], "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}},
	  "decoder": {"type": "ByteLevel"}}`), 0o666)
	code, out, stderr = main1(t, file, "--weights", dir, "--prompt", "A B")
	if code != 0 || !strings.Contains(out, "step 0: token 1 ->") || !strings.Contains(out, "tokens: 1,0,2\ntext: \"<s>A B\"\nlogits: tensor<3x3xf32>") || stderr != "" {
		t.Errorf("--prompt: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	// A text of characters the vocabulary cannot spell (no byte-level
	// pre-tokeniser, no unk, no byte fallback) has no tokens.
	bare := filepath.Join(t.TempDir(), "bare.json")
	os.WriteFile(bare, []byte(`{"model": {"type": "BPE", "vocab": {"A": 0}}, "decoder": {"type": "ByteLevel"}}`), 0o666)
	if code, _, stderr := main1(t, file, "--weights", dir, "--vocab", bare, "--prompt", "ZZ"); code != 1 || !strings.Contains(stderr, "rlx-run: error: --prompt: the text has no tokens") {
		t.Errorf("no tokens: code %d, stderr %q", code, stderr)
	}
	named := filepath.Join(t.TempDir(), "vocab.json")
	os.Rename(tok, named)
	code, out2, _ := main1(t, file, "--weights", dir, "--vocab", named, "--prompt", "A B")
	if code != 0 || out2 != out {
		t.Errorf("--vocab: code %d, stdout %q", code, out2)
	}
	// A newline is Ċ, token 3, past the chooser's 3 logits.
	code, _, stderr = main1(t, file, "--weights", dir, "--vocab", named, "--prompt", "\nA")
	if code != 1 || !strings.Contains(stderr, "error: --prompt encodes to token 3, past the model's 3 logits: is the vocabulary ("+named+") the model's?") {
		t.Errorf("--prompt past the logits: code %d, stderr %q", code, stderr)
	}
	code, _, stderr = main1(t, file, "--weights", dir, "--prompt", "A")
	if code != 1 || !strings.Contains(stderr, "rlx-run: error: --prompt: "+dir+": no vocabulary (no tokenizer.json)") {
		t.Errorf("--prompt without a vocabulary: code %d, stderr %q", code, stderr)
	}
	// The checkpoint's end-of-sequence token ends --generate, unless
	// --ignore-eos: from [2] the chooser gives 0, then 1.
	os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"eos_token_id": 1}`), 0o666)
	code, out, stderr = main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "3")
	if code != 0 || !strings.Contains(out, "step 1: token 0 -> arg-max 1 (logit 2)\nstopped: 1 is an end-of-sequence token (--ignore-eos goes on)\ntokens: 2,0\n") || stderr != "" {
		t.Errorf("stop: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	// Sampled, generation stops on the token drawn, which need not be
	// the arg-max: from [2] the chooser's arg-max is 0, and at
	// temperature 50 some seed draws 1, the end, first.
	early := false
	for seed := range 40 {
		code, out, _ := main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "3", "--temperature", "50", "--seed", strconv.Itoa(seed))
		if code != 0 {
			t.Fatalf("seed %d: code %d", seed, code)
		}
		if strings.Contains(out, "tokens: 2\n") {
			early = true
			if !strings.Contains(out, "step 0: token 2 -> arg-max 0 (logit 2)\nstopped: 1 is an end-of-sequence token") {
				t.Errorf("seed %d stopped at once: %q", seed, out)
			}
		}
	}
	if !early {
		t.Error("no seed drew the end of sequence first")
	}
	code, out, _ = main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "3", "--ignore-eos")
	if code != 0 || !strings.Contains(out, "tokens: 2,0,1,0\n") || strings.Contains(out, "stopped") {
		t.Errorf("--ignore-eos: code %d, stdout %q", code, out)
	}
	os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"eos_token_id": "x"}`), 0o666)
	if code, _, stderr = main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "3"); code != 1 || !strings.Contains(stderr, "rlx-run: error: --generate: "+filepath.Join(dir, "config.json")+": eos_token_id is \"x\", want an id or a list of ids (--ignore-eos does without)") {
		t.Errorf("bad eos: code %d, stderr %q", code, stderr)
	}
	os.Remove(filepath.Join(dir, "config.json"))
	// Sampling: the same seed, the same tokens; some seed other tokens.
	sample := func(seed string) string {
		code, out, stderr := main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "6", "--temperature", "5", "--seed", seed)
		if code != 0 {
			t.Fatalf("sampling: code %d, stderr %q", code, stderr)
		}
		return out[strings.Index(out, "tokens: "):]
	}
	first, differs := sample("1"), false
	if sample("1") != first {
		t.Error("the same seed sampled other tokens")
	}
	for seed := 2; seed < 20 && !differs; seed++ {
		differs = sample(strconv.Itoa(seed)) != first
	}
	if !differs {
		t.Error("nineteen seeds sampled the same tokens at temperature 5")
	}
	// A repetition penalty under 1 favours the tokens seen: from [2] the
	// chooser's [2, 0, 1] becomes [2, 0, 4], and 2 repeats.
	if code, out, stderr := main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "3", "--repetition-penalty", "0.25"); code != 0 || !strings.Contains(out, "tokens: 2,2,2,2\n") {
		t.Errorf("--repetition-penalty 0.25: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	if code, out, _ := main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "3", "--repetition-penalty", "4"); code != 0 || !strings.Contains(out, "tokens: 2,0,1,0\n") {
		t.Errorf("--repetition-penalty 4: code %d, stdout %q", code, out)
	}
	// A step function's capacity (rlx.max_tokens) bounds --generate.
	capped := filepath.Join(t.TempDir(), "capped.mlir")
	os.WriteFile(capped, []byte(strings.Replace(chooser, `{rlx.name = "logits"}) {`, `{rlx.name = "logits"}) attributes {rlx.max_tokens = 2 : i64} {`, 1)), 0o666)
	if code, _, stderr := main1(t, capped, "--weights", dir, "--tokens", "2", "--generate", "3"); code != 1 || !strings.Contains(stderr, "1 tokens and 3 to generate exceed the model's capacity of 2") {
		t.Errorf("capacity: code %d, stderr %q", code, stderr)
	}
	// --generation-config takes the checkpoint's settings, the flags
	// given over them; sampling at temperature 5 with transformers'
	// default top-k of 50 draws as the flags saying so do.
	os.WriteFile(filepath.Join(dir, "generation_config.json"), []byte(`{"do_sample": false, "repetition_penalty": 0.25}`), 0o666)
	if code, out, stderr := main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "3", "--generation-config"); code != 0 || !strings.Contains(out, "tokens: 2,2,2,2\n") {
		t.Errorf("--generation-config: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	if code, out, _ := main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "3", "--generation-config", "--repetition-penalty", "1"); code != 0 || !strings.Contains(out, "tokens: 2,0,1,0\n") {
		t.Errorf("--generation-config overridden: code %d, stdout %q", code, out)
	}
	os.WriteFile(filepath.Join(dir, "generation_config.json"), []byte(`{"do_sample": true, "temperature": 5}`), 0o666)
	_, fromConfig, _ := main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "6", "--generation-config", "--seed", "3")
	_, fromFlags, _ := main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "6", "--temperature", "5", "--top-k", "50", "--seed", "3")
	if i := strings.Index(fromConfig, "tokens: "); i < 0 || fromConfig[i:] != fromFlags[strings.Index(fromFlags, "tokens: "):] {
		t.Errorf("--generation-config sampling: %q, the flags: %q", fromConfig, fromFlags)
	}
	os.WriteFile(filepath.Join(dir, "generation_config.json"), []byte(`{"do_sample": true, "temperature": 0}`), 0o666)
	if code, _, stderr := main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "3", "--generation-config"); code != 1 || !strings.Contains(stderr, "rlx-run: error: --generation-config: "+filepath.Join(dir, "generation_config.json")+": do_sample with temperature 0") {
		t.Errorf("bad config: code %d, stderr %q", code, stderr)
	}
	// A greedy file: the sampling filters want --temperature; with it,
	// the file's top_k, top_p and min_p apply (here top_k 1: the arg-max).
	os.WriteFile(filepath.Join(dir, "generation_config.json"), []byte(`{"do_sample": false, "top_k": 1}`), 0o666)
	if code, _, stderr := main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "3", "--generation-config", "--top-p", "0.5"); code != 1 || !strings.Contains(stderr, "rlx-run: error: --top-k, --top-p and --min-p apply to sampling, and "+filepath.Join(dir, "generation_config.json")+" decodes greedily: give --temperature too") {
		t.Errorf("greedy config with --top-p: code %d, stderr %q", code, stderr)
	}
	for seed := range 5 {
		if code, out, _ := main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "2", "--generation-config", "--temperature", "50", "--seed", strconv.Itoa(seed)); code != 0 || !strings.Contains(out, "tokens: 2,0,1\n") {
			t.Errorf("greedy config, --temperature 50, top_k 1 from the file: code %d, stdout %q", code, out)
		}
	}
	if code, _, stderr := main1(t, file, "--tokens", "2", "--generate", "3", "--generation-config"); code != 1 || !strings.Contains(stderr, "rlx-run: error: --generation-config needs a checkpoint: --weights or --vocab") {
		t.Errorf("no checkpoint: code %d, stderr %q", code, stderr)
	}
	os.Remove(filepath.Join(dir, "generation_config.json"))
	if code, _, stderr := main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "3", "--generation-config"); code != 1 || !strings.Contains(stderr, "rlx-run: error: --generation-config: open "+filepath.Join(dir, "generation_config.json")) {
		t.Errorf("no config: code %d, stderr %q", code, stderr)
	}
	if code, _, stderr := main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "2", "--temperature", "-1"); code != 1 || !strings.Contains(stderr, "rlx-run: error: --generate: the temperature must be 0 (greedy) or positive, got -1") {
		t.Errorf("negative temperature: code %d, stderr %q", code, stderr)
	}
	os.WriteFile(tok, []byte(`{"model": {"type": "Unigram"}}`), 0o666)
	code, out, stderr = main1(t, file, "--weights", dir, "--tokens", "2", "--generate", "3")
	if code != 0 || strings.Contains(out, "text:") || stderr != "rlx-run: warning: no text for the tokens: "+tok+": model type \"Unigram\" is not supported (rlx decodes BPE vocabularies)\n" {
		t.Errorf("bad tokenizer.json: code %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// TestGGUFPrompt: a GGUF file is both the weights and the vocabulary:
// --prompt encodes with its byte-level tokens and merges, --generate
// stops at its tokenizer.ggml.eos_token_id, and the text comes from it.
func TestGGUFPrompt(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "step.mlir")
	os.WriteFile(file, []byte(chooser), 0o666)
	var w gguf.Writer
	w.Add("general.architecture", "llama")
	w.Add("tokenizer.ggml.model", "gpt2")
	w.Add("tokenizer.ggml.pre", "qwen2")
	w.Add("tokenizer.ggml.tokens", []string{"A", "B", "ĠB", "Ġ", "<s>"})
	w.Add("tokenizer.ggml.token_type", []int32{1, 1, 1, 1, 3})
	w.Add("tokenizer.ggml.merges", []string{"Ġ B"})
	w.Add("tokenizer.ggml.eos_token_id", uint32(1))
	w.Add("general.sampling.penalty_repeat", float32(0.25))
	scale := []byte{0, 0, 128, 63, 0, 0, 128, 191, 0, 0, 0, 0} // 1, −1, 0
	if err := w.AddTensor("scale", gguf.TypeF32, []int{3}, scale); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "m.gguf")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	// "A B" is A, ĠB: tokens 0, 2; from 2 the chooser gives 0, then 1,
	// the end of sequence.
	code, out, stderr := main1(t, file, "--weights", path, "--prompt", "A B", "--generate", "4")
	want := "stopped: 1 is an end-of-sequence token (--ignore-eos goes on)\ntokens: 0,2,0\ntext: \"A BA\"\n"
	if code != 0 || !strings.Contains(out, want) || stderr != "" {
		t.Errorf("code %d, stdout %q, stderr %q; want %q", code, out, stderr, want)
	}
	// --generation-config takes the file's general.sampling.* keys: a
	// penalty of 0.25 favours the tokens seen (from 0, 2 the chooser's
	// [0, 2, 1] becomes [0, 2, 4]), so 2 comes back and 1 (the end) never.
	code, out, stderr = main1(t, file, "--weights", path, "--prompt", "A B", "--generate", "2", "--generation-config")
	if code != 0 || !strings.Contains(out, "tokens: 0,2,0,2\n") || stderr != "" {
		t.Errorf("--generation-config: code %d, stdout %q, stderr %q", code, out, stderr)
	}
	// A GGUF file without them names itself.
	var bare gguf.Writer
	bare.Add("general.architecture", "llama")
	barePath := filepath.Join(dir, "bare.gguf")
	if err := bare.WriteFile(barePath); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = main1(t, file, "--weights", path, "--vocab", barePath, "--tokens", "0", "--generate", "2", "--generation-config")
	if code != 1 || !strings.Contains(stderr, "rlx-run: error: --generation-config: "+barePath+" has no general.sampling.* keys: give the sampling flags") {
		t.Errorf("no sampling keys: code %d, stderr %q", code, stderr)
	}
}

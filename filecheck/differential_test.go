package filecheck

import (
	"bytes"
	"flag"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var diffCases = flag.Int("diffcases", 40, "random cases for TestDifferentialRandom")

// genCase derives a check file from a random input, so that most
// directives can match and the matching logic (not just the parser) is
// exercised, and picks random options.
func genCase(r *rand.Rand) (checkText, input string, args []string) {
	vocab := []string{"a", "b", "ab", "x1", "r1", "r2", "12", "7", "ff", "foo", "<foo>", "(", ")", "f1:", "é", "K", "\tt"}
	seps := []string{" ", "  ", "\t"}
	eols := []string{"\n", "\n", "\n", "\r\n"}
	var lines []string
	var in strings.Builder
	for i := 0; i < 1+r.Intn(12); i++ {
		var ws []string
		for j := 0; j < r.Intn(4); j++ {
			ws = append(ws, vocab[r.Intn(len(vocab))])
		}
		lines = append(lines, strings.Join(ws, seps[r.Intn(len(seps))]))
		in.WriteString(lines[i] + eols[r.Intn(len(eols))])
	}
	kinds := []string{":", ":", "-NEXT:", "-SAME:", "-NOT:", "-DAG:", "-DAG:", "-LABEL:", "-EMPTY:", "-COUNT-2:", "{LITERAL}:"}
	var ck strings.Builder
	for i := 0; i < 1+r.Intn(9); i++ {
		kind := kinds[r.Intn(len(kinds))]
		if i == 0 && (kind == "-NEXT:" || kind == "-SAME:" || kind == "-EMPTY:") {
			kind = ":"
		}
		pat := strings.TrimSpace(lines[r.Intn(len(lines))])
		if pat == "" {
			pat = vocab[r.Intn(len(vocab))]
		}
		switch r.Intn(7) {
		case 0:
			pat = "{{^}}" + pat
		case 1:
			pat += "{{$}}"
		case 2:
			pat = strings.Replace(pat, "1", "{{[0-9]}}", 1)
		case 3:
			pat = "[[V:" + []string{"[a-z]+", "r[0-9]", "..", "[^ ]+"}[r.Intn(4)] + "]] [[V]]"
		case 4:
			pat = strings.Replace(pat, "12", "[[#N:]]", 1)
		case 5:
			pat = strings.ToUpper(pat)
		}
		if kind == "-EMPTY:" {
			pat = ""
		}
		ck.WriteString([]string{"", "; ", "// "}[r.Intn(3)] + "CHECK" + kind + " " + pat + "\n")
	}
	flags := []string{"-v", "-vv", "-dump-input=always", "-dump-input=never", "--strict-whitespace", "--match-full-lines", "--ignore-case", "--implicit-check-not=foo", "--enable-var-scope", "--allow-deprecated-dag-overlap", "-dump-input-filter=all", "-dump-input-context=1", "--color"}
	for _, f := range flags {
		if r.Intn(7) == 0 {
			args = append(args, f)
		}
	}
	return ck.String(), in.String(), args
}

// TestDifferentialRandom compares this implementation with LLVM's
// FileCheck 19, output and status, on random check files and inputs
// (-diffcases N for more).
func TestDifferentialRandom(t *testing.T) {
	llvm := llvmFileCheck()
	if llvm == "" {
		t.Skip("LLVM FileCheck 19 not found (set LLVM_FILECHECK); skipping differential test")
	}
	t.Parallel()
	dir := t.TempDir()
	for i := 0; i < *diffCases; i++ {
		checkText, input, args := genCase(rand.New(rand.NewSource(int64(i))))
		gc := &goldenCase{
			args:  append([]string{"check", "--input-file", "input"}, args...),
			files: map[string][]byte{"check": []byte(checkText), "input": []byte(input)},
		}
		ours, oursCode := gc.runOurs()
		os.WriteFile(filepath.Join(dir, "check"), []byte(checkText), 0o644)
		os.WriteFile(filepath.Join(dir, "input"), []byte(input), 0o644)
		cmd := exec.Command(llvm, gc.args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "FILECHECK_OPTS=")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		code := 0
		if err := cmd.Run(); err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatal(err)
			}
			code = ee.ExitCode()
		}
		if ours != out.String() || oursCode != code {
			t.Errorf("case %d, args %q: status %d, LLVM %d\n--- check\n%s--- input\n%s--- ours\n%s--- LLVM\n%s", i, args, oursCode, code, checkText, input, ours, out.String())
		}
	}
}

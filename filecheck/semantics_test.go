package filecheck

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// check runs a check with the given options and returns the status and
// the diagnostics.
func check(opts Options, checkText, input string) (Status, string) {
	var errs bytes.Buffer
	opts.DumpInput = DumpNever
	st := Check(opts, File{Name: "check", Text: []byte(checkText)}, File{Name: "input", Text: []byte(input)}, &errs)
	return st, errs.String()
}

func TestDirectiveSemantics(t *testing.T) {
	t.Parallel()
	type opt func(*Options)
	var (
		strict    opt = func(o *Options) { o.StrictWhitespace = true }
		fullLines opt = func(o *Options) { o.MatchFullLines = true }
		icase     opt = func(o *Options) { o.IgnoreCase = true }
		varScope  opt = func(o *Options) { o.EnableVarScope = true }
		overlap   opt = func(o *Options) { o.AllowDeprecatedDAGOverlap = true }
		allowEmp  opt = func(o *Options) { o.AllowEmpty = true }
		prefixes      = func(p ...string) opt { return func(o *Options) { o.CheckPrefixes = p } }
		comments      = func(p ...string) opt { return func(o *Options) { o.CommentPrefixes = p } }
		implicit      = func(p ...string) opt { return func(o *Options) { o.ImplicitCheckNot = p } }
		defines       = func(d ...string) opt { return func(o *Options) { o.Defines = d } }
	)
	tests := []struct {
		name  string
		check string
		input string
		opts  []opt
		want  Status
	}{
		{"plain", "CHECK: b\n", "a\nb\n", nil, StatusOK},
		{"plain missing", "CHECK: c\n", "a\nb\n", nil, StatusMismatch},
		{"order matters", "CHECK: b\nCHECK: a\n", "a\nb\n", nil, StatusMismatch},
		{"two checks need two matches", "CHECK: {{a[0-9]b}}\nCHECK: {{a[0-9]b}}\n", "a2b\n", nil, StatusMismatch},
		{"substring match", "CHECK: oo\n", "foo\n", nil, StatusOK},
		{"prefix is a whole word", "MYCHECK: zzz\nCHECK: a\n", "a\n", nil, StatusOK},
		{"next", "CHECK: a\nCHECK-NEXT: b\n", "a\nb\n", nil, StatusOK},
		{"next skips a line", "CHECK: a\nCHECK-NEXT: b\n", "a\nx\nb\n", nil, StatusMismatch},
		{"next same line", "CHECK: a\nCHECK-NEXT: b\n", "a b\n", nil, StatusMismatch},
		{"next first", "CHECK-NEXT: a\n", "a\n", nil, StatusError},
		{"same", "CHECK: a\nCHECK-SAME: b\n", "a b\n", nil, StatusOK},
		{"same other line", "CHECK: a\nCHECK-SAME: b\n", "a\nb\n", nil, StatusMismatch},
		{"empty", "CHECK: a\nCHECK-EMPTY:\nCHECK-NEXT: b\n", "a\n\nb\n", nil, StatusOK},
		{"empty not empty", "CHECK: a\nCHECK-EMPTY:\n", "a\nb\n\n", nil, StatusMismatch},
		{"empty with text", "CHECK: a\nCHECK-EMPTY: x\n", "a\n\n", nil, StatusError},
		{"empty pattern", "CHECK:\n", "a\n", nil, StatusError},
		{"not between", "CHECK: a\nCHECK-NOT: x\nCHECK: b\n", "a\nx\nb\n", nil, StatusMismatch},
		{"not outside range", "CHECK: a\nCHECK-NOT: x\nCHECK: b\n", "x\na\nb\nx\n", nil, StatusOK},
		{"leading not", "CHECK-NOT: x\nCHECK: a\n", "x\na\n", nil, StatusMismatch},
		{"trailing not", "CHECK: a\nCHECK-NOT: x\n", "a\nx\n", nil, StatusMismatch},
		{"count", "CHECK-COUNT-3: x\n", "x x\nx\n", nil, StatusOK},
		{"count short", "CHECK-COUNT-3: x\n", "x\nx\n", nil, StatusMismatch},
		{"count-1 allows more", "CHECK-COUNT-1: x\n", "x\nx\n", nil, StatusOK},
		{"count zero", "CHECK-COUNT-0: x\n", "x\n", nil, StatusError},
		{"dag any order", "CHECK-DAG: b\nCHECK-DAG: a\nCHECK: c\n", "a\nb\nc\n", nil, StatusOK},
		{"dag no overlap", "CHECK-DAG: a\nCHECK-DAG: a\n", "a\n", nil, StatusMismatch},
		{"dag deprecated overlap", "CHECK-DAG: a\nCHECK-DAG: a\n", "a\n", []opt{overlap}, StatusOK},
		{"dag then check from furthest", "CHECK-DAG: b\nCHECK-DAG: a\nCHECK: a\n", "a\nb\na\n", nil, StatusOK},
		{"dag then check before furthest", "CHECK-DAG: b\nCHECK-DAG: a\nCHECK: a\n", "a\nb\n", nil, StatusMismatch},
		// mlir.md §4.1: DAG:AFTER / NOT:X / DAG:BEFORE fails when BEFORE
		// comes first in the input.
		{"dag not dag order", "CHECK-DAG: after\nCHECK-NOT: x\nCHECK-DAG: before\n", "before\nafter\n", nil, StatusMismatch},
		{"dag not dag", "CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: b\n", "a\nb\n", nil, StatusOK},
		{"dag not dag found", "CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: b\n", "a\nx\nb\n", nil, StatusMismatch},
		// llvm/llvm-project#89777: the NOT checks only after the group.
		{"not after dag group checks nothing", "CHECK-DAG: 3\nCHECK-DAG: 1\nCHECK-NOT: 2\n", "1\n2\n3\n", nil, StatusOK},
		{"dag group indexed", dagGroup(false), dagGroupInput, nil, StatusOK},
		{"dag group indexed missing", dagGroup(true), dagGroupInput, nil, StatusMismatch},
		{"dag group indexed overlap", strings.Repeat("CHECK-DAG: <foo>\n", 9) + "CHECK-DAG: x\n", strings.Repeat("<foo>", 9) + "x\n", nil, StatusOK},
		{"dag group indexed overlap short", strings.Repeat("CHECK-DAG: <foo>\n", 10), strings.Repeat("<foo>", 9) + "\n", nil, StatusMismatch},
		{"dag captures", "CHECK-DAG: def [[X:r[0-9]]]\nCHECK-DAG: use [[X]]\n", "use r2\ndef r1\nuse r1\n", nil, StatusOK},
		{"label blocks", "CHECK-LABEL: f1\nCHECK: a\nCHECK-LABEL: f2\nCHECK: b\n", "f1\na\nf2\nb\n", nil, StatusOK},
		{"label confines", "CHECK-LABEL: f1\nCHECK: b\nCHECK-LABEL: f2\n", "f1\na\nf2\nb\n", nil, StatusMismatch},
		{"text before first label is a block", "CHECK: a\nCHECK-LABEL: f1\n", "f1\na\n", nil, StatusMismatch},
		{"label missing", "CHECK-LABEL: f9\n", "f1\n", nil, StatusMismatch},
		{"label with variable", "CHECK-LABEL: [[X:a]]\n", "a\n", nil, StatusError},
		{"literal", "CHECK{LITERAL}: [[a]] {{b}}\n", "[[a]] {{b}}\n", nil, StatusOK},
		{"regex", "CHECK: r{{[0-9]+}}x\n", "r12x\n", nil, StatusOK},
		{"regex alternation scoped", "CHECK: a{{b|c}}d\n", "acd\n", nil, StatusOK},
		{"regex dot stops at newline", "CHECK: a{{.*}}b\n", "a\nb\n", nil, StatusMismatch},
		{"regex space class crosses lines", "CHECK: a{{[[:space:]]+}}b\n", "a\nb\n", nil, StatusOK},
		{"regex caret at match start", "CHECK: a\nCHECK-SAME: {{^}}b\n", "ab\n", nil, StatusOK},
		{"regex backreference", "CHECK: {{(x+)-\\1}}\n", "xx-x xx-xx\n", nil, StatusOK},
		{"regex escaped letter is literal", "CHECK: {{\\t}}\n", "t\n", nil, StatusOK},
		{"regex invalid", "CHECK: {{(}}\n", "(\n", nil, StatusError},
		{"variable", "CHECK: [[R:r[0-9]+]] =\nCHECK: use [[R]]\n", "r7 =\nuse r7\n", nil, StatusOK},
		{"variable mismatch", "CHECK: [[R:r[0-9]+]] =\nCHECK: use [[R]]\n", "r7 =\nuse r8\n", nil, StatusMismatch},
		{"variable same line", "CHECK: [[R:r[0-9]]] [[R]]\n", "r1 r2 r3 r3\n", nil, StatusOK},
		{"variable undefined", "CHECK: [[R]]\n", "r1\n", nil, StatusMismatch},
		{"variable escaped", "CHECK: [[X:a.c]]\nCHECK: [[X]]\n", "a.c\nabc\n", nil, StatusMismatch},
		{"define", "CHECK: v=[[V]]\n", "v=10\n", []opt{defines("V=10")}, StatusOK},
		{"numeric define", "CHECK: [[#N+1]]\n", "11\n", []opt{defines("#N=10")}, StatusOK},
		{"numeric capture", "CHECK: [[#%x,A:]]\nCHECK: [[#A+1]]\n", "ff\n100\n", nil, StatusOK},
		{"numeric precision", "CHECK: [[#%.4X,A:]]\nCHECK: [[#%.4X,A+1]]\n", "00FF\n0100\n", nil, StatusOK},
		{"numeric alternate form", "CHECK: [[#%#x,A:]]\nCHECK-SAME: [[#%#x,A+1]]\n", "0x1f 0x20\n", nil, StatusOK},
		{"numeric signed", "CHECK: [[#%d,A:]]\nCHECK-SAME: [[#%d,A-10]]\n", "-5 -15\n", nil, StatusOK},
		{"numeric big", "CHECK: [[#%X,0x8000000000000000+0x8000000000000000]]\n", "10000000000000000\n", nil, StatusOK},
		{"numeric functions", "CHECK: [[#max(3,min(9,7))]] [[#mul(3,4)]] [[#div(-7,2)]]\n", "7 12 -3\n", []opt{func(o *Options) {}}, StatusMismatch},
		{"numeric div signed", "CHECK: [[#%d,div(-7,2)]]\n", "-3\n", nil, StatusOK},
		{"numeric unsigned negative", "CHECK: [[#0-1]]\n", "-1\n", nil, StatusMismatch},
		{"numeric any", "CHECK: x [[#]] y\n", "x 42 y\n", nil, StatusOK},
		{"numeric same line use", "CHECK: [[#N:]] [[#N+1]]\n", "1 2\n", nil, StatusError},
		{"at line", "\nCHECK: [[@LINE]] [[#@LINE+1]]\n", "2 3\n", nil, StatusOK},
		{"comment prefixes", "COM: CHECK: zzz\nRUN: CHECK: zzz\nCHECK: a\n", "a\n", nil, StatusOK},
		{"custom comment prefix", "XX: CHECK: zzz\nCHECK: a\n", "a\n", []opt{comments("XX")}, StatusOK},
		{"custom comment prefix keeps RUN", "RUN: CHECK: zzz\nCHECK: a\n", "a\n", []opt{comments("XX")}, StatusMismatch},
		{"check prefixes", "A: a\nB: b\n", "a\nb\n", []opt{prefixes("A", "B")}, StatusOK},
		{"unused prefix", "A: a\n", "a\n", []opt{prefixes("A", "B")}, StatusError},
		{"no checks", "nothing\n", "a\n", nil, StatusError},
		{"implicit check not", "CHECK: a\nCHECK: b\n", "a\nwarning\nb\n", []opt{implicit("warning")}, StatusMismatch},
		{"implicit check not outside", "CHECK: x\n", "warning: x\n", []opt{implicit("warning")}, StatusMismatch},
		{"implicit check not only", "nothing\n", "a\n", []opt{implicit("warning")}, StatusOK},
		{"whitespace collapses", "CHECK: a b\n", "a \t  b\n", nil, StatusOK},
		{"strict whitespace", "CHECK: a b\n", "a  b\n", []opt{strict}, StatusMismatch},
		{"match full lines", "CHECK: a b\n", "x a b\n", []opt{fullLines}, StatusMismatch},
		{"match full lines spaces", "CHECK: a b\n", "  a b  \n", []opt{fullLines}, StatusOK},
		{"match full lines strict", "CHECK:a b\n", " a b\n", []opt{fullLines, strict}, StatusMismatch},
		{"ignore case", "CHECK: HeLLo {{W.RLD}}\n", "hello world\n", []opt{icase}, StatusOK},
		{"var scope", "CHECK: [[L:l1]]\nCHECK-LABEL: x\nCHECK: [[L]]\n", "l1\nx\nl1\n", []opt{varScope}, StatusMismatch},
		{"var scope global", "CHECK: [[$G:g1]]\nCHECK-LABEL: x\nCHECK: [[$G]]\n", "g1\nx\ng1\n", []opt{varScope}, StatusOK},
		{"empty input", "CHECK-NOT: a\n", "", nil, StatusError},
		{"allow empty", "CHECK-NOT: a\n", "", []opt{allowEmp}, StatusOK},
		{"crlf", "CHECK: {{^}}a{{$}}\r\nCHECK-NEXT: b\r\n", "a\r\nb\r\n", nil, StatusOK},
		{"misspelled", "CHECK_NEXT: a\n", "a\n", nil, StatusError},
		{"bad not combo", "CHECK-NOT-DAG: a\n", "a\n", nil, StatusError},
	}
	llvm := llvmFileCheck()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := DefaultOptions()
			opts.NoEmptyNotWarning = true
			for _, o := range tt.opts {
				o(&opts)
			}
			got, errs := check(opts, tt.check, tt.input)
			if got != tt.want {
				t.Errorf("status %d, want %d\n%s", got, tt.want, errs)
			}
			if llvm != "" {
				if code := runLLVMStatus(t, llvm, opts, tt.check, tt.input); code != int(tt.want) {
					t.Errorf("LLVM FileCheck disagrees with the table: status %d", code)
				}
			}
		})
	}
}

// runLLVMStatus runs LLVM's FileCheck with the equivalent options and
// returns its exit status.
func runLLVMStatus(t *testing.T, bin string, o Options, checkText, input string) int {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "check"), []byte(checkText), 0o644)
	os.WriteFile(filepath.Join(dir, "input"), []byte(input), 0o644)
	args := []string{"check", "--input-file", "input", "-dump-input=never"}
	flag := func(on bool, f string) {
		if on {
			args = append(args, f)
		}
	}
	flag(o.StrictWhitespace, "--strict-whitespace")
	flag(o.MatchFullLines, "--match-full-lines")
	flag(o.IgnoreCase, "--ignore-case")
	flag(o.EnableVarScope, "--enable-var-scope")
	flag(o.AllowDeprecatedDAGOverlap, "--allow-deprecated-dag-overlap")
	flag(o.AllowEmpty, "--allow-empty")
	for _, p := range o.CheckPrefixes {
		args = append(args, "--check-prefix="+p)
	}
	if len(o.CommentPrefixes) > 0 {
		args = append(args, "--comment-prefixes="+strings.Join(o.CommentPrefixes, ","))
	}
	for _, p := range o.ImplicitCheckNot {
		args = append(args, "--implicit-check-not="+p)
	}
	for _, d := range o.Defines {
		args = append(args, "-D"+d)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "FILECHECK_OPTS=")
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// dagGroup is a group of fixed-string CHECK-DAG directives large enough
// to be indexed, in an order unrelated to the input's.
func dagGroup(withMissing bool) string {
	var sb strings.Builder
	for _, i := range []int{7, 3, 11, 0, 9, 1, 5, 10, 2, 8, 4, 6} {
		sb.WriteString("CHECK-DAG: item" + itoa(i) + ";\n")
	}
	if withMissing {
		sb.WriteString("CHECK-DAG: item12;\n")
	}
	sb.WriteString("CHECK-NOT: item\nCHECK: end\n")
	return sb.String()
}

var dagGroupInput = "item0; item1; item2;\nitem3; item4; item5; item6;\nitem7; item8; item9; item10; item11;\nend\n"

func TestLint(t *testing.T) {
	tests := []struct {
		name     string
		check    string
		prefixes []string
		want     string // substring of the diagnostic, "" for none
	}{
		{"suffix typo", "; CHECK: a\n; CHECK-NXET: b\n", nil, "did you mean 'CHECK-NEXT:'?"},
		{"suffix case", "CHECK: a\nCHECK-next: b\n", nil, "did you mean 'CHECK-NEXT:'?"},
		{"suffix count", "CHECK: a\nCHECK-COUNT: b\n", nil, "did you mean 'CHECK-COUNT-<n>:'?"},
		{"missing colon", "CHECK: a\n// CHECK-NEXT b\n", nil, "'CHECK-NEXT' is not followed by ':'"},
		{"missing colon at end", "CHECK: a\nCHECK-NOT\n", nil, "'CHECK-NOT' is not followed by ':'"},
		{"prefix typo", "CHECK: a\n# CHEKC: b\n", nil, "did you mean 'CHECK:'?"},
		{"prefix typo with suffix", "CHECK: a\nCHCK-DAG: b\n", nil, "did you mean 'CHECK-DAG:'?"},
		{"long prefix two edits", "MYPREFIX: a\nMYPERFXI: b\n", []string{"MYPREFIX"}, "did you mean 'MYPREFIX:'?"},
		{"valid directives", "CHECK: a\nCHECK-NEXT: b\nCHECK-COUNT-2: c\nCHECK{LITERAL}: d\n", nil, ""},
		{"prose", "CHECK: a\nThe check below is fine.\n; Checks: none\n", nil, ""},
		{"not at line start", "CHECK: a\nfoo CHECK-NXET: b\n", nil, ""},
		{"other prefix in RUN line", "RUN: FileCheck --check-prefixes=CHECK2 %s\nCHECK: a\nCHECK2: b\n", nil, ""},
		{"other prefix used twice", "CHECK: a\nCHECK1: b\nCHECK1: c\n", nil, ""},
		{"comment line", "CHECK: a\nCOM: CHECK-NXET: b\n", nil, ""},
		{"short prefix not linted", "AB: a\nAC: b\n", []string{"AB"}, ""},
		{"lowercase word", "CHECK: a\ncheck: b\n", nil, ""},
		{"prose after directive name", "; Variables are reset after a\n; CHECK-LABEL directive iff asked.\nCHECK: a\n", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := DefaultOptions()
			opts.CheckPrefixes = tt.prefixes
			st, errs := check(opts, tt.check, "a\nb\nc\nd\n")
			if tt.want == "" {
				if strings.Contains(errs, "did you mean") {
					t.Errorf("unexpected lint error:\n%s", errs)
				}
				return
			}
			if st != StatusError || !strings.Contains(errs, tt.want) {
				t.Errorf("status %d, want 2 and %q in\n%s", st, tt.want, errs)
			}
			opts.NoLint = true
			if st, _ := check(opts, tt.check, "a\nb\nc\nd\n"); st == StatusError {
				t.Errorf("NoLint still fails")
			}
		})
	}
}

func TestEmptyNotWarning(t *testing.T) {
	tests := []struct {
		name, check, input string
		warn               bool
	}{
		{"after dag group", "CHECK-DAG: 3\nCHECK-DAG: 1\nCHECK-NOT: 2\n", "1\n2\n3\n", true},
		{"between dag groups", "CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: b\n", "ab\n", true},
		{"zero width", "CHECK: a\nCHECK-NOT: x\nCHECK-SAME: b\n", "ab\n", true},
		{"normal", "CHECK: a\nCHECK-NOT: x\nCHECK: b\n", "a\ny\nb\n", false},
		{"end of input", "CHECK: a\nCHECK-NOT: x\n", "a", false},
		{"line break only", "CHECK: a\nCHECK-NOT: x\nCHECK: b\n", "a\nb\n", false},
		{"implicit", "CHECK: a\nCHECK-SAME: b\n", "ab\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := DefaultOptions()
			opts.ImplicitCheckNot = []string{"zzz"}
			_, errs := check(opts, tt.check, tt.input)
			if got := strings.Contains(errs, "warning: CHECK-NOT: search range is empty"); got != tt.warn {
				t.Errorf("warning %v, want %v\n%s", got, tt.warn, errs)
			}
		})
	}
}

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args []string
		ok   bool
		want func(p *parsedArgs) bool
	}{
		{[]string{"-check-prefix=A", "--check-prefix", "B", "-check-prefix", "C", "f"}, true, func(p *parsedArgs) bool {
			return strings.Join(p.opts.CheckPrefixes, ",") == "A,B,C" && p.checkFile == "f"
		}},
		{[]string{"--check-prefixes=A,B", "f"}, true, func(p *parsedArgs) bool { return len(p.opts.CheckPrefixes) == 2 }},
		{[]string{"-check-prefix=A,B", "f"}, true, func(p *parsedArgs) bool { return p.opts.CheckPrefixes[0] == "A,B" }},
		{[]string{"-DX=1", "--D#N=2", "-D=3", "f"}, true, func(p *parsedArgs) bool {
			return strings.Join(p.opts.Defines, " ") == "X=1 #N=2 =3"
		}},
		{[]string{"-D", "X=1", "f"}, false, nil},
		{[]string{"--allow-unused-prefixes=false", "--allow-unused-prefixes=true", "f"}, true, func(p *parsedArgs) bool { return p.opts.AllowUnusedPrefixes }},
		{[]string{"-v=maybe", "f"}, false, nil},
		{[]string{"-input-file", "in", "f"}, true, func(p *parsedArgs) bool { return p.inputFile == "in" }},
		{[]string{"--input-file=in", "--", "-f"}, true, func(p *parsedArgs) bool { return p.checkFile == "-f" }},
		{[]string{"-dump-input", "always", "-dump-input=never", "f"}, true, func(p *parsedArgs) bool { return len(p.dumps) == 2 }},
		{[]string{"-dump-input=sometimes", "f"}, false, nil},
		{[]string{"-dump-input-context=x", "f"}, false, nil},
		{[]string{"--lint=false", "--warn-empty-not=0", "f"}, true, func(p *parsedArgs) bool { return p.opts.NoLint && p.opts.NoEmptyNotWarning }},
		{[]string{"f", "g"}, false, nil},
		{[]string{"--nonsense", "f"}, false, nil},
	}
	for _, tt := range tests {
		var errs bytes.Buffer
		p, ok := parseArgs("FileCheck", "FileCheck", tt.args, &errs)
		if ok != tt.ok || (ok && !tt.want(p)) {
			t.Errorf("parseArgs(%q) ok=%v, want %v; %+v\n%s", tt.args, ok, tt.ok, p, errs.String())
		}
	}
}

func TestTokenizeGNU(t *testing.T) {
	got := tokenizeGNU(`-a 'b c' "d\"e" f\ g  `)
	want := []string{"-a", "b c", `d"e`, "f g"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("tokenizeGNU = %q, want %q", got, want)
	}
}

func TestEnvOptions(t *testing.T) {
	var out bytes.Buffer
	files := map[string][]byte{"c": []byte("CHECK: x\n"), "i": []byte("y\n")}
	code := Main(Env{
		Args:     []string{"FileCheck", "c", "--input-file", "i"},
		Stdout:   &out,
		Stderr:   &out,
		Getenv:   func(k string) string { return map[string]string{"FILECHECK_OPTS": "-dump-input=never"}[k] },
		ReadFile: func(n string) ([]byte, error) { return files[n], nil },
	})
	if code != 1 || strings.Contains(out.String(), "Input was:") {
		t.Errorf("code %d, output:\n%s", code, out.String())
	}
}

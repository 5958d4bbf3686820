package lit

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as a helper program for RUN lines, chosen by
// $LIT_TEST_HELPER.
func TestMain(m *testing.M) {
	switch os.Getenv("LIT_TEST_HELPER") {
	case "":
		os.Exit(m.Run())
	case "crash":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Minute)
	case "sleep":
		time.Sleep(time.Minute)
	case "stderr":
		fmt.Fprintln(os.Stderr, "to stderr")
		fmt.Fprintln(os.Stdout, "to stdout")
	case "copy":
		io.Copy(os.Stdout, os.Stdin)
	case "env":
		fmt.Println(os.Getenv("LIT_TEST_VAR"))
	case "big":
		// More than a pipe holds, to a reader that never reads.
		os.Stdout.Write([]byte(strings.Repeat("x\n", 1<<18)))
	}
	os.Exit(0)
}

// runScript runs one test with the given contents in a fresh suite.
// "%{helper}" in it names this test binary.
func runScript(t *testing.T, script string, opts Options) Result {
	t.Helper()
	dir := t.TempDir()
	cfg := "config.name = \"t\"\nconfig.suffixes = [\".test\"]\nconfig.available_features.add(\"f\")\n"
	if err := os.WriteFile(filepath.Join(dir, ConfigName), []byte(cfg), 0o666); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script = strings.ReplaceAll(script, "%{helper}", exe)
	if err := os.WriteFile(filepath.Join(dir, "a.test"), []byte(script), 0o666); err != nil {
		t.Fatal(err)
	}
	if opts.ExecRoot == "" {
		opts.ExecRoot = filepath.Join(dir, "exec")
	}
	s, err := OpenSuite(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	tests, err := s.Discover()
	if err != nil || len(tests) != 1 {
		t.Fatalf("Discover: %v, %v", tests, err)
	}
	return s.Run(context.Background(), tests[0])
}

func TestRunVerdicts(t *testing.T) {
	tests := []struct {
		name, script string
		want         Code
		inOutput     string // a fragment of the log, if not empty
	}{
		{"pass", "RUN: echo hi", Pass, ""},
		{"fail", "RUN: not echo hi", Fail, "# error: command failed with exit status: 1"},
		{"notfound", "RUN: no-such-program-anywhere", Fail, "'no-such-program-anywhere': command not found"},
		{"crash", "RUN: env LIT_TEST_HELPER=crash %{helper}", Fail, "exit status: -9"},
		{"not-crash", "RUN: env LIT_TEST_HELPER=crash not --crash %{helper}", Pass, ""},
		{"not-crash-no-crash", "RUN: env LIT_TEST_HELPER=copy not --crash %{helper}", Fail, ""},
		{"not-of-crash", "RUN: env LIT_TEST_HELPER=crash not %{helper}", Pass, ""},
		{"stderr", "RUN: env LIT_TEST_HELPER=stderr %{helper} 2>&1 | count 2", Pass, ""},
		{"stderr-shown", "RUN: env LIT_TEST_HELPER=stderr not %{helper}", Fail, "# .---command stderr------------\n# | to stderr"},
		{"stderr-to-pipe", "RUN: env LIT_TEST_HELPER=stderr %{helper} 2>&1 >%t | count 1", Pass, ""},
		{"copy", "RUN: echo a | env LIT_TEST_HELPER=copy %{helper} | env LIT_TEST_HELPER=copy %{helper} | count 1", Pass, ""},
		{"env", "RUN: env LIT_TEST_VAR=v LIT_TEST_HELPER=env %{helper} > %t\nRUN: echo v > %t.w\nRUN: diff %t %t.w", Pass, ""},
		{"export", "RUN: export LIT_TEST_VAR=w\nRUN: env LIT_TEST_HELPER=env %{helper} > %t\nRUN: echo w > %t.w\nRUN: diff %t %t.w", Pass, ""},
		{"unread-pipe", "RUN: env LIT_TEST_HELPER=big %{helper} | count 0 < /dev/null", Pass, ""},
		{"redirected-output", "RUN: echo data > %t\nRUN: cat %t > %t.out 2>&1 %t.missing", Fail, "redirected output from"},
		{"xfail", "XFAIL: f\nRUN: not echo", XFail, ""},
		{"xpass", "XFAIL: *\nRUN: echo", XPass, ""},
		{"unsupported", "UNSUPPORTED: f\nRUN: echo", Unsupported, ""},
		{"requires", "REQUIRES: g\nRUN: echo", Unsupported, "unavailable features: g"},
		{"no-run", "nothing", Unresolved, "no 'RUN:' line"},
		{"parse-error", "RUN: echo 'x", Unresolved, "# shell parser error on RUN: at line 1: echo 'x"},
		{"cd-pipeline", "RUN: cd / | echo", Fail, "Unsupported: 'cd' cannot be part of a pipeline"},
		{"retries", "ALLOW_RETRIES: 2\nRUN: echo x >> %t.n\nRUN: count 3 < %t.n", FlakyPass, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runScript(t, tt.script, Options{})
			if r.Code != tt.want {
				t.Errorf("verdict %s, want %s\n%s", r.Code, tt.want, r.Output)
			}
			if !strings.Contains(r.Output, tt.inOutput) {
				t.Errorf("log does not contain %q:\n%s", tt.inOutput, r.Output)
			}
		})
	}
}

func TestRunTimeout(t *testing.T) {
	start := time.Now()
	r := runScript(t, "RUN: env LIT_TEST_HELPER=sleep %{helper} | count 0", Options{Timeout: 300 * time.Millisecond})
	if r.Code != Timeout {
		t.Errorf("verdict %s, want TIMEOUT\n%s", r.Code, r.Output)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("timeout took %v", d)
	}
	if !strings.Contains(r.Output, "Reached timeout of 0.3 seconds") {
		t.Errorf("log:\n%s", r.Output)
	}
}

func TestFailureLog(t *testing.T) {
	r := runScript(t, "RUN: echo ok\nRUN: not echo 'it fails'", Options{})
	want := "Exit Code: 1\n\nCommand Output (stdout):\n--\n" +
		"# RUN: at line 1\necho ok\n# executed command: echo ok\n# .---command stdout------------\n# | ok\n# `-----------------------------\n" +
		"# RUN: at line 2\nnot echo 'it fails'\n# executed command: not echo 'it fails'\n# .---command stdout------------\n# | it fails\n# `-----------------------------\n" +
		"# error: command failed with exit status: 1\n\n--\n"
	if r.Output != want {
		t.Errorf("log:\n%s\nwant:\n%s", r.Output, want)
	}
}

package lit

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestDiffOutput(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a"), []byte("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "b"), []byte("1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\n11\n"), 0o666)
	env := &shellEnv{cwd: dir, env: map[string]string{}}
	// The expected texts are what Python's difflib prints for lit's diff.
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"diff", "-u", "a", "b"}, "--- " + dir + "/a\n+++ " + dir + "/b\n" +
			"@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n" +
			"@@ -8,3 +8,4 @@\n 8\n 9\n 10\n+11\n"},
		{[]string{"diff", "-U1", "a", "b"}, "--- " + dir + "/a\n+++ " + dir + "/b\n" +
			"@@ -2,3 +2,3 @@\n 2\n-3\n+three\n 4\n@@ -10 +10,2 @@\n 10\n+11\n"},
		{[]string{"diff", "a", "b"}, "*** " + dir + "/a\n--- " + dir + "/b\n" +
			"***************\n*** 1,6 ****\n  1\n  2\n! 3\n  4\n  5\n  6\n--- 1,6 ----\n  1\n  2\n! three\n  4\n  5\n  6\n" +
			"***************\n*** 8,10 ****\n--- 8,11 ----\n  8\n  9\n  10\n+ 11\n"},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		if st := toolDiff(context.Background(), tt.args, env, nil, &out, &errb); st != 1 {
			t.Errorf("%v: status %d, stderr %s", tt.args, st, errb.String())
		}
		if out.String() != tt.want {
			t.Errorf("%v:\n%s\nwant:\n%s", tt.args, out.String(), tt.want)
		}
	}
}

func TestOpcodes(t *testing.T) {
	a := []string{"a", "b", "c", "d"}
	b := []string{"a", "x", "c", "d", "e"}
	got := opcodes(a, b)
	want := []opcode{{'e', 0, 1, 0, 1}, {'r', 1, 2, 1, 2}, {'e', 2, 4, 2, 4}, {'i', 4, 4, 4, 5}}
	if len(got) != len(want) {
		t.Fatalf("opcodes = %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("opcodes = %v, want %v", got, want)
		}
	}
}

package outfiletest

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// Replaced writes old content to path, holds the file open as a reader
// (or a memory map of the input) would, runs run, and checks that the
// held file still reads the old content while path now holds new content.
// A tool that truncates and rewrites path in place fails: the held file
// then reads the new content, or nothing.
func Replaced(t testing.TB, path string, run func()) {
	t.Helper()
	old := []byte("old content, which the run must not overwrite in place\n")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	held, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	run()
	seen, err := io.ReadAll(held)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(seen, old) {
		t.Errorf("%s was rewritten in place: an open reader sees %d bytes of new content", path, len(seen))
	}
	now, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(now, old) {
		t.Errorf("%s was not written", path)
	}
}

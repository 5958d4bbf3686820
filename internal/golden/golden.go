package golden

import (
	"os"
	"strings"
	"testing"
)

// Report checks table against the file at path, which update rewrites
// first, and, when doc is not empty, that the file at doc quotes it
// whole. rerun is the command that rewrites path (named in the error).
func Report(t testing.TB, table, path, doc string, update bool, rerun string) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s writes it)", err, rerun)
	}
	docName := strings.TrimLeft(doc, "./")
	if string(want) != table {
		update := ""
		if doc != "" {
			update = " and update " + docName
		}
		t.Errorf("%s changed; if that is intended, run %s%s\n--- %s\n%s--- now\n%s", path, rerun, update, path, want, table)
	}
	if doc == "" {
		return
	}
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), table) {
		t.Errorf("%s does not quote %s", docName, path)
	}
}

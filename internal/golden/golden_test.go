package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps its errors instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, format)
}

func TestReport(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "models.md")
	doc := filepath.Join(dir, "doc.md")
	const table = "| a | b |\n|---|---|\n| 1 | 2 |\n"
	if err := os.WriteFile(doc, []byte("intro\n\n"+table+"\nmore\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// update writes the file; the doc quotes it: no error.
	r := &recorder{TB: t}
	Report(r, table, path, doc, true, "go test -update")
	if len(r.errs) != 0 {
		t.Fatalf("errors after update: %v", r.errs)
	}
	if b, _ := os.ReadFile(path); string(b) != table {
		t.Fatalf("update wrote %q", b)
	}

	// A changed table is a difference from the file and is not quoted.
	r = &recorder{TB: t}
	Report(r, strings.Replace(table, "2", "3", 1), path, doc, false, "go test -update")
	if len(r.errs) != 2 || !strings.Contains(r.errs[0], "changed") || !strings.Contains(r.errs[1], "does not quote") {
		t.Fatalf("errors for a changed table: %q", r.errs)
	}

	// Without a doc only the file is compared.
	r = &recorder{TB: t}
	Report(r, table, path, "", false, "go test -update")
	if len(r.errs) != 0 {
		t.Fatalf("errors without a doc: %v", r.errs)
	}
}

package outfile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/internal/outfile"
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// leftovers lists the temporary files left in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var tmp []string
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp") {
			tmp = append(tmp, e.Name())
		}
	}
	return tmp
}

func TestCommitReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.mlir")
	if err := os.WriteFile(p, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	f, err := outfile.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new"))
	if got := read(t, p); got != "old" {
		t.Errorf("target changed before Commit: %q", got)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := read(t, p); got != "new" {
		t.Errorf("after Commit: %q", got)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the replaced file's 0640", fi.Mode().Perm())
	}
	if l := leftovers(t, dir); len(l) != 0 {
		t.Errorf("left behind: %v", l)
	}
	if err := f.Commit(); err == nil {
		t.Error("a second Commit succeeded")
	}
}

func TestDiscardKeepsTarget(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.mlir")
	os.WriteFile(p, []byte("old"), 0o644)
	f, err := outfile.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("partial"))
	f.Discard()
	f.Discard()
	if got := read(t, p); got != "old" {
		t.Errorf("after Discard: %q", got)
	}
	if l := leftovers(t, dir); len(l) != 0 {
		t.Errorf("left behind: %v", l)
	}
	// A new file that is discarded never appears.
	q := filepath.Join(dir, "new.mlir")
	g, _ := outfile.Create(q)
	g.Write([]byte("x"))
	g.Discard()
	if _, err := os.Stat(q); !os.IsNotExist(err) {
		t.Errorf("discarded new file exists: %v", err)
	}
}

// TestSymlink replaces the file a link names and keeps the link.
func TestSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.mlir")
	link := filepath.Join(dir, "link.mlir")
	os.WriteFile(real, []byte("old"), 0o644)
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	if err := outfile.WriteFile(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is gone: %v", err)
	}
	if got := read(t, real); got != "new" {
		t.Errorf("link target: %q", got)
	}
}

// TestDevice writes to a device in place.
func TestDevice(t *testing.T) {
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Skip("no /dev/null")
	}
	if err := outfile.WriteFile("/dev/null", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode().IsRegular() {
		t.Errorf("/dev/null became a regular file")
	}
}

// TestNewFileMode gives a new file 0666 less the umask, as os.Create
// would.
func TestNewFileMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "n")
	if err := outfile.WriteFile(p, nil); err != nil {
		t.Fatal(err)
	}
	q := filepath.Join(dir, "m")
	f, _ := os.Create(q)
	f.Close()
	a, _ := os.Stat(p)
	b, _ := os.Stat(q)
	if a.Mode() != b.Mode() {
		t.Errorf("mode %v, os.Create gives %v", a.Mode(), b.Mode())
	}
}

func TestMissingDirectory(t *testing.T) {
	if _, err := outfile.Create(filepath.Join(t.TempDir(), "no", "such", "f")); err == nil {
		t.Error("Create in a missing directory succeeded")
	}
}

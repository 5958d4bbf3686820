package lit

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlx-compiler/rlx/internal/outfile/outfiletest"
)

// TestSplitFileReplacesWhole checks that split-file replaces an existing
// part whole (written beside it and renamed), never truncated and
// rewritten in place.
func TestSplitFileReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	input := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(input, []byte("//--- a.txt\nnew a\n//--- b.txt\nnew b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	outfiletest.Replaced(t, filepath.Join(dir, "out", "a.txt"), func() {
		var stderr bytes.Buffer
		if code := SplitFile([]string{"split-file", input, "out"}, dir, nil, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	})
}

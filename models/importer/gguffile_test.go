package importer

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/gguf"
)

var updateGGUF = flag.Bool("update-gguf", false, "rewrite testdata/gguf/qwen3-q8_0.gguf")

// exampleGGUF is the Qwen3 fixture converted to Q8_0, committed so that
// docs/import.md's GGUF commands run as shown.
const exampleGGUF = "testdata/gguf/qwen3-q8_0.gguf"

// TestExampleGGUF checks that the committed example file is what the
// converter writes from the fixture today (rewritten with -update-gguf).
func TestExampleGGUF(t *testing.T) {
	got := convertToGGUF(t, filepath.Join("testdata", "hf", "qwen3"), gguf.Q8_0, false)
	if *updateGGUF {
		if err := os.MkdirAll(filepath.Dir(exampleGGUF), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(exampleGGUF, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(exampleGGUF)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what the converter writes; run go test ./models/importer -run TestExampleGGUF -update-gguf", exampleGGUF)
	}
}

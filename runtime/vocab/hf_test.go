package vocab

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestTokenizersLibrary decodes the id sequences of testdata/hf (made by
// tools/hf-fixtures/make_vocab.py with Hugging Face's tokenizers library:
// a byte-level BPE and a SentencePiece-style BPE with byte fallback, each
// with special and added tokens; real text and random ids) and compares
// with the library's own decode.
func TestTokenizersLibrary(t *testing.T) {
	for _, name := range []string{"bytelevel", "spm"} {
		dir := filepath.Join("testdata", "hf", name)
		v, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, "decoded.json"))
		if err != nil {
			t.Fatal(err)
		}
		var want struct {
			VocabSize int `json:"vocab_size"`
			Cases     []struct {
				IDs  []int  `json:"ids"`
				Text string `json:"text"`
			} `json:"cases"`
		}
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		if len(v.Pieces) != want.VocabSize || len(want.Cases) < 200 {
			t.Fatalf("%s: %d pieces, %d cases; the library has %d pieces", name, len(v.Pieces), len(want.Cases), want.VocabSize)
		}
		bad := 0
		for _, c := range want.Cases {
			got, err := v.Decode(c.IDs)
			if err != nil || got != c.Text {
				if bad++; bad <= 5 {
					t.Errorf("%s %v: %q, %v; the library decodes %q", name, c.IDs, got, err, c.Text)
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d cases differ", name, bad, len(want.Cases))
		}
	}
}

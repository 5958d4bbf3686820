package vocab

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// skipSpecialCases reads testdata/hf/skip_special.json: the tokenizers
// library's decode(ids, skip_special_tokens=True) of each vocabulary's
// decoded.json ids (tools/hf-fixtures/skip_special.py, on the GPU
// machine).
func skipSpecialCases(t *testing.T) map[string][]struct {
	IDs  []int  `json:"ids"`
	Text string `json:"text"`
} {
	var f struct {
		Vocabs map[string][]struct {
			IDs  []int  `json:"ids"`
			Text string `json:"text"`
		} `json:"vocabs"`
	}
	readJSON(t, filepath.Join("testdata", "hf", "skip_special.json"), &f)
	return f.Vocabs
}

// TestDecodeSkipSpecial compares DecodeSkipSpecial with the library's
// decode(skip_special_tokens=True) on every vocabulary's cases.
func TestDecodeSkipSpecial(t *testing.T) {
	all := skipSpecialCases(t)
	eachVocab(t, func(name, _ string, v *Vocab) {
		cases := all[name]
		if len(cases) < 200 {
			t.Fatalf("%s: %d cases", name, len(cases))
		}
		bad, skipped := 0, 0
		for _, c := range cases {
			got, err := v.DecodeSkipSpecial(c.IDs)
			if err != nil || got != c.Text {
				if bad++; bad <= 5 {
					t.Errorf("%s %v: %q, %v; the library decodes %q", name, c.IDs, got, err, c.Text)
				}
			}
			if all, _ := v.Decode(c.IDs); all != got {
				skipped++
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d cases differ", name, bad, len(cases))
		}
		if skipped == 0 {
			t.Errorf("%s: no case has a special token to skip", name)
		}
	})
}

// TestStream feeds each case's ids one at a time: the pieces Add
// returns, and Flush's, join to the whole text, a piece never ends in
// an unfinished character the whole text does not have there, and the
// text comes out as the tokens come (not all at the end).
func TestStream(t *testing.T) {
	all := skipSpecialCases(t)
	eachVocab(t, func(name, _ string, v *Vocab) {
		late, total := 0, 0
		for _, c := range all[name] {
			for _, skip := range []bool{false, true} {
				want, _ := v.Decode(c.IDs)
				if skip {
					want = c.Text
				}
				s := v.NewStream(skip)
				var got strings.Builder
				for _, id := range c.IDs {
					piece, err := s.Add(id)
					if err != nil {
						t.Fatalf("%s %v: Add(%d): %v", name, c.IDs, id, err)
					}
					got.WriteString(piece)
					if sofar := got.String(); !strings.HasPrefix(want, sofar) {
						t.Fatalf("%s %v (skip %v): streamed %q, not the start of %q", name, c.IDs, skip, sofar, want)
					}
				}
				rest := s.Flush()
				if got.WriteString(rest); got.String() != want {
					t.Fatalf("%s %v (skip %v): streamed %q, want %q", name, c.IDs, skip, got.String(), want)
				}
				late += utf8.RuneCountInString(rest)
				total += utf8.RuneCountInString(want)
			}
		}
		// Random ids end in unfinished characters and byte runs; the
		// rest streams as it comes (5% or less held in each vocabulary).
		if late*10 > total {
			t.Errorf("%s: %d of %d characters held to the end", name, late, total)
		}
	})
	// An unknown id is an error, and the stream goes on without it.
	v, err := Open(filepath.Join("testdata", "hf", "qwen2"))
	if err != nil {
		t.Fatal(err)
	}
	s := v.NewStream(false)
	if _, err := s.Add(len(v.Pieces)); err == nil {
		t.Error("Add of an id past the vocabulary: no error")
	}
	if piece, err := s.Add(3); err != nil || piece != v.Pieces[3] {
		t.Errorf("Add(3) after the error: %q, %v", piece, err)
	}
}

package affine

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The conformance corpus holds MLIR's own tests and what mlir-opt-19
// prints for them (see its README).
const corpusDir = "../../../shared/conformance/mlir"

// corpusBody is one affine_map or affine_set body found in a corpus file.
type corpusBody struct {
	where string
	set   bool
	body  string
}

// scanCorpus finds every affine_map<…> and affine_set<…> in the text,
// using the prefix parsers to find where each body ends, as the IR parser
// does. Bodies that do not parse are reported through bad.
func scanCorpus(where, text string, bad func(where, msg string)) []corpusBody {
	var out []corpusBody
	for i := 0; ; {
		j := strings.Index(text[i:], "affine_")
		if j < 0 {
			return out
		}
		i += j + len("affine_")
		var set bool
		switch {
		case strings.HasPrefix(text[i:], "map<"):
		case strings.HasPrefix(text[i:], "set<"):
			set = true
		default:
			continue
		}
		i += len("map<")
		var n int
		var err error
		if set {
			_, n, err = ParseSetPrefix(text[i:])
		} else {
			_, n, err = ParseMapPrefix(text[i:])
		}
		line := where + ":" + strconv.Itoa(1+strings.Count(text[:i], "\n"))
		if err != nil {
			bad(line, err.Error())
			continue
		}
		if !strings.HasPrefix(text[i+n:], ">") {
			bad(line, "body not followed by '>'")
			continue
		}
		out = append(out, corpusBody{where: line, set: set, body: text[i : i+n]})
		i += n
	}
}

func corpusFiles(t *testing.T, sub string) map[string]string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(corpusDir, sub, "*.mlir"))
	if len(paths) == 0 {
		t.Skipf("conformance corpus not found under %s", corpusDir)
	}
	files := make(map[string]string)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Join(sub, filepath.Base(p))] = string(b)
	}
	return files
}

// TestCorpusPrinted checks that every map and set mlir-opt printed in the
// corpus parses and prints back to the same text.
func TestCorpusPrinted(t *testing.T) {
	n := 0
	for _, sub := range []string{"generic", "pretty", "generic-loc"} {
		for name, text := range corpusFiles(t, sub) {
			for _, b := range scanCorpus(name, text, func(w, msg string) { t.Errorf("%s: %s", w, msg) }) {
				n++
				if got := ours(oracleCase{Set: b.set, Body: b.body}).String(); got != b.body {
					t.Errorf("%s: %q prints as %q", b.where, b.body, got)
				}
			}
		}
	}
	t.Logf("%d printed maps and sets reproduced", n)
}

// TestCorpusSource parses every map and set written in the corpus sources
// (outside comments) and compares the result with mlir-opt-19's.
func TestCorpusSource(t *testing.T) {
	needOracle(t)
	var bodies []corpusBody
	for name, text := range corpusFiles(t, "src") {
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			if k := strings.Index(l, "//"); k >= 0 {
				lines[i] = l[:k]
			}
		}
		bodies = append(bodies, scanCorpus(name, strings.Join(lines, "\n"), func(w, msg string) { t.Errorf("%s: %s", w, msg) })...)
	}
	cases := make([]oracleCase, len(bodies))
	for i, b := range bodies {
		cases[i] = oracleCase{Set: b.set, Body: b.body}
	}
	want := runOracle(t, cases)
	for i, c := range cases {
		if got := ours(c); got != want[i] {
			t.Errorf("%s: %q\n got %s\nwant %s", bodies[i].where, c.Body, got, want[i])
		}
	}
	t.Logf("%d source maps and sets agree with mlir-opt", len(cases))
}

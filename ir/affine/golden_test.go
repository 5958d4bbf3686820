package affine

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "refresh testdata/golden.txt from mlir-opt-19")

// goldenFile holds table cases: one per line, `map` or `set`, the quoted
// body given to the parser and the quoted result mlir-opt-19 produced for
// it (the printed body, or "error OFFSET: MESSAGE"). New cases may be added
// with an empty want and filled in with `go test -run Golden -update`.
const goldenFile = "testdata/golden.txt"

type goldenCase struct {
	line int
	c    oracleCase
	want string
}

func readGolden(t *testing.T) (header []string, cases []goldenCase) {
	t.Helper()
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			if len(cases) == 0 {
				header = append(header, l)
			}
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) != 3 || (f[0] != "map" && f[0] != "set") {
			t.Fatalf("%s:%d: want KIND<TAB>\"BODY\"<TAB>\"WANT\"", goldenFile, n)
		}
		body, err1 := strconv.Unquote(f[1])
		want, err2 := strconv.Unquote(f[2])
		if err1 != nil || err2 != nil {
			t.Fatalf("%s:%d: bad quoting", goldenFile, n)
		}
		cases = append(cases, goldenCase{line: n, c: oracleCase{Set: f[0] == "set", Body: body}, want: want})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return header, cases
}

// TestGolden checks parsing and printing against outputs of mlir-opt-19
// recorded in testdata/golden.txt.
func TestGolden(t *testing.T) {
	header, cases := readGolden(t)
	if *update {
		ocs := make([]oracleCase, len(cases))
		for i, gc := range cases {
			ocs[i] = gc.c
		}
		res := runOracle(t, ocs)
		var b strings.Builder
		for _, h := range header {
			b.WriteString(h + "\n")
		}
		for i, gc := range cases {
			kind := "map"
			if gc.c.Set {
				kind = "set"
			}
			cases[i].want = res[i].String()
			fmt.Fprintf(&b, "%s\t%s\t%s\n", kind, strconv.Quote(gc.c.Body), strconv.Quote(cases[i].want))
		}
		if err := os.WriteFile(goldenFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, gc := range cases {
		if got := ours(gc.c).String(); got != gc.want {
			t.Errorf("%s:%d: %q\n got %s\nwant %s", goldenFile, gc.line, gc.c.Body, got, gc.want)
		}
	}
}

package opsuite

import (
	"strings"
	"testing"
)

// TestCases checks the suite's shape: names unique, every case with a
// limit and as many yielded values as result types, and its function
// named after it. (codegen/metal's tests run the cases themselves.)
func TestCases(t *testing.T) {
	cs := Cases()
	if len(cs) < 100 {
		t.Fatalf("%d cases, want the whole suite", len(cs))
	}
	seen := map[string]bool{}
	for _, c := range cs {
		if seen[c.Name] {
			t.Errorf("%s: name used twice", c.Name)
		}
		seen[c.Name] = true
		if c.Limit < 0 || len(c.Yield) != len(c.Results) || len(c.Args) == 0 {
			t.Errorf("%s: limit %g, %d yields for %d results, %d args", c.Name, c.Limit, len(c.Yield), len(c.Results), len(c.Args))
		}
		if !strings.HasPrefix(c.MLIR(), "func.func @"+c.Name+"(") {
			t.Errorf("%s: MLIR does not define @%s", c.Name, c.Name)
		}
	}
}

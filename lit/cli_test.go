package lit

import (
	"testing"
	"time"
)

// TestParseCLIValues checks -j and --timeout: LLVM lit's rules and words
// (a positive worker count, a non-negative whole number of seconds).
func TestParseCLIValues(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-j", "0", "x.test"}, "argument -j/--threads/--workers: requires positive integer, but found '0'"},
		{[]string{"-j", "-3", "x.test"}, "argument -j/--threads/--workers: requires positive integer, but found '-3'"},
		{[]string{"-j0", "x.test"}, "argument -j/--threads/--workers: requires positive integer, but found '0'"},
		{[]string{"--workers=x", "x.test"}, "argument -j/--threads/--workers: requires positive integer, but found 'x'"},
		{[]string{"--timeout", "-1", "x.test"}, "argument --timeout: requires non-negative integer, but found '-1'"},
		{[]string{"--timeout=1.5", "x.test"}, "argument --timeout: requires non-negative integer, but found '1.5'"},
	} {
		if _, err := parseCLI(c.args); err == nil || err.Error() != c.want {
			t.Errorf("%q: %v, want %q", c.args, err, c.want)
		}
	}
	o, err := parseCLI([]string{"-j3", "--timeout", "20", "x.test"})
	if err != nil || o.jobs != 3 || o.timeout != 20*time.Second {
		t.Errorf("-j3 --timeout 20: %+v, %v", o, err)
	}
}

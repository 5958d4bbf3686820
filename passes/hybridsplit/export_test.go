package hybridsplit

import "github.com/rlx-compiler/rlx/ir"

// For reproducer_test.go, which runs the reproducers' RUN lines with
// rlx-opt, rlx-run and FileCheck in process: rlx-opt's passes include this
// package, so that test is in package hybridsplit_test.

// RandomSource is the property test's random function of seed.
func RandomSource(seed int64) (string, error) { return randomSource(newContext(), seed) }

// Finding is what the property test reports about a failing function.
type Finding struct {
	Kind    string // of the shrunk function's failure
	Message string // the test's message
	Small   string // the shrunk function
	Path    string // the reproducer file
}

// CheckGraph is the property test's check of src, the random function of
// seed, in the variant named variantName with split as the pass. It
// returns the failure, shrunk and with its reproducer written in dir, or
// nil when src passes.
func CheckGraph(dir string, seed int64, variantName string, split func(*ir.Operation, Options) (Result, error), src string) *Finding {
	var v variant
	for _, w := range variants {
		if w.name == variantName {
			v = w
		}
	}
	if v.name == "" {
		panic("no variant " + variantName)
	}
	v.split = split
	fd := checkGraph(dir, seed, v, src)
	if fd == nil {
		return nil
	}
	return &Finding{Kind: fd.smallFl.kind(), Message: fd.String(), Small: fd.small, Path: fd.path}
}

package metal_test

import (
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
)

// TestOps runs every case of the op suite through the harness and compares
// it with the reference interpreter.
func TestOps(t *testing.T) {
	s := opSuite(t)
	var runs []*caseRun
	for _, c := range s.cases {
		cr, err := s.prepare(c, 1, mslcpu.RegionOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		runs = append(runs, cr)
	}
	if err := s.runCases(mslcpu.Plain, runs); err != nil {
		t.Fatal(err)
	}
	for _, cr := range runs {
		if cr.err != nil {
			t.Errorf("%s: %v", cr.c.name, cr.err)
			continue
		}
		for k, e := range cr.nmse {
			if !(e <= cr.c.limit) {
				t.Errorf("%s result #%d: NMSE %.3g over the limit %.0e (kernels %v)", cr.c.name, k, e, cr.c.limit, cr.dispatch)
			} else {
				t.Logf("%s result #%d: NMSE %.3g (kernels %v)", cr.c.name, k, e, cr.dispatch)
			}
		}
	}
}

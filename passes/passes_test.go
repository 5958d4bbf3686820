package passes_test

import (
	"testing"

	"github.com/rlx-compiler/rlx/passes"
	"github.com/rlx-compiler/rlx/pipeline"
)

// TestAll checks the list of passes: unique arguments, a summary each, and
// options that print back to text the pipeline parser accepts unchanged.
func TestAll(t *testing.T) {
	all := passes.All()
	reg := pipeline.NewRegistry(all...) // panics on a duplicate argument
	for _, pi := range all {
		if pi.Summary == "" {
			t.Errorf("%s has no summary", pi.Argument)
		}
		p := pipeline.NewPass(pi)
		if p.Info() != pi {
			t.Errorf("%s: Info() does not return its PassInfo", pi.Argument)
		}
		text := pi.Argument
		if opts := pipeline.FormatOptions(p); opts != "" {
			text += "{" + opts + "}"
		}
		anchor := pi.AnchorName()
		if anchor == pipeline.AnyOp {
			anchor = "builtin.module"
		}
		pm, err := pipeline.Parse(reg, anchor+"("+text+")")
		if err != nil {
			t.Errorf("%s: %v", pi.Argument, err)
			continue
		}
		if got, want := pm.String(), anchor+"("+text+")"; got != want {
			t.Errorf("round trip: got %s, want %s", got, want)
		}
	}
}

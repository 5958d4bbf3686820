package stripdebuginfo

import "github.com/rlx-compiler/rlx/ir"

// Run replaces every location in op (op included) with loc(unknown).
func Run(op *ir.Operation) {
	unknown := op.Context().UnknownLoc()
	op.Walk(func(o *ir.Operation) {
		o.SetLoc(unknown)
		for i := 0; i < o.NumRegions(); i++ {
			for b := range o.Region(i).Blocks() {
				for j := 0; j < b.NumArguments(); j++ {
					b.SetArgumentLoc(j, unknown)
				}
			}
		}
	})
}

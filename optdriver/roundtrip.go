package optdriver

import (
	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/ir"
)

// roundTripBuffer names the text parsed back by --verify-roundtrip in the
// locations of its parse errors.
const roundTripBuffer = "<verify-roundtrip>"

// verifyRoundTrip is --verify-roundtrip, mlir-opt's textual half: it
// prints op in the generic form with locations, parses that into a fresh
// context (so resource names are not renamed), verifies it, and prints it
// again the same way; the two texts must be equal. It returns the error to
// report on op, or nil. mlir-opt also round-trips through bytecode, which
// rlx does not have.
func (d *driver) verifyRoundTrip(op *ir.Operation) *ir.Diagnostic {
	po := ir.PrintOptions{Generic: true, DebugInfo: true}
	ref := ir.Sprint(op, po)
	ctx := ir.NewContext()
	ctx.AllowUnregistered = op.Context().AllowUnregistered
	d.cfg.RegisterDialects(ctx)
	f, err := asm.Parse(ctx, roundTripBuffer, []byte(ref), asm.Options{NoImplicitModule: true})
	if err == nil {
		err = ir.Verify(f.Op)
	}
	if err != nil {
		// mlir-opt prints the parse error on its own line (its second
		// context has no handler); here it ends the message, so it is
		// reported and checked with it.
		return ir.OpError(op, "failed to parse textual content back, cannot verify round-trip.\n%s", asm.ErrorDiagnostic(ctx, err).Error())
	}
	if back := ir.Sprint(f.Op, po); back != ref {
		return ir.OpError(op, "textual roundTrip testing roundtripped module differs from reference:\n<<<<<<Reference\n%s\n=====\n%s\n>>>>>roundtripped\n", ref, back)
	}
	return nil
}

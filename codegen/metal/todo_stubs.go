package metal

import "github.com/rlx-compiler/rlx/ir"

func notYet(r *regionState, op *ir.Operation) error { return ir.OpError(op, "has no Metal kernel yet") }

var (
	emitAttention     = notYet
	emitGatedDeltaNet = notYet
	emitLSTM          = notYet
)

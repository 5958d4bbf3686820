package canonicalize

import (
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/rewrite"
)

// Sources returns the canonicalization pattern sources of rlx's dialects
// (a new slice on each call). The patterns live here rather than in the
// dialect packages, which know no rewriting; the folders come with the op
// definitions and need no entry.
func Sources() []Source { return []Source{FuncPatterns} }

// FuncPatterns is the func dialect's canonicalization, as in MLIR: an
// indirect call of a func.constant callee becomes a direct call.
func FuncPatterns(*ir.Context) []*rewrite.Pattern {
	return []*rewrite.Pattern{{
		Name:    "SimplifyIndirectCallWithKnownCallee",
		Root:    fn.CallIndirectName,
		Benefit: 1,
		MatchAndRewrite: func(op *ir.Operation, r *rewrite.Rewriter) bool {
			callee, ok := rewrite.MatchConstant(op.Operand(0)).(*ir.SymbolRefAttr)
			if !ok {
				return r.NotifyMatchFailure(op, "callee is not a constant")
			}
			call := r.CreateOp(fn.CallName, op.Loc(), op.Operands()[1:], op.ResultTypes(),
				ir.NamedAttr{Name: "callee", Value: callee})
			r.ReplaceOpWithOp(op, call)
			return true
		},
	}}
}

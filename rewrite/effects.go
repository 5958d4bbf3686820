package rewrite

import "github.com/rlx-compiler/rlx/ir"

// MightHaveTrait reports whether op may have trait t: a registered op that
// declares it, or any unregistered op, about which nothing is known.
func MightHaveTrait(op *ir.Operation, t ir.Trait) bool {
	return !op.IsRegistered() || op.HasTrait(t)
}

// IsMemoryEffectFree reports whether op is known to have no memory
// effects. rlx's only effect information is the Pure trait, so this is
// MLIR's isMemoryEffectFree for ops that either are Pure or have no effect
// interface at all.
func IsMemoryEffectFree(op *ir.Operation) bool { return op.HasTrait(ir.TraitPure) }

// WouldBeTriviallyDead reports whether op could be erased if its results
// had no uses: it is free of memory effects, not a terminator and not a
// symbol.
func WouldBeTriviallyDead(op *ir.Operation) bool {
	if MightHaveTrait(op, ir.TraitTerminator) || op.HasTrait(ir.TraitSymbol) {
		return false
	}
	return IsMemoryEffectFree(op)
}

// IsTriviallyDead reports whether op has no used results and would be
// trivially dead.
func IsTriviallyDead(op *ir.Operation) bool {
	for i := 0; i < op.NumResults(); i++ {
		if op.Result(i).HasUses() {
			return false
		}
	}
	return WouldBeTriviallyDead(op)
}

// HasSSADominance reports whether values in r must dominate their uses
// (ir.Region.HasSSADominance).
func HasSSADominance(r *ir.Region) bool { return r.HasSSADominance() }

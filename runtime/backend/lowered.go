package backend

import (
	"fmt"

	"github.com/rlx-compiler/rlx/codegen/mps"
	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/lowertomps"
	"github.com/rlx-compiler/rlx/target"
)

// Lowered returns the planned function in a copy of the module whose MPS
// regions lower-to-mps has lowered for t (nil: target.Default), the form
// that MPSGraph builders are written from and that the mps primitives'
// interpreter runs. The module itself is not changed.
func (c *Compiled) Lowered(t *target.Target) (*ir.Operation, error) {
	mod := c.Module.Clone(nil)
	if _, err := lowertomps.Lower(mod, lowertomps.Options{Target: t}); err != nil {
		return nil, err
	}
	for op := range builtin.Body(mod).Ops() {
		if ir.SymbolName(op) == ir.SymbolName(c.Func) {
			return op, nil
		}
	}
	return nil, fmt.Errorf("@%s is missing from the lowered copy", c.Plan.Function)
}

// Builders returns the MPSGraph builders of the plan's MPS steps
// (codegen/mps on Lowered), or nil when there is none.
func (c *Compiled) Builders(t *target.Target, opts mps.Options) (*mps.Output, error) {
	if c.Plan.Stats().MPSSteps == 0 {
		return nil, nil
	}
	f, err := c.Lowered(t)
	if err != nil {
		return nil, err
	}
	return mps.Emit(f, opts)
}

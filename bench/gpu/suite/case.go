package suite

import (
	"strings"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/codegen/metal/opsuite"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
)

// Case is one region of a suite: an op-suite case (a function whose body
// is one thunk.call with target "metal" holding Body, whose results are
// compared with the reference interpreter's by NMSE, each within Limit),
// and how the device driver times it, if it does.
type Case struct {
	opsuite.Case
	// Bench, when set, times the case's kernel against the memory roofline
	// (and against torch, where Bench names an anchor).
	Bench *Bench
	// Func, when set, is the whole function @Name in place of the one
	// built from the op-suite case's Body: one thunk.call with target
	// "metal" whose operands are the function's arguments (in any order)
	// and whose results it returns (among leaves it returns as they are).
	// Only Name and Limit of the op-suite case are used then.
	Func string
	// InputSeed, when not zero, seeds the case's Seeded inputs and weights
	// in place of Options.Seed (a random function's own seed, as the CPU
	// tests run it).
	InputSeed uint64
}

// MLIR returns the case's function.
func (c Case) MLIR() string {
	if c.Func != "" {
		return c.Func
	}
	return c.Case.MLIR()
}

// Bench describes how the device driver times a case.
type Bench struct {
	Group string `json:"group"` // the table row group: "gemv", "attention", "norm", "recurrent", "moe"
	// Anchor is torch's kernel for the same shape: "linear" (F.linear in
	// f16, weight [N, K]), "sdpa" (scaled_dot_product_attention with GQA),
	// "rms_norm" or "rms_norm_f16" (F.rms_norm), "layer_norm_f16"
	// (F.layer_norm), "topk" (torch.topk), or "" for none.
	Anchor string         `json:"anchor"`
	Dims   map[string]int `json:"dims"` // the anchor's sizes: K, N; B, H, Hkv, L, D; rows, dim; rows, N, k
	// Bytes, when set, is what the case must move, in place of every
	// buffer's bytes (Info.MinBytes): an expert stack is read in part.
	Bytes int64 `json:"bytes,omitempty"`
}

// one is a case with a single op: %0 = graph.<op> %a0, … {attrs}.
func one(name string, limit float64, args []string, result, op, attrs string) Case {
	return fromOp(opsuite.One(name, limit, args, result, op, attrs))
}

// fromOp is an op-suite case as a Case, not timed.
func fromOp(c opsuite.Case) Case { return Case{Case: c} }

// Parse parses cases as one module.
func Parse(name string, cases []Case) (*ir.Operation, error) {
	var src strings.Builder
	for _, c := range cases {
		src.WriteString(c.MLIR())
	}
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	return asm.ParseString(ctx, name+".mlir", src.String())
}

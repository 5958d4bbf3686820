package ir

// aliasVisitor walks an op the way the printer will print it and records
// every type, attribute and location in the alias state, in print order.
// For ops with a custom form it runs the op's print hook against a
// recording printer, so hooks need no separate alias logic.
type aliasVisitor struct {
	s    *aliasState
	opts *PrintOptions
	// free holds recording printers for reuse: one per nesting level is
	// live at a time, instead of three allocations per op.
	free []*OpPrinter
}

// recorder returns a recording printer in its initial state.
func (v *aliasVisitor) recorder() *OpPrinter {
	if n := len(v.free); n > 0 {
		rp := v.free[n-1]
		v.free = v.free[:n-1]
		rp.buf = rp.buf[:0]
		rp.err = nil
		rp.indent = 0
		rp.defaultDialect = append(rp.defaultDialect[:0], "")
		return rp
	}
	return &OpPrinter{AsmPrinter: &AsmPrinter{opts: v.opts, rec: v}, names: &ssaNames{}, defaultDialect: []string{""}}
}

func (v *aliasVisitor) visitOp(op *Operation) {
	if v.opts.DebugInfo {
		v.s.visitAttr(op.loc, true, false)
	}
	if def := op.name.def; !v.opts.Generic && def != nil && def.Print != nil {
		rp := v.recorder()
		def.Print(rp, op)
		v.free = append(v.free, rp)
		return
	}
	if !v.opts.SkipRegions {
		for i := range op.regs() {
			v.visitRegion(&op.regs()[i], true, true)
		}
	}
	for i := range op.opnds() {
		v.s.visitType(op.opnds()[i].value.typ, false)
	}
	for i := range op.ress() {
		v.s.visitType(op.ress()[i].typ, false)
	}
	v.visitAttrs(op)
}

// visitAttrs visits the op's attributes as MLIR's getAttrs() lists them:
// for registered ops the inherent and discardable attributes merged by
// name; for unregistered ops only the discardable ones.
func (v *aliasVisitor) visitAttrs(op *Operation) {
	var props []NamedAttr
	if propsCountForAliases(op) {
		if d := op.props; d != nil {
			props = d.Entries
		}
	}
	var attrs []NamedAttr
	if op.attrs != nil {
		attrs = op.attrs.Entries
	}
	i, j := 0, 0
	for i < len(props) || j < len(attrs) {
		if j >= len(attrs) || (i < len(props) && props[i].Name < attrs[j].Name) {
			v.s.visitAttr(props[i].Value, false, false)
			i++
		} else {
			v.s.visitAttr(attrs[j].Value, false, false)
			j++
		}
	}
}

func (v *aliasVisitor) visitRegion(r *Region, entryArgs, terminators bool) {
	for b := r.first; b != nil; b = b.next {
		header := b != r.first || entryArgs
		if header {
			for i, a := range b.args {
				v.s.visitType(a.typ, false)
				if v.opts.DebugInfo {
					v.s.visitAttr(b.printedArgLoc(i), false, false)
				}
			}
		}
		printTerm := terminators || b != r.first
		for op := b.first; op != nil; op = op.next {
			if op == b.last && !printTerm && op.HasTrait(TraitTerminator) {
				break
			}
			v.visitOp(op)
		}
	}
}

// propsCountForAliases reports whether MLIR would consider the op's
// properties when choosing aliases: it does for ops it knows, not for
// unregistered ones. rlx's own registered ops count, and so do ops of the
// dialects that ship with MLIR (mlir-opt registers them all, so an op such
// as memref.transpose has properties there even though rlx keeps it
// unregistered).
func propsCountForAliases(op *Operation) bool {
	return op.name.def != nil || upstreamDialects[op.name.dialect]
}

// upstreamDialects are the dialects registered by mlir-opt 19.
var upstreamDialects = map[string]bool{
	"acc": true, "affine": true, "amdgpu": true, "amx": true, "arith": true,
	"arm_neon": true, "arm_sme": true, "arm_sve": true, "async": true,
	"bufferization": true, "builtin": true, "cf": true, "complex": true,
	"dlti": true, "emitc": true, "func": true, "gpu": true, "index": true,
	"irdl": true, "linalg": true, "llvm": true, "math": true, "memref": true,
	"mesh": true, "ml_program": true, "mpi": true, "nvgpu": true, "nvvm": true,
	"omp": true, "pdl": true, "pdl_interp": true, "polynomial": true,
	"ptr": true, "quant": true, "rocdl": true, "scf": true, "shape": true,
	"sparse_tensor": true, "spirv": true, "tensor": true, "test": true,
	"tosa": true, "transform": true, "ub": true, "vector": true,
	"x86vector": true, "xegpu": true,
}

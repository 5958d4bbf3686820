package graph

import (
	"math"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/ir"
)

// byteSource turns fuzz input into choices; past the end it yields zeros.
type byteSource struct {
	data []byte
	i    int
}

func (s *byteSource) next() byte {
	if s.i >= len(s.data) {
		return 0
	}
	b := s.data[s.i]
	s.i++
	return b
}

func (s *byteSource) intn(n int) int { return int(s.next()) % n }

func pick[T any](s *byteSource, xs ...T) T { return xs[s.intn(len(xs))] }

// randomOp builds a module with one function holding one graph op whose
// operand shapes, element types, result types and attributes come from s.
// With fixResults the result types are set to the inferred ones when
// inference succeeds.
func randomOp(ctx *ir.Context, s *byteSource) (module, op *ir.Operation, fixResults bool) {
	infos := opTable()
	info := infos[s.intn(len(infos))]
	elems := []ir.Type{ctx.F32(), ctx.FloatType("f16"), ctx.FloatType("bf16"), ctx.I32(), ctx.I64(), ctx.I1(),
		ctx.IntegerType(8, ir.Signless), ctx.IntegerType(8, ir.Unsigned), ctx.F64()}
	dims := []int64{1, 2, 3, 4, 8, 16, 0, ir.Dynamic, 64, 1152}
	randType := func() ir.Type {
		if s.intn(16) == 0 {
			return ctx.F32()
		}
		shape := make([]int64, s.intn(5))
		for i := range shape {
			shape[i] = dims[s.intn(len(dims))]
		}
		return ctx.TensorType(shape, elems[s.intn(len(elems))])
	}
	nIn := info.minIn + s.intn(3) - 1
	if nIn < 0 {
		nIn = 0
	}
	args := make([]ir.Type, nIn)
	for i := range args {
		args[i] = randType()
	}
	// Operands often share a shape, so that deep rules get exercised.
	if nIn > 1 && s.intn(2) == 0 {
		for i := 1; i < nIn; i++ {
			if s.intn(2) == 0 {
				args[i] = args[0]
			}
		}
	}
	nOut := info.numOut
	if s.intn(8) == 0 {
		nOut++
	}
	results := make([]ir.Type, nOut)
	for i := range results {
		results[i] = randType()
	}
	var attrs []ir.NamedAttr
	for _, spec := range info.attrs {
		if s.intn(8) == 0 {
			continue
		}
		kind := spec.Kind
		if s.intn(6) == 0 {
			kind = AttrKind(s.intn(int(AttrElements) + 1))
		}
		attrs = append(attrs, ir.NamedAttr{Name: spec.Name, Value: randomAttr(ctx, s, kind, spec)})
	}
	module = builtin.NewModule(ctx, nil)
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(builtin.Body(module))
	f := fn.NewFunc(b, nil, "f", ctx.FunctionType(args, nil))
	b.SetInsertionPointToEnd(f.Body())
	operands := make([]*ir.Value, nIn)
	for i := range operands {
		operands[i] = f.Body().Argument(i)
	}
	op = b.CreateOp(info.name, nil, operands, results, attrs...)
	b.CreateOp(fn.ReturnName, nil, nil, nil)
	return module, op, s.intn(2) == 0
}

func randomAttr(ctx *ir.Context, s *byteSource, kind AttrKind, spec AttrSpec) ir.Attribute {
	switch kind {
	case AttrI64:
		return ctx.IntegerAttr(ctx.I64(), pick(s, int64(-2), -1, 0, 1, 2, 3, 4, 8, 16, 32, 64, 256, 1<<62, math.MinInt64, math.MaxInt64))
	case AttrF32:
		return ctx.FloatAttr(ctx.F32(), pick(s, 0, 1e-6, -1, 0.25, math.NaN(), math.Inf(1)))
	case AttrBool:
		return ctx.BoolAttr(s.intn(2) == 0)
	case AttrString:
		return ctx.StringAttr(pick(s, "w", ""))
	case AttrEnum:
		if len(spec.Values) > 0 && s.intn(4) != 0 {
			return ctx.StringAttr(spec.Values[s.intn(len(spec.Values))])
		}
		return ctx.StringAttr("bogus")
	case AttrI64Array:
		vals := make([]int64, s.intn(6))
		for i := range vals {
			vals[i] = int64(s.intn(9)) - 4
		}
		return ctx.DenseI64Array(vals)
	}
	n := int64(s.intn(4) + 1)
	return ctx.DenseFloats(ctx.TensorType([]int64{n}, pick[ir.Type](s, ctx.F32(), ctx.F64())), make([]float64, n))
}

// FuzzGraphVerify builds random graph ops and checks that verification,
// inference, capability, folding and printing never panic; that an op
// whose result types are the inferred ones verifies; and that a verified
// op round-trips through its custom form.
func FuzzGraphVerify(f *testing.F) {
	f.Add([]byte{})
	for i := 0; i < 64; i++ {
		f.Add([]byte{byte(i), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, byte(i * 7), byte(i * 13)})
		f.Add([]byte{byte(i), 0, 0, 2, 1, 1, 0, 0, 3, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx := newContext()
		s := &byteSource{data: data}
		module, op, fix := randomOp(ctx, s)
		inferred, inferErr := InferResultTypes(op)
		if fix && inferErr == nil && len(inferred) == op.NumResults() {
			for i, rt := range inferred {
				op.Result(i).SetType(rt)
			}
		}
		err := ir.Verify(module)
		if fix && inferErr == nil && len(inferred) == op.NumResults() && err != nil {
			t.Fatalf("op with inferred result types fails to verify: %v\n%s", err, printIR(module, true))
		}
		if err == nil && inferErr != nil {
			t.Fatalf("op verifies but inference fails: %v\n%s", inferErr, printIR(module, true))
		}
		generic := printIR(module, true)
		if err != nil {
			return
		}
		if def := op.Def(); def.Fold != nil {
			def.Fold(op, make([]ir.Attribute, op.NumOperands()))
		}
		custom := printIR(module, false)
		m2, perr := asm.ParseString(newContext(), "fuzz.mlir", custom)
		if perr != nil {
			t.Fatalf("custom form of a verified op does not parse: %v\n%s\ngeneric:\n%s", perr, custom, generic)
		}
		if verr := ir.Verify(m2); verr != nil {
			t.Fatalf("custom form of a verified op does not verify: %v\n%s", verr, custom)
		}
		if again := printIR(m2, false); again != custom {
			t.Fatalf("custom form not stable:\n%s\nthen\n%s", custom, again)
		}
	})
}

package graph

import (
	"math"
	"math/big"
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
	dims := []int64{1, 2, 3, 4, 8, 16, 0, ir.Dynamic, 64, 1152}
	return randomOpWithDims(ctx, s, func() int64 { return dims[s.intn(len(dims))] })
}

// randomOpWithDims is randomOp with the dims of its types drawn by dim.
func randomOpWithDims(ctx *ir.Context, s *byteSource, dim func() int64) (module, op *ir.Operation, fixResults bool) {
	infos := opTable()
	info := infos[s.intn(len(infos))]
	elems := []ir.Type{ctx.F32(), ctx.FloatType("f16"), ctx.FloatType("bf16"), ctx.I32(), ctx.I64(), ctx.I1(),
		ctx.IntegerType(8, ir.Signless), ctx.IntegerType(8, ir.Unsigned), ctx.F64()}
	randType := func() ir.Type {
		if s.intn(16) == 0 {
			return ctx.F32()
		}
		shape := make([]int64, s.intn(5))
		for i := range shape {
			shape[i] = dim()
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

// FuzzShapes builds random graph ops whose dims come from anywhere in the
// int64 range, most of them near the points where products overflow
// (2^31, 2^32, 2^62, 3037000500 ~ sqrt(2^63)), and checks that
// verification and inference never panic, that every type of an op that
// verifies has an element count that fits in an int64 (computed exactly,
// with big integers), that a verified reshape keeps the exact element
// count, and that ir.ShapeElements agrees with the exact product.
func FuzzShapes(f *testing.F) {
	f.Add([]byte{})
	for i := 0; i < 32; i++ {
		f.Add([]byte{byte(i), 1, 9, 2, 3, 10, 11, 4, 12, 5, byte(i * 3), byte(i * 5), 13, 14, 15, 6, 7, 8})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx := newContext()
		s := &byteSource{data: data}
		special := []int64{1, 2, 4, 0, ir.Dynamic, 1 << 31, 1 << 32, 1<<32 + 1, 1 << 62, 3037000500,
			4611686018427387905, math.MaxInt64, math.MaxInt64 / 3, 1 << 61}
		dim := func() int64 {
			if s.intn(4) > 0 {
				return special[s.intn(len(special))]
			}
			// Any positive int64 from the next eight bytes.
			var v uint64
			for range 8 {
				v = v<<8 | uint64(s.next())
			}
			return int64(v >> 1)
		}
		module, op, fix := randomOpWithDims(ctx, s, dim)
		for _, t0 := range append(op.OperandTypes(), op.ResultTypes()...) {
			rt, ok := t0.(*ir.RankedTensorType)
			if !ok {
				continue
			}
			exact, static := exactCount(rt.Shape)
			n, fits := ir.ShapeElements(rt.Shape)
			want := int64(-1)
			if static && exact.IsInt64() {
				want = exact.Int64()
			}
			if fits != exact.IsInt64() || n != want {
				t.Fatalf("ShapeElements(%v) = %d, %v; exact product of the static dims %v (static: %v)", rt.Shape, n, fits, exact, static)
			}
		}
		inferred, inferErr := InferResultTypes(op)
		if fix && inferErr == nil && len(inferred) == op.NumResults() {
			for i, rt := range inferred {
				op.Result(i).SetType(rt)
			}
		}
		if err := ir.Verify(module); err != nil {
			return
		}
		for _, t0 := range append(op.OperandTypes(), op.ResultTypes()...) {
			if rt, ok := t0.(*ir.RankedTensorType); ok {
				if exact, _ := exactCount(rt.Shape); !exact.IsInt64() {
					t.Fatalf("%s verifies with a type of %v elements: %s", op.Name(), exact, printIR(module, true))
				}
			}
		}
		if op.Name() == "graph.reshape" {
			in, inStatic := exactCount(op.Operand(0).Type().(*ir.RankedTensorType).Shape)
			out, outStatic := exactCount(op.Result(0).Type().(*ir.RankedTensorType).Shape)
			if inStatic && outStatic && in.Cmp(out) != 0 {
				t.Fatalf("reshape of %v elements to %v verifies: %s", in, out, printIR(module, true))
			}
		}
	})
}

// exactCount returns the product of the static dims as a big integer
// (0 when a dim is 0), and whether every dim is static.
func exactCount(dims []int64) (product *big.Int, static bool) {
	product, static = big.NewInt(1), true
	for _, d := range dims {
		if d == ir.Dynamic {
			static = false
			continue
		}
		product.Mul(product, big.NewInt(d))
	}
	return product, static
}

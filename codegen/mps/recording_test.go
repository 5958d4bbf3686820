package mps

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/fn"
	dmps "github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/ir"
)

// driverSource is a main that builds every region of out into a recording
// graph of its own and prints the record (testdata/recorder.h): the
// generated source and header are included as they are, and the passed-in
// constants are given their bytes.
func driverSource(out *Output, src, hdr string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#include <stdio.h>\n#import \"recorder.h\"\n#import %q\n#import %q\n\n", hdr, src)
	for i, bl := range out.Builders {
		for k, c := range bl.Constants {
			fmt.Fprintf(&b, "static const unsigned char rlx_test_%d_%d[%d] = {", i, k, len(c.Data))
			for j, x := range c.Data {
				if j > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, "%d", x)
			}
			b.WriteString("};\n")
		}
	}
	b.WriteString("\nint main(void) {\n  NSAutoreleasePool *pool = [[NSAutoreleasePool alloc] init];\n")
	for i, bl := range out.Builders {
		b.WriteString("  {\n    RLXGraph *graph = [RLXGraph recordingGraph];\n    NSMutableArray *inputs = [NSMutableArray array];\n")
		for k := range bl.Inputs {
			fmt.Fprintf(&b, "    [inputs addObject:[graph rlxInput:%d]];\n", k)
		}
		b.WriteString("    NSMutableDictionary *weights = [NSMutableDictionary dictionary];\n    NSMutableDictionary *constants = [NSMutableDictionary dictionary];\n")
		for k, c := range bl.Constants {
			fmt.Fprintf(&b, "    [constants setObject:[NSData dataWithBytes:rlx_test_%d_%d length:%d] forKey:%s];\n", i, k, len(c.Data), objcString(c.Key))
		}
		fmt.Fprintf(&b, "    [graph rlxPrint:@\"%s\" results:%s(graph, inputs, weights, constants)];\n  }\n", bl.Symbol, bl.Function)
	}
	b.WriteString("  [pool drain];\n  return 0;\n}\n")
	return b.String()
}

// recorded is one graph a builder built, as the recorder printed it.
type recorded struct {
	title string
	lines []string
}

// splitRecord splits the driver's output by region.
func splitRecord(s string) ([]recorded, error) {
	var out []recorded
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if t, ok := strings.CutPrefix(line, "region "); ok {
			out = append(out, recorded{title: t})
			continue
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("record line before any region: %q", line)
		}
		out[len(out)-1].lines = append(out[len(out)-1].lines, line)
	}
	return out, nil
}

// mpsElem is the element type of an MPSDataType value.
func mpsElem(ctx *ir.Context, v uint64) (ir.Type, error) {
	switch v {
	case 0x10000020:
		return ctx.F32(), nil
	case 0x10000010:
		return ctx.FloatType("f16"), nil
	case 0x90000010:
		return ctx.FloatType("bf16"), nil
	case 0x20000020:
		return ctx.I32(), nil
	case 0x80000008:
		return ctx.I1(), nil
	}
	return nil, fmt.Errorf("MPSDataType %#x is not one the builders use", v)
}

func parseInts(s string) ([]int64, error) {
	if s == "" {
		return []int64{}, nil
	}
	var out []int64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// rebuild makes a module holding func.func @<title>(inputs) of the
// recorded graph: one mps primitive per record line, built (and so
// checked) by dmps.Build, returning the recorded results.
func rebuild(ctx *ir.Context, r recorded, inputs []ir.Type) (*ir.Operation, error) {
	mod := builtin.NewModule(ctx, ctx.UnknownLoc())
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(builtin.Body(mod))
	f := fn.NewFunc(b, ctx.UnknownLoc(), r.title, ctx.FunctionType(inputs, nil))
	b.SetInsertionPointToEnd(f.Body())
	vals := map[string]*ir.Value{}
	var results []*ir.Value
	for _, line := range r.lines {
		fields := strings.Fields(line)
		switch {
		case fields[0] == "fail":
			return nil, fmt.Errorf("@%s: %s", r.title, line)
		case fields[0] == "result":
			for _, id := range fields[1:] {
				v, ok := vals[id]
				if !ok {
					return nil, fmt.Errorf("@%s returns %s, which it did not make", r.title, id)
				}
				results = append(results, v)
			}
			continue
		case len(fields) >= 3 && fields[1] == "input":
			i, err := strconv.Atoi(fields[2])
			if err != nil || i >= len(inputs) {
				return nil, fmt.Errorf("@%s: bad input line %q", r.title, line)
			}
			vals[fields[0]] = f.Body().Argument(i)
			continue
		}
		if len(fields) < 2 {
			return nil, fmt.Errorf("@%s: bad record line %q", r.title, line)
		}
		v, err := rebuildOp(b, vals, fields)
		if err != nil {
			return nil, fmt.Errorf("@%s: %q: %v", r.title, line, err)
		}
		vals[fields[0]] = v
	}
	types := make([]ir.Type, len(results))
	for i, v := range results {
		types[i] = v.Type()
	}
	f.Op.SetAttr(ctx, "function_type", ctx.TypeAttr(ctx.FunctionType(inputs, types)))
	b.CreateOp(fn.ReturnName, ctx.UnknownLoc(), results, nil)
	return mod, nil
}

func rebuildOp(b *ir.Builder, vals map[string]*ir.Value, fields []string) (*ir.Value, error) {
	ctx := b.Ctx
	name := fields[1]
	var operands []*ir.Value
	kv := map[string]string{}
	for _, f := range fields[2:] {
		if k, v, ok := strings.Cut(f, "="); ok {
			kv[k] = v
			continue
		}
		x, ok := vals[f]
		if !ok {
			return nil, fmt.Errorf("operand %s was not made by the graph", f)
		}
		operands = append(operands, x)
	}
	var attrs []ir.NamedAttr
	i64 := func(k string) error {
		v, err := strconv.ParseInt(kv[k], 10, 64)
		attrs = append(attrs, ir.NamedAttr{Name: k, Value: ctx.IntegerAttr(ctx.I64(), v)})
		return err
	}
	i64s := func(k string) error {
		v, err := parseInts(kv[k])
		attrs = append(attrs, ir.NamedAttr{Name: k, Value: ctx.DenseI64Array(v)})
		return err
	}
	elem := func() (ir.Type, error) {
		v, err := strconv.ParseUint(kv["type"], 10, 64)
		if err != nil {
			return nil, err
		}
		return mpsElem(ctx, v)
	}
	shape := func() ([]int64, error) { return parseInts(kv["shape"]) }
	var result ir.Type
	var err error
	switch name {
	case dmps.PlaceholderName:
		s, err1 := shape()
		e, err2 := elem()
		n, err3 := hex.DecodeString(kv["name"])
		if err = firstErr(err1, err2, err3); err == nil {
			result = ctx.TensorType(s, e)
			attrs = append(attrs, ir.NamedAttr{Name: "name", Value: ctx.StringAttr(string(n))})
		}
	case dmps.ConstantName:
		s, err1 := shape()
		e, err2 := elem()
		if err = firstErr(err1, err2); err != nil {
			break
		}
		t := ctx.TensorType(s, e)
		var raw []byte
		if d, ok := kv["data"]; ok {
			raw, err = hex.DecodeString(d)
		} else {
			raw, err = scalarBytes(ctx, e, kv["scalar"])
		}
		if err == nil {
			attrs = append(attrs, ir.NamedAttr{Name: "value", Value: ctx.DenseFromRaw(t, raw)})
		}
	case dmps.ReshapeName, dmps.BroadcastName:
		var s []int64
		if s, err = shape(); err == nil && len(operands) == 1 {
			result = ctx.TensorType(s, operands[0].Type().(*ir.RankedTensorType).Elem)
		}
	case dmps.CastName:
		var e ir.Type
		if e, err = elem(); err == nil && len(operands) == 1 {
			result = ctx.TensorType(operands[0].Type().(*ir.RankedTensorType).Shape, e)
		}
	case dmps.ReduceSumName, dmps.ReduceMaxName, dmps.ReduceMinName, dmps.ReduceProdName, dmps.MeanName:
		err = i64s("axes")
	case dmps.SoftmaxName:
		err = i64("axis")
	case dmps.TransposeName:
		err = firstErr(i64("dimension"), i64("with_dimension"))
	case dmps.PermuteName:
		err = i64s("permutation")
	case dmps.SliceName:
		err = firstErr(i64("dimension"), i64("start"), i64("length"))
	case dmps.StridedSliceName:
		err = firstErr(i64s("starts"), i64s("ends"), i64s("strides"))
	case dmps.ConcatName:
		err = i64("dimension")
	case dmps.GatherName:
		err = firstErr(i64("axis"), i64("batch_dimensions"))
	case dmps.SDPAName:
		var s float64
		if s, err = strconv.ParseFloat(kv["scale"], 32); err == nil {
			attrs = append(attrs, ir.NamedAttr{Name: "scale", Value: ctx.FloatAttr(ctx.F32(), s)})
		}
	}
	if err != nil {
		return nil, err
	}
	return dmps.Build(b, ctx.UnknownLoc(), name, operands, result, attrs...)
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// scalarBytes encodes one element of type e with the value s (%.17g).
func scalarBytes(ctx *ir.Context, e ir.Type, s string) ([]byte, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, err
	}
	t := ctx.TensorType(nil, e)
	if ir.IsFloat(e) {
		return ctx.DenseFloats(t, []float64{v}).RawData(), nil
	}
	if it, ok := e.(*ir.IntegerType); ok && it.Width == 1 && v != 0 {
		v = 1
	}
	return ctx.DenseInts(t, []int64{int64(v)}).RawData(), nil
}

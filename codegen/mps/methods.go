package mps

import (
	"fmt"
	"strconv"
	"strings"

	dmps "github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/ir"
)

// call formats a message to graph with the selector of the primitive name
// (the dialect's table, so the two cannot disagree) and args, one per
// keyword of the selector.
func call(name string, args ...string) string {
	p := dmps.LookupPrimitive(name)
	if p == nil {
		panic("codegen/mps: no primitive " + name)
	}
	return send(p.Method, args...)
}

// send formats [graph selector-with-args].
func send(selector string, args ...string) string {
	parts := strings.Split(strings.TrimSuffix(selector, ":"), ":")
	if len(parts) != len(args) {
		panic(fmt.Sprintf("codegen/mps: %s takes %d arguments, got %d", selector, len(parts), len(args)))
	}
	var b strings.Builder
	b.WriteString("[graph")
	for i, p := range parts {
		b.WriteString(" " + p + ":" + args[i])
	}
	b.WriteString("]")
	return b.String()
}

// numbers formats an NSArray<NSNumber *> literal.
func numbers(v []int64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = "@" + strconv.FormatInt(x, 10)
	}
	return "@[" + strings.Join(parts, ", ") + "]"
}

func shapeOf(v *ir.Value) []int64 { return v.Type().(*ir.RankedTensorType).Shape }

func i64Attr(op *ir.Operation, name string) int64 {
	if a, ok := op.Attr(name).(*ir.IntegerAttr); ok {
		return a.Value
	}
	return 0
}

func i64sAttr(op *ir.Operation, name string) []int64 {
	if a, ok := op.Attr(name).(*ir.DenseArrayAttr); ok {
		return a.Ints
	}
	return nil
}

// dataType returns the MPSDataType constant of an element type, or an
// error when the deployment target lacks it.
func (r *regionEmitter) dataType(op *ir.Operation, t ir.Type) (string, error) {
	switch e := t.(*ir.RankedTensorType).Elem.(type) {
	case *ir.FloatType:
		switch e.Name() {
		case "f32":
			return "MPSDataTypeFloat32", nil
		case "f16":
			return "MPSDataTypeFloat16", nil
		case "bf16":
			if r.opts.MacOS.Less(Version{14, 0}) {
				return "", ir.OpError(op, "has bf16 tensors, which MPSGraph takes from macOS 14.0 on (MPSDataTypeBFloat16), but the deployment target is macOS %s", r.opts.MacOS)
			}
			return "MPSDataTypeBFloat16", nil
		}
	case *ir.IntegerType:
		switch e.Width {
		case 32:
			return "MPSDataTypeInt32", nil
		case 1:
			return "MPSDataTypeBool", nil
		}
	}
	return "", ir.OpError(op, "has type %s, which has no MPSDataType here", t)
}

// op writes the statement of one primitive.
func (r *regionEmitter) op(op *ir.Operation) error {
	p := dmps.LookupPrimitive(op.Name())
	if p == nil {
		return ir.OpError(op, "is not an MPSGraph primitive: run --lower-to-mps before --mlir-to-mpsgraph")
	}
	// Every type the op touches must exist on the deployment target.
	for _, v := range append(op.Operands(), op.Result(0)) {
		if _, err := r.dataType(op, v.Type()); err != nil {
			return err
		}
	}
	args := make([]string, op.NumOperands())
	for i, v := range op.Operands() {
		n, err := r.use(v)
		if err != nil {
			return ir.OpError(op, "%v", err)
		}
		args[i] = n
	}
	dt, _ := r.dataType(op, op.Result(0).Type())
	shape := numbers(shapeOf(op.Result(0)))
	var expr string
	switch op.Name() {
	case dmps.PlaceholderName:
		name := op.Attr("name").(*ir.StringAttr).Value
		r.weightHelper = true
		r.b.Weights = append(r.b.Weights, Weight{Name: name, Type: op.Result(0).Type()})
		expr = fmt.Sprintf("rlx_weight(graph, weights, %s, %s, %s)", objcString(name), shape, dt)
	case dmps.ConstantName:
		var err error
		if expr, err = r.constant(op, shape, dt); err != nil {
			return err
		}
	case dmps.ReduceSumName, dmps.ReduceMaxName, dmps.ReduceMinName, dmps.ReduceProdName, dmps.MeanName:
		expr = call(op.Name(), args[0], numbers(i64sAttr(op, "axes")), "nil")
	case dmps.SoftmaxName:
		expr = call(op.Name(), args[0], strconv.FormatInt(i64Attr(op, "axis"), 10), "nil")
	case dmps.ReshapeName, dmps.BroadcastName:
		expr = call(op.Name(), args[0], shape, "nil")
	case dmps.TransposeName:
		expr = call(op.Name(), args[0], strconv.FormatInt(i64Attr(op, "dimension"), 10), strconv.FormatInt(i64Attr(op, "with_dimension"), 10), "nil")
	case dmps.PermuteName:
		perm := numbers(i64sAttr(op, "permutation"))
		if r.opts.MacOS.Less(Version{13, 0}) {
			if n := len(i64sAttr(op, "permutation")); n > 16 {
				return ir.OpError(op, "permutes %d axes; the fallback before macOS 13 takes at most 16", n)
			}
			r.permuteHelper = true
			expr = fmt.Sprintf("rlx_permute(graph, %s, %s)", args[0], perm)
		} else {
			expr = call(op.Name(), args[0], perm, "nil")
		}
	case dmps.SliceName:
		expr = call(op.Name(), args[0], strconv.FormatInt(i64Attr(op, "dimension"), 10),
			strconv.FormatInt(i64Attr(op, "start"), 10), strconv.FormatInt(i64Attr(op, "length"), 10), "nil")
	case dmps.StridedSliceName:
		expr = call(op.Name(), args[0], numbers(i64sAttr(op, "starts")), numbers(i64sAttr(op, "ends")), numbers(i64sAttr(op, "strides")), "nil")
	case dmps.ConcatName:
		expr = call(op.Name(), "@["+strings.Join(args, ", ")+"]", strconv.FormatInt(i64Attr(op, "dimension"), 10), "nil")
	case dmps.GatherName:
		expr = call(op.Name(), args[0], args[1], strconv.FormatInt(i64Attr(op, "axis"), 10),
			strconv.FormatInt(i64Attr(op, "batch_dimensions"), 10), "nil")
	case dmps.CastName:
		expr = call(op.Name(), args[0], dt, "nil")
	case dmps.RsqrtName:
		if r.opts.MacOS.Less(Version{15, 0}) {
			r.rsqrtHelper = true
			expr = fmt.Sprintf("rlx_rsqrt(graph, %s)", args[0])
		} else {
			expr = call(op.Name(), args[0], "nil")
		}
	case dmps.SDPAName:
		scale := float32(op.Attr("scale").(*ir.FloatAttr).Float())
		mask := "nil"
		if len(args) > 3 {
			mask = args[3]
		}
		lit := floatLiteral(float64(scale)) + "f"
		if r.opts.MacOS.Less(Version{15, 0}) {
			r.sdpaHelper = true
			expr = fmt.Sprintf("rlx_sdpa(graph, %s, %s, %s, %s, %s, %s)", args[0], args[1], args[2], mask, lit, dt)
		} else {
			expr = call(op.Name(), args[0], args[1], args[2], mask, lit, "nil")
		}
	default:
		// Element-wise ops and matmul: the operands, then the name.
		if v := MustVersion(p.MinMacOS); r.opts.MacOS.Less(v) {
			return ir.OpError(op, "needs %s (macOS %s), newer than the deployment target macOS %s, and has no fallback", p.Method, p.MinMacOS, r.opts.MacOS)
		}
		expr = call(op.Name(), append(args, "nil")...)
	}
	fmt.Fprintf(&r.code, "  MPSGraphTensor *%s = %s;\n", r.define(op), expr)
	return nil
}

// MustVersion reads a version of the primitives' table ("11.0").
func MustVersion(s string) Version {
	v, ok := readVersion(s)
	if !ok {
		panic("codegen/mps: bad version " + s)
	}
	return v
}

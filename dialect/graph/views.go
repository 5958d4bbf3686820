package graph

import (
	"math"

	"github.com/rlx-compiler/rlx/ir"
)

// Typed views. Each is a thin wrapper over an *ir.Operation with getters
// for its operands, results and attributes; As<Op> returns the view when
// the op has the right name. Getters assume a verified op: attribute
// getters return the default for an absent optional attribute, and axes
// are normalised to [0, rank).

// view returns T{op} when op is one of the named ops.
func view[T ~struct{ Op *ir.Operation }](op *ir.Operation, names ...string) (T, bool) {
	if op != nil {
		for _, n := range names {
			if op.Name() == n {
				return T(struct{ Op *ir.Operation }{op}), true
			}
		}
	}
	return T{}, false
}

func rankOf(v *ir.Value) int {
	if t, ok := v.Type().(*ir.RankedTensorType); ok {
		return len(t.Shape)
	}
	return 0
}

func normAxis(a int64, v *ir.Value) int {
	ax, _ := NormalizeAxis(a, rankOf(v))
	return ax
}

func optOperand(op *ir.Operation, i int) *ir.Value {
	if i < op.NumOperands() {
		return op.Operand(i)
	}
	return nil
}

// Param is a view of graph.param.
type Param struct{ Op *ir.Operation }

// AsParam returns a view of op when it is a graph.param.
func AsParam(op *ir.Operation) (Param, bool) { return view[Param](op, ParamName) }

// Name returns the weight's name.
func (o Param) Name() string { return attrString(o.Op, "name", "") }

// Constant is a view of graph.constant.
type Constant struct{ Op *ir.Operation }

// AsConstant returns a view of op when it is a graph.constant.
func AsConstant(op *ir.Operation) (Constant, bool) { return view[Constant](op, ConstantName) }

// Value returns the elements attribute.
func (o Constant) Value() ir.Attribute { return o.Op.Attr("value") }

// Unary is a view of any element-wise unary op (graph.neg … graph.gelu_tanh).
type Unary struct{ Op *ir.Operation }

// AsUnary returns a view of op when it is an element-wise unary op.
func AsUnary(op *ir.Operation) (Unary, bool) {
	if op != nil {
		for _, u := range unaryOps() {
			if op.Name() == u.name {
				return Unary{op}, true
			}
		}
	}
	return Unary{}, false
}

// Input returns the operand.
func (o Unary) Input() *ir.Value { return o.Op.Operand(0) }

// Binary is a view of an element-wise binary op (add, sub, mul, div, max,
// min, pow) or of graph.cmp.
type Binary struct{ Op *ir.Operation }

// AsBinary returns a view of op when it is an element-wise binary op or
// graph.cmp.
func AsBinary(op *ir.Operation) (Binary, bool) {
	if op != nil {
		for _, b := range binaryOps() {
			if op.Name() == b.name {
				return Binary{op}, true
			}
		}
	}
	return view[Binary](op, CmpName)
}

// LHS returns the first operand.
func (o Binary) LHS() *ir.Value { return o.Op.Operand(0) }

// RHS returns the second operand.
func (o Binary) RHS() *ir.Value { return o.Op.Operand(1) }

// Cmp is a view of graph.cmp.
type Cmp struct{ Op *ir.Operation }

// AsCmp returns a view of op when it is a graph.cmp.
func AsCmp(op *ir.Operation) (Cmp, bool) { return view[Cmp](op, CmpName) }

// LHS returns the first operand.
func (o Cmp) LHS() *ir.Value { return o.Op.Operand(0) }

// RHS returns the second operand.
func (o Cmp) RHS() *ir.Value { return o.Op.Operand(1) }

// Predicate returns the comparison.
func (o Cmp) Predicate() CmpPredicate { return CmpPredicate(attrString(o.Op, "predicate", "")) }

// Select is a view of graph.select.
type Select struct{ Op *ir.Operation }

// AsSelect returns a view of op when it is a graph.select.
func AsSelect(op *ir.Operation) (Select, bool) { return view[Select](op, SelectName) }

// Cond returns the i1 condition.
func (o Select) Cond() *ir.Value { return o.Op.Operand(0) }

// TrueValue returns the value taken where the condition holds.
func (o Select) TrueValue() *ir.Value { return o.Op.Operand(1) }

// FalseValue returns the value taken elsewhere.
func (o Select) FalseValue() *ir.Value { return o.Op.Operand(2) }

// Cast is a view of graph.cast.
type Cast struct{ Op *ir.Operation }

// AsCast returns a view of op when it is a graph.cast.
func AsCast(op *ir.Operation) (Cast, bool) { return view[Cast](op, CastName) }

// Input returns the operand.
func (o Cast) Input() *ir.Value { return o.Op.Operand(0) }

// Target returns the element type converted to.
func (o Cast) Target() ir.Type { return elemOf(o.Op.Result(0)) }

func elemOf(v *ir.Value) ir.Type {
	if t, ok := v.Type().(*ir.RankedTensorType); ok {
		return t.Elem
	}
	return nil
}

// MatMul is a view of graph.matmul.
type MatMul struct{ Op *ir.Operation }

// AsMatMul returns a view of op when it is a graph.matmul.
func AsMatMul(op *ir.Operation) (MatMul, bool) { return view[MatMul](op, MatMulName) }

// LHS returns a `[..., M, K]`.
func (o MatMul) LHS() *ir.Value { return o.Op.Operand(0) }

// RHS returns b `[..., K, N]`.
func (o MatMul) RHS() *ir.Value { return o.Op.Operand(1) }

// RMSNorm is a view of graph.rms_norm.
type RMSNorm struct{ Op *ir.Operation }

// AsRMSNorm returns a view of op when it is a graph.rms_norm.
func AsRMSNorm(op *ir.Operation) (RMSNorm, bool) { return view[RMSNorm](op, RMSNormName) }

// Input returns x.
func (o RMSNorm) Input() *ir.Value { return o.Op.Operand(0) }

// Gamma returns γ.
func (o RMSNorm) Gamma() *ir.Value { return o.Op.Operand(1) }

// Epsilon returns ε.
func (o RMSNorm) Epsilon() float64 { e, _ := attrFloat(o.Op, "epsilon"); return e }

// LayerNorm is a view of graph.layer_norm.
type LayerNorm struct{ Op *ir.Operation }

// AsLayerNorm returns a view of op when it is a graph.layer_norm.
func AsLayerNorm(op *ir.Operation) (LayerNorm, bool) { return view[LayerNorm](op, LayerNormName) }

// Input returns x.
func (o LayerNorm) Input() *ir.Value { return o.Op.Operand(0) }

// Gamma returns γ.
func (o LayerNorm) Gamma() *ir.Value { return o.Op.Operand(1) }

// Beta returns β.
func (o LayerNorm) Beta() *ir.Value { return o.Op.Operand(2) }

// Epsilon returns ε.
func (o LayerNorm) Epsilon() float64 { e, _ := attrFloat(o.Op, "epsilon"); return e }

// Softmax is a view of graph.softmax.
type Softmax struct{ Op *ir.Operation }

// AsSoftmax returns a view of op when it is a graph.softmax.
func AsSoftmax(op *ir.Operation) (Softmax, bool) { return view[Softmax](op, SoftmaxName) }

// Input returns x.
func (o Softmax) Input() *ir.Value { return o.Op.Operand(0) }

// Axis returns the softmax axis in [0, rank).
func (o Softmax) Axis() int { return normAxis(attrInt(o.Op, "axis", -1), o.Input()) }

// Reduce is a view of graph.reduce.
type Reduce struct{ Op *ir.Operation }

// AsReduce returns a view of op when it is a graph.reduce.
func AsReduce(op *ir.Operation) (Reduce, bool) { return view[Reduce](op, ReduceName) }

// Input returns x.
func (o Reduce) Input() *ir.Value { return o.Op.Operand(0) }

// Kind returns the combining function.
func (o Reduce) Kind() ReduceKind { return ReduceKind(attrString(o.Op, "kind", "")) }

// Axes returns the reduced axes in [0, rank), in increasing order.
func (o Reduce) Axes() []int {
	r := rankOf(o.Input())
	mask := make([]bool, r)
	for _, a := range attrInts(o.Op, "axes") {
		if ax, ok := NormalizeAxis(a, r); ok {
			mask[ax] = true
		}
	}
	var out []int
	for i, m := range mask {
		if m {
			out = append(out, i)
		}
	}
	return out
}

// KeepDims reports whether reduced axes stay as size 1.
func (o Reduce) KeepDims() bool { return attrBool(o.Op, "keep_dims") }

// Reshape is a view of graph.reshape.
type Reshape struct{ Op *ir.Operation }

// AsReshape returns a view of op when it is a graph.reshape.
func AsReshape(op *ir.Operation) (Reshape, bool) { return view[Reshape](op, ReshapeName) }

// Input returns x.
func (o Reshape) Input() *ir.Value { return o.Op.Operand(0) }

// Broadcast is a view of graph.broadcast.
type Broadcast struct{ Op *ir.Operation }

// AsBroadcast returns a view of op when it is a graph.broadcast.
func AsBroadcast(op *ir.Operation) (Broadcast, bool) { return view[Broadcast](op, BroadcastName) }

// Input returns x.
func (o Broadcast) Input() *ir.Value { return o.Op.Operand(0) }

// Transpose is a view of graph.transpose.
type Transpose struct{ Op *ir.Operation }

// AsTranspose returns a view of op when it is a graph.transpose.
func AsTranspose(op *ir.Operation) (Transpose, bool) { return view[Transpose](op, TransposeName) }

// Input returns x.
func (o Transpose) Input() *ir.Value { return o.Op.Operand(0) }

// Permutation returns the permutation (a new slice).
func (o Transpose) Permutation() []int64 { return attrInts(o.Op, "permutation") }

// Slice is a view of graph.slice.
type Slice struct{ Op *ir.Operation }

// AsSlice returns a view of op when it is a graph.slice.
func AsSlice(op *ir.Operation) (Slice, bool) { return view[Slice](op, SliceName) }

// Input returns x.
func (o Slice) Input() *ir.Value { return o.Op.Operand(0) }

// Axis returns the sliced axis in [0, rank).
func (o Slice) Axis() int { return normAxis(attrInt(o.Op, "axis", 0), o.Input()) }

// Start returns the first index.
func (o Slice) Start() int64 { return attrInt(o.Op, "start", 0) }

// Length returns the number of elements taken.
func (o Slice) Length() int64 { return attrInt(o.Op, "length", 0) }

// Step returns the stride (1 when absent).
func (o Slice) Step() int64 { return attrInt(o.Op, "step", 1) }

// Concat is a view of graph.concat.
type Concat struct{ Op *ir.Operation }

// AsConcat returns a view of op when it is a graph.concat.
func AsConcat(op *ir.Operation) (Concat, bool) { return view[Concat](op, ConcatName) }

// Inputs returns the joined values.
func (o Concat) Inputs() []*ir.Value { return o.Op.Operands() }

// Axis returns the joined axis in [0, rank).
func (o Concat) Axis() int { return normAxis(attrInt(o.Op, "axis", 0), o.Op.Result(0)) }

// Gather is a view of graph.gather.
type Gather struct{ Op *ir.Operation }

// AsGather returns a view of op when it is a graph.gather.
func AsGather(op *ir.Operation) (Gather, bool) { return view[Gather](op, GatherName) }

// Table returns the gathered-from tensor.
func (o Gather) Table() *ir.Value { return o.Op.Operand(0) }

// Indices returns the i32 or i64 indices.
func (o Gather) Indices() *ir.Value { return o.Op.Operand(1) }

// Axis returns the indexed axis of the table in [0, rank).
func (o Gather) Axis() int { return normAxis(attrInt(o.Op, "axis", 0), o.Table()) }

// Rope is a view of graph.rope.
type Rope struct{ Op *ir.Operation }

// AsRope returns a view of op when it is a graph.rope.
func AsRope(op *ir.Operation) (Rope, bool) { return view[Rope](op, RopeName) }

// Input returns x.
func (o Rope) Input() *ir.Value { return o.Op.Operand(0) }

// Cos returns the cosine table `[S, R/2]`.
func (o Rope) Cos() *ir.Value { return o.Op.Operand(1) }

// Sin returns the sine table `[S, R/2]`.
func (o Rope) Sin() *ir.Value { return o.Op.Operand(2) }

// HeadDim returns D.
func (o Rope) HeadDim() int64 { return attrInt(o.Op, "head_dim", 0) }

// RotaryDim returns R.
func (o Rope) RotaryDim() int64 { return attrInt(o.Op, "rotary_dim", 0) }

// Style returns the pairing of rotated dims.
func (o Rope) Style() RopeStyle { return RopeStyle(attrString(o.Op, "style", "")) }

// Attention is a view of graph.attention.
type Attention struct{ Op *ir.Operation }

// AsAttention returns a view of op when it is a graph.attention.
func AsAttention(op *ir.Operation) (Attention, bool) { return view[Attention](op, AttentionName) }

// Q returns q `[B, Sq, H, D]`.
func (o Attention) Q() *ir.Value { return o.Op.Operand(0) }

// K returns k `[B, Sk, Hkv, D]`.
func (o Attention) K() *ir.Value { return o.Op.Operand(1) }

// V returns v `[B, Sk, Hkv, Dv]`.
func (o Attention) V() *ir.Value { return o.Op.Operand(2) }

// Mask returns the mask operand, or nil for the kinds without one.
func (o Attention) Mask() *ir.Value { return optOperand(o.Op, 3) }

// MaskKind returns the masking ("none" when absent).
func (o Attention) MaskKind() MaskKind {
	return MaskKind(attrString(o.Op, "mask", string(MaskNone)))
}

// Window returns the sliding window (0 unless the mask is sliding_window).
func (o Attention) Window() int64 { return attrInt(o.Op, "window", 0) }

// Scale returns the score scale: the attribute, else 1/√D.
func (o Attention) Scale() float64 {
	if s, ok := attrFloat(o.Op, "scale"); ok {
		return s
	}
	if t, ok := o.Q().Type().(*ir.RankedTensorType); ok && len(t.Shape) == 4 && t.Shape[3] > 0 {
		return 1 / math.Sqrt(float64(t.Shape[3]))
	}
	return math.NaN()
}

// Softcap returns the softcap (0: off).
func (o Attention) Softcap() float64 { s, _ := attrFloat(o.Op, "softcap"); return s }

// GatedDeltaNet is a view of graph.gated_delta_net.
type GatedDeltaNet struct{ Op *ir.Operation }

// AsGatedDeltaNet returns a view of op when it is a graph.gated_delta_net.
func AsGatedDeltaNet(op *ir.Operation) (GatedDeltaNet, bool) {
	return view[GatedDeltaNet](op, GatedDeltaNetName)
}

// Q returns q `[B, S, H, N]`.
func (o GatedDeltaNet) Q() *ir.Value { return o.Op.Operand(0) }

// K returns k `[B, S, H, N]`.
func (o GatedDeltaNet) K() *ir.Value { return o.Op.Operand(1) }

// V returns v `[B, S, H, N]`.
func (o GatedDeltaNet) V() *ir.Value { return o.Op.Operand(2) }

// Gate returns g `[B, S, H]` (or `[B, S, H, N]` per channel).
func (o GatedDeltaNet) Gate() *ir.Value { return o.Op.Operand(3) }

// Beta returns β `[B, S, H]`.
func (o GatedDeltaNet) Beta() *ir.Value { return o.Op.Operand(4) }

// InitialState returns state₀ `[B, H, N, N]`, or nil (zeros).
func (o GatedDeltaNet) InitialState() *ir.Value { return optOperand(o.Op, 5) }

// GatePerChannel reports whether g has one gate per key channel.
func (o GatedDeltaNet) GatePerChannel() bool { return attrBool(o.Op, "gate_per_channel") }

// Out returns the output `[B, S, H, N]`.
func (o GatedDeltaNet) Out() *ir.Value { return o.Op.Result(0) }

// State returns the final state `[B, H, N, N]`.
func (o GatedDeltaNet) State() *ir.Value { return o.Op.Result(1) }

// LSTM is a view of graph.lstm.
type LSTM struct{ Op *ir.Operation }

// AsLSTM returns a view of op when it is a graph.lstm.
func AsLSTM(op *ir.Operation) (LSTM, bool) { return view[LSTM](op, LSTMName) }

// Input returns x `[B, S, I]`.
func (o LSTM) Input() *ir.Value { return o.Op.Operand(0) }

// WIH returns w_ih `[4H, I]`.
func (o LSTM) WIH() *ir.Value { return o.Op.Operand(1) }

// WHH returns w_hh `[4H, H]`.
func (o LSTM) WHH() *ir.Value { return o.Op.Operand(2) }

// Bias returns bias `[4H]`.
func (o LSTM) Bias() *ir.Value { return o.Op.Operand(3) }

// H0 returns h₀ `[B, H]`, or nil (zeros).
func (o LSTM) H0() *ir.Value { return optOperand(o.Op, 4) }

// C0 returns c₀ `[B, H]`, or nil (zeros).
func (o LSTM) C0() *ir.Value { return optOperand(o.Op, 5) }

// Y returns the outputs `[B, S, H]`.
func (o LSTM) Y() *ir.Value { return o.Op.Result(0) }

// H returns the last hidden state `[B, H]`.
func (o LSTM) H() *ir.Value { return o.Op.Result(1) }

// C returns the last cell state `[B, H]`.
func (o LSTM) C() *ir.Value { return o.Op.Result(2) }

// HiddenSize returns H (from w_hh), or ir.Dynamic.
func (o LSTM) HiddenSize() int64 {
	if t, ok := o.WHH().Type().(*ir.RankedTensorType); ok && len(t.Shape) == 2 {
		return t.Shape[1]
	}
	return ir.Dynamic
}

// DequantMatMul is a view of graph.dequant_matmul.
type DequantMatMul struct{ Op *ir.Operation }

// AsDequantMatMul returns a view of op when it is a graph.dequant_matmul.
func AsDequantMatMul(op *ir.Operation) (DequantMatMul, bool) {
	return view[DequantMatMul](op, DequantMatMulName)
}

// Input returns x `[M, k]`.
func (o DequantMatMul) Input() *ir.Value { return o.Op.Operand(0) }

// Weight returns the packed weight `[NBYTES]` ui8.
func (o DequantMatMul) Weight() *ir.Value { return o.Op.Operand(1) }

// Format returns the GGUF block format.
func (o DequantMatMul) Format() QuantFormat { return QuantFormat(attrString(o.Op, "format", "")) }

// N returns the rows of W (output features).
func (o DequantMatMul) N() int64 { return attrInt(o.Op, "n", 0) }

// K returns the columns of W (input features).
func (o DequantMatMul) K() int64 { return attrInt(o.Op, "k", 0) }

// TopK is a view of graph.topk.
type TopK struct{ Op *ir.Operation }

// AsTopK returns a view of op when it is a graph.topk.
func AsTopK(op *ir.Operation) (TopK, bool) { return view[TopK](op, TopKName) }

// Input returns x `[..., N]`.
func (o TopK) Input() *ir.Value { return o.Op.Operand(0) }

// K returns how many values are kept.
func (o TopK) K() int64 { return attrInt(o.Op, "k", 0) }

// Values returns the k largest values `[..., k]`, in descending order.
func (o TopK) Values() *ir.Value { return o.Op.Result(0) }

// Indices returns their positions along the last axis `[..., k]` (i32).
func (o TopK) Indices() *ir.Value { return o.Op.Result(1) }

// IsLeaf reports whether op is graph.param or graph.constant: the ops
// that compute nothing, which a partitioning pass clones into every
// region that reads them instead of placing them.
func IsLeaf(op *ir.Operation) bool {
	return op.Name() == ParamName || op.Name() == ConstantName
}

// MovesPacked reports whether the use u of a packed weight's bytes only
// moves them on towards a graph.dequant_matmul, as an MoE block reads one
// expert of a stack: a graph.reshape, or a graph.gather or graph.slice
// that takes the bytes as its table or input. It returns the op's result
// and the length of the runs of bytes the op selects whole (the product of
// the dims after its axis; 0 for a reshape, which keeps every byte in
// place). A run that is a multiple of a matrix's bytes selects whole
// matrices, so a stack can be rearranged matrix by matrix.
func MovesPacked(u *ir.OpOperand) (out *ir.Value, run int64, ok bool) {
	owner := u.Owner()
	if u.Index() != 0 || owner.NumResults() != 1 {
		return nil, 0, false
	}
	var axis int
	switch {
	case owner.Name() == ReshapeName:
		return owner.Result(0), 0, true
	case owner.Name() == GatherName:
		axis = Gather{owner}.Axis()
	case owner.Name() == SliceName:
		axis = Slice{owner}.Axis()
	default:
		return nil, 0, false
	}
	t, ok := owner.Operand(0).Type().(*ir.RankedTensorType)
	if !ok || axis >= len(t.Shape) {
		return nil, 0, false
	}
	run = 1
	for _, d := range t.Shape[axis+1:] {
		if d == ir.Dynamic {
			return nil, 0, false
		}
		run *= d
	}
	return owner.Result(0), run, true
}

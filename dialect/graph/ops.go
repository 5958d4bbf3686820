package graph

import (
	"strings"
	"sync"

	"github.com/rlx-compiler/rlx/ir"
)

// Op names.
const (
	ParamName         = "graph.param"
	ConstantName      = "graph.constant"
	NegName           = "graph.neg"
	AbsName           = "graph.abs"
	ExpName           = "graph.exp"
	LogName           = "graph.log"
	SqrtName          = "graph.sqrt"
	RsqrtName         = "graph.rsqrt"
	ReciprocalName    = "graph.reciprocal"
	SigmoidName       = "graph.sigmoid"
	TanhName          = "graph.tanh"
	SinName           = "graph.sin"
	CosName           = "graph.cos"
	ReluName          = "graph.relu"
	SoftplusName      = "graph.softplus"
	SiluName          = "graph.silu"
	GeluName          = "graph.gelu"
	GeluTanhName      = "graph.gelu_tanh"
	AddName           = "graph.add"
	SubName           = "graph.sub"
	MulName           = "graph.mul"
	DivName           = "graph.div"
	MaxName           = "graph.max"
	MinName           = "graph.min"
	PowName           = "graph.pow"
	CmpName           = "graph.cmp"
	SelectName        = "graph.select"
	CastName          = "graph.cast"
	MatMulName        = "graph.matmul"
	RMSNormName       = "graph.rms_norm"
	LayerNormName     = "graph.layer_norm"
	SoftmaxName       = "graph.softmax"
	ReduceName        = "graph.reduce"
	ReshapeName       = "graph.reshape"
	BroadcastName     = "graph.broadcast"
	TransposeName     = "graph.transpose"
	SliceName         = "graph.slice"
	ConcatName        = "graph.concat"
	GatherName        = "graph.gather"
	RopeName          = "graph.rope"
	AttentionName     = "graph.attention"
	GatedDeltaNetName = "graph.gated_delta_net"
	LSTMName          = "graph.lstm"
	DequantMatMulName = "graph.dequant_matmul"
	TopKName          = "graph.topk"
)

// Groups of ops, in the order the docs list them.
const (
	groupLeaves   = "Leaves"
	groupElemwise = "Element-wise"
	groupLinalg   = "Linear algebra, normalisation, reductions"
	groupShape    = "Shape and data movement"
	groupBlocks   = "ML blocks"
)

// opInfo is one row of the op table: everything the dialect knows about an
// op, from which the OpDef, the verifier, the accessors' defaults and the
// docs are derived.
type opInfo struct {
	name     string
	group    string
	summary  string // one sentence of semantics
	operands string // operand list as the docs show it
	result   string // the result rule as the docs show it
	// minIn and maxIn bound the operand count (maxIn < 0: unbounded).
	minIn, maxIn int
	numOut       int
	attrs        []AttrSpec
	// example is one custom-form line; exampleArgs declares the values it
	// uses as function arguments (`%x: tensor<4xf32>, …`).
	example, exampleArgs string
	traits               ir.Trait
	infer                func(c *checker) ([]inferred, error)
	fold                 func(op *ir.Operation, operands []ir.Attribute) []ir.FoldResult
	parse                func(p ir.OpAsmParser, st *ir.OperationState) error
	print                func(p *ir.OpPrinter, op *ir.Operation)
}

// Dialect returns the graph dialect's definitions, new ones on each call.
func Dialect() *ir.Dialect {
	infos := opTable()
	defs := make([]*ir.OpDef, len(infos))
	for i := range infos {
		defs[i] = infos[i].def()
	}
	return &ir.Dialect{Name: "graph", Ops: defs, Materialize: materialize}
}

// Register adds the graph dialect to ctx.
func Register(ctx *ir.Context) { ctx.RegisterDialect(Dialect()) }

func (info *opInfo) def() *ir.OpDef {
	names := make([]string, len(info.attrs))
	for i, a := range info.attrs {
		names[i] = a.Name
	}
	d := &ir.OpDef{
		Name:          info.name,
		Summary:       info.summary,
		Traits:        ir.TraitPure | info.traits,
		InherentAttrs: names,
		// Graph ops have no regions and no successors (MLIR's NoRegions
		// and ZeroSuccessors); their operand and result counts are
		// checked by check, per op.
		Counts: &ir.OpCounts{Operands: ir.Variadic, Results: ir.Variadic},
		Verify: func(op *ir.Operation) error { _, err := check(info, op, true); return err },
		Parse:  parseOp,
		Print:  printOp,
		Fold:   info.fold,
	}
	if info.parse != nil {
		d.Parse, d.Print = info.parse, info.print
	}
	if info.name == ConstantName {
		d.ResultNames = func(*ir.Operation) []string { return []string{"cst"} }
	}
	return d
}

// tableIndex maps op names to their rows. It is built once, on first use,
// and never changed afterwards.
var tableIndex = sync.OnceValue(func() map[string]*opInfo {
	infos := opTable()
	m := make(map[string]*opInfo, len(infos))
	for i := range infos {
		m[infos[i].name] = &infos[i]
	}
	return m
})

func lookup(name string) *opInfo { return tableIndex()[name] }

// OpNames returns the names of every graph op, in the docs' order.
func OpNames() []string {
	infos := opTable()
	out := make([]string, len(infos))
	for i, info := range infos {
		out[i] = info.name
	}
	return out
}

// ComputeOpNames returns the names of the graph ops that compute (every
// op but the leaves, graph.param and graph.constant), in the docs' order:
// hybrid-split's native-ops list that keeps a whole function native.
func ComputeOpNames() []string {
	var out []string
	for _, info := range opTable() {
		if info.name != ParamName && info.name != ConstantName {
			out = append(out, info.name)
		}
	}
	return out
}

// Attrs returns the inherent attributes of the graph op name (nil for an
// unknown op or one without attributes), as the verifier checks them.
func Attrs(name string) []AttrSpec {
	if info := lookup(name); info != nil {
		return append([]AttrSpec(nil), info.attrs...)
	}
	return nil
}

// elementwiseOp is an element-wise op with its semantics; floatOnly marks
// the ones defined only on floats.
type elementwiseOp struct {
	name, semantics string
	floatOnly       bool
}

// unaryOps lists the element-wise unary functions.
func unaryOps() []elementwiseOp {
	return []elementwiseOp{
		{NegName, "`-x`", false},
		{AbsName, "absolute value", false},
		{ExpName, "`e^x`", true},
		{LogName, "natural logarithm", true},
		{SqrtName, "`√x`", true},
		{RsqrtName, "`1/√x`", true},
		{ReciprocalName, "`1/x`", true},
		{SigmoidName, "`1/(1+e^−x)`", true},
		{TanhName, "hyperbolic tangent", true},
		{SinName, "sine", true},
		{CosName, "cosine", true},
		{ReluName, "`max(x, 0)`", false},
		{SoftplusName, "`log(1+exp(x))`, computed stably", true},
		{SiluName, "`x·sigmoid(x)`", true},
		{GeluName, "`0.5·x·(1+erf(x/√2))`", true},
		{GeluTanhName, "`0.5·x·(1+tanh(√(2/π)·(x+0.044715·x³)))`", true},
	}
}

// binaryOps lists the element-wise binary functions (with broadcasting).
func binaryOps() []elementwiseOp {
	return []elementwiseOp{
		{AddName, "`a + b`", false},
		{SubName, "`a − b`", false},
		{MulName, "`a · b`", false},
		{DivName, "`a / b` (integers: truncated toward zero)", false},
		{MaxName, "`max(a, b)`", false},
		{MinName, "`min(a, b)`", false},
		{PowName, "`a^b`", true},
	}
}

// opTable returns the op table, new on each call.
func opTable() []opInfo {
	var t []opInfo
	t = append(t,
		opInfo{
			name: ParamName, group: groupLeaves,
			summary:  "A weight, bound by name at run time. Packed quantised weights are `tensor<NBYTESxui8>`.",
			operands: "–", result: "the result type (any tensor)",
			numOut: 1,
			attrs:  []AttrSpec{{Name: "name", Kind: AttrString, Required: true, Doc: "the weight's name (non-empty)"}},
			traits: ir.TraitConstantLike, infer: inferParam,
			example: `%0 = graph.param "l0.wq" : tensor<64x64xf32>`,
			parse:   parseParam, print: printParam,
		},
		opInfo{
			name: ConstantName, group: groupLeaves,
			summary:  "A literal tensor.",
			operands: "–", result: "the type of `value`",
			numOut: 1,
			attrs:  []AttrSpec{{Name: "value", Kind: AttrElements, Required: true, Doc: "the elements"}},
			traits: ir.TraitConstantLike, infer: inferConstant, fold: foldConstant,
			example: `%cst = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>`,
			parse:   parseConstant, print: printConstant,
		},
	)
	for _, u := range unaryOps() {
		types := "any element type but `i1`"
		if u.floatOnly {
			types = "float element types"
		}
		t = append(t, opInfo{
			name: u.name, group: groupElemwise,
			summary:  "Element-wise " + u.semantics + ".",
			operands: "x (" + types + ")", result: "like x",
			minIn: 1, maxIn: 1, numOut: 1,
			infer:       inferUnary(u.floatOnly),
			example:     "%0 = " + u.name + " %x : (tensor<2x64xf32>) -> tensor<2x64xf32>",
			exampleArgs: "%x: tensor<2x64xf32>",
		})
	}
	for _, b := range binaryOps() {
		types := "the same element type, not `i1`"
		if b.floatOnly {
			types = "the same float element type"
		}
		t = append(t, opInfo{
			name: b.name, group: groupElemwise,
			summary:  "Element-wise " + b.semantics + " with NumPy broadcasting.",
			operands: "a, b (" + types + ")", result: "shape: broadcast of a and b; element type of a",
			minIn: 2, maxIn: 2, numOut: 1,
			infer:       inferBinary(b.floatOnly),
			example:     "%0 = " + b.name + " %a, %b : (tensor<2x64xf32>, tensor<64xf32>) -> tensor<2x64xf32>",
			exampleArgs: "%a: tensor<2x64xf32>, %b: tensor<64xf32>",
		})
	}
	t = append(t,
		opInfo{
			name: CmpName, group: groupElemwise,
			summary:  "Element-wise comparison with NumPy broadcasting.",
			operands: "a, b (the same element type)", result: "shape: broadcast of a and b; element type `i1`",
			minIn: 2, maxIn: 2, numOut: 1,
			attrs: []AttrSpec{{Name: "predicate", Kind: AttrEnum, Required: true,
				Values: enumValues(CmpEQ, CmpNE, CmpLT, CmpLE, CmpGT, CmpGE), Doc: "the comparison"}},
			infer:       inferCmp,
			example:     `%0 = graph.cmp %a, %b {predicate = "lt"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>`,
			exampleArgs: "%a: tensor<4xf32>, %b: tensor<4xf32>",
		},
		opInfo{
			name: SelectName, group: groupElemwise,
			summary:  "Element-wise `c ? a : b` with NumPy broadcasting.",
			operands: "c (`i1`), a, b (the same element type)", result: "shape: broadcast of c, a and b; element type of a",
			minIn: 3, maxIn: 3, numOut: 1,
			infer:       inferSelect,
			example:     `%0 = graph.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>`,
			exampleArgs: "%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<1xf32>",
		},
		opInfo{
			name: CastName, group: groupElemwise,
			summary:  "Converts every element to the result's element type (float to integer truncates toward zero).",
			operands: "x", result: "x's shape, the result's element type",
			minIn: 1, maxIn: 1, numOut: 1,
			infer: inferCast, fold: foldCast,
			example:     `%0 = graph.cast %x : (tensor<4xf32>) -> tensor<4xbf16>`,
			exampleArgs: "%x: tensor<4xf32>",
		},
		opInfo{
			name: MatMulName, group: groupLinalg,
			summary:  "Batched matrix product; batch dims broadcast.",
			operands: "a `[..., M, K]`, b `[..., K, N]` (the same element type, or f32 with f16/bf16)",
			result:   "`[broadcast(a batch, b batch)..., M, N]`; element type of a and b (f32 when they differ)",
			minIn:    2, maxIn: 2, numOut: 1,
			infer:       inferMatMul,
			example:     `%0 = graph.matmul %x, %w : (tensor<1x64xf32>, tensor<64x32xf32>) -> tensor<1x32xf32>`,
			exampleArgs: "%x: tensor<1x64xf32>, %w: tensor<64x32xf32>",
		},
		opInfo{
			name: RMSNormName, group: groupLinalg,
			summary:  "Over the last axis: `x·rsqrt(mean(x²)+ε)·γ`.",
			operands: "x `[..., D]`, γ `[D]` (floats)", result: "like x",
			minIn: 2, maxIn: 2, numOut: 1,
			attrs:       []AttrSpec{epsilonSpec()},
			infer:       inferNorm,
			example:     `%0 = graph.rms_norm %x, %w {epsilon = 1.0e-06 : f32} : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>`,
			exampleArgs: "%x: tensor<1x64xf32>, %w: tensor<64xf32>",
		},
		opInfo{
			name: LayerNormName, group: groupLinalg,
			summary:  "Over the last axis: `(x−mean)/sqrt(var+ε)·γ+β`, with the biased variance.",
			operands: "x `[..., D]`, γ `[D]`, β `[D]` (floats)", result: "like x",
			minIn: 3, maxIn: 3, numOut: 1,
			attrs:       []AttrSpec{epsilonSpec()},
			infer:       inferNorm,
			example:     `%0 = graph.layer_norm %x, %g, %b {epsilon = 1.0e-05 : f32} : (tensor<1x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64xf32>`,
			exampleArgs: "%x: tensor<1x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>",
		},
		opInfo{
			name: SoftmaxName, group: groupLinalg,
			summary:  "Max-subtracted softmax along `axis`.",
			operands: "x (float)", result: "like x",
			minIn: 1, maxIn: 1, numOut: 1,
			attrs:       []AttrSpec{axisSpec("the softmax axis; negative counts from the end")},
			infer:       inferSoftmax,
			example:     `%0 = graph.softmax %x {axis = -1} : (tensor<2x8xf32>) -> tensor<2x8xf32>`,
			exampleArgs: "%x: tensor<2x8xf32>",
		},
		opInfo{
			name: ReduceName, group: groupLinalg,
			summary:  "Reduces x over `axes` with `kind`.",
			operands: "x (float for `mean`; not `i1`)",
			result:   "x's shape with the reduced axes removed, or kept as 1 with `keep_dims`; element type of x",
			minIn:    1, maxIn: 1, numOut: 1,
			attrs: []AttrSpec{
				{Name: "kind", Kind: AttrEnum, Required: true, Values: enumValues(ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd), Doc: "the combining function"},
				{Name: "axes", Kind: AttrI64Array, Required: true, Doc: "the reduced axes, distinct; negative counts from the end"},
				{Name: "keep_dims", Kind: AttrBool, Default: "false", Doc: "keep reduced axes as size 1"},
			},
			infer:       inferReduce,
			example:     `%0 = graph.reduce %x {axes = array<i64: -1>, keep_dims = true, kind = "mean"} : (tensor<2x8xf32>) -> tensor<2x1xf32>`,
			exampleArgs: "%x: tensor<2x8xf32>",
		},
		opInfo{
			name: ReshapeName, group: groupShape,
			summary:  "The same elements in row-major order under a new shape.",
			operands: "x", result: "the result type (same element type; element counts must match)",
			minIn: 1, maxIn: 1, numOut: 1,
			infer: inferReshape, fold: foldReshape,
			example:     `%0 = graph.reshape %x : (tensor<1x64xf32>) -> tensor<1x4x16xf32>`,
			exampleArgs: "%x: tensor<1x64xf32>",
		},
		opInfo{
			name: BroadcastName, group: groupShape,
			summary:  "NumPy broadcast of x to the result shape.",
			operands: "x", result: "the result type (x's shape must broadcast to it; same element type)",
			minIn: 1, maxIn: 1, numOut: 1,
			infer: inferBroadcast, fold: foldBroadcast,
			example:     `%0 = graph.broadcast %x : (tensor<64xf32>) -> tensor<4x64xf32>`,
			exampleArgs: "%x: tensor<64xf32>",
		},
		opInfo{
			name: TransposeName, group: groupShape,
			summary:  "Permutes the dims: result dim i is x's dim `permutation[i]`.",
			operands: "x", result: "`x.shape[permutation[i]]` for each i",
			minIn: 1, maxIn: 1, numOut: 1,
			attrs:       []AttrSpec{{Name: "permutation", Kind: AttrI64Array, Required: true, Doc: "a permutation of 0…rank−1"}},
			infer:       inferTranspose,
			fold:        foldTranspose,
			example:     `%0 = graph.transpose %x {permutation = array<i64: 0, 2, 1, 3>} : (tensor<1x8x4x16xf32>) -> tensor<1x4x8x16xf32>`,
			exampleArgs: "%x: tensor<1x8x4x16xf32>",
		},
		opInfo{
			name: SliceName, group: groupShape,
			summary:  "`length` elements from `start` along `axis`, every `step`-th.",
			operands: "x", result: "x's shape with dim `axis` set to `length`",
			minIn: 1, maxIn: 1, numOut: 1,
			attrs: []AttrSpec{
				axisSpec("the sliced axis; negative counts from the end"),
				{Name: "start", Kind: AttrI64, Required: true, Doc: "first index, ≥ 0"},
				{Name: "length", Kind: AttrI64, Required: true, Doc: "number of elements taken, ≥ 0; `start + (length−1)·step` must be inside the dim"},
				{Name: "step", Kind: AttrI64, Default: "1", Doc: "stride, ≥ 1"},
			},
			infer:       inferSlice,
			example:     `%0 = graph.slice %x {axis = -1, length = 64, start = 64} : (tensor<1x192xf32>) -> tensor<1x64xf32>`,
			exampleArgs: "%x: tensor<1x192xf32>",
		},
		opInfo{
			name: ConcatName, group: groupShape,
			summary:  "Joins the operands along `axis`.",
			operands: "x₁ … xₙ (n ≥ 1; same rank and element type; equal dims except `axis`)",
			result:   "the common shape with dim `axis` the sum of the operands'",
			minIn:    1, maxIn: -1, numOut: 1,
			attrs:       []AttrSpec{axisSpec("the joined axis; negative counts from the end")},
			infer:       inferConcat,
			example:     `%0 = graph.concat %a, %b {axis = 1} : (tensor<1x7x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x8x2x16xf32>`,
			exampleArgs: "%a: tensor<1x7x2x16xf32>, %b: tensor<1x1x2x16xf32>",
		},
		opInfo{
			name: GatherName, group: groupShape,
			summary:  "Picks slices of table along `axis` by index; an out-of-range index is a run-time error, never a silent read.",
			operands: "table, indices (`i32` or `i64`)",
			result:   "`table.shape[:axis] ++ indices.shape ++ table.shape[axis+1:]`; element type of table",
			minIn:    2, maxIn: 2, numOut: 1,
			attrs:       []AttrSpec{axisSpec("the indexed axis of table; negative counts from the end")},
			infer:       inferGather,
			example:     `%0 = graph.gather %t, %i {axis = 0} : (tensor<1000x64xf32>, tensor<1x3xi32>) -> tensor<1x3x64xf32>`,
			exampleArgs: "%t: tensor<1000x64xf32>, %i: tensor<1x3xi32>",
		},
		opInfo{
			name: RopeName, group: groupBlocks,
			summary: "Rotary position embedding on the first R dims of each head: neox pairs `(i, i+R/2)`, gptj pairs `(2i, 2i+1)`; " +
				"`x1' = x1·c − x2·s`, `x2' = x2·c + x1·s`; dims ≥ R are copied.",
			operands: "x `[B, S, H, D]` or `[B, S, H·D]`, cos `[S, R/2]`, sin `[S, R/2]` (floats)",
			result:   "like x",
			minIn:    3, maxIn: 3, numOut: 1,
			attrs: []AttrSpec{
				{Name: "head_dim", Kind: AttrI64, Required: true, Doc: "D, > 0; x's last dim is D (rank 4) or a multiple of D (rank 3)"},
				{Name: "rotary_dim", Kind: AttrI64, Required: true, Doc: "R: even, 0 < R ≤ D"},
				{Name: "style", Kind: AttrEnum, Required: true, Values: enumValues(RopeNeoX, RopeGPTJ), Doc: "the pairing of rotated dims"},
			},
			infer:       inferRope,
			example:     `%0 = graph.rope %x, %cos, %sin {head_dim = 16, rotary_dim = 8, style = "neox"} : (tensor<1x1x64xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x1x64xf32>`,
			exampleArgs: "%x: tensor<1x1x64xf32>, %cos: tensor<1x4xf32>, %sin: tensor<1x4xf32>",
		},
		opInfo{
			name: AttentionName, group: groupBlocks,
			summary: "Scaled dot-product attention with GQA: query head h uses kv head `h / (H/Hkv)`. " +
				"scores = `q·kᵀ·scale`, softcap `c·tanh(s/c)`, then the mask, softmax over keys, times v. " +
				"Causal with Sk > Sq places queries at the end (`abs_q = Sk−Sq+i`, keys ≤ abs_q); sliding_window keeps keys in `[abs_q−window, abs_q]`; " +
				"a custom mask `[B, Sk]` keeps keys where it is 1; a bias `[B, H, Sq, Sk]` is added to the scores.",
			operands: "q `[B, Sq, H, D]`, k `[B, Sk, Hkv, D]`, v `[B, Sk, Hkv, Dv]` (one float type; H divisible by Hkv), " +
				"mask (`custom`: `[B, Sk]`; `bias`: `[B, H, Sq, Sk]`; absent for the other kinds)",
			result: "`[B, Sq, H, Dv]`, element type of q",
			minIn:  3, maxIn: 4, numOut: 1,
			attrs: []AttrSpec{
				{Name: "mask", Kind: AttrEnum, Default: `"none"`,
					Values: enumValues(MaskNone, MaskCausal, MaskSlidingWindow, MaskCustom, MaskBias), Doc: "the masking"},
				{Name: "window", Kind: AttrI64, Doc: "≥ 0; required with `sliding_window`, not allowed otherwise"},
				{Name: "scale", Kind: AttrF32, Default: "1/√D", Doc: "score scale"},
				{Name: "softcap", Kind: AttrF32, Default: "0", Doc: "≥ 0; 0 turns the softcap off"},
			},
			infer:       inferAttention,
			example:     `%0 = graph.attention %q, %k, %v {mask = "causal"} : (tensor<1x1x8x16xf32>, tensor<1x9x2x16xf32>, tensor<1x9x2x16xf32>) -> tensor<1x1x8x16xf32>`,
			exampleArgs: "%q: tensor<1x1x8x16xf32>, %k: tensor<1x9x2x16xf32>, %v: tensor<1x9x2x16xf32>",
		},
		opInfo{
			name: GatedDeltaNetName, group: groupBlocks,
			summary: "Gated delta-rule scan. Per batch and head, state S (zeros without state₀), for each token t: " +
				"decay `S[i][j] *= exp(g)` (per channel: row i by `exp(g_i)`); `sk_j = Σ_i S[i][j]·k_i`; `d_j = (v_j − sk_j)·β`; " +
				"`S[i][j] += k_i·d_j`; `o_j = Σ_i S[i][j]·q_i / √N`.",
			operands: "q, k, v `[B, S, H, N]`, g `[B, S, H]` (`[B, S, H, N]` with `gate_per_channel`), β `[B, S, H]`, optional state₀ `[B, H, N, N]` (floats)",
			result:   "out `[B, S, H, N]`, state `[B, H, N, N]`; element type of q",
			minIn:    5, maxIn: 6, numOut: 2,
			attrs:       []AttrSpec{{Name: "gate_per_channel", Kind: AttrBool, Default: "false", Doc: "one gate per key channel"}},
			infer:       inferGatedDeltaNet,
			example:     `%o:2 = graph.gated_delta_net %q, %k, %v, %g, %beta, %s : (tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x4x16x16xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x4x16x16xf32>)`,
			exampleArgs: "%q: tensor<1x1x4x16xf32>, %k: tensor<1x1x4x16xf32>, %v: tensor<1x1x4x16xf32>, %g: tensor<1x1x4xf32>, %beta: tensor<1x1x4xf32>, %s: tensor<1x4x16x16xf32>",
		},
		opInfo{
			name: LSTMName, group: groupBlocks,
			summary:  "One LSTM layer, one direction, gate order i, f, g, o, as PyTorch's LSTM; h₀ and c₀ are zeros when absent.",
			operands: "x `[B, S, I]`, w_ih `[4H, I]`, w_hh `[4H, H]`, bias `[4H]`, optional h₀ and c₀ `[B, H]` (both or neither; floats)",
			result:   "y `[B, S, H]`, h `[B, H]`, c `[B, H]`; element type of x",
			minIn:    4, maxIn: 6, numOut: 3,
			infer:       inferLSTM,
			example:     `%y:3 = graph.lstm %x, %wih, %whh, %b : (tensor<1x5x8xf32>, tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>) -> (tensor<1x5x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)`,
			exampleArgs: "%x: tensor<1x5x8xf32>, %wih: tensor<64x8xf32>, %whh: tensor<64x16xf32>, %b: tensor<64xf32>",
		},
		opInfo{
			name: DequantMatMulName, group: groupBlocks,
			summary: "`x · Wᵀ` where W `[n, k]` is stored row-major as GGUF blocks (q4_0: 32 weights in 18 bytes; q8_0: 32 in 34; " +
				"q4_k: 256 in 144; q5_k: 256 in 176; q6_k: 256 in 210; q2_k: 256 in 84; q3_k: 256 in 110; q4_1: 32 in 20; q5_0: 32 in 22; q5_1: 32 in 24; iq4_nl: 32 in 18; iq4_xs: 256 in 136; mxfp4: 32 in 17; q6_k_c16: q6_k's bytes rearranged over the whole matrix into columns of 16 weights, docs/runtime-kernels.md). " +
				"A block whose f16 scale (d, or the k-quants' dmin, or q4_1's and q5_1's m) is ±Inf or NaN makes every result it enters non-finite; whether NaN or ±Inf is not specified " +
				"(the interpreter scales each weight, so Inf · 0 gives NaN; kernels factor the scale out of a block's sum).",
			operands: "x `[M, k]` (f32), w `[NBYTES]` (ui8) with NBYTES = `n · k/block · blockbytes`",
			result:   "`[M, n]` f32",
			minIn:    2, maxIn: 2, numOut: 1,
			attrs: []AttrSpec{
				{Name: "format", Kind: AttrEnum, Required: true, Values: enumValues(Q4_0, Q8_0, Q4_K, Q5_K, Q6_K, Q6_KC16, Q2_K, Q3_K, Q4_1, Q5_0, Q5_1, IQ4_NL, IQ4_XS, MXFP4), Doc: "the GGUF block format, or q6_k_c16"},
				{Name: "n", Kind: AttrI64, Required: true, Doc: "rows of W (output features), > 0"},
				{Name: "k", Kind: AttrI64, Required: true, Doc: "columns of W (input features), > 0, a multiple of the block size"},
			},
			infer:       inferDequantMatMul,
			example:     `%0 = graph.dequant_matmul %x, %w {format = "q4_0", k = 64, n = 32} : (tensor<1x64xf32>, tensor<1152xui8>) -> tensor<1x32xf32>`,
			exampleArgs: "%x: tensor<1x64xf32>, %w: tensor<1152xui8>",
		},
		opInfo{
			name: TopKName, group: groupBlocks,
			summary: "The k largest values along the last axis, in descending order, and their indices: the routing step of a mixture of experts. " +
				"Equal values keep their order (the lower index first); NaN counts as larger than every number.",
			operands: "x `[..., N]` (float)",
			result:   "values `[..., k]` (element type of x), indices `[..., k]` (`i32`)",
			minIn:    1, maxIn: 1, numOut: 2,
			attrs:       []AttrSpec{{Name: "k", Kind: AttrI64, Required: true, Doc: "how many values, 1 ≤ k ≤ N"}},
			infer:       inferTopK,
			example:     `%r:2 = graph.topk %p {k = 2} : (tensor<1x8xf32>) -> (tensor<1x2xf32>, tensor<1x2xi32>)`,
			exampleArgs: "%p: tensor<1x8xf32>",
		},
	)
	return t
}

func epsilonSpec() AttrSpec {
	return AttrSpec{Name: "epsilon", Kind: AttrF32, Required: true, Doc: "ε added to the variance"}
}

func axisSpec(doc string) AttrSpec {
	return AttrSpec{Name: "axis", Kind: AttrI64, Required: true, Doc: doc}
}

// UnaryOpNames returns the names of the element-wise unary functions, in
// the order the docs list them.
func UnaryOpNames() []string {
	ops := unaryOps()
	names := make([]string, len(ops))
	for i, u := range ops {
		names[i] = u.name
	}
	return names
}

// Example returns the op's example as the docs show it: a function that
// declares the values it reads as arguments and holds the op, in custom
// form. Tests of other packages use it to get one valid op of each kind.
func Example(name string) (string, bool) {
	info := lookup(name)
	if info == nil {
		return "", false
	}
	return "func.func @" + strings.TrimPrefix(info.name, "graph.") + "(" + info.exampleArgs + ") {\n  " + info.example + "\n  return\n}\n", true
}

package graph

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/ir"
)

// TestViews reads every op of the lit round-trip file through its typed
// view.
func TestViews(t *testing.T) {
	src, err := os.ReadFile(litDir + "/ops.mlir")
	if err != nil {
		t.Fatal(err)
	}
	ctx := newContext()
	m := parseVerify(t, ctx, string(src))
	byName := map[string]*ir.Operation{}
	m.Walk(func(op *ir.Operation) {
		if byName[op.Name()] == nil {
			byName[op.Name()] = op
		}
	})
	arg := func(op *ir.Operation, i, n int) {
		t.Helper()
		if v := op.Operand(i); !v.IsBlockArgument() || v.Index() != n {
			t.Errorf("%s operand #%d is not %%arg%d", op.Name(), i, n)
		}
	}
	check := func(what string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}

	p, ok := AsParam(byName[ParamName])
	check("AsParam ok", ok, true)
	check("Param.Name", p.Name(), "l0.wq")
	c, _ := AsConstant(byName[ConstantName])
	check("Constant.Value", c.Value().String(), "dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>")

	u, ok := AsUnary(byName[NegName])
	check("AsUnary ok", ok, true)
	arg(u.Op, 0, 0)
	check("Unary.Input", u.Input(), byName[NegName].Operand(0))
	_, ok = AsUnary(byName[AddName])
	check("AsUnary(add)", ok, false)
	bin, ok := AsBinary(byName[AddName])
	check("AsBinary ok", ok, true)
	check("Binary.RHS", bin.RHS(), byName[AddName].Operand(1))
	check("Binary.LHS", bin.LHS(), byName[AddName].Operand(0))
	_, ok = AsBinary(byName[CmpName])
	check("AsBinary(cmp)", ok, true)
	cmp, _ := AsCmp(byName[CmpName])
	check("Cmp.Predicate", cmp.Predicate(), CmpGT)
	check("Cmp.LHS", cmp.LHS(), byName[CmpName].Operand(0))
	check("Cmp.RHS", cmp.RHS(), byName[CmpName].Operand(1))
	sel, _ := AsSelect(byName[SelectName])
	check("Select.Cond", sel.Cond(), byName[CmpName].Result(0))
	check("Select.TrueValue", sel.TrueValue(), byName[SelectName].Operand(1))
	check("Select.FalseValue", sel.FalseValue(), byName[SelectName].Operand(2))
	cast, _ := AsCast(byName[CastName])
	check("Cast.Target", cast.Target(), ir.Type(ctx.FloatType("bf16")))
	check("Cast.Input", cast.Input(), byName[CastName].Operand(0))

	mm, ok := AsMatMul(byName[MatMulName])
	check("AsMatMul ok", ok, true)
	arg(mm.Op, 0, 0)
	arg(mm.Op, 1, 1)
	check("MatMul.LHS", mm.LHS(), mm.Op.Operand(0))
	check("MatMul.RHS", mm.RHS(), mm.Op.Operand(1))
	_, ok = AsMatMul(byName[AddName])
	check("AsMatMul(add)", ok, false)
	_, ok = AsMatMul(nil)
	check("AsMatMul(nil)", ok, false)
	rn, _ := AsRMSNorm(byName[RMSNormName])
	check("RMSNorm.Epsilon", float32(rn.Epsilon()), float32(1e-6))
	check("RMSNorm.Input", rn.Input(), mm.Op.Result(0))
	arg(rn.Op, 1, 2)
	check("RMSNorm.Gamma", rn.Gamma(), rn.Op.Operand(1))
	ln, _ := AsLayerNorm(byName[LayerNormName])
	check("LayerNorm.Epsilon", float32(ln.Epsilon()), float32(1e-5))
	check("LayerNorm.Input", ln.Input(), rn.Op.Result(0))
	check("LayerNorm.Gamma", ln.Gamma(), ln.Op.Operand(1))
	check("LayerNorm.Beta", ln.Beta(), ln.Op.Operand(2))
	sm, _ := AsSoftmax(byName[SoftmaxName])
	check("Softmax.Axis", sm.Axis(), 1)
	check("Softmax.Input", sm.Input(), ln.Op.Result(0))
	red, _ := AsReduce(byName[ReduceName])
	check("Reduce.Kind", red.Kind(), ReduceMean)
	check("Reduce.Axes", len(red.Axes()) == 1 && red.Axes()[0] == 1, true)
	check("Reduce.KeepDims", red.KeepDims(), true)
	check("Reduce.Input", red.Input(), sm.Op.Result(0))

	rs, _ := AsReshape(byName[ReshapeName])
	arg(rs.Op, 0, 0)
	check("Reshape.Input", rs.Input(), rs.Op.Operand(0))
	bc, _ := AsBroadcast(byName[BroadcastName])
	check("Broadcast.Input", bc.Input(), rs.Op.Result(0))
	tr, _ := AsTranspose(byName[TransposeName])
	check("Transpose.Permutation", FormatShape(tr.Permutation()), "[0, 2, 1]")
	check("Transpose.Input", tr.Input(), bc.Op.Result(0))
	sl, _ := AsSlice(byName[SliceName])
	check("Slice", [4]int64{int64(sl.Axis()), sl.Start(), sl.Length(), sl.Step()}, [4]int64{1, 2, 4, 3})
	check("Slice.Input", sl.Input(), tr.Op.Result(0))
	cc, _ := AsConcat(byName[ConcatName])
	check("Concat.Axis", cc.Axis(), 1)
	check("Concat.Inputs", len(cc.Inputs()), 2)
	ga, _ := AsGather(byName[GatherName])
	check("Gather.Axis", ga.Axis(), 0)
	check("Gather.Table", ga.Table(), cc.Op.Result(0))
	arg(ga.Op, 1, 1)
	check("Gather.Indices", ga.Indices(), ga.Op.Operand(1))

	rp, _ := AsRope(byName[RopeName])
	check("Rope", [2]int64{rp.HeadDim(), rp.RotaryDim()}, [2]int64{16, 8})
	check("Rope.Style", rp.Style(), RopeGPTJ)
	check("Rope.Input", rp.Input(), rp.Op.Operand(0))
	check("Rope.Cos", rp.Cos(), rp.Op.Operand(1))
	check("Rope.Sin", rp.Sin(), rp.Op.Operand(2))
	at, _ := AsAttention(byName[AttentionName])
	check("Attention.Q", at.Q(), rp.Op.Result(0))
	check("Attention.K", at.K(), at.Op.Operand(1))
	check("Attention.V", at.V(), at.Op.Operand(2))
	check("Attention.Mask", at.Mask(), at.Op.Operand(3))
	check("Attention.MaskKind", at.MaskKind(), MaskCustom)
	check("Attention.MaskKind.HasOperand", at.MaskKind().HasOperand(), true)
	check("Attention.Scale", at.Scale(), 0.25)
	check("Attention.Softcap", at.Softcap(), 30.0)
	check("Attention.Window", at.Window(), int64(0))
	gd, _ := AsGatedDeltaNet(byName[GatedDeltaNetName])
	check("GatedDeltaNet.Q", gd.Q(), at.Op.Result(0))
	check("GatedDeltaNet.K", gd.K(), at.Op.Result(0))
	check("GatedDeltaNet.V", gd.V(), at.Op.Result(0))
	check("GatedDeltaNet.Gate", gd.Gate(), gd.Op.Operand(3))
	check("GatedDeltaNet.Beta", gd.Beta(), gd.Op.Operand(4))
	check("GatedDeltaNet.InitialState", gd.InitialState(), gd.Op.Operand(5))
	check("GatedDeltaNet.GatePerChannel", gd.GatePerChannel(), true)
	check("GatedDeltaNet.Out", gd.Out(), gd.Op.Result(0))
	check("GatedDeltaNet.State", gd.State(), gd.Op.Result(1))
	ls, _ := AsLSTM(byName[LSTMName])
	check("LSTM.HiddenSize", ls.HiddenSize(), int64(32))
	check("LSTM.Input", ls.Input(), ls.Op.Operand(0))
	check("LSTM.WIH", ls.WIH(), ls.Op.Operand(1))
	check("LSTM.WHH", ls.WHH(), ls.Op.Operand(2))
	check("LSTM.Bias", ls.Bias(), ls.Op.Operand(3))
	check("LSTM.H0", ls.H0(), ls.Op.Operand(4))
	check("LSTM.C0", ls.C0(), ls.Op.Operand(5))
	check("LSTM results", [3]*ir.Value{ls.Y(), ls.H(), ls.C()}, [3]*ir.Value{ls.Op.Result(0), ls.Op.Result(1), ls.Op.Result(2)})
	dq, _ := AsDequantMatMul(byName[DequantMatMulName])
	check("DequantMatMul.Format", dq.Format(), Q8_0)
	check("DequantMatMul", [2]int64{dq.N(), dq.K()}, [2]int64{16, 32})
	check("DequantMatMul.Input", dq.Input(), ls.H())
	check("DequantMatMul.Weight", dq.Weight(), dq.Op.Operand(1))
}

// TestViewDefaults checks the defaults of absent optional attributes.
func TestViewDefaults(t *testing.T) {
	ctx := newContext()
	m := parseVerify(t, ctx, `func.func @f(%q: tensor<1x1x4x64xf32>, %x: tensor<10xf32>, %g: tensor<1x1x4xf32>, %lx: tensor<1x5x8xf32>, %wih: tensor<64x8xf32>, %whh: tensor<64x16xf32>, %b: tensor<64xf32>) {
  %0 = graph.attention %q, %q, %q : (tensor<1x1x4x64xf32>, tensor<1x1x4x64xf32>, tensor<1x1x4x64xf32>) -> tensor<1x1x4x64xf32>
  %1 = graph.slice %x {axis = -1, length = 2, start = 1} : (tensor<10xf32>) -> tensor<2xf32>
  %2 = graph.reduce %x {axes = array<i64: -1>, kind = "max"} : (tensor<10xf32>) -> tensor<f32>
  %3:2 = graph.gated_delta_net %q, %q, %q, %g, %g : (tensor<1x1x4x64xf32>, tensor<1x1x4x64xf32>, tensor<1x1x4x64xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4x64xf32>, tensor<1x4x64x64xf32>)
  %4:3 = graph.lstm %lx, %wih, %whh, %b : (tensor<1x5x8xf32>, tensor<64x8xf32>, tensor<64x16xf32>, tensor<64xf32>) -> (tensor<1x5x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)
  return
}`)
	var ops []*ir.Operation
	m.Walk(func(op *ir.Operation) {
		if strings.HasPrefix(op.Name(), "graph.") {
			ops = append(ops, op)
		}
	})
	at, _ := AsAttention(ops[0])
	if at.MaskKind() != MaskNone || at.Mask() != nil || at.Scale() != 0.125 || at.Softcap() != 0 || at.MaskKind().HasOperand() {
		t.Errorf("attention defaults: mask %q %v scale %v softcap %v", at.MaskKind(), at.Mask(), at.Scale(), at.Softcap())
	}
	sl, _ := AsSlice(ops[1])
	if sl.Step() != 1 || sl.Axis() != 0 {
		t.Errorf("slice defaults: step %d axis %d", sl.Step(), sl.Axis())
	}
	red, _ := AsReduce(ops[2])
	if red.KeepDims() || len(red.Axes()) != 1 || red.Axes()[0] != 0 {
		t.Errorf("reduce defaults: keep_dims %v axes %v", red.KeepDims(), red.Axes())
	}
	gd, _ := AsGatedDeltaNet(ops[3])
	if gd.GatePerChannel() || gd.InitialState() != nil {
		t.Errorf("gated_delta_net defaults: per channel %v state %v", gd.GatePerChannel(), gd.InitialState())
	}
	ls, _ := AsLSTM(ops[4])
	if ls.H0() != nil || ls.C0() != nil || ls.HiddenSize() != 16 {
		t.Errorf("lstm defaults: h0 %v c0 %v H %d", ls.H0(), ls.C0(), ls.HiddenSize())
	}
	if math.IsNaN(at.Scale()) {
		t.Error("scale is NaN")
	}
}

func TestQuantFormat(t *testing.T) {
	for _, tc := range []struct {
		f             QuantFormat
		elems, nbytes int64
		packed        int64 // bytes of a [3, 512] matrix
	}{
		{Q4_0, 32, 18, 3 * 16 * 18},
		{Q8_0, 32, 34, 3 * 16 * 34},
		{Q4_K, 256, 144, 3 * 2 * 144},
		{Q6_K, 256, 210, 3 * 2 * 210},
		{Q5_K, 256, 176, 3 * 2 * 176},
		{Q2_K, 256, 84, 3 * 2 * 84},
		{Q3_K, 256, 110, 3 * 2 * 110},
		{Q4_1, 32, 20, 3 * 16 * 20},
		{Q5_0, 32, 22, 3 * 16 * 22},
		{Q5_1, 32, 24, 3 * 16 * 24},
		{IQ4_NL, 32, 18, 3 * 16 * 18},
		{IQ4_XS, 256, 136, 3 * 2 * 136},
		{MXFP4, 32, 17, 3 * 16 * 17},
	} {
		e, n, ok := tc.f.Block()
		if !ok || e != tc.elems || n != tc.nbytes || tc.f.PackedBytes(3, 512) != tc.packed {
			t.Errorf("%s: Block = %d, %d, %v; PackedBytes = %d", tc.f, e, n, ok, tc.f.PackedBytes(3, 512))
		}
	}
	if _, _, ok := QuantFormat("q8_1").Block(); ok || QuantFormat("q8_1").PackedBytes(1, 32) != -1 || Q4_K.PackedBytes(1, 32) != -1 {
		t.Error("unknown format or partial block accepted")
	}
}

func TestAttrs(t *testing.T) {
	specs := Attrs(SliceName)
	if len(specs) != 4 || specs[3].Name != "step" || specs[3].Default != "1" || specs[3].Required {
		t.Errorf("Attrs(slice) = %+v", specs)
	}
	if Attrs("graph.nope") != nil || Attrs(AddName) != nil {
		t.Error("Attrs of an unknown op or an op without attributes is not nil")
	}
}

// TestMovesPacked follows an expert stack's bytes to its dequant_matmul
// as an MoE block reads them, and stops at any other use.
func TestMovesPacked(t *testing.T) {
	ctx := newContext()
	m := parseVerify(t, ctx, `func.func @f(%x: tensor<1x256xf32>, %i: tensor<2xi32>) {
  %w = graph.param "exps" : tensor<3360xui8>
  %0 = graph.reshape %w : (tensor<3360xui8>) -> tensor<4x2x420xui8>
  %1 = graph.gather %0, %i {axis = 0 : i64} : (tensor<4x2x420xui8>, tensor<2xi32>) -> tensor<2x2x420xui8>
  %2 = graph.slice %1 {axis = 1 : i64, length = 1 : i64, start = 1 : i64} : (tensor<2x2x420xui8>) -> tensor<2x1x420xui8>
  %3 = graph.slice %2 {axis = 0 : i64, length = 1 : i64, start = 0 : i64} : (tensor<2x1x420xui8>) -> tensor<1x1x420xui8>
  %4 = graph.reshape %3 : (tensor<1x1x420xui8>) -> tensor<420xui8>
  %5 = graph.dequant_matmul %x, %4 {format = "q6_k", k = 256 : i64, n = 2 : i64} : (tensor<1x256xf32>, tensor<420xui8>) -> tensor<1x2xf32>
  %6 = graph.gather %i, %i {axis = 0 : i64} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return
}`)
	var v *ir.Value
	m.Walk(func(op *ir.Operation) {
		if op.Name() == ParamName {
			v = op.Result(0)
		}
	})
	var runs []int64
	for {
		var next *ir.Value
		for u := range v.Uses() {
			out, run, ok := MovesPacked(u)
			if !ok {
				if _, dq := AsDequantMatMul(u.Owner()); !dq {
					t.Fatalf("stopped at %s", u.Owner().Name())
				}
				continue
			}
			next = out
			runs = append(runs, run)
		}
		if next == nil {
			break
		}
		v = next
	}
	if want := []int64{0, 840, 420, 420, 0}; !slices.Equal(runs, want) {
		t.Errorf("runs %v, want %v", runs, want)
	}
	// The gather's indices and a dequant_matmul's x are not moved bytes.
	m.Walk(func(op *ir.Operation) {
		for i := range op.NumOperands() {
			if op.Name() == GatherName && i == 1 || op.Name() == DequantMatMulName {
				for u := range op.Operand(i).Uses() {
					if u.Owner() == op && u.Index() == i {
						if _, _, ok := MovesPacked(u); ok {
							t.Errorf("%s operand %d counted as moving packed bytes", op.Name(), i)
						}
					}
				}
			}
		}
	})
}

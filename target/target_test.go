package target_test

import (
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/internal/irtest"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/target"
)

// TestPlaceableAcrossRegions follows attention's q, k and v back across
// region boundaries: q is a reshape in an earlier region of an argument,
// k an argument.
func TestPlaceableAcrossRegions(t *testing.T) {
	m := irtest.Parse(t, nil, irtest.Split)
	var attn *ir.Operation
	m.Walk(func(op *ir.Operation) {
		if op.Name() == "graph.attention" {
			attn = op
		}
	})
	if why := target.MPSPlaceable()(attn); why != "" {
		t.Errorf("attention over a reshape of an argument is not placeable: %s", why)
	}
}

// TestPlaceable checks the reasons the verifier gives.
func TestPlaceable(t *testing.T) {
	place := target.MPSPlaceable()
	for _, tc := range []struct{ op, why string }{
		{`%r = graph.softplus %a : (tensor<4xf32>) -> tensor<4xf32>`, "no MPSGraph lowering"},
		{`%r = graph.exp %a : (tensor<4xf32>) -> tensor<4xf32>`, ""},
		{`%r = graph.cast %a : (tensor<4xf32>) -> tensor<4xi64>`, "cast to i64"},
		{`%r = graph.slice %a {axis = 0, start = 0, length = 2, step = 2} : (tensor<4xf32>) -> tensor<2xf32>`, "step 2"},
		// Leaves meet the rule on types too.
		{`%r = graph.param "p" : tensor<64x64xf32>`, ""},
		{`%r = graph.param "p" : tensor<2xbf16>`, ""},
		{`%r = graph.constant dense<1> : tensor<i32>`, ""},
		{`%r = graph.param "p" : tensor<?x64xf32>`, "result #0 has a dynamic dim ([?, 64])"},
		{`%r = graph.param "p" : tensor<1088xui8>`, "result #0 has element type ui8 (MPS takes f32, f16, bf16, i32)"},
		{`%r = graph.constant dense<1> : tensor<2xi64>`, "result #0 has element type i64"},
		{`%r = graph.constant dense<true> : tensor<2xi1>`, "result #0 has element type i1"},
	} {
		m := irtest.Parse(t, nil, "func.func @f(%a: tensor<4xf32>) {\n  "+tc.op+"\n  return\n}")
		op := m.Region(0).First().First().Region(0).First().First()
		if why := place(op); (tc.why == "") != (why == "") || !strings.Contains(why, tc.why) {
			t.Errorf("%s: %q, want %q", tc.op, why, tc.why)
		}
	}
}

// TestTargets checks the list: names unique and found by Lookup, the
// default among them, and what differs between targets.
func TestTargets(t *testing.T) {
	seen := map[string]bool{}
	for _, tg := range target.All() {
		if seen[tg.Name] {
			t.Errorf("target %s listed twice", tg.Name)
		}
		seen[tg.Name] = true
		got, err := target.Lookup(tg.Name)
		if err != nil || got.Name != tg.Name {
			t.Errorf("Lookup(%s) = %v, %v", tg.Name, got, err)
		}
		if tg.Thunk != target.ThunkMetal && tg.Thunk != target.ThunkHost {
			t.Errorf("%s: thunk target %q", tg.Name, tg.Thunk)
		}
		if (tg.MPS == nil) != (tg.MacOS == "") {
			t.Errorf("%s: an MPSGraph target needs a macOS version, and only it", tg.Name)
		}
	}
	if !seen[target.Default] {
		t.Errorf("the default %s is not a target", target.Default)
	}
	if _, err := target.Lookup("macos12"); err == nil || !strings.Contains(err.Error(), "expected one of: macos13, macos14, macos15, cpu") {
		t.Errorf("Lookup(macos12): %v", err)
	}
}

// TestTargetDifferences checks each target's answer on the ops where
// they differ: bf16 (macOS 14's MPSGraph and later) and a target without
// MPSGraph.
func TestTargetDifferences(t *testing.T) {
	m := irtest.Parse(t, nil, `func.func @f(%x: tensor<4xbf16>, %y: tensor<4xf32>) {
  %0 = graph.exp %x : (tensor<4xbf16>) -> tensor<4xbf16>
  %1 = graph.exp %y : (tensor<4xf32>) -> tensor<4xf32>
  %p = graph.param "w" : tensor<4xf32>
  return
}`)
	ops := irtest.OpsNamed(m, "graph.")
	bf16, f32, leaf := ops[0], ops[1], ops[2]
	for _, tc := range []struct {
		target          string
		bf16, f32, leaf bool
		why             string
	}{
		{"macos13", false, true, true, "graph.exp: operand #0 has element type bf16 (MPS takes f32, f16, i32)"},
		{"macos14", true, true, true, ""},
		{"macos15", true, true, true, ""},
		{"cpu", false, false, true, "graph.exp: target cpu runs nothing through MPSGraph"},
	} {
		tg := target.MustLookup(tc.target)
		ok, why := tg.Capable(bf16, true)
		if ok != tc.bf16 || why != tc.why {
			t.Errorf("%s: bf16 exp: %v, %q; want %v, %q", tc.target, ok, why, tc.bf16, tc.why)
		}
		if ok, _ := tg.Capable(bf16, false); ok != tc.bf16 {
			t.Errorf("%s: bf16 exp without explain: %v", tc.target, ok)
		}
		if ok, _ := tg.Capable(f32, false); ok != tc.f32 {
			t.Errorf("%s: f32 exp: %v", tc.target, ok)
		}
		if ok, _ := tg.Capable(leaf, true); ok != tc.leaf {
			t.Errorf("%s: leaf: %v", tc.target, ok)
		}
	}
	// The verifier takes what any MPSGraph target runs.
	if why := target.MPSPlaceable()(bf16); why != "" {
		t.Errorf("MPSPlaceable(bf16 exp) = %q", why)
	}
}

// TestSplitPoints checks seed mode's split points.
func TestSplitPoints(t *testing.T) {
	for _, tg := range target.All() {
		if got := strings.Join(tg.SplitPoints, ","); got != "graph.gated_delta_net,graph.lstm,graph.attention,graph.dequant_matmul" {
			t.Errorf("%s: split points %s", tg.Name, got)
		}
	}
	m := irtest.Parse(t, nil, irtest.Split)
	n := 0
	tg := target.MustLookup(target.Default)
	m.Walk(func(op *ir.Operation) {
		if tg.IsSplitPoint(op) {
			n++
			if op.Name() != "graph.attention" {
				t.Errorf("%s is a split point", op.Name())
			}
		}
	})
	if n != 1 {
		t.Errorf("%d split points, want the one attention", n)
	}
}

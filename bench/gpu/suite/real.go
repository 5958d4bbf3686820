package suite

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/codegen/metal/opsuite"
)

// Real sizes: a Qwen-like decoder (hidden 4096, intermediate 14336 and
// 11008, vocabulary 151936, 32 query heads and 8 KV heads of 128, KV
// caches of 1k to 32k) and Qwen3.5's gated delta net (32 heads of 128).
const (
	hidden = 4096
	inter  = 14336
	inter2 = 11008
	vocab  = 151936
	heads  = 32
	kvH    = 8
	headD  = 128
)

// RealCases are the real-size cases: every op family once at a size a
// decode step (or a short prefill) of such a model has, and the decode
// kernels that the benchmark times against the memory roofline.
func RealCases() []Case {
	var cs []Case
	t := func(shape string, elem string) string { return "tensor<" + shape + "x" + elem + ">" }
	bench := func(c Case, group, anchor string, dims map[string]int) Case {
		c.Bench = &Bench{Group: group, Anchor: anchor, Dims: dims}
		return c
	}

	// Element-wise: the SwiGLU product and the residual add of a decode
	// step, and a prefill-sized SwiGLU for bandwidth.
	swiglu := func(name string, rows, n int) Case {
		x := t(fmt.Sprintf("%dx%d", rows, n), "f32")
		return fromOp(opsuite.Case{Name: name, Args: []string{x, x},
			Body:  fmt.Sprintf("%%0 = graph.silu %%a0 : (%s) -> %s\n%%1 = graph.mul %%0, %%a1 : (%s, %s) -> %s", x, x, x, x, x),
			Yield: []string{"%1"}, Results: []string{x}, Limit: opsuite.LimitExact})
	}
	cs = append(cs, swiglu("swiglu_decode_14336", 1, inter))
	cs = append(cs, bench(swiglu("swiglu_rows_512x14336", 512, inter), "elementwise", "", map[string]int{"rows": 512, "dim": inter}))
	x1 := t(fmt.Sprintf("1x%d", hidden), "f32")
	cs = append(cs, one("residual_add_4096", opsuite.LimitExact, []string{x1, x1}, x1, "add", ""))

	// Norms and the vocabulary-wide softmax and reduction.
	g := t(fmt.Sprint(hidden), "f32")
	cs = append(cs, bench(one("rms_norm_decode_4096", opsuite.LimitExact, []string{x1, g}, x1, "rms_norm", "epsilon = 1.0e-06 : f32"),
		"norm", "rms_norm", map[string]int{"rows": 1, "dim": hidden}))
	xr := t(fmt.Sprintf("4096x%d", hidden), "f32")
	cs = append(cs, bench(one("rms_norm_rows_4096x4096", opsuite.LimitExact, []string{xr, g}, xr, "rms_norm", "epsilon = 1.0e-06 : f32"),
		"norm", "rms_norm", map[string]int{"rows": 4096, "dim": hidden}))
	xh, gh := t(fmt.Sprintf("4096x%d", hidden), "f16"), t(fmt.Sprint(hidden), "f16")
	cs = append(cs, bench(one("rms_norm_rows_f16_4096x4096", opsuite.LimitF16, []string{xh, gh}, xh, "rms_norm", "epsilon = 1.0e-06 : f32"),
		"norm", "rms_norm_f16", map[string]int{"rows": 4096, "dim": hidden}))
	cs = append(cs, one("layer_norm_decode_4096", opsuite.LimitExact, []string{x1, g, g}, x1, "layer_norm", "epsilon = 1.0e-05 : f32"))
	cs = append(cs, bench(one("layer_norm_rows_f16_4096x4096", opsuite.LimitF16, []string{xh, gh, gh}, xh, "layer_norm", "epsilon = 1.0e-05 : f32"),
		"norm", "layer_norm_f16", map[string]int{"rows": 4096, "dim": hidden}))
	xv := t(fmt.Sprintf("1x%d", vocab), "f32")
	cs = append(cs, one("softmax_vocab", opsuite.LimitExact, []string{xv}, xv, "softmax", "axis = 1 : i64"))
	cs = append(cs, one("reduce_max_vocab", 0, []string{xv}, t("1", "f32"), "reduce", `axes = array<i64: 1>, keep_dims = false, kind = "max"`))

	// Data movement around the KV cache and the embedding.
	q := t(fmt.Sprintf("1x1x%dx%d", heads, headD), "f32")
	cossin := t(fmt.Sprintf("1x%d", headD/2), "f32")
	cs = append(cs, one("rope_q_decode", opsuite.LimitExact, []string{q, cossin, cossin}, q, "rope",
		fmt.Sprintf(`head_dim = %d : i64, rotary_dim = %d : i64, style = "neox"`, headD, headD)))
	cache := func(l int) string { return t(fmt.Sprintf("1x%dx%dx%d", l, kvH, headD), "f16") }
	cs = append(cs, one("concat_kv_append_4096", opsuite.LimitExact, []string{cache(4095), cache(1)}, cache(4096), "concat", "axis = 1 : i64"))
	cs = append(cs, one("transpose_kv_4096", opsuite.LimitExact, []string{cache(4096)}, t(fmt.Sprintf("1x%dx4096x%d", kvH, headD), "f16"),
		"transpose", "permutation = array<i64: 0, 2, 1, 3>"))
	cs = append(cs, one("slice_kv_window", opsuite.LimitExact, []string{cache(8192)}, cache(4096), "slice", "axis = 1 : i64, start = 4096 : i64, length = 4096 : i64"))
	cs = append(cs, fromOp(opsuite.Case{Name: "gather_embedding", Args: []string{t("1x4", "i32")},
		Body: fmt.Sprintf("%%w = graph.param \"embed\" : %s\n%%0 = graph.gather %%w, %%a0 {axis = 0 : i64} : (%s, %s) -> %s",
			t(fmt.Sprintf("%dx1024", vocab), "f16"), t(fmt.Sprintf("%dx1024", vocab), "f16"), t("1x4", "i32"), t("1x4x1024", "f16")),
		Yield: []string{"%0"}, Results: []string{t("1x4x1024", "f16")}, Limit: opsuite.LimitExact}))

	// GEMV in f16 at the decoder's three shapes and the lm head, and a
	// short-prefill GEMM.
	gemv := func(name string, k, n int, group string) Case {
		c := fromOp(opsuite.Case{Name: name, Args: []string{t(fmt.Sprintf("1x%d", k), "f16")},
			Body: fmt.Sprintf("%%w = graph.param \"w\" : %s\n%%0 = graph.matmul %%a0, %%w : (%s, %s) -> %s",
				t(fmt.Sprintf("%dx%d", k, n), "f16"), t(fmt.Sprintf("1x%d", k), "f16"), t(fmt.Sprintf("%dx%d", k, n), "f16"), t(fmt.Sprintf("1x%d", n), "f16")),
			Yield: []string{"%0"}, Results: []string{t(fmt.Sprintf("1x%d", n), "f16")}, Limit: opsuite.LimitMatmul})
		return bench(c, group, "linear", map[string]int{"K": k, "N": n})
	}
	cs = append(cs, gemv("gemv_f16_4096x4096", hidden, hidden, "gemv"))
	cs = append(cs, gemv("gemv_f16_4096x14336", hidden, inter, "gemv"))
	cs = append(cs, gemv("gemv_f16_14336x4096", inter, hidden, "gemv"))
	cs = append(cs, gemv("gemv_f16_lm_head_4096x151936", hidden, vocab, "gemv"))
	cs = append(cs, fromOp(opsuite.Case{Name: "gemm_prefill_64x4096x11008", Args: []string{t("64x4096", "f32")},
		Body: fmt.Sprintf("%%w = graph.param \"w\" : %s\n%%0 = graph.matmul %%a0, %%w : (%s, %s) -> %s",
			t(fmt.Sprintf("%dx%d", hidden, inter2), "f16"), t("64x4096", "f32"), t(fmt.Sprintf("%dx%d", hidden, inter2), "f16"), t(fmt.Sprintf("64x%d", inter2), "f32")),
		Yield: []string{"%0"}, Results: []string{t(fmt.Sprintf("64x%d", inter2), "f32")}, Limit: opsuite.LimitMatmul}))

	// Dequantising GEMV for every format at the three shapes (K×N), and
	// one dequantising GEMM.
	quant := map[string][2]int{"q4_0": {32, 18}, "q8_0": {32, 34}, "q4_k": {256, 144}, "q5_k": {256, 176}, "q6_k": {256, 210}, "q6_k_c16": {256, 210},
		"q2_k": {256, 84}, "q3_k": {256, 110}, "q4_1": {32, 20}, "q5_0": {32, 22}, "q5_1": {32, 24},
		"iq4_nl": {32, 18}, "iq4_xs": {256, 136}, "mxfp4": {32, 17}}
	dq := func(name, f string, m, k, n int) Case {
		blk := quant[f]
		w := t(fmt.Sprint(n*k/blk[0]*blk[1]), "ui8")
		x := t(fmt.Sprintf("%dx%d", m, k), "f32")
		y := t(fmt.Sprintf("%dx%d", m, n), "f32")
		return fromOp(opsuite.Case{Name: name, Args: []string{x},
			Body: fmt.Sprintf("%%w = graph.param \"w\" : %s\n%%0 = graph.dequant_matmul %%a0, %%w {format = %q, k = %d : i64, n = %d : i64} : (%s, %s) -> %s",
				w, f, k, n, x, w, y),
			Yield: []string{"%0"}, Results: []string{y}, Limit: opsuite.LimitDequant})
	}
	for _, f := range []string{"q4_0", "q8_0", "q4_k", "q5_k", "q6_k", "q6_k_c16"} {
		for _, s := range [][2]int{{hidden, hidden}, {hidden, inter}, {inter, hidden}} {
			c := dq(fmt.Sprintf("dequant_gemv_%s_%dx%d", f, s[0], s[1]), f, 1, s[0], s[1])
			cs = append(cs, bench(c, "gemv", "linear", map[string]int{"K": s[0], "N": s[1]}))
		}
	}
	// The unit formats (dequantGEMVUnits): q3_k, q4_1, q5_0 and q5_1
	// (which variants/q4_1-lane.patch and q5-lane.patch move to q4_0's
	// layouts, staged at K = 14336 on 16 rows) at the three shapes, the
	// others at 4096×14336.
	threeShapes := map[string]bool{"q3_k": true, "q4_1": true, "q5_0": true, "q5_1": true}
	for _, f := range []string{"q3_k", "q2_k", "q4_1", "q5_0", "q5_1", "iq4_nl", "iq4_xs", "mxfp4"} {
		for _, s := range [][2]int{{hidden, hidden}, {hidden, inter}, {inter, hidden}} {
			if !threeShapes[f] && s != [2]int{hidden, inter} {
				continue
			}
			c := dq(fmt.Sprintf("dequant_gemv_%s_%dx%d", f, s[0], s[1]), f, 1, s[0], s[1])
			cs = append(cs, bench(c, "gemv", "linear", map[string]int{"K": s[0], "N": s[1]}))
		}
	}
	// gpt-oss's expert projection (K = 2880, 90 units of 32: three
	// simdgroups a threadgroup), mxfp4 as published.
	c := dq("dequant_gemv_mxfp4_2880x5760", "mxfp4", 1, 2880, 5760)
	cs = append(cs, bench(c, "gemv", "linear", map[string]int{"K": 2880, "N": 5760}))
	cs = append(cs, dq("dequant_gemm_q4_k_32x4096x4096", "q4_k", 32, hidden, hidden))

	// Attention: decode with GQA at three cache lengths, and a prefill.
	att := func(name string, sq, sk int, mask string) Case {
		return one(name, opsuite.LimitMatmul, []string{
			t(fmt.Sprintf("1x%dx%dx%d", sq, heads, headD), "f16"),
			t(fmt.Sprintf("1x%dx%dx%d", sk, kvH, headD), "f16"),
			t(fmt.Sprintf("1x%dx%dx%d", sk, kvH, headD), "f16"),
		}, t(fmt.Sprintf("1x%dx%dx%d", sq, heads, headD), "f16"), "attention", fmt.Sprintf("mask = %q", mask))
	}
	for _, l := range []int{1024, 8192, 32768} {
		c := att(fmt.Sprintf("attention_decode_gqa_%dk", l/1024), 1, l, "causal")
		cs = append(cs, bench(c, "attention", "sdpa", map[string]int{"B": 1, "H": heads, "Hkv": kvH, "L": l, "D": headD}))
	}
	cs = append(cs, att("attention_prefill_256", 256, 256, "causal"))

	// Qwen3.5's gated delta net, one decode step (both gate kinds), and
	// an LSTM of a speech model's size.
	gdn := func(name string, perChannel bool) Case {
		v := t(fmt.Sprintf("1x1x%dx%d", heads, headD), "f32")
		s := t(fmt.Sprintf("1x1x%d", heads), "f32")
		gt := s
		attrs := ""
		if perChannel {
			gt, attrs = v, " {gate_per_channel = true}"
		}
		st := t(fmt.Sprintf("1x%dx%dx%d", heads, headD, headD), "f32")
		args := []string{v, v, v, gt, s, st}
		return fromOp(opsuite.Case{Name: name, Args: args,
			Body: fmt.Sprintf("%%0:2 = graph.gated_delta_net %%a0, %%a1, %%a2, %%a3, %%a4, %%a5%s : (%s, %s, %s, %s, %s, %s) -> (%s, %s)",
				attrs, v, v, v, gt, s, st, v, st),
			Yield: []string{"%0#0", "%0#1"}, Results: []string{v, st}, Limit: 1e-6})
	}
	cs = append(cs, bench(gdn("gdn_decode_qwen35", false), "recurrent", "", map[string]int{"H": heads, "N": headD}))
	cs = append(cs, gdn("gdn_decode_qwen35_kda", true))
	cs = append(cs, fromOp(opsuite.Case{Name: "lstm_1024_seq8",
		Args:  []string{t("1x8x1024", "f32"), t("4096x1024", "f32"), t("4096x1024", "f32"), t("4096", "f32")},
		Body:  "%0:3 = graph.lstm %a0, %a1, %a2, %a3 : (tensor<1x8x1024xf32>, tensor<4096x1024xf32>, tensor<4096x1024xf32>, tensor<4096xf32>) -> (tensor<1x8x1024xf32>, tensor<1x1024xf32>, tensor<1x1024xf32>)",
		Yield: []string{"%0#0", "%0#1", "%0#2"}, Results: []string{t("1x8x1024", "f32"), t("1x1024", "f32"), t("1x1024", "f32")}, Limit: 1e-6}))

	// An MoE block's expert reads: the router's top 2 of 64 experts of
	// [512, 2048] in q4_k, each read in place from the 37.7 MB stack.
	cs = append(cs, moeExperts("moe_experts_q4_k_64x512x2048_top2", 64, 2, 512, 2048))
	// Timed: Qwen3-Next's gate (or up) projection of its top 10 of 512
	// experts of [512, 2048], all ten in one dispatch from a 302 MB
	// stack, against the same ten matrices as ten separate weights, one
	// GEMV dispatch each (what the experts cost without batching). The
	// roofline counts the ten matrices, not the stack.
	const moeN, moeK, moeTop = 512, 2048, 10
	perExpert := moeN * moeK / 256 * 144
	moeDims := map[string]int{"experts": 512, "top": moeTop, "N": moeN, "K": moeK}
	moe := bench(moeExperts("moe_experts_q4_k_512x512x2048_top10", 512, moeTop, moeN, moeK), "moe", "", moeDims)
	moe.Bench.Bytes = int64(moeTop*perExpert + 4*(moeK+512+moeTop*moeN))
	cs = append(cs, moe)
	dense := bench(denseExperts("dense_q4_k_10x512x2048", moeTop, moeN, moeK), "moe", "", moeDims)
	cs = append(cs, dense)

	// Qwen3-Next's router: the top 10 of 512 experts for one token.
	// Timed against torch.topk: a router's pick is on the decode path of
	// every MoE layer (run 31: 24 µs on one multiprocessor).
	cs = append(cs, bench(fromOp(opsuite.Case{Name: "topk_router_512_top10", Args: []string{t("1x512", "f32")},
		Body:  "%0:2 = graph.topk %a0 {k = 10 : i64} : (tensor<1x512xf32>) -> (tensor<1x10xf32>, tensor<1x10xi32>)",
		Yield: []string{"%0#0", "%0#1"}, Results: []string{t("1x10", "f32"), t("1x10", "i32")}, Limit: 0}),
		"moe", "topk", map[string]int{"rows": 1, "N": 512, "k": 10}))
	return cs
}

// moeExperts is a router's top k of e experts of [n, k] in q4_k, read in
// place from their stack by one batched dispatch (codegen/metal
// experts.go): graph.topk of the router logits, a gather of the chosen
// experts' bytes, and a GEMV of x with each.
func moeExperts(name string, experts, top, n, k int) Case {
	t := func(shape string, elem string) string { return "tensor<" + shape + "x" + elem + ">" }
	per := n * k / 256 * 144
	stack, g := fmt.Sprintf("tensor<%dxui8>", experts*per), fmt.Sprintf("tensor<%dx%dxui8>", top, per)
	body := fmt.Sprintf(`%%t:2 = graph.topk %%a1 {k = %d : i64} : (tensor<1x%dxf32>) -> (tensor<1x%dxf32>, tensor<1x%dxi32>)
%%i = graph.reshape %%t#1 : (tensor<1x%dxi32>) -> tensor<%dxi32>
%%w = graph.param "exps" : %s
%%r = graph.reshape %%w : (%s) -> tensor<%dx%dxui8>
%%g = graph.gather %%r, %%i {axis = 0 : i64} : (tensor<%dx%dxui8>, tensor<%dxi32>) -> %s`,
		top, experts, top, top, top, top, stack, stack, experts, per, experts, per, top, g)
	var yields, results []string
	for j := range top {
		body += fmt.Sprintf(`
%%s%d = graph.slice %%g {axis = 0 : i64, length = 1 : i64, start = %d : i64} : (%s) -> tensor<1x%dxui8>
%%m%d = graph.reshape %%s%d : (tensor<1x%dxui8>) -> tensor<%dxui8>
%%y%d = graph.dequant_matmul %%a0, %%m%d {format = "q4_k", k = %d : i64, n = %d : i64} : (tensor<1x%dxf32>, tensor<%dxui8>) -> tensor<1x%dxf32>`,
			j, j, g, per, j, j, per, per, j, j, k, n, k, per, n)
		yields = append(yields, fmt.Sprintf("%%y%d", j))
		results = append(results, t(fmt.Sprintf("1x%d", n), "f32"))
	}
	return fromOp(opsuite.Case{Name: name, Args: []string{t(fmt.Sprintf("1x%d", k), "f32"), t(fmt.Sprintf("1x%d", experts), "f32")},
		Body: body, Yield: yields, Results: results, Limit: opsuite.LimitDequant})
}

// denseExperts is count separate q4_k weights of [n, k], each a GEMV of
// the same x: moeExperts' reads without a router, one dispatch each.
func denseExperts(name string, count, n, k int) Case {
	t := func(shape string, elem string) string { return "tensor<" + shape + "x" + elem + ">" }
	per := n * k / 256 * 144
	var body []string
	var yields, results []string
	for j := range count {
		body = append(body, fmt.Sprintf(`%%w%d = graph.param "w%d" : tensor<%dxui8>
%%y%d = graph.dequant_matmul %%a0, %%w%d {format = "q4_k", k = %d : i64, n = %d : i64} : (tensor<1x%dxf32>, tensor<%dxui8>) -> tensor<1x%dxf32>`,
			j, j, per, j, j, k, n, k, per, n))
		yields = append(yields, fmt.Sprintf("%%y%d", j))
		results = append(results, t(fmt.Sprintf("1x%d", n), "f32"))
	}
	return fromOp(opsuite.Case{Name: name, Args: []string{t(fmt.Sprintf("1x%d", k), "f32")},
		Body: strings.Join(body, "\n"), Yield: yields, Results: results, Limit: opsuite.LimitDequant})
}

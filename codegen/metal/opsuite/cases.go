package opsuite

import (
	"fmt"
	"strings"
)

// Cases is the op suite: every op family at several shapes, odd sizes
// (not multiples of 32 or of a block), the decode case and a batch case.
func Cases() []Case {
	var cs []Case
	cs = append(cs, elementwiseCases()...)
	cs = append(cs, normCases()...)
	cs = append(cs, reduceCases()...)
	cs = append(cs, ropeCases()...)
	cs = append(cs, movementCases()...)
	cs = append(cs, matmulCases()...)
	cs = append(cs, dequantCases()...)
	cs = append(cs, expertCases()...)
	cs = append(cs, attentionCases()...)
	cs = append(cs, recurrentCases()...)
	cs = append(cs, topkCases()...)
	return cs
}

// NMSE limits of the codegen (docs/codegen-metal.md states them).
const (
	LimitExact  = 1e-7 // f32 element-wise, norms, data movement
	LimitMatmul = 5e-4 // matmul and attention (another summation order)
	// LimitDequant: dequant_matmul, f32 x against weights that decode
	// exactly, so only the order of the float sums differs (measured at
	// most 5e-12 at K = 14336); a quant off by one in one field of four
	// gives about 5e-5, inside LimitMatmul.
	LimitDequant = 1e-8
	LimitF16     = 1e-5 // f16 Results: one rounding of 2^-11 differs at most
	LimitBF16    = 1e-4 // bf16 Results: one rounding of 2^-8
)

// One is a case with a single op: %0 = graph.<op> %a0, … {attrs}.
func One(name string, limit float64, args []string, result, op, attrs string) Case {
	uses := make([]string, len(args))
	for i := range args {
		uses[i] = fmt.Sprintf("%%a%d", i)
	}
	if attrs != "" {
		attrs = " {" + attrs + "}"
	}
	body := fmt.Sprintf("%%0 = graph.%s %s%s : (%s) -> %s", op, strings.Join(uses, ", "), attrs, strings.Join(args, ", "), result)
	return Case{Name: name, Args: args, Body: body, Yield: []string{"%0"}, Results: []string{result}, Limit: limit}
}

func elementwiseCases() []Case {
	const t = "tensor<3x37xf32>"
	cs := []Case{
		{
			Name: "ew_add_silu", Args: []string{"tensor<4x1000xf32>", "tensor<1000xf32>"},
			Body: `%0 = graph.add %a0, %a1 : (tensor<4x1000xf32>, tensor<1000xf32>) -> tensor<4x1000xf32>
%1 = graph.silu %0 : (tensor<4x1000xf32>) -> tensor<4x1000xf32>`,
			Yield: []string{"%1"}, Results: []string{"tensor<4x1000xf32>"}, Limit: LimitExact,
		},
		{
			// Positive operands for the functions defined on them; the
			// intermediate %1 is also a result, so the fused kernel writes it.
			Name: "ew_positive_chain", Args: []string{t},
			Body: `%0 = graph.abs %a0 : (` + t + `) -> ` + t + `
%c = graph.constant dense<0.25> : tensor<f32>
%1 = graph.add %0, %c : (` + t + `, tensor<f32>) -> ` + t + `
%2 = graph.log %1 : (` + t + `) -> ` + t + `
%3 = graph.sqrt %1 : (` + t + `) -> ` + t + `
%4 = graph.rsqrt %1 : (` + t + `) -> ` + t + `
%5 = graph.pow %1, %a0 : (` + t + `, ` + t + `) -> ` + t + `
%6 = graph.add %2, %3 : (` + t + `, ` + t + `) -> ` + t + `
%7 = graph.add %6, %4 : (` + t + `, ` + t + `) -> ` + t + `
%8 = graph.add %7, %5 : (` + t + `, ` + t + `) -> ` + t,
			Yield: []string{"%8", "%1"}, Results: []string{t, t}, Limit: LimitExact,
		},
		{
			Name: "ew_pow_negative_base", Args: []string{t},
			Body: `%c = graph.constant dense<3.0> : tensor<1xf32>
%0 = graph.pow %a0, %c : (` + t + `, tensor<1xf32>) -> ` + t,
			Yield: []string{"%0"}, Results: []string{t}, Limit: LimitExact,
		},
		{
			Name: "ew_general_broadcast", Args: []string{"tensor<3x1x5xf32>", "tensor<1x4x5xf32>", "tensor<4x1xf32>"},
			Body: `%0 = graph.mul %a0, %a1 : (tensor<3x1x5xf32>, tensor<1x4x5xf32>) -> tensor<3x4x5xf32>
%1 = graph.sub %0, %a2 : (tensor<3x4x5xf32>, tensor<4x1xf32>) -> tensor<3x4x5xf32>
%2 = graph.div %1, %a1 : (tensor<3x4x5xf32>, tensor<1x4x5xf32>) -> tensor<3x4x5xf32>`,
			Yield: []string{"%2"}, Results: []string{"tensor<3x4x5xf32>"}, Limit: LimitExact,
		},
		{
			// One buffer read as two shapes (itself and a reshape): each
			// broadcasts its own way. The random functions' g731 found
			// the fused kernel reading both through one index.
			Name: "ew_reshaped_operand", Args: []string{"tensor<3x5xf32>"},
			Body: `%0 = graph.reshape %a0 : (tensor<3x5xf32>) -> tensor<3x1x5xf32>
%1 = graph.mul %a0, %0 : (tensor<3x5xf32>, tensor<3x1x5xf32>) -> tensor<3x3x5xf32>`,
			Yield: []string{"%1"}, Results: []string{"tensor<3x3x5xf32>"}, Limit: LimitExact,
		},
		{
			Name: "ew_f16_chain", Args: []string{"tensor<2x40xf16>", "tensor<2x40xf16>"},
			Body: `%0 = graph.mul %a0, %a1 : (tensor<2x40xf16>, tensor<2x40xf16>) -> tensor<2x40xf16>
%1 = graph.add %0, %a0 : (tensor<2x40xf16>, tensor<2x40xf16>) -> tensor<2x40xf16>
%2 = graph.gelu %1 : (tensor<2x40xf16>) -> tensor<2x40xf16>`,
			Yield: []string{"%2"}, Results: []string{"tensor<2x40xf16>"}, Limit: LimitF16,
		},
		{
			Name: "ew_cmp_select", Args: []string{"tensor<5x7xf32>", "tensor<7xf32>"},
			Body: `%0 = graph.cmp %a0, %a1 {predicate = "lt"} : (tensor<5x7xf32>, tensor<7xf32>) -> tensor<5x7xi1>
%c = graph.constant dense<-2.5> : tensor<f32>
%1 = graph.select %0, %a0, %c : (tensor<5x7xi1>, tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>`,
			Yield: []string{"%1", "%0"}, Results: []string{"tensor<5x7xf32>", "tensor<5x7xi1>"}, Limit: LimitExact,
		},
		{
			Name: "ew_int", Args: []string{"tensor<7x5xi32>", "tensor<5xi32>"},
			Body: `%0 = graph.add %a0, %a1 : (tensor<7x5xi32>, tensor<5xi32>) -> tensor<7x5xi32>
%1 = graph.mul %0, %a1 : (tensor<7x5xi32>, tensor<5xi32>) -> tensor<7x5xi32>
%2 = graph.div %1, %a0 : (tensor<7x5xi32>, tensor<7x5xi32>) -> tensor<7x5xi32>
%3 = graph.sub %2, %a0 : (tensor<7x5xi32>, tensor<7x5xi32>) -> tensor<7x5xi32>
%4 = graph.neg %3 : (tensor<7x5xi32>) -> tensor<7x5xi32>
%5 = graph.max %4, %a1 : (tensor<7x5xi32>, tensor<5xi32>) -> tensor<7x5xi32>
%6 = graph.pow %5, %a1 : (tensor<7x5xi32>, tensor<5xi32>) -> tensor<7x5xi32>
%7 = graph.abs %4 : (tensor<7x5xi32>) -> tensor<7x5xi32>
%8 = graph.min %7, %6 : (tensor<7x5xi32>, tensor<7x5xi32>) -> tensor<7x5xi32>`,
			Yield: []string{"%8"}, Results: []string{"tensor<7x5xi32>"}, Limit: 0,
		},
		{
			Name: "ew_casts", Args: []string{"tensor<6x11xf32>"},
			Body: `%k = graph.constant dense<300.0> : tensor<f32>
%s = graph.mul %a0, %k : (tensor<6x11xf32>, tensor<f32>) -> tensor<6x11xf32>
%0 = graph.cast %s : (tensor<6x11xf32>) -> tensor<6x11xi32>
%1 = graph.cast %s : (tensor<6x11xf32>) -> tensor<6x11xi8>
%2 = graph.cast %s : (tensor<6x11xf32>) -> tensor<6x11xui8>
%3 = graph.cast %a0 : (tensor<6x11xf32>) -> tensor<6x11xf16>
%4 = graph.cast %a0 : (tensor<6x11xf32>) -> tensor<6x11xbf16>
%5 = graph.cast %0 : (tensor<6x11xi32>) -> tensor<6x11xf32>
%6 = graph.cast %a0 : (tensor<6x11xf32>) -> tensor<6x11xi1>
%7 = graph.cast %0 : (tensor<6x11xi32>) -> tensor<6x11xi64>`,
			Yield:   []string{"%0", "%1", "%2", "%3", "%4", "%5", "%6", "%7"},
			Results: []string{"tensor<6x11xi32>", "tensor<6x11xi8>", "tensor<6x11xui8>", "tensor<6x11xf16>", "tensor<6x11xbf16>", "tensor<6x11xf32>", "tensor<6x11xi1>", "tensor<6x11xi64>"},
			Limit:   0,
		},
		One("ew_broadcast", LimitExact, []string{"tensor<3x1xf32>"}, "tensor<2x3x9xf32>", "broadcast", ""),
		{
			Name: "ew_max_min", Args: []string{"tensor<4x33xf32>", "tensor<33xf32>"},
			Body: `%0 = graph.max %a0, %a1 : (tensor<4x33xf32>, tensor<33xf32>) -> tensor<4x33xf32>
%1 = graph.min %a0, %a1 : (tensor<4x33xf32>, tensor<33xf32>) -> tensor<4x33xf32>`,
			Yield: []string{"%0", "%1"}, Results: []string{"tensor<4x33xf32>", "tensor<4x33xf32>"}, Limit: LimitExact,
		},
	}
	for _, u := range []string{"neg", "abs", "exp", "sigmoid", "tanh", "sin", "cos", "relu", "softplus", "silu", "gelu", "gelu_tanh", "reciprocal"} {
		cs = append(cs, One("ew_"+u, LimitExact, []string{t}, t, u, ""))
	}
	cs = append(cs,
		// gelu's far tail, x in [-12.25, -11.75]: values near 1e-32
		// that keep their relative digits (erfc's error must be
		// relative; random function 6736).
		Case{
			Name: "ew_gelu_far_tail", Args: []string{t},
			Body: `%c = graph.constant dense<2.500000e-01> : tensor<f32>
%o = graph.constant dense<1.200000e+01> : tensor<f32>
%0 = graph.mul %a0, %c : (tensor<3x37xf32>, tensor<f32>) -> tensor<3x37xf32>
%1 = graph.sub %0, %o : (tensor<3x37xf32>, tensor<f32>) -> tensor<3x37xf32>
%2 = graph.gelu %1 : (tensor<3x37xf32>) -> tensor<3x37xf32>`,
			Yield: []string{"%2"}, Results: []string{t}, Limit: LimitExact,
		},
		// C's pow(1, y) = 1 for every y, NaN among them (random
		// function 6975): NaN exponents from rsqrt of negatives.
		Case{
			Name: "ew_pow_one_nan", Args: []string{t},
			Body: `%one = graph.constant dense<1.000000e+00> : tensor<f32>
%0 = graph.abs %a0 : (tensor<3x37xf32>) -> tensor<3x37xf32>
%1 = graph.neg %0 : (tensor<3x37xf32>) -> tensor<3x37xf32>
%2 = graph.rsqrt %1 : (tensor<3x37xf32>) -> tensor<3x37xf32>
%3 = graph.pow %one, %2 : (tensor<f32>, tensor<3x37xf32>) -> tensor<3x37xf32>`,
			Yield: []string{"%3"}, Results: []string{t}, Limit: LimitExact,
		})
	return cs
}

func normCases() []Case {
	rms := func(name, x, g, y string, limit float64) Case {
		return One(name, limit, []string{x, g}, y, "rms_norm", "epsilon = 1.0e-06 : f32")
	}
	ln := func(name, x, g, y string, limit float64) Case {
		return One(name, limit, []string{x, g, g}, y, "layer_norm", "epsilon = 1.0e-05 : f32")
	}
	sm := func(name, x string, axis int, limit float64) Case {
		return One(name, limit, []string{x}, x, "softmax", fmt.Sprintf("axis = %d : i64", axis))
	}
	return []Case{
		rms("rms_norm_3x1000", "tensor<3x1000xf32>", "tensor<1000xf32>", "tensor<3x1000xf32>", LimitExact),
		rms("rms_norm_decode_1x64", "tensor<1x64xf32>", "tensor<64xf32>", "tensor<1x64xf32>", LimitExact),
		rms("rms_norm_odd_2x3x37", "tensor<2x3x37xf32>", "tensor<37xf32>", "tensor<2x3x37xf32>", LimitExact),
		rms("rms_norm_f16", "tensor<2x96xf16>", "tensor<96xf32>", "tensor<2x96xf16>", LimitF16),
		rms("rms_norm_bf16", "tensor<3x80xbf16>", "tensor<80xbf16>", "tensor<3x80xbf16>", LimitBF16),
		ln("layer_norm_4x77", "tensor<4x77xf32>", "tensor<77xf32>", "tensor<4x77xf32>", LimitExact),
		ln("layer_norm_decode_1x1024", "tensor<1x1024xf32>", "tensor<1024xf32>", "tensor<1x1024xf32>", LimitExact),
		sm("softmax_last_4x100", "tensor<4x100xf32>", -1, LimitExact),
		sm("softmax_axis0_5x3x7", "tensor<5x3x7xf32>", 0, LimitExact),
		sm("softmax_decode_1x1025", "tensor<1x1025xf32>", 1, LimitExact),
		sm("softmax_f16", "tensor<2x33xf16>", 1, LimitF16),
		sm("softmax_bf16", "tensor<3x50xbf16>", 1, LimitBF16),
		// Rows of half4s in and out, gamma (and beta) half4s too.
		rms("rms_norm_f16_gamma", "tensor<3x64xf16>", "tensor<64xf16>", "tensor<3x64xf16>", LimitF16),
		ln("layer_norm_f16", "tensor<2x128xf16>", "tensor<128xf16>", "tensor<2x128xf16>", LimitF16),
		// Many 16-bit rows (heldRowsMin): a quarter of the threads, each
		// holding four half4 (rms_norm) or looping over them (layer_norm).
		rms("rms_norm_f16_rows_64x512", "tensor<64x512xf16>", "tensor<512xf16>", "tensor<64x512xf16>", LimitF16),
		ln("layer_norm_f16_rows_64x256", "tensor<64x256xf16>", "tensor<256xf16>", "tensor<64x256xf16>", LimitF16),
	}
}

func reduceCases() []Case {
	red := func(name, x, y, kind, axes string, keep bool, limit float64) Case {
		return One(name, limit, []string{x}, y, "reduce", fmt.Sprintf("axes = array<i64: %s>, keep_dims = %v, kind = %q", axes, keep, kind))
	}
	return []Case{
		red("reduce_sum_rows_4x1000", "tensor<4x1000xf32>", "tensor<4xf32>", "sum", "-1", false, LimitExact),
		red("reduce_mean_axes_0_2", "tensor<3x5x7xf32>", "tensor<5xf32>", "mean", "0, 2", false, LimitExact),
		red("reduce_max_rows_6x200", "tensor<6x200xf32>", "tensor<6x1xf32>", "max", "1", true, 0),
		red("reduce_min_axis0_keep", "tensor<9x4xf32>", "tensor<1x4xf32>", "min", "0", true, 0),
		red("reduce_prod_4x6", "tensor<4x6xf32>", "tensor<4xf32>", "prod", "1", false, LimitExact),
		red("reduce_sum_i32_rows", "tensor<5x100xi32>", "tensor<5xi32>", "sum", "1", false, 0),
		red("reduce_sum_strided_128x3", "tensor<128x3xf32>", "tensor<3xf32>", "sum", "0", false, LimitExact),
		red("reduce_max_rank4_mid", "tensor<2x70x3x2xf32>", "tensor<2x3x2xf32>", "max", "1", false, 0),
	}
}

func movementCases() []Case {
	return []Case{
		One("transpose_2x3x5_201", LimitExact, []string{"tensor<2x3x5xf32>"}, "tensor<5x2x3xf32>", "transpose", "permutation = array<i64: 2, 0, 1>"),
		One("transpose_heads_f16", LimitExact, []string{"tensor<1x9x2x16xf16>"}, "tensor<1x2x9x16xf16>", "transpose", "permutation = array<i64: 0, 2, 1, 3>"),
		One("slice_step2", LimitExact, []string{"tensor<3x20x5xf32>"}, "tensor<3x7x5xf32>", "slice", "axis = 1 : i64, length = 7 : i64, start = 3 : i64, step = 2 : i64"),
		One("slice_last_i32", LimitExact, []string{"tensor<4x9xi32>"}, "tensor<4x4xi32>", "slice", "axis = -1 : i64, length = 4 : i64, start = 5 : i64"),
		One("concat_axis1_3", LimitExact, []string{"tensor<2x3x4xf32>", "tensor<2x1x4xf32>", "tensor<2x5x4xf32>"}, "tensor<2x9x4xf32>", "concat", "axis = 1 : i64"),
		One("concat_cache_rows", LimitExact, []string{"tensor<1x7x2x16xf32>", "tensor<1x1x2x16xf32>"}, "tensor<1x8x2x16xf32>", "concat", "axis = 1 : i64"),
		One("gather_rows", LimitExact, []string{"tensor<50x16xf32>", "tensor<1x3xi32>"}, "tensor<1x3x16xf32>", "gather", "axis = 0 : i64"),
		One("gather_axis1_i64", LimitExact, []string{"tensor<3x10x4xf16>", "tensor<5xi64>"}, "tensor<3x5x4xf16>", "gather", "axis = 1 : i64"),
		{
			// A reshape is a view: the element-wise kernel writes the
			// region's result directly; returning an operand copies it.
			Name: "reshape_views", Args: []string{"tensor<2x6xf32>"},
			Body: `%0 = graph.neg %a0 : (tensor<2x6xf32>) -> tensor<2x6xf32>
%1 = graph.reshape %0 : (tensor<2x6xf32>) -> tensor<3x4xf32>
%2 = graph.reshape %a0 : (tensor<2x6xf32>) -> tensor<12xf32>`,
			Yield: []string{"%1", "%2", "%1"}, Results: []string{"tensor<3x4xf32>", "tensor<12xf32>", "tensor<3x4xf32>"}, Limit: 0,
		},
	}
}

func matmulCases() []Case {
	mm := func(name, a, b, y string) Case { return One(name, LimitMatmul, []string{a, b}, y, "matmul", "") }
	return []Case{
		mm("gemv_decode_1x64x96", "tensor<1x64xf32>", "tensor<64x96xf32>", "tensor<1x96xf32>"),
		mm("gemv_odd_3x37x45", "tensor<3x37xf32>", "tensor<37x45xf32>", "tensor<3x45xf32>"),
		mm("gemv_f16_weight_8x130x260", "tensor<8x130xf32>", "tensor<130x260xf16>", "tensor<8x260xf32>"),
		mm("gemv_batched_2x1x40x33", "tensor<2x1x40xf32>", "tensor<40x33xf32>", "tensor<2x1x33xf32>"),
		mm("gemm_batch_9x100x70", "tensor<9x100xf32>", "tensor<100x70xf32>", "tensor<9x70xf32>"),
		mm("gemm_odd_67x45x131", "tensor<67x45xf32>", "tensor<45x131xf32>", "tensor<67x131xf32>"),
		mm("gemm_broadcast_batch", "tensor<3x1x20x16xf32>", "tensor<4x16x24xf32>", "tensor<3x4x20x24xf32>"),
		mm("gemm_f16_out", "tensor<16x32xf16>", "tensor<32x48xf16>", "tensor<16x48xf16>"),
		mm("gemv_bf16_weight", "tensor<2x64xf32>", "tensor<64x40xbf16>", "tensor<2x40xf32>"),
		// K in 40 splits, merged by gemv_merge.
		mm("gemv_many_splits_1x1280x64", "tensor<1x1280xf32>", "tensor<1280x64xf32>", "tensor<1x64xf32>"),
		// The narrow layout (M = 1, N a multiple of 4): a last tile of 8
		// columns, K in 5 splits whose last has 8 rows (fewer than a step);
		// batches with one tile short; K shorter than a step, f16 out.
		mm("gemv_narrow_f16_1x200x136", "tensor<1x200xf32>", "tensor<200x136xf16>", "tensor<1x136xf32>"),
		mm("gemv_narrow_batched_3x1x100x44", "tensor<3x1x100xf32>", "tensor<100x44xf32>", "tensor<3x1x44xf32>"),
		mm("gemv_narrow_f16_short_k", "tensor<1x6xf16>", "tensor<6x72xf16>", "tensor<1x72xf16>"),
		// The deep layout (one threadgroup down all of K, no split): 33
		// tiles, the last of 4 columns; K = 1100 runs the 8-row steps at
		// 1024 threads (twice for some threads) and a short last step.
		mm("gemv_deep_f16_1x1100x1028", "tensor<1x1100xf32>", "tensor<1100x1028xf16>", "tensor<1x1028xf32>"),
		mm("gemm_bf16", "tensor<12x24xbf16>", "tensor<24x20xbf16>", "tensor<12x20xbf16>"),
		{
			Name: "gemv_param_weight", Args: []string{"tensor<1x128xf32>"},
			Body: `%w = graph.param "w" : tensor<128x256xf32>
%0 = graph.matmul %a0, %w : (tensor<1x128xf32>, tensor<128x256xf32>) -> tensor<1x256xf32>`,
			Yield: []string{"%0"}, Results: []string{"tensor<1x256xf32>"}, Limit: LimitMatmul,
		},
	}
}

// dequantCases (q5_k at q4_k's shapes, on the same staged paths, and at
// K = 2048, one whole stage at M = 1, which takes 4 rows a threadgroup;
// the unit formats q2_k, q3_k, q4_1, q5_0, q5_1, iq4_nl, iq4_xs and mxfp4
// at the common shapes,
// whose longer Ks give some threads one unit more than others):
// every format in the decode case (M = 1), a small batch
// (GEMV up to 8 rows) and a GEMM batch, with row counts that are not
// multiples of a threadgroup's rows, a K whose blocks the GEMV's threads
// walk twice, a K whose rows the GEMV stages through threadgroup memory
// in more than one stage, for q4_k a K of whole stages (two of 8 blocks),
// which the staged GEMV prefetches (q6_k's staged K is one), and for
// q4_k, q6_k and q4_0 a decode case (M = 1) at such a K (q4_0 stages only
// there), whose prefetch loads x a stage ahead too (dqXAhead), and at a
// K of four whole stages (K = 8192: the fewest, dqLongStages) q8_0's
// decode case, staged only there, q4_0's, staged on 16 rows there (N =
// 21: two threadgroups, the second short), and q4_k's at M = 1 and 2,
// which take the table of scales (dqScales), and for the unstaged
// formats Ks whose blocks a 128-thread GEMV walks in whole loop steps of
// its block slots and then a shorter rest, in one step or one block at a
// time (q8_0: an even number of blocks, read as 4-byte words, and an odd
// one; K = 12800 gives some lanes a step of four blocks and one of
// three), and for q4_0 an N
// whose GEMV takes 8 rows a threadgroup instead of 4 (N = 8195: 1025
// threadgroups of 8 rows, the last one short); q6_k_c16 (dequant_columns.go)
// at a K of a partial simdgroup of columns (2304: 144), at rows that do
// not fill the threadgroups (21 of 24, 5 of 8) and at a K of more columns
// than a threadgroup's 1024 threads (16640: 1040, two passes, the second
// with 16 lanes live), once with rows that do fill them (16 of 16 at M =
// 2: the rows read through stepped pointers).
func dequantCases() []Case {
	type shape struct{ m, n, k int }
	var cs []Case
	for _, f := range []struct {
		name   string
		block  int
		bytes  int
		long   int   // K whose blocks a 128-thread GEMV walks twice, the second time in part
		staged int   // K of 16-byte-multiple rows: full stages and a shorter one (q6_k: two full)
		steps  []int // Ks whose blocks the unstaged GEMV walks in whole steps and a rest
		// Shapes that each take one layout: q4_0's wide N (8 rows a
		// threadgroup), q4_k's whole stages at M = 2, and the decode
		// case (M = 1) at whole stages, x loaded a stage ahead (q4_0
		// on 16 rows at four stages or more); q4_1, q5_0 and q5_1 on
		// q4_0's lane take q4_0's shapes.
		more []shape
	}{{"q4_0", 32, 18, 2592, 4352, []int{10560}, []shape{{1, 8195, 32}, {1, 21, 4096}, {1, 21, 8192}}}, {"q8_0", 32, 34, 2592, 4352, []int{10560, 10592, 12800}, []shape{{1, 21, 8192}}},
		{"q4_k", 256, 144, 4352, 8960, nil, []shape{{2, 21, 4096}, {1, 21, 4096}, {2, 21, 8192}, {1, 21, 8192}}}, {"q6_k", 256, 210, 2304, 4096, nil, []shape{{1, 21, 4096}}},
		{"q5_k", 256, 176, 4352, 8960, nil, []shape{{2, 21, 4096}, {1, 21, 2048}, {1, 21, 4096}, {1, 21, 8192}}},
		{"q2_k", 256, 84, 4352, 8960, nil, nil}, {"q3_k", 256, 110, 4352, 8960, nil, nil},
		{"q4_1", 32, 20, 2592, 4352, []int{10560}, []shape{{1, 8195, 32}, {1, 21, 4096}, {1, 21, 8192}}},
		{"q5_0", 32, 22, 2592, 4352, []int{10560}, []shape{{1, 8195, 32}, {1, 21, 4096}, {1, 21, 8192}}},
		{"q5_1", 32, 24, 2592, 4352, []int{10560}, []shape{{1, 8195, 32}, {1, 21, 4096}, {1, 21, 8192}}},
		{"iq4_nl", 32, 18, 2592, 4352, nil, nil}, {"iq4_xs", 256, 136, 4352, 8960, nil, nil}, {"mxfp4", 32, 17, 2592, 4352, nil, nil},
		{"q6_k_c16", 256, 210, 2304, 4096, nil, []shape{{1, 21, 4096}, {2, 40, 4096}, {1, 5, 16640}, {2, 16, 16640}}}} {
		shapes := []shape{{1, 37, 2 * f.block}, {5, 19, 3 * f.block}, {20, 70, 2 * f.block}, {1, 64, f.long}, {3, 45, f.staged}}
		for _, k := range f.steps {
			shapes = append(shapes, shape{1, 40, k})
		}
		shapes = append(shapes, f.more...)
		for _, s := range shapes {
			nbytes := s.n * s.k / f.block * f.bytes
			x := fmt.Sprintf("tensor<%dx%dxf32>", s.m, s.k)
			y := fmt.Sprintf("tensor<%dx%dxf32>", s.m, s.n)
			w := fmt.Sprintf("tensor<%dxui8>", nbytes)
			cs = append(cs, Case{
				Name: fmt.Sprintf("dequant_%s_%dx%dx%d", f.name, s.m, s.n, s.k), Args: []string{x},
				Body: fmt.Sprintf(`%%w = graph.param "w" : %s
%%0 = graph.dequant_matmul %%a0, %%w {format = %q, k = %d : i64, n = %d : i64} : (%s, %s) -> %s`, w, f.name, s.k, s.n, x, w, y),
				Yield: []string{"%0"}, Results: []string{y}, Limit: LimitDequant,
			})
		}
	}
	return cs
}

// expertCases: an MoE block's reads of two chosen experts of a stack of
// four (reshape, gather, a slice per expert, reshape, dequant_matmul),
// which the Metal kernels read in place, both in one dispatch (the grid's
// third axis), for every format; the staged GEMVs (q4_k's and q6_k's long
// rows of odd row counts); a row of x per expert, sliced from one [2, k]
// value (the down projection's shape); one of the two experts only, two
// where the second reads the first's result (so no one dispatch can do
// both), and the GEMM (M = 9), one dispatch per expert; and a stack whose gathered
// rows are also a result, so the gather keeps its kernel and the
// dequant_matmuls read its copy.
func expertCases() []Case {
	const experts = 4
	type mode int
	const (
		shared  mode = iota // both experts, one x
		rows                // both experts, x row j for expert j
		one                 // expert 1 only
		kept                // both, the gathered rows also a result
		chained             // expert 1 reads expert 0's result (n = k)
	)
	expert := func(name, format string, block, bytes, m, n, k int, md mode) Case {
		per := n * k / block * bytes
		x := fmt.Sprintf("tensor<%dx%dxf32>", m, k)
		y := fmt.Sprintf("tensor<%dx%dxf32>", m, n)
		g := fmt.Sprintf("tensor<2x%dxui8>", per)
		args := []string{x, "tensor<2xi32>"}
		if md == rows {
			args[0] = fmt.Sprintf("tensor<2x%dxf32>", k)
		}
		body := fmt.Sprintf(`%%w = graph.param "exps" : tensor<%dxui8>
%%r = graph.reshape %%w : (tensor<%dxui8>) -> tensor<%dx%dxui8>
%%g = graph.gather %%r, %%a1 {axis = 0 : i64} : (tensor<%dx%dxui8>, tensor<2xi32>) -> %s`, experts*per, experts*per, experts, per, experts, per, g)
		c := Case{Name: name, Args: args, Limit: LimitDequant}
		for j := range 2 {
			if md == one && j == 0 {
				continue
			}
			xj := "%a0"
			if md == chained && j == 1 {
				xj = "%y0"
			}
			if md == rows {
				xj = fmt.Sprintf("%%x%d", j)
				body += fmt.Sprintf("\n%s = graph.slice %%a0 {axis = 0 : i64, length = 1 : i64, start = %d : i64} : (%s) -> %s", xj, j, args[0], x)
			}
			body += fmt.Sprintf(`
%%s%d = graph.slice %%g {axis = 0 : i64, length = 1 : i64, start = %d : i64} : (%s) -> tensor<1x%dxui8>
%%m%d = graph.reshape %%s%d : (tensor<1x%dxui8>) -> tensor<%dxui8>
%%y%d = graph.dequant_matmul %s, %%m%d {format = %q, k = %d : i64, n = %d : i64} : (%s, tensor<%dxui8>) -> %s`,
				j, j, g, per, j, j, per, per, j, xj, j, format, k, n, x, per, y)
			c.Yield, c.Results = append(c.Yield, fmt.Sprintf("%%y%d", j)), append(c.Results, y)
		}
		c.Body = body
		if md == kept {
			c.Yield, c.Results = append(c.Yield, "%g"), append(c.Results, g)
		}
		return c
	}
	var cs []Case
	for _, f := range []struct {
		name         string
		block, bytes int
	}{{"q4_0", 32, 18}, {"q8_0", 32, 34}, {"q4_k", 256, 144}, {"q5_k", 256, 176}, {"q6_k", 256, 210}, {"q6_k_c16", 256, 210},
		{"q2_k", 256, 84}, {"q3_k", 256, 110}, {"q4_1", 32, 20}, {"q5_0", 32, 22}, {"q5_1", 32, 24},
		{"iq4_nl", 32, 18}, {"iq4_xs", 256, 136}, {"mxfp4", 32, 17}} {
		cs = append(cs, expert("experts_"+f.name, f.name, f.block, f.bytes, 1, 64, 512, shared))
	}
	cs = append(cs, expert("experts_staged_q4_k", "q4_k", 256, 144, 1, 21, 8192, shared))
	cs = append(cs, expert("experts_staged_q5_k", "q5_k", 256, 176, 1, 21, 8192, shared))
	cs = append(cs, expert("experts_staged_q6_k", "q6_k", 256, 210, 1, 24, 4096, shared))
	cs = append(cs, expert("experts_rows_q6_k_c16", "q6_k_c16", 256, 210, 1, 64, 512, rows))
	cs = append(cs, expert("experts_one_q4_0", "q4_0", 32, 18, 1, 64, 512, one))
	cs = append(cs, expert("experts_chained_q8_0", "q8_0", 32, 34, 1, 256, 256, chained))
	cs = append(cs, expert("experts_gemm_q4_k", "q4_k", 256, 144, 9, 64, 512, shared))
	cs = append(cs, expert("experts_rows_q3_k", "q3_k", 256, 110, 1, 21, 4096, rows))
	cs = append(cs, expert("experts_gather_kept_q8_0", "q8_0", 32, 34, 1, 64, 512, kept))
	return cs
}

// attentionCases: the decode kernel (Sq ≤ 8) and the general one, every
// mask kind, GQA, softcap, Dv ≠ D, head sizes that are not multiples of
// 32, and queries that keep no key.
func attentionCases() []Case {
	att := func(name string, b, sq, h, d, sk, hkv, dv int, elem, attrs, mask string) Case {
		q := fmt.Sprintf("tensor<%dx%dx%dx%dx%s>", b, sq, h, d, elem)
		k := fmt.Sprintf("tensor<%dx%dx%dx%dx%s>", b, sk, hkv, d, elem)
		v := fmt.Sprintf("tensor<%dx%dx%dx%dx%s>", b, sk, hkv, dv, elem)
		y := fmt.Sprintf("tensor<%dx%dx%dx%dx%s>", b, sq, h, dv, elem)
		args := []string{q, k, v}
		if mask != "" {
			args = append(args, mask)
		}
		limit := LimitMatmul
		return One(name, limit, args, y, "attention", attrs)
	}
	return []Case{
		att("attn_decode_gqa_custom", 1, 1, 4, 16, 8, 2, 16, "f32", `mask = "custom"`, "tensor<1x8xf32>"),
		att("attn_decode_causal_long", 1, 1, 2, 64, 100, 1, 64, "f32", `mask = "causal"`, ""),
		att("attn_decode_batch_window", 2, 3, 4, 40, 37, 4, 40, "f32", `mask = "sliding_window", window = 5 : i64`, ""),
		att("attn_decode_bias_softcap", 1, 2, 2, 32, 20, 2, 32, "f32", `mask = "bias", softcap = 5.0 : f32`, "tensor<1x2x2x20xf32>"),
		att("attn_decode_mla_dv", 1, 1, 4, 24, 9, 1, 16, "f32", `mask = "causal", scale = 0.3 : f32`, ""),
		att("attn_decode_custom_i1", 1, 1, 2, 16, 12, 2, 16, "f32", `mask = "custom"`, "tensor<1x12xi1>"),
		att("attn_general_causal", 1, 13, 2, 32, 13, 1, 32, "f32", `mask = "causal"`, ""),
		att("attn_general_none_f16", 1, 9, 4, 16, 14, 2, 24, "f16", `mask = "none"`, ""),
		att("attn_decode_bf16", 1, 1, 2, 32, 10, 1, 32, "bf16", `mask = "causal"`, ""),
		att("attn_general_masked_rows", 1, 12, 2, 16, 9, 2, 16, "f32", `mask = "causal"`, ""),
		att("attn_general_window_bias", 1, 10, 2, 48, 10, 2, 48, "f32", `mask = "bias"`, "tensor<1x2x10x10xf32>"),
		// Split key ranges (flash-decoding) with their merge: a decoder's
		// head size with four query heads per KV head in f16; two queries
		// whose window leaves the first range empty; head sizes that are
		// not multiples of 4 (no vector loads) and three heads per KV head.
		att("attn_decode_gqa_f16_split", 1, 1, 8, 128, 300, 2, 128, "f16", `mask = "causal"`, ""),
		att("attn_decode_window_split", 1, 2, 4, 40, 150, 2, 24, "f32", `mask = "sliding_window", window = 70 : i64`, ""),
		att("attn_decode_odd_dims_split", 1, 1, 3, 18, 70, 1, 10, "f32", `mask = "none"`, ""),
		// D = 20: the tiled layout's two lanes a key hold 12 elements
		// each, q padded with zeros past D.
		att("attn_decode_pad_split", 1, 1, 4, 20, 150, 2, 20, "f32", `mask = "causal"`, ""),
		// Scores hundreds of log2 units apart: the running max moves by
		// more than the decode kernels' lazy threshold after the first
		// steps (a kernel that kept its first max would overflow).
		att("attn_decode_sharp_split", 1, 1, 4, 64, 400, 1, 64, "f32", `mask = "causal", scale = 40.0 : f32`, ""),
		// 33 key ranges: the merge's loop over whole chunks and its rest.
		att("attn_decode_many_ranges", 1, 1, 2, 16, 2100, 1, 16, "f32", `mask = "causal"`, ""),
		// NaN keys (log of negatives) in the first KV head only: its
		// query heads' every score is NaN and their output NaN, as the
		// reference's, not a masked row's 0; the other KV head's are
		// numbers (random function 7255). Split ranges in the decode
		// kernel, and the general kernel.
		nanKeys("attn_decode_nan_keys_split", 1, 150),
		nanKeys("attn_general_nan_keys", 9, 12),
	}
}

// nanKeys is an attention case of sq queries over sk keys (4 query heads
// on 2 KV heads, D = 32) whose first KV head's keys are the log of
// values in [−1, 1]: NaN where negative.
func nanKeys(name string, sq, sk int) Case {
	q := fmt.Sprintf("tensor<1x%dx4x32xf32>", sq)
	k := fmt.Sprintf("tensor<1x%dx2x32xf32>", sk)
	one := fmt.Sprintf("tensor<1x%dx1x32xf32>", sk)
	return Case{
		Name: name, Args: []string{q, k, k},
		Body: fmt.Sprintf(`%%0 = graph.slice %%a1 {axis = 2 : i64, start = 0 : i64, length = 1 : i64, step = 1 : i64} : (%[1]s) -> %[2]s
%%1 = graph.slice %%a1 {axis = 2 : i64, start = 1 : i64, length = 1 : i64, step = 1 : i64} : (%[1]s) -> %[2]s
%%2 = graph.log %%0 : (%[2]s) -> %[2]s
%%3 = graph.concat %%2, %%1 {axis = 2 : i64} : (%[2]s, %[2]s) -> %[1]s
%%4 = graph.attention %%a0, %%3, %%a2 {mask = "causal"} : (%[3]s, %[1]s, %[1]s) -> %[3]s`, k, one, q),
		Yield: []string{"%4"}, Results: []string{q}, Limit: LimitMatmul,
	}
}

// recurrentCases: the gated delta net (scalar and per-channel gates, with
// and without a state, decode and a sequence, N below, at and above 32)
// and the LSTM.
func recurrentCases() []Case {
	gdn := func(name string, b, s, h, n int, perChannel, state bool, limit float64) Case {
		t := fmt.Sprintf("tensor<%dx%dx%dx%dxf32>", b, s, h, n)
		gt := fmt.Sprintf("tensor<%dx%dx%dxf32>", b, s, h)
		if perChannel {
			gt = t
		}
		bt := fmt.Sprintf("tensor<%dx%dx%dxf32>", b, s, h)
		st := fmt.Sprintf("tensor<%dx%dx%dx%dxf32>", b, h, n, n)
		args := []string{t, t, t, gt, bt}
		if state {
			args = append(args, st)
		}
		uses := make([]string, len(args))
		for i := range args {
			uses[i] = fmt.Sprintf("%%a%d", i)
		}
		attrs := ""
		if perChannel {
			attrs = " {gate_per_channel = true}"
		}
		// The gate is log-decay: keep it negative, as the models do.
		body := fmt.Sprintf(`%%0:2 = graph.gated_delta_net %s%s : (%s) -> (%s, %s)`, strings.Join(uses, ", "), attrs, strings.Join(args, ", "), t, st)
		return Case{Name: name, Args: args, Body: body, Yield: []string{"%0#0", "%0#1"}, Results: []string{t, st}, Limit: limit}
	}
	lstm := func(name string, b, s, in, h int, init bool) Case {
		args := []string{fmt.Sprintf("tensor<%dx%dx%dxf32>", b, s, in), fmt.Sprintf("tensor<%dx%dxf32>", 4*h, in),
			fmt.Sprintf("tensor<%dx%dxf32>", 4*h, h), fmt.Sprintf("tensor<%dxf32>", 4*h)}
		hc := fmt.Sprintf("tensor<%dx%dxf32>", b, h)
		if init {
			args = append(args, hc, hc)
		}
		uses := make([]string, len(args))
		for i := range args {
			uses[i] = fmt.Sprintf("%%a%d", i)
		}
		y := fmt.Sprintf("tensor<%dx%dx%dxf32>", b, s, h)
		body := fmt.Sprintf(`%%0:3 = graph.lstm %s : (%s) -> (%s, %s, %s)`, strings.Join(uses, ", "), strings.Join(args, ", "), y, hc, hc)
		return Case{Name: name, Args: args, Body: body, Yield: []string{"%0#0", "%0#1", "%0#2"}, Results: []string{y, hc, hc}, Limit: 1e-6}
	}
	return []Case{
		gdn("gdn_decode_16", 1, 1, 4, 16, false, true, 1e-6),
		gdn("gdn_seq_kda_48", 1, 3, 2, 48, true, true, 1e-6),
		gdn("gdn_batch_nostate_32", 2, 2, 2, 32, false, false, 1e-6),
		gdn("gdn_decode_128", 1, 1, 2, 128, false, true, 1e-6),
		lstm("lstm_seq", 2, 4, 12, 20, true),
		lstm("lstm_decode_noinit", 1, 1, 40, 37, false),
	}
}

// ropeCases: both styles, partial and full rotary dims, rank 4 and packed
// rank 3, the decode case and a sequence, f16.
func ropeCases() []Case {
	rope := func(name, x, cs string, head, rot int, style string, limit float64) Case {
		return One(name, limit, []string{x, cs, cs}, x, "rope", fmt.Sprintf("head_dim = %d : i64, rotary_dim = %d : i64, style = %q", head, rot, style))
	}
	return []Case{
		rope("rope_neox_partial_decode", "tensor<1x1x4x16xf32>", "tensor<1x2xf32>", 16, 4, "neox", LimitExact),
		rope("rope_neox_seq_odd", "tensor<2x5x3x24xf32>", "tensor<5x10xf32>", 24, 20, "neox", LimitExact),
		rope("rope_gptj_packed", "tensor<2x3x40xf32>", "tensor<3x4xf32>", 8, 8, "gptj", LimitExact),
		rope("rope_gptj_f16_partial", "tensor<1x4x2x12xf16>", "tensor<4x3xf32>", 12, 6, "gptj", LimitF16),
	}
}

// Case is one region of the op suite: a function of Args whose body ends
// in yielding Yield (of types Results), each result within Limit (NMSE)
// of the reference interpreter.
type Case struct {
	Name    string
	Args    []string // operand types
	Body    string
	Yield   []string // yielded values
	Results []string // their types
	Limit   float64  // NMSE limit per result
}

// MLIR returns the case as a function @Name whose body is one thunk.call
// (target "metal") holding Body; %a<i> are the region's operands, %o<i>
// the function's.
func (c Case) MLIR() string {
	var b strings.Builder
	outer := make([]string, len(c.Args))
	inner := make([]string, len(c.Args))
	uses := make([]string, len(c.Args))
	for i, t := range c.Args {
		outer[i] = fmt.Sprintf("%%o%d: %s", i, t)
		inner[i] = fmt.Sprintf("%%a%d: %s", i, t)
		uses[i] = fmt.Sprintf("%%o%d", i)
	}
	res := strings.Join(c.Results, ", ")
	fmt.Fprintf(&b, "func.func @%s(%s) -> (%s) {\n", c.Name, strings.Join(outer, ", "), res)
	lhs := "%r"
	if len(c.Results) > 1 {
		lhs = fmt.Sprintf("%%r:%d", len(c.Results))
	}
	fmt.Fprintf(&b, "  %s = thunk.call @%s_thunk(%s) {target = \"metal\"} : (%s) -> (%s) {\n", lhs, c.Name, strings.Join(uses, ", "), strings.Join(c.Args, ", "), res)
	fmt.Fprintf(&b, "  ^bb0(%s):\n", strings.Join(inner, ", "))
	for _, line := range strings.Split(strings.TrimSpace(c.Body), "\n") {
		fmt.Fprintf(&b, "    %s\n", strings.TrimSpace(line))
	}
	fmt.Fprintf(&b, "    thunk.yield %s : %s\n  }\n", strings.Join(c.Yield, ", "), res)
	rets := make([]string, len(c.Results))
	for i := range c.Results {
		rets[i] = "%r"
		if len(c.Results) > 1 {
			rets[i] = fmt.Sprintf("%%r#%d", i)
		}
	}
	fmt.Fprintf(&b, "  return %s : %s\n}\n", strings.Join(rets, ", "), res)
	return b.String()
}

// topkCases: a router's decode step (8 experts, top 2), rows of odd
// length, 512 experts over 512 threads, f16, and rows with ties and NaNs
// (x > 0 made 0.5, x < −0.5 made NaN by sqrt), where the order of equal
// values and of NaNs decides the indices. Values and indices are exact.
func topkCases() []Case {
	cases := []struct {
		name, x, shape string
		k              int
	}{
		{"topk_router_1x8", "f32", "1x8", 2},
		{"topk_rows_3x100", "f32", "3x100", 5},
		{"topk_experts_2x512", "f32", "2x512", 8},
		{"topk_f16_2x33", "f16", "2x33", 3},
		{"topk_all_1x37", "f32", "1x37", 37},
		{"topk_long_2x3000", "f32", "2x3000", 5},  // over 1024: the threadgroup kernel
		{"topk_lanes_1x1024", "f32", "1x1024", 7}, // 32 keys a lane
	}
	var cs []Case
	for _, c := range cases {
		x := "tensor<" + c.shape + "x" + c.x + ">"
		out := c.shape[:strings.Index(c.shape, "x")+1] + fmt.Sprint(c.k)
		y, i := "tensor<"+out+"x"+c.x+">", "tensor<"+out+"xi32>"
		cs = append(cs, Case{
			Name: c.name, Args: []string{x},
			Body:  fmt.Sprintf("%%0:2 = graph.topk %%a0 {k = %d : i64} : (%s) -> (%s, %s)", c.k, x, y, i),
			Yield: []string{"%0#0", "%0#1"}, Results: []string{y, i}, Limit: 0,
		})
	}
	const t = "tensor<4x70xf32>"
	cs = append(cs, Case{
		Name: "topk_ties_nans_4x70", Args: []string{t},
		Body: `%z = graph.constant dense<0.0> : tensor<f32>
%h = graph.constant dense<0.5> : tensor<f32>
%m = graph.constant dense<-0.5> : tensor<f32>
%p = graph.cmp %a0, %z {predicate = "gt"} : (` + t + `, tensor<f32>) -> tensor<4x70xi1>
%q = graph.cmp %a0, %m {predicate = "lt"} : (` + t + `, tensor<f32>) -> tensor<4x70xi1>
%n = graph.sqrt %a0 : (` + t + `) -> ` + t + `
%0 = graph.select %p, %h, %a0 : (tensor<4x70xi1>, tensor<f32>, ` + t + `) -> ` + t + `
%1 = graph.select %q, %n, %0 : (tensor<4x70xi1>, ` + t + `, ` + t + `) -> ` + t + `
%2:2 = graph.topk %1 {k = 30 : i64} : (` + t + `) -> (tensor<4x30xf32>, tensor<4x30xi32>)`,
		Yield: []string{"%2#0", "%2#1"}, Results: []string{"tensor<4x30xf32>", "tensor<4x30xi32>"}, Limit: 0,
	})
	// Signed zeros: the few values above 0.8 kept, the rest x·0, which is
	// -0 for negative x; -0 equals +0 in top-k's order, so after the
	// large values the picks are the zeros by lowest index.
	const z = "tensor<2x40xf32>"
	cs = append(cs, Case{
		Name: "topk_signed_zeros_2x40", Args: []string{z},
		Body: `%z = graph.constant dense<0.0> : tensor<f32>
%c = graph.constant dense<0.8> : tensor<f32>
%p = graph.cmp %a0, %c {predicate = "gt"} : (` + z + `, tensor<f32>) -> tensor<2x40xi1>
%m = graph.mul %a0, %z : (` + z + `, tensor<f32>) -> ` + z + `
%0 = graph.select %p, %a0, %m : (tensor<2x40xi1>, ` + z + `, ` + z + `) -> ` + z + `
%1:2 = graph.topk %0 {k = 12 : i64} : (` + z + `) -> (tensor<2x12xf32>, tensor<2x12xi32>)`,
		Yield: []string{"%1#0", "%1#1"}, Results: []string{"tensor<2x12xf32>", "tensor<2x12xi32>"}, Limit: 0,
	})
	return cs
}

package metal_test

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
	"github.com/rlx-compiler/rlx/codegen/metal/opsuite"
)

// TestOps runs every case of the op suite through the harness and compares
// it with the reference interpreter.
func TestOps(t *testing.T) {
	t.Parallel()
	s := opSuite(t)
	runs := runChecked(t, s, mslcpu.Plain, 1, mslcpu.RegionOptions{})
	if *nmseTable != "" {
		if err := os.WriteFile(*nmseTable, []byte(nmseMarkdown(runs)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var nmseTable = flag.String("nmse-table", "", "write the op suite's measured NMSE as a markdown table to this file")

// nmseMarkdown tabulates a run of the op suite: per case its operand and
// result types, its kernels, the NMSE of each result against the
// reference, and the limit.
func nmseMarkdown(runs []*caseRun) string {
	var b strings.Builder
	b.WriteString("| case | operands → results | kernels | NMSE | limit |\n|---|---|---|---|---|\n")
	for _, cr := range runs {
		var es []string
		for _, e := range cr.nmse {
			es = append(es, fmt.Sprintf("%.2g", e))
		}
		limit := fmt.Sprintf("%.0e", cr.c.Limit)
		if cr.c.Limit == 0 {
			limit = "exact"
		}
		fmt.Fprintf(&b, "| %s | %s → %s | %s | %s | %s |\n", cr.c.Name, strings.Join(cr.c.Args, ", "), strings.Join(cr.c.Results, ", "),
			strings.Join(slices.Compact(slices.Clone(cr.dispatch)), " "), strings.Join(es, ", "), limit)
	}
	return b.String()
}

func checkRuns(t *testing.T, runs []*caseRun) {
	t.Helper()
	for _, cr := range runs {
		if cr.err != nil {
			t.Errorf("%s: %v", cr.c.Name, cr.err)
			continue
		}
		for k, e := range cr.nmse {
			if !(e <= cr.c.Limit) {
				t.Errorf("%s result #%d: NMSE %.3g over the limit %.0e (kernels %v)", cr.c.Name, k, e, cr.c.Limit, cr.dispatch)
			} else {
				t.Logf("%s result #%d: NMSE %.3g (kernels %v)", cr.c.Name, k, e, cr.dispatch)
			}
		}
	}
}

// sanitizerCases is the representative subset run under ASan and TSan:
// one kernel of each synchronisation pattern (plain threads, row
// reductions through threadgroup memory, simdgroup reductions, tiles
// staged in threadgroup memory, the recurrent kernels, split kernels and
// their merges through a region temporary, top-k's passes through
// threadgroup memory, experts read in place).
var sanitizerCases = []string{
	"ew_add_silu", "rms_norm_3x1000", "softmax_axis0_5x3x7", "reduce_sum_i32_rows", "reduce_max_rows_6x200",
	"gather_rows", "gemv_odd_3x37x45", "gemv_decode_1x64x96", "gemm_odd_67x45x131", "dequant_q4_k_1x37x512",
	"dequant_q4_0_1x64x2592", "dequant_q8_0_1x40x10560", "dequant_q4_k_3x45x8960", "dequant_q6_k_3x45x4096", "dequant_q6_k_20x70x512", "dequant_q4_k_1x21x8192",
	"dequant_q5_k_3x45x8960", "dequant_q5_k_1x21x8192", "dequant_q5_k_20x70x512", "dequant_q3_k_3x45x8960", "dequant_q5_0_1x64x2592",
	"experts_rows_q3_k", "dequant_mxfp4_1x64x2592", "dequant_q4_1_1x21x8192", "dequant_q5_0_1x21x8192", "dequant_q5_1_1x21x8192",
	"dequant_q6_k_c16_2x40x4096", "dequant_q6_k_c16_1x5x16640", "dequant_q6_k_c16_2x16x16640", "attn_decode_gqa_custom", "attn_decode_causal_long",
	"attn_general_causal", "gdn_seq_kda_48", "lstm_seq", "topk_experts_2x512", "topk_ties_nans_4x70", "topk_long_2x3000",
	"experts_q6_k_c16", "experts_gemm_q4_k",
}

// sanitizerTiled are the attention decode cases also run under ASan and
// TSan with the tiled layout forced (the small cases take the per-key one
// by default): a custom mask (guarded V loads), one range and several.
var sanitizerTiled = []string{"attn_decode_gqa_custom", "attn_decode_causal_long", "attn_decode_window_split"}

// sanitizerFolded are the attention decode cases also run under ASan and
// TSan with msl-version 3.2, where the merge is folded (fold.go): float4
// partials in the per-key layout, scalar ones (Dv not a multiple of 4),
// and float4 partials in the tiled layout.
var sanitizerFolded = []string{"attn_decode_gqa_f16_split", "attn_decode_odd_dims_split"}
var sanitizerFoldedTiled = []string{"attn_decode_window_split"}

// TestSanitizers runs the subset under AddressSanitizer and
// ThreadSanitizer; a report fails the test.
func TestSanitizers(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipping in -short mode")
	}
	tiled := suiteOptions
	tiled.AttentionLayout = "tiled"
	folded := suiteOptions
	folded.MSLVersion = "3.2"
	foldedTiled := tiled
	foldedTiled.MSLVersion = "3.2"
	sets := []struct {
		opts  metal.Options
		names []string
	}{{suiteOptions, sanitizerCases}, {tiled, sanitizerTiled}, {folded, sanitizerFolded}, {foldedTiled, sanitizerFoldedTiled}}
	for _, set := range sets {
		if n := len(casesNamed(set.names)); n != len(set.names) {
			t.Fatalf("a sanitizer list names %d cases, the suite has %d of them", len(set.names), n)
		}
	}
	for _, mode := range []mslcpu.Mode{mslcpu.ASan, mslcpu.TSan} {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			cc := compiler(t)
			if err := cc.SanitizerAvailable(mode); err != nil {
				t.Skipf("skipping: %v", err)
			}
			for _, set := range sets {
				cases := casesNamed(set.names)
				s, err := buildSuite(cc, set.opts, cases, mode)
				if err != nil {
					t.Fatal(err)
				}
				runChecked(t, s, mode, 2, mslcpu.RegionOptions{})
			}
		})
	}
}

// runChecked prepares every case of s with inputs from seed, once for
// each of the region options, runs them all in mode and checks them
// against the reference; it returns the runs.
func runChecked(t *testing.T, s *suite, mode mslcpu.Mode, seed uint64, ros ...mslcpu.RegionOptions) []*caseRun {
	t.Helper()
	var runs []*caseRun
	for _, c := range s.cases {
		for _, ro := range ros {
			cr, err := s.prepare(c, seed, ro)
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			runs = append(runs, cr)
		}
	}
	if err := s.runCases(mode, runs); err != nil {
		t.Fatal(err)
	}
	checkRuns(t, runs)
	return runs
}

// casesPrefixed returns the op suite's cases whose names start with
// prefix ("attn_decode_": attention decode; "gemv_": GEMV).
func casesPrefixed(prefix string) []opCase {
	var cases []opCase
	for _, c := range opCases() {
		if strings.HasPrefix(c.Name, prefix) {
			cases = append(cases, c)
		}
	}
	return cases
}

// casesNamed returns the op suite's cases with these names.
func casesNamed(names []string) []opCase {
	var cases []opCase
	for _, c := range opCases() {
		if slices.Contains(names, c.Name) {
			cases = append(cases, c)
		}
	}
	return cases
}

// TestOpsAttentionLayouts runs every attention decode case of the suite
// with the tiled layout forced, at the launched size and at 96 threads,
// and checks that it is the layout emitted. The default picks by the keys
// a simdgroup takes, and gives every small case of the suite the per-key
// layout (checked here too), which TestOps runs; so only the tiled layout
// needs a suite of its own.
func TestOpsAttentionLayouts(t *testing.T) {
	t.Parallel()
	cases := casesPrefixed("attn_decode_")
	// Six and eight query heads of one KV head at D = 128, f16
	// (attention_tiled.go: attnTiledQ): six heads' q is 768 floats a
	// simdgroup's copy, more than a lane's first vectors, so the rest is
	// copied after the rows; eight heads' copies would not fit in
	// threadgroup memory, so the threadgroup shares one.
	for _, h := range []int{6, 8} {
		q := fmt.Sprintf("tensor<1x1x%dx128xf16>", h)
		kv := "tensor<1x200x1x128xf16>"
		cases = append(cases, opsuite.One(fmt.Sprintf("attn_decode_q%d", h), opsuite.LimitMatmul,
			[]string{q, kv, kv}, q, "attention", `mask = "causal"`))
	}
	tiled := func(k *metal.Kernel) bool { return strings.Contains(k.Summary, ", tiled") }
	for _, k := range opSuite(t).out.Kernels {
		if k.Family == "attention_decode" && tiled(k) {
			t.Errorf("the default suite's %s is tiled: the per-key layout needs a forced run of its own", k.Name)
		}
	}
	opts := suiteOptions
	opts.AttentionLayout = "tiled"
	s, err := buildSuite(compiler(t), opts, cases, mslcpu.Plain)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, k := range s.out.Kernels {
		if k.Family == "attention_decode" {
			n++
			if !tiled(k) {
				t.Errorf("%s with the tiled layout forced: %s", k.Name, k.Summary)
			}
		}
	}
	if n != len(cases) {
		t.Errorf("%d attention_decode kernels for %d cases", n, len(cases))
	}
	for _, want := range []string{
		"for (uint e = lane * 4u + 512u; e < 768u; e += 128u) {",
		"threadgroup float *qs = tg;",
	} {
		if !strings.Contains(s.out.Source, want) {
			t.Errorf("no tiled kernel has %q (attn_decode_q6, attn_decode_q8)", want)
		}
	}
	runChecked(t, s, mslcpu.Plain, 10, mslcpu.RegionOptions{}, mslcpu.RegionOptions{MaxThreads: 96})
	// One key range a query (a grid of 8 threadgroups is aimed at 1):
	// every simdgroup walks its keys for many steps, so the loop's
	// stages go round more than once (the suite's ranges take a step or
	// two).
	opts.DecodeThreadgroups = 8
	s, err = buildSuite(compiler(t), opts, cases, mslcpu.Plain)
	if err != nil {
		t.Fatal(err)
	}
	runChecked(t, s, mslcpu.Plain, 10, mslcpu.RegionOptions{}, mslcpu.RegionOptions{MaxThreads: 96})
}

// TestOpsSmallThreadgroups runs the suite as a runtime must on a device
// whose pipelines allow fewer threads than the manifest asks for: every
// kernel that may shrink (resize "rows" or "threads") runs with 96 threads,
// a size that is not a power of two, and with 32, one simdgroup (where
// the prefetching dequant GEMVs take their unstaged path and the GEMVs
// of 40 results a threadgroup loop in their last step).
func TestOpsSmallThreadgroups(t *testing.T) {
	t.Parallel()
	runChecked(t, opSuite(t), mslcpu.Plain, 3, mslcpu.RegionOptions{MaxThreads: 96}, mslcpu.RegionOptions{MaxThreads: 32})
}

// TestOpsFibers runs the suite with the fiber executor, which the model
// test uses: it must agree with the reference as the threads do.
func TestOpsFibers(t *testing.T) {
	t.Parallel()
	s := opSuite(t)
	var runs []*caseRun
	for _, c := range s.cases {
		cr, err := s.prepare(c, 4, mslcpu.RegionOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		runs = append(runs, cr)
	}
	fb := *s.bins[mslcpu.Plain]
	fb.Fibers = true
	res, err := fb.Run(jobsOf(runs))
	if err != nil {
		t.Fatal(err)
	}
	collect(runs, res)
	checkRuns(t, runs)
	t.Logf("fiber executor: %v CPU", fb.LastCPU)
}

// TestOpsFoldedMerges runs every attention decode case of the op suite
// with msl-version 3.2, where the last threadgroup of each group merges
// the key ranges (fold.go), in both layouts, at the launched size and at
// 96 threads. It checks that each split kernel folds and that no
// attention_merge is left; runChecked's region check fails when an
// arrival counter is not back at zero.
func TestOpsFoldedMerges(t *testing.T) {
	t.Parallel()
	cases := casesPrefixed("attn_decode_")
	for _, layout := range []string{"per-key", "tiled"} {
		opts := suiteOptions
		opts.MSLVersion = "3.2"
		opts.AttentionLayout = layout
		s, err := buildSuite(compiler(t), opts, cases, mslcpu.Plain)
		if err != nil {
			t.Fatal(err)
		}
		folded := 0
		for _, k := range s.out.Kernels {
			switch {
			case k.Family == "attention_merge":
				t.Errorf("%s: a merge kernel with msl-version 3.2", k.Name)
			case strings.Contains(k.Summary, "ranges of"):
				if !strings.Contains(k.Summary, ", merge folded") {
					t.Errorf("%s splits but does not fold: %s", k.Name, k.Summary)
				}
				folded++
			}
		}
		if folded == 0 {
			t.Fatalf("%s: no split kernel in %d cases", layout, len(cases))
		}
		runChecked(t, s, mslcpu.Plain, 11, mslcpu.RegionOptions{}, mslcpu.RegionOptions{MaxThreads: 96})
	}
}

// layoutOf is the layout a gemv kernel's summary names: "narrow",
// "deep" or "wide".
func layoutOf(k *metal.Kernel) string {
	for _, l := range []string{"narrow", "deep"} {
		if strings.Contains(k.Summary, ", "+l) {
			return l
		}
	}
	return "wide"
}

// gemvLayouts reports, per GEMV case of a suite, the layout its gemv
// kernel takes.
func gemvLayouts(t *testing.T, s *suite, cases []opCase) map[string]string {
	t.Helper()
	kernels := map[string]*metal.Kernel{}
	for _, k := range s.out.Kernels {
		kernels[k.Name] = k
	}
	got := map[string]string{}
	for _, c := range cases {
		r := s.region(c.Name)
		if r == nil {
			t.Fatalf("%s: no region", c.Name)
		}
		for _, d := range r.Dispatches {
			if k := kernels[d.Kernel]; k != nil && k.Family == "gemv" {
				got[c.Name] = layoutOf(k)
			}
		}
	}
	return got
}

// TestOpsGEMVLayouts checks which layout each GEMV case of the op suite
// takes by default (narrow or deep where one row of a, N a multiple of
// 4, f16 or f32 weights, and K split; deep where its grid is between an
// eighth and a half of the GPU: TestOps runs them) and runs every GEMV
// case with each layout forced, at the launched size and at 96 threads:
// forced narrow, the narrow layout also runs unsplit
// (gemv_narrow_f16_short_k); forced deep, every case that can take it
// does; forced wide, every case runs wide.
func TestOpsGEMVLayouts(t *testing.T) {
	t.Parallel()
	cases := casesPrefixed("gemv_")
	defaults := map[string]string{
		"gemv_decode_1x64x96": "narrow", "gemv_narrow_f16_1x200x136": "narrow", "gemv_narrow_batched_3x1x100x44": "narrow",
		"gemv_many_splits_1x1280x64": "narrow", "gemv_param_weight": "narrow", "gemv_deep_f16_1x1100x1028": "deep",
	}
	can := []string{"gemv_narrow_f16_short_k"}
	for name := range defaults {
		can = append(can, name)
	}
	forced := func(l string) map[string]string {
		m := map[string]string{}
		for _, name := range can {
			m[name] = l
		}
		return m
	}
	for layout, want := range map[string]map[string]string{"auto": defaults, "narrow": forced("narrow"), "deep": forced("deep"), "wide": {}} {
		opts := suiteOptions
		opts.GEMVLayout = layout
		var s *suite
		if layout == "auto" {
			s = opSuite(t)
		} else {
			var err error
			if s, err = buildSuite(compiler(t), opts, cases, mslcpu.Plain); err != nil {
				t.Fatal(err)
			}
		}
		got := gemvLayouts(t, s, cases)
		for _, c := range cases {
			w := want[c.Name]
			if w == "" {
				w = "wide"
			}
			if got[c.Name] != w {
				t.Errorf("gemv-layout %s: %s takes %s, want %s", layout, c.Name, got[c.Name], w)
			}
		}
		if layout != "auto" {
			runChecked(t, s, mslcpu.Plain, 12, mslcpu.RegionOptions{}, mslcpu.RegionOptions{MaxThreads: 96})
		}
	}
}

// TestOpsOneSimdgroup runs the suite emitted for a device whose
// pipelines take at most 32 threads (--max-threads-per-threadgroup=32):
// one simdgroup a threadgroup. q4_k's stages are then 4 blocks (32
// units of 9 a stage) and its table of scales finds each thread's header
// through the inverse of 32 mod 9 (2), which the default 64 threads (64
// mod 9 = 1) never take; q4_0's stages are 16 blocks, x still a stage
// ahead; the dequant GEMVs' last step has more results (rows·M = 40 at
// M = 5) than threads, and the dequantising GEMM's 64 weight columns are
// filled by 32 threads (the last two left results unwritten before they
// looped).
func TestOpsOneSimdgroup(t *testing.T) {
	t.Parallel()
	opts := suiteOptions
	opts.MaxThreadsPerThreadgroup = 32
	s, err := buildSuite(compiler(t), opts, opCases(), mslcpu.Plain)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"const uint eh = tpos.x + 32u * (((9u - tpos.x % 9u) * 2u) % 9u);",
		"const uint xsw = ((tpos.x / 2u) & 1u) * 4u;",
	} {
		if !strings.Contains(s.out.Source, want) {
			t.Errorf("no kernel has %q", want)
		}
	}
	runChecked(t, s, mslcpu.Plain, 5, mslcpu.RegionOptions{})
}

package metal_test

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
)

// TestOps runs every case of the op suite through the harness and compares
// it with the reference interpreter.
func TestOps(t *testing.T) {
	t.Parallel()
	s := opSuite(t)
	var runs []*caseRun
	for _, c := range s.cases {
		cr, err := s.prepare(c, 1, mslcpu.RegionOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		runs = append(runs, cr)
	}
	if err := s.runCases(mslcpu.Plain, runs); err != nil {
		t.Fatal(err)
	}
	checkRuns(t, runs)
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
// their merges through a region temporary).
var sanitizerCases = []string{
	"ew_add_silu", "rms_norm_3x1000", "softmax_axis0_5x3x7", "reduce_sum_i32_rows", "reduce_max_rows_6x200",
	"gather_rows", "gemv_odd_3x37x45", "gemv_decode_1x64x96", "gemm_odd_67x45x131", "dequant_q4_k_1x37x512",
	"dequant_q4_0_1x64x2592", "dequant_q4_k_3x45x8960", "dequant_q6_k_3x45x4096", "dequant_q6_k_20x70x512", "attn_decode_gqa_custom", "attn_decode_causal_long",
	"attn_general_causal", "gdn_seq_kda_48", "lstm_seq",
}

// TestSanitizers runs the subset under AddressSanitizer and
// ThreadSanitizer; a report fails the test.
func TestSanitizers(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipping in -short mode")
	}
	var cases []opCase
	for _, c := range opCases() {
		if slices.Contains(sanitizerCases, c.Name) {
			cases = append(cases, c)
		}
	}
	if len(cases) != len(sanitizerCases) {
		t.Fatalf("sanitizerCases names %d cases, the suite has %d of them", len(sanitizerCases), len(cases))
	}
	for _, mode := range []mslcpu.Mode{mslcpu.ASan, mslcpu.TSan} {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			cc := compiler(t)
			if err := cc.SanitizerAvailable(mode); err != nil {
				t.Skipf("skipping: %v", err)
			}
			s, err := buildSuite(cc, cases, mode)
			if err != nil {
				t.Fatal(err)
			}
			var runs []*caseRun
			for _, c := range cases {
				cr, err := s.prepare(c, 2, mslcpu.RegionOptions{})
				if err != nil {
					t.Fatal(err)
				}
				runs = append(runs, cr)
			}
			if err := s.runCases(mode, runs); err != nil {
				t.Fatal(err)
			}
			checkRuns(t, runs)
		})
	}
}

// TestOpsSmallThreadgroups runs the suite as a runtime must on a device
// whose pipelines allow fewer threads than the manifest asks for: every
// kernel that may shrink (resize "rows" or "threads") runs with 96 threads,
// a size that is not a power of two.
func TestOpsSmallThreadgroups(t *testing.T) {
	t.Parallel()
	s := opSuite(t)
	var runs []*caseRun
	for _, c := range s.cases {
		cr, err := s.prepare(c, 3, mslcpu.RegionOptions{MaxThreads: 96})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		runs = append(runs, cr)
	}
	if err := s.runCases(mslcpu.Plain, runs); err != nil {
		t.Fatal(err)
	}
	checkRuns(t, runs)
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

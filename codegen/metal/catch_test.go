package metal_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
)

// The harness catches what it exists to catch: each test breaks an emitted
// kernel (or its launch) the way a real bug would and checks that the
// harness reports it.

var rmsCase = opCase{
	name: "catch_rms", args: []string{"tensor<3x1000xf32>", "tensor<1000xf32>"},
	body:  `%0 = graph.rms_norm %a0, %a1 {epsilon = 1.0e-06 : f32} : (tensor<3x1000xf32>, tensor<1000xf32>) -> tensor<3x1000xf32>`,
	yield: []string{"%0"}, results: []string{"tensor<3x1000xf32>"}, limit: limitExact,
}

// brokenSuite emits c, applies edit to the source and builds it in mode.
func brokenSuite(t *testing.T, c opCase, edit func(string) string, mode mslcpu.Mode) *suite {
	t.Helper()
	if _, err := mslcpu.Clang(); err != nil {
		t.Skip("skipping: ", err)
	}
	if err := mslcpu.SanitizerAvailable(mode); err != nil {
		t.Skip("skipping: ", err)
	}
	s, err := buildSuite([]opCase{c})
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		src := edit(s.out.Source)
		if src == s.out.Source {
			t.Fatal("the edit changed nothing")
		}
		s.out.Source = src
	}
	if err := s.build(mode); err != nil {
		t.Fatal(err)
	}
	return s
}

func runOne(t *testing.T, s *suite, mode mslcpu.Mode, opt mslcpu.RegionOptions) (*caseRun, error) {
	t.Helper()
	cr, err := s.prepare(s.cases[0], 1, opt)
	if err != nil {
		t.Fatal(err)
	}
	return cr, s.runCases(mode, []*caseRun{cr})
}

// A threadgroup_barrier deleted from the threadgroup reduction: TSan
// reports the race between the lane that writes a simdgroup's partial and
// the threads that read it.
func TestCatchDeletedBarrier(t *testing.T) {
	barrier := "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
	s := brokenSuite(t, rmsCase, func(src string) string { return strings.Replace(src, barrier, "", 1) }, mslcpu.TSan)
	_, err := runOne(t, s, mslcpu.TSan, mslcpu.RegionOptions{})
	var re *mslcpu.RunError
	if !errors.As(err, &re) || !strings.Contains(re.Output, "ThreadSanitizer: data race") {
		t.Fatalf("want a TSan data race report, got %v", err)
	}
	if !strings.Contains(re.Output, "kernels.metal") {
		t.Errorf("the report does not point into the emitted source:\n%s", re.Output)
	}
}

// The output buffer allocated one element short: the guard bytes after it
// are overwritten (plain build) and AddressSanitizer reports the overflow
// (ASan build).
func TestCatchShortBuffer(t *testing.T) {
	for _, mode := range []mslcpu.Mode{mslcpu.Plain, mslcpu.ASan} {
		t.Run(mode.String(), func(t *testing.T) {
			s := brokenSuite(t, rmsCase, nil, mode)
			out := -1
			for _, b := range s.region(rmsCase.name).Buffers {
				if b.Role == metal.RoleOutput {
					out = b.ID
				}
			}
			cr, err := runOne(t, s, mode, mslcpu.RegionOptions{ShortBuffers: []int{out}})
			switch mode {
			case mslcpu.Plain:
				if err != nil {
					t.Fatal(err)
				}
				if cr.err == nil || !strings.Contains(cr.err.Error(), "guard bytes after the end were written") {
					t.Fatalf("want a guard-byte error, got %v", cr.err)
				}
			case mslcpu.ASan:
				var re *mslcpu.RunError
				if !errors.As(err, &re) || !strings.Contains(re.Output, "AddressSanitizer: heap-buffer-overflow") {
					t.Fatalf("want an ASan report, got %v", err)
				}
			}
		})
	}
}

// A lane that returns before the simd_sum of the reduction: no deadlock;
// the dispatcher reports the threadgroup_barrier that the returned thread
// can no longer reach.
func TestCatchEarlyReturn(t *testing.T) {
	s := brokenSuite(t, rmsCase, func(src string) string {
		return strings.Replace(src, "  const float r = ", "  if (lane == 5u) {\n    return;\n  }\n  const float r = ", 1)
	}, mslcpu.Plain)
	_, err := runOne(t, s, mslcpu.Plain, mslcpu.RegionOptions{})
	var re *mslcpu.RunError
	if !errors.As(err, &re) || !strings.Contains(re.Output, "threadgroup_barrier reached after") {
		t.Fatalf("want the returned-thread report, got %v", err)
	}
}

// A lane that skips a simdgroup function without returning would hang a
// GPU; the harness reports a deadlock after its deadline instead.
func TestCatchDivergentSimd(t *testing.T) {
	t.Setenv("RLX_MSL_DEADLINE", "2")
	s := brokenSuite(t, rmsCase, func(src string) string {
		return strings.Replace(src, "  v = simd_sum(v);\n", "  if (lane != 5u) {\n    v = simd_sum(v);\n  }\n", 1)
	}, mslcpu.Plain)
	_, err := runOne(t, s, mslcpu.Plain, mslcpu.RegionOptions{})
	var re *mslcpu.RunError
	if !errors.As(err, &re) || !strings.Contains(re.Output, "deadlock") {
		t.Fatalf("want a deadlock report, got %v", err)
	}
}

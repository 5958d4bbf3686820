package metal_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
	"github.com/rlx-compiler/rlx/codegen/metal/opsuite"
	"github.com/rlx-compiler/rlx/runtime/tensor"
)

// The harness catches what it exists to catch: each test breaks an emitted
// kernel (or its launch) the way a real bug would and checks that the
// harness reports it.

var rmsCase = opCase{
	Name: "catch_rms", Args: []string{"tensor<3x1000xf32>", "tensor<1000xf32>"},
	Body:  `%0 = graph.rms_norm %a0, %a1 {epsilon = 1.0e-06 : f32} : (tensor<3x1000xf32>, tensor<1000xf32>) -> tensor<3x1000xf32>`,
	Yield: []string{"%0"}, Results: []string{"tensor<3x1000xf32>"}, Limit: opsuite.LimitExact,
}

// brokenSuite emits c, applies edit to the source and builds it in mode.
func brokenSuite(t *testing.T, c opCase, edit func(string) string, mode mslcpu.Mode) *suite {
	t.Helper()
	cc := compiler(t)
	if err := cc.SanitizerAvailable(mode); err != nil {
		t.Skipf("skipping: %v", err)
	}
	s, err := buildSuite(cc, suiteOptions, []opCase{c})
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
	t.Parallel()
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
	t.Parallel()
	for _, mode := range []mslcpu.Mode{mslcpu.Plain, mslcpu.ASan} {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			s := brokenSuite(t, rmsCase, nil, mode)
			out := -1
			for _, b := range s.region(rmsCase.Name).Buffers {
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
	t.Parallel()
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
	t.Parallel()
	s := brokenSuite(t, rmsCase, func(src string) string {
		return strings.Replace(src, "  v = simd_sum(v);\n", "  if (lane != 5u) {\n    v = simd_sum(v);\n  }\n", 1)
	}, mslcpu.Plain)
	s.bins[mslcpu.Plain].Deadline = 2 * time.Second
	_, err := runOne(t, s, mslcpu.Plain, mslcpu.RegionOptions{})
	var re *mslcpu.RunError
	if !errors.As(err, &re) || !strings.Contains(re.Output, "deadlock") {
		t.Fatalf("want a deadlock report, got %v", err)
	}
}

// Run-time errors a kernel cannot raise itself set the region's status
// word: an out-of-range gather index (nothing is read, as the reference
// promises) and an integer division by zero.
func TestStatusWord(t *testing.T) {
	t.Parallel()
	c := opCase{
		Name: "status", Args: []string{"tensor<5x4xf32>", "tensor<3xi32>", "tensor<3xi32>"},
		Body: `%0 = graph.gather %a0, %a1 {axis = 0 : i64} : (tensor<5x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
%1 = graph.div %a2, %a1 : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>`,
		Yield: []string{"%0", "%1"}, Results: []string{"tensor<3x4xf32>", "tensor<3xi32>"},
	}
	s := brokenSuite(t, c, nil, mslcpu.Plain)
	table := tensor.Zeros(tensor.F32, 5, 4)
	for _, tc := range []struct {
		idx  []int64
		want string
	}{
		{[]int64{1, 4, 2}, ""},
		{[]int64{1, 5, 2}, "status 0x1: a gather index was out of range"},
		{[]int64{1, -1, 2}, "status 0x1: a gather index was out of range"},
		{[]int64{1, 0, 2}, "status 0x2: an integer division by zero"},
	} {
		idx, _ := tensor.FromInt64(tensor.I32, []int{3}, tc.idx)
		num, _ := tensor.FromInt64(tensor.I32, []int{3}, []int64{7, 7, 7})
		checkStatus(t, s, c.Name, []*tensor.Tensor{table, idx, num}, nil, tc.idx, tc.want)
	}
}

// checkStatus runs case name's region of s on args (weights from weight)
// and checks the error RegionOutputs reports: none when want is "",
// otherwise one ending in want; idx names the run in messages.
func checkStatus(t *testing.T, s *suite, name string, args []*tensor.Tensor, weight func(string) (*tensor.Tensor, error), idx []int64, want string) {
	t.Helper()
	job, err := mslcpu.RegionJob(s.out.Manifest, s.region(name), args, weight, mslcpu.RegionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.bins[mslcpu.Plain].Run([]*mslcpu.Job{job})
	if err != nil {
		t.Fatal(err)
	}
	_, err = mslcpu.RegionOutputs(s.region(name), res[0])
	switch {
	case want == "" && err != nil:
		t.Errorf("indices %v: %v", idx, err)
	case want != "" && (err == nil || !strings.HasSuffix(err.Error(), want)):
		t.Errorf("indices %v: got %v, want …%s", idx, err, want)
	}
}

// TestExpertIndexStatus: an MoE block's expert read in place (no gather
// kernel) checks its index as the gather would: an index past the stack
// or below 0 sets the status word, which RegionOutputs reports.
func TestExpertIndexStatus(t *testing.T) {
	t.Parallel()
	var c opCase
	for _, oc := range opsuite.Cases() {
		if oc.Name == "experts_q8_0" {
			c = oc
		}
	}
	s := brokenSuite(t, c, nil, mslcpu.Plain)
	if k := s.out.Kernel("gather_0"); k != nil {
		t.Fatal("the experts' gather kept its kernel")
	}
	stack := tensor.Zeros(tensor.UI8, 4*64*512/32*34)
	x := tensor.Zeros(tensor.F32, 1, 512)
	for _, tc := range []struct {
		idx  []int64
		want string
	}{
		{[]int64{3, 0}, ""},
		{[]int64{3, 4}, "status 0x1: a gather index was out of range"},
		{[]int64{-1, 2}, "status 0x1: a gather index was out of range"},
	} {
		idx, _ := tensor.FromInt64(tensor.I32, []int{2}, tc.idx)
		weight := func(name string) (*tensor.Tensor, error) { return stack, nil }
		checkStatus(t, s, c.Name, []*tensor.Tensor{x, idx}, weight, tc.idx, tc.want)
	}
}

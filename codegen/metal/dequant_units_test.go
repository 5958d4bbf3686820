package metal_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal"
)

// TestUnitGEMVShape checks the unit formats' GEMV for the shape run 45b
// timed (docs/gpu-check.md): at M = 1 eight rows a threadgroup, a
// unit's x read once for all of them (eight float4 loads in the kernel,
// not eight a row), no more simdgroups than a row has units (three at
// K = 2880), q2_k and q3_k through their factored dots (in a batch
// through their slices), and iq4_nl's, iq4_xs's and
// mxfp4's levels from a table the threadgroup writes first; for a
// batch (M = 3) four rows a threadgroup. TestOps checks the values.
func TestUnitGEMVShape(t *testing.T) {
	for _, f := range []struct {
		name                    string
		block, bytes            int
		sliced, table, factored bool
	}{
		{"q2_k", 256, 84, true, false, true}, {"q3_k", 256, 110, true, false, true},
		{"iq4_nl", 32, 18, false, true, false}, {"iq4_xs", 256, 136, false, true, false}, {"mxfp4", 32, 17, false, true, false},
	} {
		for _, s := range []struct{ m, n, k, rows, threads int }{
			{1, 37, 4352, 8, 128},
			{1, 37, 2880, 8, 96},
			{3, 37, 4352, 4, 128},
		} {
			if s.k%f.block != 0 {
				continue
			}
			name := fmt.Sprintf("%s_%dx%dx%d", f.name, s.m, s.n, s.k)
			t.Run(name, func(t *testing.T) {
				x := fmt.Sprintf("tensor<%dx%dxf32>", s.m, s.k)
				y := fmt.Sprintf("tensor<%dx%dxf32>", s.m, s.n)
				w := fmt.Sprintf("tensor<%dxui8>", s.n*s.k/f.block*f.bytes)
				src := opCase{Name: name, Args: []string{x},
					Body: fmt.Sprintf(`%%w = graph.param "w" : %s
%%0 = graph.dequant_matmul %%a0, %%w {format = %q, k = %d : i64, n = %d : i64} : (%s, %s) -> %s`, w, f.name, s.k, s.n, x, w, y),
					Yield: []string{"%0"}, Results: []string{y}}.MLIR()
				out, err := emitText(t, src, metal.Options{})
				if err != nil {
					t.Fatal(err)
				}
				k := out.Kernel("dequant_gemv_" + f.name + "_0")
				if k == nil {
					t.Fatalf("no kernel dequant_gemv_%s_0 in %v", f.name, out.Kernels)
				}
				if want := (s.n + s.rows - 1) / s.rows; k.Grid != [3]int{want, 1, 1} || k.Threadgroup != [3]int{s.threads, 1, 1} {
					t.Errorf("grid %v of %v threads, want [%d 1 1] of [%d 1 1]", k.Grid, k.Threadgroup, want, s.threads)
				}
				text := k.Text()
				loads := strings.Count(text, "*((device const float4 *)(x")
				// At M = 1 a unit's x once for all the rows; a batch reads
				// each row of x again for each weight row.
				want := 8 * s.m * s.rows
				if s.m == 1 {
					want = 8
				}
				if loads != want {
					t.Errorf("%d loads of x, want %d", loads, want)
				}
				// q2_k and q3_k at M = 1: the factored dot (rlx_gd_*) on x
				// prescaled; their batches: the slice's values.
				gd := f.factored && s.m == 1
				if got := strings.Contains(text, "rlx_gd_"+f.name+"("); got != gd {
					t.Errorf("calls rlx_gd_%s: %v, want %v", f.name, got, gd)
				}
				if gv := strings.Contains(text, "rlx_gv_"+f.name+"("); gv != (f.sliced && !gd || f.table) {
					t.Errorf("calls rlx_gv_%s: %v, want %v", f.name, gv, f.sliced && !gd || f.table)
				}
				if fill := strings.Contains(text, "lv[tpos.x] = "); fill != f.table {
					t.Errorf("writes a table of levels: %v, want %v", fill, f.table)
				}
			})
		}
	}
}

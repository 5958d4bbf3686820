package metal

import "testing"

// TestDqScalesHeaders checks the table of scales' header pick for every
// thread of the threadgroup sizes a kernel can be emitted for: among a
// thread's stores tpos.x + j·threads (j < units, rows·p = threads) exactly
// one is a block header (a multiple of the block's units), and header
// picks it; sizes that share a factor with the units (96 and 9) have no
// table. The emitted pick is checked by running it (TestOps and
// TestOpsOneSimdgroup, where a wrong pick fails at NMSE +Inf).
func TestDqScalesHeaders(t *testing.T) {
	f, _ := quantFormat("q4_k")
	for _, threads := range []int64{32, 64, 96, 128, 160, 256} {
		const rows = 8
		st := dqStage{p: threads / rows, stages: dqLongStages}
		sc := dqScalesOf(f, rows, st, threads)
		u := f.bytes / 16
		if gcd(threads, u) != 1 {
			if sc != nil {
				t.Errorf("%d threads: a table, though %d and %d share a factor", threads, threads, u)
			}
			continue
		}
		if sc == nil {
			t.Fatalf("%d threads: no table", threads)
		}
		if threads*sc.inv%u != 1 {
			t.Errorf("%d threads: inverse %d is not %d⁻¹ mod %d", threads, sc.inv, threads, u)
		}
		for tp := range threads {
			var heads []int64
			for j := range u {
				if (tp+j*threads)%u == 0 {
					heads = append(heads, j)
				}
			}
			if len(heads) != 1 || heads[0] != sc.header(tp) {
				t.Errorf("%d threads, thread %d: headers at stores %v, header picks %d", threads, tp, heads, sc.header(tp))
			}
		}
	}
	if sc := dqScalesOf(f, 8, dqStage{p: 8, stages: dqLongStages - 1}, 64); sc != nil {
		t.Errorf("a table on rows of %d stages", dqLongStages-1)
	}
}

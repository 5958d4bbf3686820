package ir

import "testing"

// TestPostOrder: a diamond with a back edge and an unreachable block, in
// one region: every reachable block once, each after the blocks it
// reaches first (DFS post-order, successors in operand order), the entry
// last, the unreachable block left out.
func TestPostOrder(t *testing.T) {
	ctx := NewContext()
	ctx.AllowUnregistered = true
	br := ctx.OpName("test.br")
	holder := NewOperation(ctx, &OperationState{Name: ctx.OpName("test.region"), NumRegions: 1})
	r := holder.Region(0)
	blocks := make([]*Block, 5) // 0 → 1, 2; 1 → 3; 2 → 3; 3 → 0 (back edge); 4 → 3 (unreachable)
	for i := range blocks {
		blocks[i] = NewBlock(nil, nil)
		r.AppendBlock(blocks[i])
	}
	succ := [][]int{{1, 2}, {3}, {3}, {0}, {3}}
	for i, ss := range succ {
		var to []*Block
		for _, s := range ss {
			to = append(to, blocks[s])
		}
		blocks[i].Append(NewOperation(ctx, &OperationState{Name: br, Successors: to}))
	}
	var got []int
	for _, b := range PostOrder(blocks[0]) {
		for i := range blocks {
			if blocks[i] == b {
				got = append(got, i)
			}
		}
	}
	want := []int{3, 1, 2, 0}
	if len(got) != len(want) {
		t.Fatalf("PostOrder = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("PostOrder = %v, want %v", got, want)
		}
	}
	if PostOrder(nil) != nil {
		t.Error("PostOrder(nil) is not empty")
	}
}

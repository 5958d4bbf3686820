package hybridsplit

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
)

// A direct transcription of RLX's build_hybrid_plan
// (../shared/seed/hybrid_split.rs) over a node list, written separately
// from the pass, to check mode=seed against: same steps, same node sets.
// try_lower_with_constants is modelled as "every node of the extracted
// sub-graph is MPS-capable" (the default target's table on the op in the original
// function); the extracted boundaries and outputs do not change the steps.

type rsOp int

const (
	rsInput rsOp = iota
	rsParam
	rsConstant
	rsGatedDeltaNet
	rsLstm
	rsAttention
	rsDequantMatMul
	rsOther
)

type rsNode struct {
	id      int
	op      rsOp
	capable bool
	origin  *ir.Operation // nil for inputs
}

type rsStep struct {
	subGraph bool
	// plan holds the segment's nodes for a SubGraph (the extracted
	// sub-graph); thunkSkip / thunks is the range of node indices.
	plan       []int
	start, end int
}

// rsNodes lists the function's nodes as the RLX graph does: inputs first,
// then every op in order (insertion order is the topological order).
func rsNodes(s *snapshot) []rsNode {
	var nodes []rsNode
	body := s.fn.Region(0).First()
	for range body.Arguments() {
		nodes = append(nodes, rsNode{id: len(nodes), op: rsInput})
	}
	for op := body.First(); op != body.Last(); op = op.Next() {
		n := rsNode{id: len(nodes), op: rsOther, origin: op}
		switch op.Name() {
		case graph.ParamName:
			n.op = rsParam
		case graph.ConstantName:
			n.op = rsConstant
		case graph.GatedDeltaNetName:
			n.op = rsGatedDeltaNet
		case graph.LSTMName:
			n.op = rsLstm
		case graph.AttentionName:
			n.op = rsAttention
		case graph.DequantMatMulName:
			n.op = rsDequantMatMul
		}
		n.capable = defaultMPS.IsCapable(op)
		nodes = append(nodes, n)
	}
	return nodes
}

func rsTryLower(nodes []rsNode, segment []int) bool {
	for _, id := range segment {
		if !nodes[id].capable {
			return false
		}
	}
	return true
}

func rsCanLowerDequantInMPS() bool { return false }

// rsBuildHybridPlan is build_hybrid_plan; ok=false is its None.
func rsBuildHybridPlan(nodes []rsNode) (steps []rsStep, ok bool) {
	for _, n := range nodes {
		if n.op == rsGatedDeltaNet || n.op == rsAttention || n.op == rsLstm {
			return nil, false
		}
	}
	var pending, pendingIdxs []int
	flushMPS := func() {
		if len(pending) == 0 {
			return
		}
		start, end := pendingIdxs[0], pendingIdxs[0]
		for _, i := range pendingIdxs {
			start = min(start, i)
			end = max(end, i)
		}
		end++
		if rsTryLower(nodes, pending) {
			steps = append(steps, rsStep{subGraph: true, plan: append([]int(nil), pending...), start: start, end: end})
		} else {
			steps = append(steps, rsStep{start: start, end: end})
		}
		pending = pending[:0]
		pendingIdxs = pendingIdxs[:0]
	}
	for thunkIdx, node := range nodes {
		id, op := node.id, node.op
		if op == rsInput || op == rsParam || op == rsConstant {
			continue
		}
		if op == rsGatedDeltaNet || op == rsLstm || op == rsAttention || (op == rsDequantMatMul && !rsCanLowerDequantInMPS()) {
			flushMPS()
			steps = append(steps, rsStep{start: thunkIdx, end: thunkIdx + 1})
		} else {
			pending = append(pending, id)
			pendingIdxs = append(pendingIdxs, thunkIdx)
		}
	}
	flushMPS()
	all := true
	for _, s := range steps {
		all = all && !s.subGraph
	}
	if all {
		return nil, false
	}
	return steps, true
}

// checkSeed compares the regions of mode=seed with the original's steps
// and returns how many steps its plan has (0 for none). A None plan must
// be one thunk region holding every compute op (or no region when there
// is none).
func checkSeed(s *snapshot, nodes []rsNode, regions []region) (int, error) {
	nodeOf := map[*ir.Operation]int{}
	for _, n := range nodes {
		if n.origin != nil {
			nodeOf[n.origin] = n.id
		}
	}
	steps, ok := rsBuildHybridPlan(nodes)
	if !ok {
		if len(s.ops) == 0 && len(regions) == 0 {
			return 0, nil
		}
		if len(regions) != 1 || !regions[0].native || len(regions[0].ops) != len(s.ops) {
			return 0, fmt.Errorf("the original makes no hybrid plan, but seed mode made %s", describe(s, regions))
		}
		return 0, nil
	}
	if len(steps) != len(regions) {
		return 0, fmt.Errorf("the original makes %d steps, seed mode %d regions: %s", len(steps), len(regions), describe(s, regions))
	}
	for k, st := range steps {
		r := regions[k]
		var want []int
		if st.subGraph {
			want = st.plan
		} else {
			for id := st.start; id < st.end; id++ {
				if n := nodes[id]; n.op != rsInput && n.op != rsParam && n.op != rsConstant {
					want = append(want, id)
				}
			}
		}
		if r.native == st.subGraph {
			return 0, fmt.Errorf("step %d: the original makes subGraph=%v, seed mode native=%v", k, st.subGraph, r.native)
		}
		if len(want) != len(r.ops) {
			return 0, fmt.Errorf("step %d: the original has %d nodes, the region %d ops", k, len(want), len(r.ops))
		}
		for j, i := range r.ops {
			if nodeOf[s.ops[i]] != want[j] {
				return 0, fmt.Errorf("step %d: node %d differs", k, j)
			}
		}
	}
	return len(steps), nil
}

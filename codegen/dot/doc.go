// Package dot is the mlir-to-dot translation: each function of a module
// as a Graphviz DOT graph, the drawing the view-op-graph pass makes. On a
// function after hybrid-split, nodes are coloured by the region op that
// holds them (mps.subgraph, thunk.call), so the split shows at a glance:
//
//	rlx-opt --hybrid-split in.mlir | rlx-translate --mlir-to-dot -o split.dot
//	dot -Tsvg split.dot -o split.svg
package dot

// Package hybridinline is the hybrid-inline pass, the inverse of
// hybrid-split: it puts the body of every mps.subgraph and thunk.call of a
// function back in line, in place of the region op, and merges the
// identical leaves (graph.param and graph.constant ops with the same
// attributes and type) that hybrid-split had cloned into each region.
//
// A region's block arguments are replaced by the region op's operands and
// its results by the terminator's operands, so after hybrid-split then
// hybrid-inline the function computes the same values as before the
// split, with its compute ops in the order of the regions (a topological
// order of the original) and each leaf once, at its first use.
//
// The pass anchors on func.func and touches only the region ops directly
// in the function body. It runs in O(ops + uses).
package hybridinline

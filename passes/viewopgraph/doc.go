// Package viewopgraph is the view-op-graph pass: it writes a Graphviz DOT
// graph of the op it runs on, in the format of MLIR's PrintOpGraph (to
// stderr by default). Ops with regions become clusters holding one
// cluster per block; other ops and block arguments become nodes; edges
// show data flow (operand to user, solid) and optionally control flow
// between consecutive ops of a block (dashed).
//
// Nodes are filled with a colour per op name, as MLIR does. With
// Options.ColorBy = "region" the colour is chosen by the name of the op
// whose region holds the node instead, so the mps.subgraph and thunk.call
// regions of hybrid-split's output stand out.
package viewopgraph

// Package randgraph builds random, valid graph-dialect functions for the
// property tests of hybrid-split and of the runtime's plans: DAGs over
// every graph op, with NumPy broadcasting, multi-result ops
// (gated_delta_net, lstm), leaves shared by several ops, attention that is
// and is not leaf-materialised, and enough ops without an MPS lowering
// that regions alternate. Config.Plans makes functions on which the
// original algorithm (mode=seed) makes hybrid plans of several steps;
// Config.Routes ends a function with an MoE router (topk, and the rows of
// a weight its indices pick), Config.Strides with strided slices of
// several elements, Config.Wide with ops on rows wider than a simdgroup,
// Config.Formats with dequant_matmuls in the GGUF formats the main ops do
// not draw (q2_k to mxfp4). Shapes are otherwise tiny so the interpreter
// runs the functions fast. The same
// seed and Config give the same function; Seeded is the property tests'
// choice of Config per seed.
package randgraph

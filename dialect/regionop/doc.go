// Package regionop holds what the region ops of a partitioned function
// share: the outlined-region form of mps.subgraph and thunk.call (their
// custom syntax, their verifier), and the structural rule by which the
// rest of rlx recognises any op of that shape without knowing its
// dialect.
//
// An outlined region op has a symbol, operands, one region holding one
// block, and results. The block's arguments correspond one to one (same
// types, same order) to the operands, and the block's last op, the
// terminator, has no results and operands that correspond one to one to
// the op's results. Values flow through such an op unchanged: block
// argument i is operand i, and result i is the terminator's operand i.
// Check states the rule once; the dialects' verifiers (VerifyOutlined,
// with mlir-opt-style messages), the reference interpreter and
// hybrid-inline all use it, and Source follows a value back across such
// ops to where it was computed.
//
// The package is public rather than internal to dialect/ because the
// interpreter (runtime/ref), the passes and the target layer recognise
// region ops by this rule too.
package regionop

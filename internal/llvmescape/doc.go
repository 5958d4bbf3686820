// Package llvmescape escapes strings as LLVM's raw_ostream::write_escaped
// does, for the tools whose output must match LLVM's byte for byte
// (FileCheck's messages, view-op-graph's DOT labels).
package llvmescape

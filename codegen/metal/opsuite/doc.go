// Package opsuite is codegen/metal's op suite: the regions, one or a few
// graph ops each, on which every kernel family is checked at the sizes
// the CPU harness runs (odd sizes, the decode case, batches), with the
// NMSE limit each result must meet against the reference interpreter.
// codegen/metal's tests run it through the CPU harness and bench/gpu runs
// it, case for case, on a GPU.
package opsuite

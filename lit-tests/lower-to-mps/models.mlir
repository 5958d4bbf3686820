// RUN: rlx-gen qwen35 -o %t.qwen35.mlir
// RUN: rlx-opt %t.qwen35.mlir --hybrid-split -o %t.qwen35.split.mlir
// RUN: rlx-opt %t.qwen35.split.mlir --lower-to-mps -o %t.qwen35.low.mlir
// RUN: rlx-run %t.qwen35.split.mlir --compare-with %t.qwen35.low.mlir --tolerance 1e-5 | FileCheck %s

// RUN: rlx-gen zonos -o %t.zonos.mlir
// RUN: rlx-opt %t.zonos.mlir --hybrid-split --lower-to-mps -o %t.zonos.low.mlir
// RUN: rlx-run %t.zonos.mlir --compare-with %t.zonos.low.mlir --tolerance 1e-5 | FileCheck %s

// RUN: rlx-gen kimi -o %t.kimi.mlir
// RUN: rlx-opt %t.kimi.mlir --hybrid-split --lower-to-mps --mlir-pass-statistics -o %t.kimi.low.mlir 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: rlx-run %t.kimi.mlir --compare-with %t.kimi.low.mlir --tolerance 1e-5 | FileCheck %s

// The three models at toy size, split and lowered, against their graph
// form on the interpreter: every result within 1e-5 (the decompositions
// of silu and gelu round differently from their kernels; TestModels in
// passes/lowertomps measures each region alone). Every mps.subgraph
// becomes primitives.

// CHECK: result 0:
// CHECK-NOT: error

// STATS:      (S) 11 mps-regions
// STATS:      LowerToMPS
// STATS-NEXT:   (S) 224 graph-ops
// STATS-NEXT:   (S) 346 primitives
// STATS-NEXT:   (S)  11 regions

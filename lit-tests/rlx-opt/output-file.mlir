// RUN: cp %s %t.in.mlir
// RUN: rlx-opt --hybrid-split %t.in.mlir -o %t.in.mlir
// RUN: FileCheck %s --input-file=%t.in.mlir
// RUN: cp %s %t.split.mlir
// RUN: rlx-opt --split-input-file --hybrid-split %t.split.mlir -o %t.split.mlir
// RUN: FileCheck %s --input-file=%t.split.mlir
// RUN: echo old > %t.out
// RUN: echo 'graph.bogus' | not rlx-opt -o %t.out 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: FileCheck %s --check-prefix=OLD --input-file=%t.out
// RUN: echo old > %t.dot
// RUN: echo 'graph.bogus' | not rlx-translate --mlir-to-dot -o %t.dot
// RUN: FileCheck %s --check-prefix=OLD --input-file=%t.dot

// -o may name the input: the output is written beside it and renamed over
// it only once complete. A failing run leaves the file it would have
// written as it was.

// CHECK: mps.subgraph @f_mps0
// ERR: <stdin>:1:1: error: custom op 'graph.bogus' is unknown
// OLD: old
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

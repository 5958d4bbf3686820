// RUN: rlx-opt %s --hybrid-split > %t.once
// RUN: rlx-opt %s --hybrid-split --hybrid-split > %t.twice
// RUN: diff %t.once %t.twice
// RUN: rlx-opt %t.once --hybrid-split=mode=seed | diff %t.once -

// hybrid-split on a function that is already split (only region ops,
// leaves and func.return in its body) is a no-op, in either mode (see
// already-split.mlir for the explain remark). The output is deterministic:
// the same input gives byte-identical output.

func.func @f(%x: tensor<1x64xf32>) -> tensor<1x64xf32> {
  %w = graph.param "w" : tensor<64x64xf32>
  %a = graph.matmul %x, %w : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %b = graph.softplus %a : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %c = graph.add %a, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  return %c : tensor<1x64xf32>
}

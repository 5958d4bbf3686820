// RUN: rlx-opt %s --lower-to-mps=target=macos13 --verify-diagnostics -o /dev/null
// RUN: rlx-opt %s --lower-to-mps=target=cpu --verify-diagnostics -o /dev/null
// RUN: rlx-opt %s --lower-to-mps | FileCheck %s
// RUN: not rlx-opt %s --lower-to-mps=target=macos99 2>&1 | FileCheck %s --check-prefix=BAD

// What lower-to-mps may lower is what the target's MPSGraph runs (its
// capability table). An mps.subgraph holds what any MPSGraph target runs,
// so a region with bf16 tensors verifies, lowers for the default target
// (macos14), and is a located error naming the op for macos13, whose
// MPSGraph has no bfloat16; cpu runs nothing through MPSGraph. Nothing is
// changed when an op cannot be lowered.

// CHECK: mps.cast {{.*}} -> tensor<2x8xbf16>
// CHECK: mps.softmax {{.*}} : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
// BAD: error: invalid value for option 'target' of pass 'lower-to-mps': 'macos99' is not a valid value (expected one of: macos13, macos14, macos15, cpu)

func.func @bf16(%x: tensor<2x8xf32>) -> tensor<2x8xbf16> {
  // expected-note@+1 {{in the mps.subgraph @bf16_mps0}}
  %0 = mps.subgraph @bf16_mps0(%x) : (tensor<2x8xf32>) -> tensor<2x8xbf16> {
  ^bb0(%a: tensor<2x8xf32>):
    // expected-error@+1 {{'graph.cast' op cannot be lowered to MPSGraph: }}
    %1 = graph.cast %a : (tensor<2x8xf32>) -> tensor<2x8xbf16>
    %2 = graph.softmax %1 {axis = 1} : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
    mps.yield %2 : tensor<2x8xbf16>
  }
  return %0 : tensor<2x8xbf16>
}

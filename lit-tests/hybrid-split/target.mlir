// RUN: rlx-opt %s --hybrid-split | FileCheck %s --check-prefix=MAC14
// RUN: rlx-opt %s --hybrid-split=target=macos14 | FileCheck %s --check-prefix=MAC14
// RUN: rlx-opt %s --hybrid-split=target=macos15 | FileCheck %s --check-prefix=MAC14
// RUN: rlx-opt %s --hybrid-split=target=macos13 | FileCheck %s --check-prefix=MAC13
// RUN: rlx-opt %s --hybrid-split='target=macos13 explain' --verify-diagnostics -o /dev/null
// RUN: rlx-opt %s --hybrid-split=target=cpu | FileCheck %s --check-prefix=CPU
// RUN: not rlx-opt %s --hybrid-split=target=macos99 2>&1 | FileCheck %s --check-prefix=BAD

// The target says what MPSGraph runs and where native regions run. The
// default, macos14, runs bf16 tensors through MPSGraph; macos13's MPSGraph
// has no bfloat16, so the cast to bf16 and the bf16 softmax stay native
// there; cpu runs
// nothing through MPSGraph and makes host thunks.

// MAC14:     mps.subgraph @f_mps0
// MAC14-NOT: thunk.call

// MAC13:      mps.subgraph @f_mps0
// MAC13-NEXT: ^bb0(
// MAC13-NEXT:   graph.exp
// MAC13-NEXT:   mps.yield
// MAC13:      thunk.call @f_thunk1({{.*}}) {target = "metal"}
// MAC13-NEXT: ^bb0(
// MAC13-NEXT:   graph.cast
// MAC13-NEXT:   graph.softmax
// MAC13-NEXT:   thunk.yield

// CPU:     thunk.call @f_thunk0({{.*}}) {target = "host"}
// CPU-NOT: mps.subgraph

// BAD: <command-line>:1:23: error: invalid value for option 'target' of pass 'hybrid-split': 'macos99' is not a valid value (expected one of: macos13, macos14, macos15, cpu)
func.func @f(%x: tensor<2x8xf32>) -> tensor<2x8xbf16> {
  %0 = graph.exp %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // expected-remark@+1 {{kept native: graph.cast: cast to bf16 (MPS casts only to f32, f16, i32)}}
  %1 = graph.cast %0 : (tensor<2x8xf32>) -> tensor<2x8xbf16>
  // expected-remark@+1 {{kept native: graph.softmax: operand #0 has element type bf16 (MPS takes f32, f16, i32)}}
  %2 = graph.softmax %1 {axis = 1} : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
  return %2 : tensor<2x8xbf16>
}

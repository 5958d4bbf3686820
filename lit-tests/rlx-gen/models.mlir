// rlx-gen prints each model's decode step; rlx-opt parses and verifies it and
// prints it back byte for byte, from the custom and from the generic form.
// RUN: rlx-gen qwen35 > %t.qwen35.mlir
// RUN: rlx-opt %t.qwen35.mlir | diff %t.qwen35.mlir -
// RUN: rlx-gen qwen35 --generic | rlx-opt | diff %t.qwen35.mlir -
// RUN: rlx-gen qwen35 --generic > %t.qwen35.generic.mlir
// RUN: rlx-opt %t.qwen35.generic.mlir --mlir-print-op-generic | diff %t.qwen35.generic.mlir -
// RUN: rlx-gen zonos -o %t.zonos.mlir
// RUN: rlx-opt %t.zonos.mlir | diff %t.zonos.mlir -
// RUN: rlx-gen kimi > %t.kimi.mlir
// RUN: rlx-opt %t.kimi.mlir | diff %t.kimi.mlir -
// RUN: FileCheck %s --check-prefix=QWEN --input-file=%t.qwen35.mlir
// RUN: FileCheck %s --check-prefix=ZONOS --input-file=%t.zonos.mlir
// RUN: FileCheck %s --check-prefix=KIMI --input-file=%t.kimi.mlir
// RUN: FileCheck %s --check-prefix=GENERIC --input-file=%t.qwen35.generic.mlir

// Inputs and outputs are named; caches and states are arguments and results.
// QWEN: func.func @decode(%arg0: tensor<1x1xi32> {rlx.name = "token"}, %arg1: tensor<1xi32> {rlx.name = "pos"}, %arg2: tensor<1x2xf32> {rlx.name = "cos"}, %arg3: tensor<1x2xf32> {rlx.name = "sin"}, %arg4: tensor<1x3x128xf32> {rlx.name = "l0.conv_state"}, %arg5: tensor<1x4x16x16xf32> {rlx.name = "l0.ssm_state"}
// QWEN-SAME: -> (tensor<1x256xf32> {rlx.name = "logits"}, tensor<1x3x128xf32> {rlx.name = "l0.conv_state"}
// The keep-mask of the padded cache, from the position.
// QWEN: %[[POS:.*]] = graph.reshape %arg1 : (tensor<1xi32>) -> tensor<1x1xi32>
// QWEN-NEXT: %[[VALID:.*]] = graph.cmp %cst, %[[POS]] {predicate = "lt"}
// QWEN: %[[MASK:.*]] = graph.select %[[VALID]]
// QWEN: graph.gather %{{.*}}, %arg0 {axis = 0 : i64} : (tensor<256x64xf32>, tensor<1x1xi32>) -> tensor<1x1x64xf32>
// Layer 0: gated delta net with the conv state concat and q8_0 projections.
// QWEN: graph.param "l0.w_qkv" : tensor<8704xui8>
// QWEN-NEXT: graph.dequant_matmul {{.*}} {format = "q8_0", k = 64 : i64, n = 128 : i64}
// QWEN: graph.concat %arg4, {{.*}} {axis = 1 : i64} : (tensor<1x3x128xf32>, tensor<1x1x128xf32>) -> tensor<1x4x128xf32>
// QWEN: graph.rsqrt
// QWEN: graph.gated_delta_net {{.*}}, %arg5 : (
// QWEN: graph.param "l0.ffn_down"
// Layer 2: full attention with partial neox RoPE and the custom mask.
// QWEN: graph.rope {{.*}} {head_dim = 16 : i64, rotary_dim = 4 : i64, style = "neox"} : (tensor<1x1x4x16xf32>
// QWEN: graph.attention {{.*}}, %[[MASK]] {mask = "custom"} : (tensor<1x1x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8xf32>) -> tensor<1x1x4x16xf32>
// QWEN: graph.gated_delta_net
// QWEN: graph.transpose %{{.*}} {permutation = array<i64: 1, 0>} : (tensor<256x64xf32>) -> tensor<64x256xf32>
// QWEN: return

// ZONOS: func.func @decode(%arg0: tensor<2x9xi32> {rlx.name = "codes"}
// ZONOS: graph.attention %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x4x4x16xf32>, tensor<2x8x2x16xf32>, tensor<2x8x2x16xf32>) -> tensor<2x4x4x16xf32>
// ZONOS: graph.param "l0.w_qkv" : tensor<64x128xf16>
// ZONOS: graph.rope {{.*}} {head_dim = 16 : i64, rotary_dim = 16 : i64, style = "gptj"} : (tensor<2x1x64xf32>
// ZONOS: graph.attention {{.*}} {mask = "custom"}
// ZONOS: graph.abs
// ZONOS: graph.log

// KIMI: func.func @decode(%arg0: tensor<1x64xf32> {rlx.name = "x"}
// KIMI: graph.gated_delta_net {{.*}} {gate_per_channel = true}
// KIMI: graph.attention {{.*}} {mask = "causal"} : (tensor<1x1x4x24xf32>, tensor<1x8x4x24xf32>, tensor<1x8x4x16xf32>) -> tensor<1x1x4x16xf32>

// GENERIC: "func.func"() <{arg_attrs = [{rlx.name = "token"}
// GENERIC: "graph.gated_delta_net"

// Size knobs scale the models; --stats prints the op counts to stderr.
// RUN: rlx-gen qwen35 --layers 24 --hidden 1024 --stats -o %t.q.mlir 2>&1 | FileCheck %s --check-prefix=QWEN
// RUN: FileCheck %s --check-prefix=QWEN-IR --input-file=%t.q.mlir
// RUN: rlx-gen zonos --layers 24 --hidden 1024 --stats -o %t.z.mlir 2>&1 | FileCheck %s --check-prefix=ZONOS
// RUN: rlx-gen kimi --layers 24 --hidden 1024 --stats -o %t.k.mlir 2>&1 | FileCheck %s --check-prefix=KIMI
// RUN: rlx-gen qwen35 --hidden 1024 --quant q4_k | FileCheck %s --check-prefix=Q4K
// RUN: rlx-gen qwen35 --quant none | FileCheck %s --check-prefix=DENSE
// RUN: rlx-gen zonos --dtype bf16 --batch 1 | FileCheck %s --check-prefix=BF16

// QWEN: qwen35: 1478 ops, 52 inputs, 49 outputs, 314 params
// QWEN-DAG: 16 graph.gated_delta_net
// QWEN-DAG: 8 graph.attention
// QWEN-DAG: 152 graph.dequant_matmul
// QWEN-IR: graph.rope {{.*}} {head_dim = 256 : i64, rotary_dim = 64 : i64, style = "neox"}
// QWEN-IR: graph.param "l23.ffn_down" : tensor<3342336xui8>

// ZONOS: zonos: 1329 ops, 55 inputs, 49 outputs, 202 params
// ZONOS-DAG: 25 graph.attention
// ZONOS-DAG: 195 graph.cast

// KIMI: kimi: 1593 ops, 49 inputs, 49 outputs, 289 params
// KIMI-DAG: 18 graph.gated_delta_net
// KIMI-DAG: 6 graph.attention

// Q4K: graph.dequant_matmul {{.*}} {format = "q4_k", k = 1024 : i64, n = 2048 : i64} : (tensor<1x1024xf32>, tensor<1179648xui8>) -> tensor<1x2048xf32>
// DENSE-NOT: graph.dequant_matmul
// DENSE: graph.matmul {{.*}} : (tensor<1x64xf32>, tensor<64x128xf32>) -> tensor<1x128xf32>
// BF16: func.func @decode(%arg0: tensor<1x9xi32>
// BF16: graph.param "l0.w_qkv" : tensor<64x128xbf16>
// BF16-NEXT: graph.cast {{.*}} : (tensor<1x64xf32>) -> tensor<1x64xbf16>
// BF16-NEXT: graph.matmul {{.*}} : (tensor<1x64xbf16>, tensor<64x128xbf16>) -> tensor<1x128xbf16>
// BF16-NEXT: graph.cast {{.*}} : (tensor<1x128xbf16>) -> tensor<1x128xf32>
// BF16-NOT: graph.sub

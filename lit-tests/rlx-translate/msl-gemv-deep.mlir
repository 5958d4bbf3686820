// RUN: rlx-translate --mlir-to-msl %s -o %t.metal
// RUN: FileCheck %s --input-file=%t.metal
// RUN: FileCheck %s --input-file=%t.manifest.json --check-prefix=MAN
// RUN: rlx-translate --mlir-to-msl --decode-threadgroups=8192 %s | FileCheck %s --check-prefix=MANY
// RUN: rlx-translate --mlir-to-msl --decode-threadgroups=512 %s | FileCheck %s --check-prefix=FEW
// RUN: rlx-translate --mlir-to-msl --gemv-layout=deep --max-threads-per-threadgroup=256 %s -o %t.small.metal
// RUN: FileCheck %s --input-file=%t.small.metal --check-prefix=SMALL
// RUN: FileCheck %s --input-file=%t.small.manifest.json --check-prefix=SMALLMAN

// The deep GEMV layout (codegen/metal/gemv_deep.go): one threadgroup of
// 32 simdgroups walks all of K for 32 columns, so K is never split and
// there is no gemv_merge. "auto" takes it where the narrow layout would
// split K and the deep grid is between an eighth and a half of what the
// GPU holds at once (--decode-threadgroups threadgroups of 128 threads):
// here N = 1028 is 33 tiles of 1024 threads, 33792 threads against
// 262144 at the default 2048. Eight lanes share a row (a half4 each), a
// simdgroup loads 4 rows at once, each thread takes 8 consecutive rows a
// step (a's 8 elements as two float4s) and loads them before using them;
// K = 1100 ends in a short step, taken a row at a time. The lanes of a
// column vector meet by shuffles, the simdgroups in threadgroup memory,
// in order.

// CHECK-LABEL: // gemv [1 1100]·[1100 1028], f32·f16, deep
// CHECK-NEXT:  kernel void gemv_0(
// CHECK-NOT:     part
// CHECK:         const uint R = (tptg.x / 32u) * 32u;
// CHECK-NEXT:    const uint c0 = min(tgpos.x * 32u + (lane % 8u) * 4u, 1024u);
// CHECK:         uint kk = (sg * 4u + lane / 8u) * 8u;
// CHECK-NEXT:    for (; kk + 7u < 1100u; kk += R) {
// CHECK-NEXT:      const half4 b0 = *((device const half4 *)(bp + kk * 1028u + c0));
// CHECK-NEXT:      const half4 b1 = *((device const half4 *)(bp + (kk + 1u) * 1028u + c0));
// CHECK:           const half4 b7 = *((device const half4 *)(bp + (kk + 7u) * 1028u + c0));
// CHECK-NEXT:      const float4 a0 = *((device const float4 *)(ap + kk + 0u));
// CHECK-NEXT:      const float4 a1 = *((device const float4 *)(ap + kk + 4u));
// CHECK-NEXT:      {
// CHECK-NEXT:        const float av = (float)a0.x;
// CHECK-NEXT:        acc[0] += av * (float)b0.x;
// CHECK:             const float av = (float)a1.w;
// CHECK-NEXT:        acc[0] += av * (float)b7.x;
// CHECK:         for (; kk < 1100u; kk++) {
// CHECK-NEXT:      const half4 b0 = *((device const half4 *)(bp + kk * 1028u + c0));
// CHECK-NEXT:      {
// CHECK-NEXT:        const float av = (float)ap[kk];
// CHECK:         acc[3] += simd_shuffle_xor(acc[3], 8u);
// CHECK:         acc[3] += simd_shuffle_xor(acc[3], 16u);
// CHECK-NEXT:    if (lane < 8u) {
// CHECK-NEXT:      tg[sg * 32u + lane * 4u + 0u] = acc[0];
// CHECK:         threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:    for (uint e = tpos.x; e < 32u; e += tptg.x) {
// CHECK-NEXT:      float sum = 0.0f;
// CHECK-NEXT:      for (uint g = 0; g < tptg.x / 32u; g++) {
// CHECK-NEXT:        sum += tg[g * 32u + e];
// CHECK-NEXT:      }
// CHECK-NEXT:      const uint col = tgpos.x * 32u + e;
// CHECK-NEXT:      if (col < 1028u) {
// CHECK-NEXT:        y[z * 1028u + col] = (float)sum;
// CHECK-NOT:   gemv_merge

// One dispatch: 33 threadgroups of 1024 threads, 32 floats a simdgroup.
// MAN:      {"name": "gemv_0", "family": "gemv", "grid": [33, 1, 1], "threadgroup": [1024, 1, 1], "threadgroup_memory": 4096,
// MAN-NOT:  gemv_merge

// A GPU that holds more: 33 deep threadgroups are less than an eighth of
// it, so the narrow layout splits K.
// MANY-LABEL: // gemv [1 1100]·[1100 1028], f32·f16, K in {{[0-9]+}} splits of {{[0-9]+}}, narrow
// MANY:       // gemv_merge:

// One that holds fewer: the deep grid is more than half of it.
// FEW-LABEL: // gemv [1 1100]·[1100 1028], f32·f16, K in {{[0-9]+}} splits of {{[0-9]+}}, narrow

// Forced, with threadgroups of at most 256 threads.
// SMALL-LABEL: // gemv [1 1100]·[1100 1028], f32·f16, deep
// SMALLMAN:   {"name": "gemv_0", "family": "gemv", "grid": [33, 1, 1], "threadgroup": [256, 1, 1], "threadgroup_memory": 1024,

func.func @gemv(%x: tensor<1x1100xf32>, %w: tensor<1100x1028xf16>) -> tensor<1x1028xf32> {
  %r = thunk.call @gemv_thunk(%x, %w) {target = "metal"} : (tensor<1x1100xf32>, tensor<1100x1028xf16>) -> tensor<1x1028xf32> {
  ^bb0(%a: tensor<1x1100xf32>, %b: tensor<1100x1028xf16>):
    %0 = graph.matmul %a, %b : (tensor<1x1100xf32>, tensor<1100x1028xf16>) -> tensor<1x1028xf32>
    thunk.yield %0 : tensor<1x1028xf32>
  }
  return %r : tensor<1x1028xf32>
}

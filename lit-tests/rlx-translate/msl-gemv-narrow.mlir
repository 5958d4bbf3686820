// RUN: rlx-translate --mlir-to-msl %s | FileCheck %s
// RUN: rlx-translate --mlir-to-msl --gemv-layout=wide %s | FileCheck %s --check-prefix=WIDE
// RUN: rlx-translate --mlir-to-msl --gemv-layout=narrow --decode-threadgroups=1 %s | FileCheck %s --check-prefix=ONE
// RUN: not rlx-translate --mlir-to-msl --gemv-layout=rows %s 2>&1 | FileCheck %s --check-prefix=BAD

// The narrow GEMV layout (codegen/metal/gemv_narrow.go), which "auto"
// takes for one row of a with N a multiple of 4 where K splits: 8 lanes
// share a row of b (two float4 loads a lane, 32 columns apart), a
// simdgroup takes 4 rows a load, a threadgroup 64 columns; each thread
// loads 4 rows, R = 4·simdgroups apart, before using them. Here N = 136
// is three tiles (the last 8 columns wide: lanes past N read the last
// vector and store nothing) and K = 200 five splits of 48 (the last 8
// rows, fewer than a step). The threads of a column meet in threadgroup
// memory in (simdgroup, row) order; gemv_merge adds the splits.

// CHECK-LABEL: // gemv [1 200]·[200 136], f32·f16, K in 5 splits of 48, narrow
// CHECK-NEXT:  kernel void gemv_0(
// CHECK:         const uint R = nsg * 4u;
// CHECK-NEXT:    const uint k0 = tgpos.y * 48u;
// CHECK-NEXT:    const uint k1 = min(k0 + 48u, 200u);
// CHECK-NEXT:    const uint n0 = tgpos.x * 64u + (lane % 8u) * 4u;
// CHECK-NEXT:    const uint c0 = min(n0, 132u);
// CHECK-NEXT:    const uint c1 = min(n0 + 32u, 132u);
// CHECK:         uint kk = k0 + sg * 4u + lane / 8u;
// CHECK-NEXT:    for (; kk + 3u * R < k1; kk += 4u * R) {
// CHECK-NEXT:      const half4 b0_0 = *((device const half4 *)(bp + kk * 136u + c0));
// CHECK-NEXT:      const half4 b0_1 = *((device const half4 *)(bp + kk * 136u + c1));
// CHECK-NEXT:      const half4 b1_0 = *((device const half4 *)(bp + (kk + R) * 136u + c0));
// CHECK:           const half4 b3_1 = *((device const half4 *)(bp + (kk + 3u * R) * 136u + c1));
// CHECK-NEXT:      {
// CHECK-NEXT:        const float av = (float)ap[kk];
// CHECK-NEXT:        acc[0] += av * (float)b0_0.x;
// CHECK:             acc[7] += av * (float)b0_1.w;
// CHECK:         for (; kk < k1; kk += R) {
// CHECK:         tg[(7u * nsg + sg) * 32u + lane] = acc[7];
// CHECK-NEXT:    threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:    for (uint e = tpos.x; e < 64u; e += tptg.x) {
// CHECK-NEXT:      const uint i = (e / 32u) * 4u + e % 4u;
// CHECK-NEXT:      const uint cl = (e % 32u) / 4u;
// CHECK-NEXT:      float sum = 0.0f;
// CHECK-NEXT:      for (uint g = 0; g < R; g++) {
// CHECK-NEXT:        sum += tg[i * nsg * 32u + g * 8u + cl];
// CHECK-NEXT:      }
// CHECK-NEXT:      const uint col = tgpos.x * 64u + e;
// CHECK-NEXT:      if (col < 136u) {
// CHECK-NEXT:        part[(tgpos.y * 1u + z) * 136u + col] = sum;
// CHECK-LABEL: // gemv_merge: 5 splits of 136 partial sums into f32

// WIDE-LABEL: // gemv [1 200]·[200 136], f32·f16, K in 6 splits of 36
// WIDE-NOT:   narrow
// WIDE:       // gemv_merge: 6 splits of 136 partial sums into f32

// Forced and unsplit, it writes y itself.
// ONE-LABEL: // gemv [1 200]·[200 136], f32·f16, narrow
// ONE:         y[z * 136u + col] = (float)sum;
// ONE-NOT:     gemv_merge

// BAD: for the --gemv-layout option: 'rows' is not one of auto, wide, narrow, deep

func.func @gemv(%x: tensor<1x200xf32>, %w: tensor<200x136xf16>) -> tensor<1x136xf32> {
  %r = thunk.call @gemv_thunk(%x, %w) {target = "metal"} : (tensor<1x200xf32>, tensor<200x136xf16>) -> tensor<1x136xf32> {
  ^bb0(%a: tensor<1x200xf32>, %b: tensor<200x136xf16>):
    %0 = graph.matmul %a, %b : (tensor<1x200xf32>, tensor<200x136xf16>) -> tensor<1x136xf32>
    thunk.yield %0 : tensor<1x136xf32>
  }
  return %r : tensor<1x136xf32>
}

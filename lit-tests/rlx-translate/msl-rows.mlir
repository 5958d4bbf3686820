// RUN: rlx-translate --mlir-to-msl %s | FileCheck %s

// Row kernels, as ggml's: one threadgroup per row, threads striding over it
// (float4 or half4 loads when the row allows, half4 stores), simd_sum or
// simd_max and then the simdgroups' partials through the [[threadgroup(0)]]
// buffer.

// CHECK:       static inline float rlx_tg_sum(float v, threadgroup float *scratch, uint lane, uint sg, uint nthreads) {
// CHECK-NEXT:    v = simd_sum(v);

// CHECK-LABEL: // rms_norm over rows of 256, 2 rows, f32, epsilon 1e-06f
// CHECK-NEXT:  kernel void rms_norm_0(
// CHECK-NEXT:      device const float *x {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT:      device const float *gamma {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT:      device float *y {{\[\[}}buffer(2){{\]\]}},
// CHECK-NEXT:      threadgroup float *tg {{\[\[}}threadgroup(0){{\]\]}},
// CHECK:         device const float4 *x4 = (device const float4 *)xr;
// CHECK:         for (uint i = tpos.x; i < 64u; i += tptg.x) {
// CHECK-NEXT:      const float4 v4 = x4[i];
// f32 rows read x as float4 to sum, then write element by element (float4
// stores were 17% slower on an H100, docs/gpu-check.md run 37e).
// CHECK:         const float r = 1.0f / sqrt(rlx_tg_sum(ss, tg, lane, sg, tptg.x) / 256.0f + 1e-06f);
// CHECK-NEXT:    for (uint i = tpos.x; i < 256u; i += tptg.x) {
// CHECK-NEXT:      const float xv = (float)xr[i];
// CHECK-NEXT:      yr[i] = (float)(xv * r * (float)gamma[i]);

// CHECK-LABEL: // layer_norm over rows of 256, 2 rows, f32, epsilon 1e-05f
// CHECK:         const float mean = rlx_tg_sum(s, tg, lane, sg, tptg.x) / 256.0f;
// CHECK-NOT:     b4
// CHECK:           yr[i] = (float)((xv - mean) * r * (float)gamma[i] + (float)beta[i]);

// Softmax along a middle axis: row r starts at (r / inner) * len * inner + r % inner.
// CHECK-LABEL: // softmax over axis 1 of [3 100 2], f32
// CHECK:         const uint base = (tgpos.x / 2u) * 200u + tgpos.x % 2u;
// CHECK:           m = fmax(m, (float)x[base + j * 2u]);
// CHECK:         m = rlx_tg_max(m, tg, lane, sg, tptg.x);
// CHECK:           y[base + j * 2u] = (float)(exp((float)x[base + j * 2u] - m) / s);

// A long fold takes a threadgroup; max propagates NaNs, which simd_max would skip.
// CHECK-LABEL: // reduce max of [3 100 2] over axes [1], f32
// CHECK:         const bool has_nan = simd_any(isnan(acc));
// CHECK-NEXT:    acc = has_nan ? NAN : simd_max(acc);
// A short one takes a thread, in the reference's order.
// CHECK-LABEL: // reduce sum of [3 100 2] over axes [2], f32
// CHECK:         for (uint j = 0; j < 2u; j++) {
// CHECK-NEXT:      acc = acc + (float)x[base + j];

// RoPE: a thread per element reads its pair partner and the position's cos and sin.
// CHECK-LABEL: // rope neox over [1 3 4 16], head_dim 16, rotary_dim 8, f32
// CHECK:         const uint pos = (t / 64u) % 3u;
// CHECK:         if (d < 8u) {
// CHECK-NEXT:      const uint p = d < 4u ? d : d - 4u;
// CHECK:             out = xv * c - (float)x[t + 4u] * sn;
// CHECK:             out = xv * c + (float)x[t - 4u] * sn;
// CHECK-LABEL: // rope gptj over [1 3 64], head_dim 16, rotary_dim 16, f32
// CHECK:           if ((d & 1u) == 0u) {
// CHECK-NEXT:        out = xv * c - (float)x[t + 1u] * sn;

func.func @rows(%x: tensor<2x256xf32>, %g: tensor<256xf32>, %s: tensor<3x100x2xf32>, %q: tensor<1x3x4x16xf32>, %p: tensor<1x3x64xf32>, %c: tensor<3x4xf32>, %c8: tensor<3x8xf32>) -> (tensor<2x256xf32>, tensor<2x256xf32>, tensor<3x100x2xf32>, tensor<3x2xf32>, tensor<3x100xf32>, tensor<1x3x4x16xf32>, tensor<1x3x64xf32>) {
  %r:7 = thunk.call @rows_thunk(%x, %g, %s, %q, %p, %c, %c8) {target = "metal"} : (tensor<2x256xf32>, tensor<256xf32>, tensor<3x100x2xf32>, tensor<1x3x4x16xf32>, tensor<1x3x64xf32>, tensor<3x4xf32>, tensor<3x8xf32>) -> (tensor<2x256xf32>, tensor<2x256xf32>, tensor<3x100x2xf32>, tensor<3x2xf32>, tensor<3x100xf32>, tensor<1x3x4x16xf32>, tensor<1x3x64xf32>) {
  ^bb0(%a: tensor<2x256xf32>, %b: tensor<256xf32>, %d: tensor<3x100x2xf32>, %e: tensor<1x3x4x16xf32>, %f: tensor<1x3x64xf32>, %h: tensor<3x4xf32>, %i: tensor<3x8xf32>):
    %0 = graph.rms_norm %a, %b {epsilon = 1.0e-06 : f32} : (tensor<2x256xf32>, tensor<256xf32>) -> tensor<2x256xf32>
    %1 = graph.layer_norm %a, %b, %b {epsilon = 1.0e-05 : f32} : (tensor<2x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<2x256xf32>
    %2 = graph.softmax %d {axis = 1 : i64} : (tensor<3x100x2xf32>) -> tensor<3x100x2xf32>
    %3 = graph.reduce %d {axes = array<i64: 1>, keep_dims = false, kind = "max"} : (tensor<3x100x2xf32>) -> tensor<3x2xf32>
    %4 = graph.reduce %d {axes = array<i64: -1>, keep_dims = false, kind = "sum"} : (tensor<3x100x2xf32>) -> tensor<3x100xf32>
    %5 = graph.rope %e, %h, %h {head_dim = 16 : i64, rotary_dim = 8 : i64, style = "neox"} : (tensor<1x3x4x16xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<1x3x4x16xf32>
    %6 = graph.rope %f, %i, %i {head_dim = 16 : i64, rotary_dim = 16 : i64, style = "gptj"} : (tensor<1x3x64xf32>, tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<1x3x64xf32>
    thunk.yield %0, %1, %2, %3, %4, %5, %6 : tensor<2x256xf32>, tensor<2x256xf32>, tensor<3x100x2xf32>, tensor<3x2xf32>, tensor<3x100xf32>, tensor<1x3x4x16xf32>, tensor<1x3x64xf32>
  }
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6 : tensor<2x256xf32>, tensor<2x256xf32>, tensor<3x100x2xf32>, tensor<3x2xf32>, tensor<3x100xf32>, tensor<1x3x4x16xf32>, tensor<1x3x64xf32>
}

// f16 rows: half4 loads; the stores half4 too where gamma has vectors (f32
// or f16); a row of 37 (no whole vectors) element by element. (bf16 rows,
// MSL 3.1's, go element by element too: opsuite's rms_norm_bf16.)
// CHECK-LABEL: // rms_norm over rows of 96, 2 rows, f16, epsilon 1e-06f
// CHECK:         device const half4 *x4 = (device const half4 *)xr;
// CHECK:           const half4 v4 = x4[i];
// CHECK:             const float xv = (float)v4.x;
// CHECK:         device const float4 *g4 = (device const float4 *)gamma;
// CHECK-NEXT:    device half4 *y4 = (device half4 *)yr;
// CHECK:           o.x = (half)((float)v4.x * r * (float)gv.x);
// CHECK-LABEL: // layer_norm over rows of 128, 2 rows, f16, epsilon 1e-05f
// CHECK:         device const half4 *b4 = (device const half4 *)beta;
// CHECK:           o.w = (half)(((float)v4.w - mean) * r * (float)gv.w + (float)bv.w);
// CHECK-LABEL: // rms_norm over rows of 37, 2 rows, f16, epsilon 1e-06f
// CHECK-NOT:     x4
// CHECK:           yr[i] = (half)(xv * r * (float)gamma[i]);
// CHECK-LABEL: // softmax

func.func @rows16(%x: tensor<2x96xf16>, %g: tensor<96xf32>, %xl: tensor<2x128xf16>, %gl: tensor<128xf16>, %xo: tensor<2x37xf16>, %go: tensor<37xf16>, %sm: tensor<2x8xf32>) -> (tensor<2x96xf16>, tensor<2x128xf16>, tensor<2x37xf16>, tensor<2x8xf32>) {
  %r:4 = thunk.call @rows16_thunk(%x, %g, %xl, %gl, %xo, %go, %sm) {target = "metal"} : (tensor<2x96xf16>, tensor<96xf32>, tensor<2x128xf16>, tensor<128xf16>, tensor<2x37xf16>, tensor<37xf16>, tensor<2x8xf32>) -> (tensor<2x96xf16>, tensor<2x128xf16>, tensor<2x37xf16>, tensor<2x8xf32>) {
  ^bb0(%a: tensor<2x96xf16>, %b: tensor<96xf32>, %al: tensor<2x128xf16>, %bl: tensor<128xf16>, %ao: tensor<2x37xf16>, %bo: tensor<37xf16>, %c: tensor<2x8xf32>):
    %0 = graph.rms_norm %a, %b {epsilon = 1.0e-06 : f32} : (tensor<2x96xf16>, tensor<96xf32>) -> tensor<2x96xf16>
    %1 = graph.layer_norm %al, %bl, %bl {epsilon = 1.0e-05 : f32} : (tensor<2x128xf16>, tensor<128xf16>, tensor<128xf16>) -> tensor<2x128xf16>
    %2 = graph.rms_norm %ao, %bo {epsilon = 1.0e-06 : f32} : (tensor<2x37xf16>, tensor<37xf16>) -> tensor<2x37xf16>
    %3 = graph.softmax %c {axis = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    thunk.yield %0, %1, %2, %3 : tensor<2x96xf16>, tensor<2x128xf16>, tensor<2x37xf16>, tensor<2x8xf32>
  }
  return %r#0, %r#1, %r#2, %r#3 : tensor<2x96xf16>, tensor<2x128xf16>, tensor<2x37xf16>, tensor<2x8xf32>
}

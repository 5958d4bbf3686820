// RUN: rlx-translate --mlir-to-msl %s | FileCheck %s

// The q6_k_c16 GEMV (codegen/metal dequant_columns.go): the weight's
// four arrays at their offsets in the [64, 4096] matrix (ql from 0, qh
// from n·k/2 = 131072, sc from 3n·k/4 = 196608, d from 13n·k/16 =
// 212992); a lane a column of 16 weights with its x in registers, zero
// past the last column; four rows loaded ahead, the column's low nibbles
// one 8-byte load (through a const, so that the CUDA shim keeps it one
// load); each field read as 128 + q, the column's 160·Σx taken off once;
// every four rows folded into the simdgroup's slots, the first column
// pass storing and later ones adding. With one row of x a threadgroup
// of 256 lanes (K = 4096) walks 8 rows (colRowsNarrow): 64 rows fill
// eight threadgroups,
// so no row is clamped, and a lane reads its rows through pointers that
// each turn of four rows moves on (every load a pointer and a constant).
// 36 rows (@ragged) do not fill the threadgroups: each row is an index,
// clamped to the last row. A wider threadgroup (@wide, K = 8192: 512
// lanes) walks 32 rows, and two rows of x (@two) 32 / 2.

// CHECK-LABEL: // x[1, 4096] · W[64, 4096]ᵀ, W in q6_k_c16
// CHECK-NEXT: kernel void dequant_gemv_q6_k_c16_0(
// CHECK: device const uint2 *qlw = (device const uint2 *)w;
// CHECK-NEXT: device const uint *qhw = (device const uint *)(w + 131072u);
// CHECK-NEXT: device const uchar *scw = w + 196608u;
// CHECK-NEXT: device const ushort *dw = (device const ushort *)(w + 212992u);
// CHECK-NEXT: const uint r0 = tgpos.x * 8u;
// CHECK-NEXT: const uint e128 = 0x43000000u + tgpos.y;
// CHECK-NEXT: const uint mg = 0x4B000000u | tgpos.y;
// CHECK-NEXT: for (uint c0 = 0u; c0 < 256u; c0 += tptg.x) {
// CHECK-NEXT: const bool live = c0 + tpos.x < 256u;
// CHECK-NEXT: const uint c = min(c0 + tpos.x, 255u);
// CHECK-NEXT: const float4 xr0_0 = *((device const float4 *)(x + 0u + c * 16u + 0u));
// CHECK-NEXT: const float x0_0 = live ? xr0_0.x : 0.0f;
// CHECK: const float x0_15 = live ? xr0_3.w : 0.0f;
// CHECK-NEXT: const float cx0 = 160.0f * ((x0_0 + x0_1 + x0_2 + x0_3) + (x0_4 + x0_5 + x0_6 + x0_7) + (x0_8 + x0_9 + x0_10 + x0_11) + (x0_12 + x0_13 + x0_14 + x0_15));
// CHECK-NEXT: device const uint2 *qlr = qlw + (r0 * 256u + c);
// CHECK-NEXT: device const uint *qhr = qhw + (r0 * 256u + c);
// CHECK-NEXT: device const uchar *scr = scw + (r0 * 256u + c);
// CHECK-NEXT: device const ushort *dr = dw + (r0 * 16u + c / 16u);
// CHECK: const uint2 lq = qlr[768u];
// CHECK-NEXT: ql3 = lq;
// CHECK-NEXT: qh3 = qhr[768u];
// CHECK-NEXT: sc3 = scr[768u];
// CHECK-NEXT: d3 = dr[48u];
// CHECK: for (uint rt = 0u; rt < 4u; rt += 4u) {
// CHECK: const uint2 lq = qlr[1024u];
// CHECK-NEXT: ql0 = lq;
// CHECK-NEXT: qh0 = qhr[1024u];
// CHECK-NEXT: sc0 = scr[1024u];
// CHECK-NEXT: d0 = dr[64u];
// CHECK: const uint l0 = (q.x & 0x0F0F0F0Fu) | (h & 0x30303030u);
// CHECK-NEXT: const uint h0 = ((q.x >> 4) & 0x0F0F0F0Fu) | ((h >> 2) & 0x30303030u);
// CHECK-NEXT: const uint l1 = (q.y & 0x0F0F0F0Fu) | ((h << 4) & 0x30303030u);
// CHECK-NEXT: const uint h1 = ((q.y >> 4) & 0x0F0F0F0Fu) | ((h << 2) & 0x30303030u);
// CHECK-NEXT: const float sd = rlx_mfo((s ^ 0x80u) | mg, 8388736.0f);
// CHECK-NEXT: const float d = rlx_half_bits(dh);
// CHECK: float a0 = x0_0 * rlx_b128(l0 << 16, e128);
// CHECK-NEXT: float a1 = x0_8 * rlx_b128(h0 << 16, e128);
// CHECK: a1 += x0_15 * rlx_b128(h1 >> 8, e128);
// CHECK-NEXT: part[0] = d * (sd * ((a0 + a1) - cx0));
// CHECK: part[3] = d * (sd * ((a0 + a1) - cx0));
// CHECK: qlr += 1024u;
// CHECK-NEXT: qhr += 1024u;
// CHECK-NEXT: scr += 1024u;
// CHECK-NEXT: dr += 64u;
// CHECK: if (c0 == 0u) {
// CHECK-NEXT: tg[sg * 8u + rt * 1u + lane / 8u] = f4_0;
// CHECK-NEXT: } else {
// CHECK-NEXT: tg[sg * 8u + rt * 1u + lane / 8u] += f4_0;
// The last four rows load nothing more.
// CHECK: tg[sg * 8u + 4u * 1u + lane / 8u] += f4_0;
// CHECK: threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT: for (uint i = tpos.x; i < 8u; i += tptg.x) {
// CHECK: s += tg[g * 8u + i];
// CHECK: y[(i % 1u) * 64u + row] = s;

func.func @columns(%x: tensor<1x4096xf32>) -> tensor<1x64xf32> {
  %r = thunk.call @columns_thunk(%x) {target = "metal"} : (tensor<1x4096xf32>) -> tensor<1x64xf32> {
  ^bb0(%a: tensor<1x4096xf32>):
    %w = graph.param "w.q6_k_c16" : tensor<215040xui8>
    %0 = graph.dequant_matmul %a, %w {format = "q6_k_c16", k = 4096 : i64, n = 64 : i64} : (tensor<1x4096xf32>, tensor<215040xui8>) -> tensor<1x64xf32>
    thunk.yield %0 : tensor<1x64xf32>
  }
  return %r : tensor<1x64xf32>
}

// CHECK-LABEL: // x[1, 4096] · W[36, 4096]ᵀ, W in q6_k_c16
// CHECK-NOT: qlr
// CHECK: const uint rr = min(r0 + 3u, 35u);
// CHECK-NEXT: const uint o = rr * 256u + c;
// CHECK-NEXT: const uint2 lq = qlw[o];
// CHECK-NEXT: ql3 = lq;
// CHECK-NEXT: qh3 = qhw[o];
// CHECK-NEXT: sc3 = scw[o];
// CHECK-NEXT: d3 = dw[rr * 16u + c / 16u];
// CHECK: for (uint rt = 0u; rt < 4u; rt += 4u) {
// CHECK: const uint rr = min(r0 + rt + 4u, 35u);
// CHECK-NOT: qlr
// CHECK: y[(i % 1u) * 36u + row] = s;

func.func @ragged(%x: tensor<1x4096xf32>) -> tensor<1x36xf32> {
  %r = thunk.call @ragged_thunk(%x) {target = "metal"} : (tensor<1x4096xf32>) -> tensor<1x36xf32> {
  ^bb0(%a: tensor<1x4096xf32>):
    %w = graph.param "w.q6_k_c16" : tensor<120960xui8>
    %0 = graph.dequant_matmul %a, %w {format = "q6_k_c16", k = 4096 : i64, n = 36 : i64} : (tensor<1x4096xf32>, tensor<120960xui8>) -> tensor<1x36xf32>
    thunk.yield %0 : tensor<1x36xf32>
  }
  return %r : tensor<1x36xf32>
}

// CHECK-LABEL: // x[1, 8192] · W[64, 8192]ᵀ, W in q6_k_c16
// CHECK: const uint r0 = tgpos.x * 32u;
// CHECK: for (uint c0 = 0u; c0 < 512u; c0 += tptg.x) {
// CHECK: device const uint2 *qlr = qlw + (r0 * 512u + c);
// CHECK: for (uint rt = 0u; rt < 28u; rt += 4u) {
// CHECK: tg[sg * 32u + 28u * 1u + lane / 8u] += f4_0;
// CHECK: for (uint i = tpos.x; i < 32u; i += tptg.x) {

func.func @wide(%x: tensor<1x8192xf32>) -> tensor<1x64xf32> {
  %r = thunk.call @wide_thunk(%x) {target = "metal"} : (tensor<1x8192xf32>) -> tensor<1x64xf32> {
  ^bb0(%a: tensor<1x8192xf32>):
    %w = graph.param "w.q6_k_c16" : tensor<430080xui8>
    %0 = graph.dequant_matmul %a, %w {format = "q6_k_c16", k = 8192 : i64, n = 64 : i64} : (tensor<1x8192xf32>, tensor<430080xui8>) -> tensor<1x64xf32>
    thunk.yield %0 : tensor<1x64xf32>
  }
  return %r : tensor<1x64xf32>
}

// Two rows of x at K = 4096 keep colRows / M = 16 rows a threadgroup.
// CHECK-LABEL: // x[2, 4096] · W[64, 4096]ᵀ, W in q6_k_c16
// CHECK: const uint r0 = tgpos.x * 16u;
// CHECK: for (uint rt = 0u; rt < 12u; rt += 4u) {

func.func @two(%x: tensor<2x4096xf32>) -> tensor<2x64xf32> {
  %r = thunk.call @two_thunk(%x) {target = "metal"} : (tensor<2x4096xf32>) -> tensor<2x64xf32> {
  ^bb0(%a: tensor<2x4096xf32>):
    %w = graph.param "w.q6_k_c16" : tensor<215040xui8>
    %0 = graph.dequant_matmul %a, %w {format = "q6_k_c16", k = 4096 : i64, n = 64 : i64} : (tensor<2x4096xf32>, tensor<215040xui8>) -> tensor<2x64xf32>
    thunk.yield %0 : tensor<2x64xf32>
  }
  return %r : tensor<2x64xf32>
}

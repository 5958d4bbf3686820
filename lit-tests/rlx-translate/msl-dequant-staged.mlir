// RUN: rlx-translate --mlir-to-msl %s | FileCheck %s

// The staged dequantising GEMV (q4_k): a threadgroup of 64 threads (two
// simdgroups, dqSimdsOf) owns eight weight rows and copies them into
// threadgroup memory a stage at a time with 16-byte loads, all of a
// thread's loads before its stores, then decodes the staged blocks.
// K = 8960 is 35 blocks a row: four full stages of 8 blocks (576 16-byte
// units for the eight rows, 9 a thread) in a loop, then a last stage of
// 3 (216 units, 4 a thread) at the row's 288th unit. Rows past N = 20
// read row 19; x has 2 rows.

// CHECK-LABEL: // x[2, 8960] · W[20, 8960]ᵀ, W in q4_k
// CHECK-NEXT:  kernel void dequant_gemv_q4_k_0(
// CHECK:           threadgroup uint4 *tg {{\[\[}}threadgroup(0){{\]\]}},
// The reduction's floats after the 9216-byte tile.
// CHECK:         threadgroup float *red = (threadgroup float *)(tg + 576u);
// CHECK-NEXT:    const uint r0 = tgpos.x * 8u;
// CHECK-NEXT:    const uint p = tpos.x % 8u;
// CHECK-NEXT:    float acc[16];
// CHECK:         device const uint4 *wq = (device const uint4 *)w;
// CHECK-NEXT:    threadgroup const uchar *tb = (threadgroup const uchar *)tg;
// CHECK-NEXT:    for (uint s = 0; s < 4u; s++) {
// CHECK-NEXT:      for (uint i0 = tpos.x; i0 < 576u; i0 += 9u * tptg.x) {
// CHECK-NEXT:        const uint e0 = i0;
// CHECK-NEXT:        const uint4 v0 = wq[min(r0 + e0 / 72u, 19u) * 315u + s * 72u + e0 % 72u];
// CHECK-NEXT:        const uint e1 = min(i0 + 1u * tptg.x, 575u);
// CHECK-NEXT:        const uint4 v1 = wq[min(r0 + e1 / 72u, 19u) * 315u + s * 72u + e1 % 72u];
// CHECK:             const uint e8 = min(i0 + 8u * tptg.x, 575u);
// CHECK-NEXT:        const uint4 v8 = wq[min(r0 + e8 / 72u, 19u) * 315u + s * 72u + e8 % 72u];
// CHECK-NEXT:        tg[i0] = v0;
// CHECK-NEXT:        if (i0 + 1u * tptg.x < 576u) {
// CHECK-NEXT:          tg[i0 + 1u * tptg.x] = v1;
// CHECK-NEXT:        }
// CHECK:             if (i0 + 8u * tptg.x < 576u) {
// CHECK-NEXT:          tg[i0 + 8u * tptg.x] = v8;
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:      for (uint ib = tpos.x / 8u; ib < 8u; ib += tptg.x / 8u) {
// CHECK-NEXT:        {
// CHECK-NEXT:          device const float *xb = x + 0u + (s * 8u + ib) * 256u;
// CHECK:                 threadgroup const uchar *blk = tb + ib * 144u;
// CHECK-NEXT:            const uint4 hd = *((threadgroup const uint4 *)blk);
// CHECK-NEXT:            const uint4 qv = *((threadgroup const uint4 *)(blk + 16u + c * 32u + h * 16u));
// CHECK:                 acc[0] +=
// Row 7 of the tile, 7 · 1152 bytes in; x's second row.
// CHECK:                 threadgroup const uchar *blk = (tb + 8064u) + ib * 144u;
// CHECK:                 acc[14] +=
// CHECK:               device const float *xb = x + 8960u + (s * 8u + ib) * 256u;
// CHECK:                 acc[15] +=
// The next stage's stores wait for every lane's reads.
// CHECK:           threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:    }
// The last stage: 3 blocks a row from block 32, 16-byte unit 288.
// CHECK-NEXT:    {
// CHECK-NEXT:      for (uint i0 = tpos.x; i0 < 216u; i0 += 4u * tptg.x) {
// CHECK-NEXT:        const uint e0 = i0;
// CHECK-NEXT:        const uint4 v0 = wq[min(r0 + e0 / 27u, 19u) * 315u + 288u + e0 % 27u];
// CHECK-NEXT:        const uint e1 = min(i0 + 1u * tptg.x, 215u);
// CHECK:             threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:      for (uint ib = tpos.x / 8u; ib < 3u; ib += tptg.x / 8u) {
// CHECK-NEXT:        {
// CHECK-NEXT:          device const float *xb = x + 0u + (32u + ib) * 256u;
// CHECK:                 threadgroup const uchar *blk = (tb + 432u) + ib * 144u;
// Then the sums, as the unstaged kernel meets them: 16 (eight rows, two
// of x) in a butterfly that leaves sum i with lane 2i.
// CHECK:           const float f0_0 = (up0 ? acc[8] : acc[0]) + simd_shuffle_xor(up0 ? acc[0] : acc[8], 16u);
// CHECK:           const float f4_0 = f3_0 + simd_shuffle_xor(f3_0, 1u);
// CHECK-NEXT:      if ((lane & 1u) == 0u) {
// CHECK-NEXT:        red[sg * 16u + lane / 2u] = f4_0;
// CHECK:         threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK:             s += red[g * 16u + tpos.x];
// CHECK:           y[(tpos.x % 2u) * 20u + row] = s;

// q6_k: eight rows staged in stages of 8 blocks (105 16-byte units a row,
// 840 for the threadgroup, 7 a thread, the last one guarded), with the
// next stage's loads issued after this stage's stores and before its
// decode; each load initialises a constant that is then assigned (the
// CUDA shim assigns vectors element by element). With one row of x and
// one block slot a thread a stage, the lane's x is loaded a stage ahead
// too (dqXAhead): four float4s, 32 floats apart from 128·n6 + 4·j6 of its
// block, into xn…, copied to xc… after the decode, which reads them
// instead of loading x. A threadgroup of another size takes the plain
// staged loop, which loads x in the decode.

// CHECK-LABEL: // x[1, 4096] · W[20, 4096]ᵀ, W in q6_k
// CHECK:         threadgroup float *red = (threadgroup float *)(tg + 840u);
// CHECK-NEXT:    const uint r0 = tgpos.x * 8u;
// CHECK:         if (tptg.x == 128u) {
// CHECK-NOT:       s0
// CHECK:           uint4 v6;
// CHECK-NEXT:      const uint xq = (p / 8u) * 128u + (p % 8u) * 4u;
// CHECK-NEXT:      float4 xc0;
// CHECK-NEXT:      float4 xn0;
// CHECK:           device const float *xa = x + (tpos.x / 16u) * 256u + xq;
// CHECK-NEXT:      const float4 t0 = *((device const float4 *)(xa + 0u));
// CHECK-NEXT:      const float4 t1 = *((device const float4 *)(xa + 32u));
// CHECK-NEXT:      const float4 t2 = *((device const float4 *)(xa + 64u));
// CHECK-NEXT:      const float4 t3 = *((device const float4 *)(xa + 96u));
// CHECK-NEXT:      xc0 = t0;
// CHECK:           xc3 = t3;
// CHECK-NEXT:    }
// CHECK-NEXT:      {
// CHECK-NEXT:        const uint e = min(tpos.x + 0u, 839u);
// CHECK-NEXT:        const uint4 t = wq[min(r0 + e / 105u, 19u) * 210u + e % 105u];
// CHECK-NEXT:        v0 = t;
// CHECK-NEXT:      }
// CHECK:           for (uint s = 0; s < 2u; s++) {
// CHECK-NEXT:        tg[tpos.x + 0u] = v0;
// CHECK:             tg[tpos.x + 640u] = v5;
// CHECK-NEXT:        if (tpos.x + 768u < 840u) {
// CHECK-NEXT:          tg[tpos.x + 768u] = v6;
// CHECK-NEXT:        }
// CHECK-NEXT:        threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:        if (s + 1u < 2u) {
// CHECK-NEXT:          {
// CHECK-NEXT:            const uint e = min(tpos.x + 0u, 839u);
// CHECK-NEXT:            const uint4 t = wq[min(r0 + e / 105u, 19u) * 210u + (s + 1u) * 105u + e % 105u];
// CHECK-NEXT:            v0 = t;
// CHECK:                 v6 = t;
// CHECK-NEXT:          }
// CHECK-NEXT:          {
// CHECK-NEXT:            device const float *xa = x + ((s + 1u) * 8u + tpos.x / 16u) * 256u + xq;
// CHECK-NEXT:            const float4 t0 = *((device const float4 *)(xa + 0u));
// CHECK:                 xn3 = t3;
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:        for (uint ib = tpos.x / 16u; ib < 8u; ib += 8u) {
// CHECK-NEXT:          {
// CHECK-NEXT:            device const float *xb = x + 0u + (s * 8u + ib) * 256u;
// CHECK:                 const uint mg = 0x4B000000u | tgpos.y;
// CHECK-NEXT:            const uint e128 = 0x43000000u + tgpos.y;
// CHECK-NEXT:            const float4 x0_v0 = xc0;
// CHECK:                 const float c0 = 160.0f * (x0_v0.x + x0_v0.y + x0_v0.z + x0_v0.w);
// CHECK:                 const float4 x3_v0 = xc3;
// CHECK:                 const float c3 = 160.0f * (x3_v0.x + x3_v0.y + x3_v0.z + x3_v0.w);
// CHECK:                   threadgroup const uchar *blk = tb + ib * 210u;
// CHECK:                   threadgroup const ushort *hw = (threadgroup const ushort *)blk;
// Each 6-bit field, moved to bits 16-23 (a shift, except byte 2) and
// ORed with 128's exponent bits held in a register (e128), reads as
// 128 + q with no subtraction; the group's sum takes 160·Σx (c0…c3,
// its −32 with it) off once. The scale's −128 goes with the subtraction
// of 2²³ (rlx_mfo, mg from a register, run 28).
// CHECK:                   threadgroup const uchar *sc = blk + 192u + n6 * 8u + j6 / 4u;
// CHECK:                     float t = x0_0 * rlx_b128(q0 << 16, e128);
// CHECK-NEXT:                t += x0_1 * rlx_b128(q0 << 8, e128);
// CHECK-NEXT:                t += x0_2 * rlx_b128(q0, e128);
// CHECK-NEXT:                t += x0_3 * rlx_b128(q0 >> 8, e128);
// CHECK-NEXT:                a += rlx_mfo(((uint)sc[0] ^ 0x80u) | mg, 8388736.0f) * (t - c0);
// CHECK:                     a += rlx_mfo(((uint)sc[6] ^ 0x80u) | mg, 8388736.0f) * (t - c3);
// CHECK-NEXT:              }
// CHECK-NEXT:              acc[0] += d * a;
// CHECK:               xc0 = xn0;
// CHECK-NEXT:          xc1 = xn1;
// CHECK-NEXT:          xc2 = xn2;
// CHECK-NEXT:          xc3 = xn3;
// CHECK-NEXT:          threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:      }
// CHECK-NEXT:    } else {
// CHECK-NEXT:      device const uint4 *wq = (device const uint4 *)w;
// CHECK-NEXT:      threadgroup const uchar *tb = (threadgroup const uchar *)tg;
// CHECK-NEXT:      for (uint s = 0; s < 2u; s++) {
// CHECK-NEXT:        for (uint i0 = tpos.x; i0 < 840u; i0 += 7u * tptg.x) {
// CHECK:                 const float4 x0_v0 = *((device const float4 *)(xb + n6 * 128u + 0u + j6 * 4u + 0u));

func.func @staged(%x: tensor<2x8960xf32>) -> tensor<2x20xf32> {
  %r = thunk.call @staged_thunk(%x) {target = "metal"} : (tensor<2x8960xf32>) -> tensor<2x20xf32> {
  ^bb0(%a: tensor<2x8960xf32>):
    %w = graph.param "w.q4_k" : tensor<100800xui8>
    %0 = graph.dequant_matmul %a, %w {format = "q4_k", k = 8960 : i64, n = 20 : i64} : (tensor<2x8960xf32>, tensor<100800xui8>) -> tensor<2x20xf32>
    thunk.yield %0 : tensor<2x20xf32>
  }
  return %r : tensor<2x20xf32>
}

func.func @prefetch(%x: tensor<1x4096xf32>) -> tensor<1x20xf32> {
  %r = thunk.call @prefetch_thunk(%x) {target = "metal"} : (tensor<1x4096xf32>) -> tensor<1x20xf32> {
  ^bb0(%a: tensor<1x4096xf32>):
    %w = graph.param "w.q6_k" : tensor<67200xui8>
    %0 = graph.dequant_matmul %a, %w {format = "q6_k", k = 4096 : i64, n = 20 : i64} : (tensor<1x4096xf32>, tensor<67200xui8>) -> tensor<1x20xf32>
    thunk.yield %0 : tensor<1x20xf32>
  }
  return %r : tensor<1x20xf32>
}

// q4_k at K = 4096: two whole stages of 8 blocks (72 16-byte units a row,
// 576 for the eight rows, 9 a thread at 64 threads), so it prefetches
// as q6_k does, x too: eight float4s from 64c + 16h, four of xl and,
// 32 floats on, four of xh. Without the table of scales it takes its
// stages in a rotated order (dqRotates): threadgroup t starts at stage
// t mod 2 (s0), decodes stage sr and loads stage sn a step.

// CHECK-LABEL: // x[1, 4096] · W[20, 4096]ᵀ, W in q4_k
// CHECK:         threadgroup float *red = (threadgroup float *)(tg + 576u);
// CHECK:         if (tptg.x == 64u) {
// CHECK:           const uint s0 = tgpos.x % 2u;
// CHECK:           uint4 v8;
// CHECK-NEXT:      const uint xq = (p / 2u) * 64u + (p % 2u) * 16u;
// CHECK:             device const float *xa = x + (s0 * 8u + tpos.x / 8u) * 256u + xq;
// CHECK:           const float4 t4 = *((device const float4 *)(xa + 32u));
// CHECK:             const uint4 t = wq[min(r0 + e / 72u, 19u) * 144u + s0 * 72u + e % 72u];
// CHECK:           for (uint s = 0; s < 2u; s++) {
// CHECK-NEXT:        const uint sr = (s + s0) % 2u;
// CHECK-NEXT:        const uint sn = (s + s0 + 1u) % 2u;
// CHECK:             tg[tpos.x + 512u] = v8;
// CHECK-NEXT:        threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:        if (s + 1u < 2u) {
// CHECK-NEXT:          {
// CHECK-NEXT:            const uint e = min(tpos.x + 0u, 575u);
// CHECK-NEXT:            const uint4 t = wq[min(r0 + e / 72u, 19u) * 144u + sn * 72u + e % 72u];
// CHECK:                 device const float *xa = x + (sn * 8u + tpos.x / 8u) * 256u + xq;
// CHECK:             for (uint ib = tpos.x / 8u; ib < 8u; ib += 8u) {
// CHECK-NEXT:          {
// CHECK-NEXT:            device const float *xb = x + 0u + (sr * 8u + ib) * 256u;
// CHECK:                 const float4 xlv0 = xc0;
// CHECK:                 const float4 xhv0 = xc4;
// CHECK:                 const float4 xhv3 = xc7;
// CHECK:             xc7 = xn7;

func.func @prefetch_q4k(%x: tensor<1x4096xf32>) -> tensor<1x20xf32> {
  %r = thunk.call @prefetch_q4k_thunk(%x) {target = "metal"} : (tensor<1x4096xf32>) -> tensor<1x20xf32> {
  ^bb0(%a: tensor<1x4096xf32>):
    %w = graph.param "w.q4_k" : tensor<46080xui8>
    %0 = graph.dequant_matmul %a, %w {format = "q4_k", k = 4096 : i64, n = 20 : i64} : (tensor<1x4096xf32>, tensor<46080xui8>) -> tensor<1x20xf32>
    thunk.yield %0 : tensor<1x20xf32>
  }
  return %r : tensor<1x20xf32>
}

// q4_0 with one row of x at K = 4096: 128 blocks a row, two whole stages
// of 64 (dqLayoutOf stages q4_0 only so), 8 rows of 1152 bytes, 576
// 16-byte units, 5 a thread at 128 threads (the fifth in range for the
// first 64). x goes a stage ahead in four float4s a lane, rotated by its
// block's parity (xsw) as the unstaged decode rotates them (sw), so the
// decode reads xc0..xc3 and then the staged ushorts. The stages go in a
// rotated order (dqRotates), as q4_k's above.

// CHECK-LABEL: // x[1, 4096] · W[20, 4096]ᵀ, W in q4_0
// CHECK:         threadgroup float *red = (threadgroup float *)(tg + 576u);
// CHECK-NEXT:    const uint r0 = tgpos.x * 8u;
// CHECK-NEXT:    const uint p = tpos.x % 2u;
// CHECK:         if (tptg.x == 128u) {
// CHECK:           const uint s0 = tgpos.x % 2u;
// CHECK:           uint4 v4;
// CHECK-NEXT:      const uint xq = p * 8u;
// CHECK-NEXT:      const uint xsw = ((tpos.x / 2u) & 1u) * 4u;
// CHECK:             device const float *xa = x + (s0 * 64u + tpos.x / 2u) * 32u + xq;
// CHECK-NEXT:        const float4 t0 = *((device const float4 *)(xa + xsw));
// CHECK-NEXT:        const float4 t1 = *((device const float4 *)(xa + (4u - xsw)));
// CHECK-NEXT:        const float4 t2 = *((device const float4 *)(xa + 16u + xsw));
// CHECK-NEXT:        const float4 t3 = *((device const float4 *)(xa + 16u + (4u - xsw)));
// CHECK:             const uint e = min(tpos.x + 512u, 575u);
// CHECK:           for (uint s = 0; s < 2u; s++) {
// CHECK:             if (tpos.x + 512u < 576u) {
// CHECK-NEXT:          tg[tpos.x + 512u] = v4;
// CHECK-NEXT:        }
// CHECK-NEXT:        threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:        if (s + 1u < 2u) {
// CHECK:               device const float *xa = x + (sn * 64u + tpos.x / 2u) * 32u + xq;
// CHECK:             for (uint ib = tpos.x / 2u; ib < 64u; ib += 64u) {
// CHECK:                 const uint sw = (ib & 1u) * 4u;
// CHECK-NEXT:            const float4 xlv0 = xc0;
// CHECK:                 const float4 xhv1 = xc3;
// CHECK:                   threadgroup const ushort *q = (threadgroup const ushort *)(tb + ib * 18u);
// CHECK:                   acc[0] += d * ((al + ah) - xo);
// CHECK:                   threadgroup const ushort *q = (threadgroup const ushort *)((tb + 8064u) + ib * 18u);
// CHECK:                   acc[7] += d * ((al + ah) - xo);
// CHECK:             xc3 = xn3;
// CHECK-NEXT:        threadgroup_barrier(mem_flags::mem_threadgroup);

func.func @prefetch_q40(%x: tensor<1x4096xf32>) -> tensor<1x20xf32> {
  %r = thunk.call @prefetch_q40_thunk(%x) {target = "metal"} : (tensor<1x4096xf32>) -> tensor<1x20xf32> {
  ^bb0(%a: tensor<1x4096xf32>):
    %w = graph.param "w.q4_0" : tensor<46080xui8>
    %0 = graph.dequant_matmul %a, %w {format = "q4_0", k = 4096 : i64, n = 20 : i64} : (tensor<1x4096xf32>, tensor<46080xui8>) -> tensor<1x20xf32>
    thunk.yield %0 : tensor<1x20xf32>
  }
  return %r : tensor<1x20xf32>
}

// q4_k at K = 8192: four whole stages, as many as dqLongStages asks for
// the table of scales. Each thread, after its nine stores, reads back
// the one header among them (unit tpos.x + 64·((9 − tpos.x mod 9) mod
// 9)) and writes its block's four float4s of d·scale and dmin·minimum
// after the 9216-byte tile (576 uint4s; the reduction's floats move past
// the table's 4096 bytes, to uint4 832); the lanes read their pair's
// float4 in place of the header. With the table the stages stay in
// order (dqRotates).

// CHECK-LABEL: // x[1, 8192] · W[20, 8192]ᵀ, W in q4_k
// CHECK:         threadgroup float *red = (threadgroup float *)(tg + 832u);
// CHECK:         if (tptg.x == 64u) {
// CHECK-NOT:       s0
// CHECK:           threadgroup float4 *ts = (threadgroup float4 *)(tg + 576u);
// CHECK:           for (uint s = 0; s < 4u; s++) {
// CHECK:             tg[tpos.x + 512u] = v8;
// CHECK-NEXT:        {
// CHECK-NEXT:          const uint eh = tpos.x + 64u * ((9u - tpos.x % 9u) % 9u);
// CHECK-NEXT:          const uint4 hd = tg[eh];
// CHECK:               threadgroup float4 *tsb = ts + (eh / 9u) * 4u;
// CHECK:                 const uint sm = rlx_q4k_pair(hd, 3u);
// CHECK:                 t.w = dmin * (float)(sm >> 24);
// CHECK-NEXT:            tsb[3] = t;
// CHECK:             threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:        if (s + 1u < 4u) {
// CHECK:             for (uint ib = tpos.x / 8u; ib < 8u; ib += 8u) {
// CHECK-NOT:           rlx_q4k_pair
// CHECK:                   const float4 sc = ts[(0u + ib) * 4u + c];
// CHECK-NEXT:              acc[0] += (sc.x * al + sc.y * ah) - (sc.z * sxl + sc.w * sxh);
// CHECK:                   const float4 sc = ts[(56u + ib) * 4u + c];
// CHECK-NEXT:              acc[7] += (sc.x * al + sc.y * ah) - (sc.z * sxl + sc.w * sxh);
// CHECK:             xc7 = xn7;
// The fallback for a smaller threadgroup decodes the headers itself.
// CHECK:         } else {
// CHECK:                   const uint sm = rlx_q4k_pair(hd, c);

func.func @table_q4k(%x: tensor<1x8192xf32>) -> tensor<1x20xf32> {
  %r = thunk.call @table_q4k_thunk(%x) {target = "metal"} : (tensor<1x8192xf32>) -> tensor<1x20xf32> {
  ^bb0(%a: tensor<1x8192xf32>):
    %w = graph.param "w.q4_k" : tensor<92160xui8>
    %0 = graph.dequant_matmul %a, %w {format = "q4_k", k = 8192 : i64, n = 20 : i64} : (tensor<1x8192xf32>, tensor<92160xui8>) -> tensor<1x20xf32>
    thunk.yield %0 : tensor<1x20xf32>
  }
  return %r : tensor<1x20xf32>
}

// q8_0 with one row of x stages only where its rows are four stages or
// more (K = 8192: 256 blocks, four of 64): 8 rows of 2176 bytes, 1088
// 16-byte units, 9 a thread at 128 threads (the ninth in range for the
// first 64). x goes a stage ahead in four float4s a lane, rotated by two
// on odd blocks (xrot) as dqLaneQ8_0Words rotates them (rot), which then
// reads the staged rows as 4-byte words.

// CHECK-LABEL: // x[1, 8192] · W[20, 8192]ᵀ, W in q8_0
// CHECK:         threadgroup float *red = (threadgroup float *)(tg + 1088u);
// CHECK-NEXT:    const uint r0 = tgpos.x * 8u;
// CHECK:         if (tptg.x == 128u) {
// CHECK:           const uint s0 = tgpos.x % 4u;
// CHECK:           uint4 v8;
// CHECK-NEXT:      const uint xq = p * 16u;
// CHECK-NEXT:      const uint xrot = ((tpos.x / 2u) & 1u) * 2u;
// CHECK:             const float4 t3 = *((device const float4 *)(xa + (3u ^ xrot) * 4u));
// CHECK:           for (uint s = 0; s < 4u; s++) {
// CHECK:             if (tpos.x + 1024u < 1088u) {
// CHECK-NEXT:          tg[tpos.x + 1024u] = v8;
// CHECK:                 device const float *xa = x + (sn * 64u + tpos.x / 2u) * 32u + xq;
// CHECK:             for (uint ib = tpos.x / 2u; ib < 64u; ib += 64u) {
// CHECK:                 const uint rot = (ib & 1u) * 2u;
// CHECK-NEXT:            const float4 xrv0 = xc0;
// CHECK:                   threadgroup const uint *q = (threadgroup const uint *)(tb + 15232u) + wb;
// CHECK:                   acc[7] += d * (a0 + a1);
// CHECK:             xc3 = xn3;

func.func @staged_q80(%x: tensor<1x8192xf32>) -> tensor<1x20xf32> {
  %r = thunk.call @staged_q80_thunk(%x) {target = "metal"} : (tensor<1x8192xf32>) -> tensor<1x20xf32> {
  ^bb0(%a: tensor<1x8192xf32>):
    %w = graph.param "w.q8_0" : tensor<174080xui8>
    %0 = graph.dequant_matmul %a, %w {format = "q8_0", k = 8192 : i64, n = 20 : i64} : (tensor<1x8192xf32>, tensor<174080xui8>) -> tensor<1x20xf32>
    thunk.yield %0 : tensor<1x20xf32>
  }
  return %r : tensor<1x20xf32>
}

// q4_0 with one row of x at K = 8192: four whole stages of 64 blocks, as
// many as dqLongStages asks for, so 16 rows a threadgroup
// (dqStagedRows): a tile of 16 rows of 1152 bytes, 1152 16-byte units,
// 9 a thread at 128 threads, all in range. N = 21 makes two
// threadgroups; the second's rows past 20 load row 20 and store nothing.

// CHECK-LABEL: // x[1, 8192] · W[21, 8192]ᵀ, W in q4_0
// CHECK:         threadgroup float *red = (threadgroup float *)(tg + 1152u);
// CHECK-NEXT:    const uint r0 = tgpos.x * 16u;
// CHECK:         acc[15] = 0.0f;
// CHECK:         if (tptg.x == 128u) {
// CHECK:           const uint s0 = tgpos.x % 4u;
// CHECK:           uint4 v8;
// CHECK-NOT:       uint4 v9;
// CHECK:             const uint e = min(tpos.x + 1024u, 1151u);
// CHECK-NEXT:        const uint4 t = wq[min(r0 + e / 72u, 20u) * 288u + s0 * 72u + e % 72u];
// CHECK:           for (uint s = 0; s < 4u; s++) {
// CHECK:             tg[tpos.x + 1024u] = v8;
// CHECK-NEXT:        threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK:                   threadgroup const ushort *q = (threadgroup const ushort *)((tb + 17280u) + ib * 18u);
// CHECK:                   acc[15] += d * ((al + ah) - xo);

func.func @staged_q40_16(%x: tensor<1x8192xf32>) -> tensor<1x21xf32> {
  %r = thunk.call @staged_q40_16_thunk(%x) {target = "metal"} : (tensor<1x8192xf32>) -> tensor<1x21xf32> {
  ^bb0(%a: tensor<1x8192xf32>):
    %w = graph.param "w.q4_0" : tensor<96768xui8>
    %0 = graph.dequant_matmul %a, %w {format = "q4_0", k = 8192 : i64, n = 21 : i64} : (tensor<1x8192xf32>, tensor<96768xui8>) -> tensor<1x21xf32>
    thunk.yield %0 : tensor<1x21xf32>
  }
  return %r : tensor<1x21xf32>
}

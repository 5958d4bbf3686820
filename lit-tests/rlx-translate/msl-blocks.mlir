// RUN: rlx-translate --mlir-to-msl %s | FileCheck %s

// Attention: scores never leave registers; each simdgroup folds keys with
// an online softmax. Decode (Sq ≤ 8): a threadgroup serves the query
// heads of one KV head, lanes share keys (a score reduced with shuffles
// among them), the next step's K and V rows load while this step is
// scored, and the simdgroups merge (m, l, o) through threadgroup memory;
// long caches split the keys across threadgroups (msl-split-partials.mlir).
// General: a simdgroup per query, key and value tiles staged in
// threadgroup memory for all of them. GQA reads kv head h / (H/Hkv).

// CHECK-LABEL: // attention_decode q[1 1 4 16] k[1 8 2 16] v[1 8 2 16], mask custom, scale 0.25f, softcap 0.0f
// CHECK-NEXT:  kernel void attention_decode_0(
// CHECK-NEXT:      device const float *q {{\[\[}}buffer(0){{\]\]}},
// CHECK-NEXT:      device const float *k {{\[\[}}buffer(1){{\]\]}},
// CHECK-NEXT:      device const float *v {{\[\[}}buffer(2){{\]\]}},
// CHECK-NEXT:      device const float *mask {{\[\[}}buffer(3){{\]\]}},
// CHECK-NEXT:      device float *y {{\[\[}}buffer(4){{\]\]}},
// CHECK-NEXT:      threadgroup float *tg {{\[\[}}threadgroup(0){{\]\]}},
// CHECK:         const uint hk = h0 / 2u;
// CHECK:         keep0 = j0 < jhi && (float)mask[bb * 8u + j0] >= 0.5f;
// A masked key's K row is read from row 0 without a branch; under a custom
// mask row 0 may be masked too, so V keeps its branch and its zeros.
// CHECK:         const float4 t = *((device const float4 *)(k + ((bb * 8u + (keep0 ? j0 : 0u)) * 2u + hk) * 16u + kl * 4u + 0u));
// CHECK-NEXT:    ck0_0 = t;
// CHECK:         if (keep0) {
// CHECK-NEXT:      const float4 t = *((device const float4 *)(v + ((bb * 8u + (keep0 ? j0 : 0u)) * 2u + hk) * 16u + kl * 4u + 0u));
// CHECK-NEXT:      cv0_0 = t;
// CHECK-NEXT:    } else {
// CHECK-NEXT:      cv0_0[0] = (float)0.0f;
// D = 16 is one lane a key (about 16 elements a lane): 32 keys a step,
// the max over all 32 lanes.
// CHECK:         for (; jb < jhi; jb += nsg * 64u) {
// CHECK:             mx = fmax(mx, simd_shuffle_xor(mx, 1u));
// CHECK:             mx = fmax(mx, simd_shuffle_xor(mx, 16u));
// CHECK:             if (mx > m0) {
// CHECK-NEXT:          const float corr = exp2(m0 - mx);
// CHECK:             const float p0 = s0 == -INFINITY ? 0.0f : exp2(s0 - m0);
// CHECK:         threadgroup float *mine = tg + (sg * 2u + 0u) * 18u;
// CHECK:             y[((bb * 1u + i) * 4u + h) * 16u + d] = (float)(gm == -INFINITY ? 0.0f : o / gl);

// CHECK-LABEL: // attention q[1 12 2 32] k[1 12 1 32] v[1 12 1 24], mask causal, scale 0.17677669f, softcap 30.0f
// CHECK:         const uint i = tgpos.x * 4u + sg;
// CHECK:         threadgroup float *vs = tg + 1024u;
// CHECK:             ks[e] = (float)k[((bb * 12u + j0 + jj) * 1u + hk) * 32u + e % 32u];
// CHECK:             if (valid && (long)j <= absq) {
// CHECK:               sc = 30.0f * tanh(sc / 30.0f);

// The gated delta net: a threadgroup owns 32 state columns of a (batch,
// head); lanes are columns, so state rows load and store coalesced;
// simdgroups split the rows, each thread keeping its rows in registers
// across tokens; the row sums meet in threadgroup memory.

// CHECK-LABEL: // gated delta net q[1 1 2 16], scalar gate, state on chip (4 rows per thread)
// CHECK:         const uint j = tgpos.x * 32u + lane;
// CHECK:         float sv[4];
// CHECK:           sv[r] = (col && i < 16u) ? (float)s0[sbase + i * 16u + j] : 0.0f;
// CHECK:         for (uint t = 0; t < 1u; t++) {
// CHECK:               sv[r] = sv[r] * e;
// CHECK:           pa[sg * 32u + lane] = part;
// CHECK-NEXT:      threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK:             st[sbase + i * 16u + j] = (float)sv[r];

// The LSTM: the input projections of every step first, then one
// threadgroup per batch element for the recurrence.

// CHECK-LABEL: // lstm input projections x[1 3 8] · w_ih[40 8]ᵀ
// CHECK:             acc = simd_sum(acc);
// CHECK-LABEL: // lstm recurrence over 3 steps, hidden 10, batch 1
// CHECK:               z[gi] = (xr[row] + simd_sum(acc)) + (float)bias[row];
// CHECK:             const float c = fg * cs[u] + ig * gg;
// CHECK-NEXT:        const float hv = og * tanh(c);
// CHECK-NEXT:        simdgroup_barrier(mem_flags::mem_threadgroup);

func.func @att(%q: tensor<1x1x4x16xf32>, %k: tensor<1x8x2x16xf32>, %v: tensor<1x8x2x16xf32>, %m: tensor<1x8xf32>, %qg: tensor<1x12x2x32xf32>, %kg: tensor<1x12x1x32xf32>, %vg: tensor<1x12x1x24xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x12x2x24xf32>) {
  %r:2 = thunk.call @att_thunk(%q, %k, %v, %m, %qg, %kg, %vg) {target = "metal"} : (tensor<1x1x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8xf32>, tensor<1x12x2x32xf32>, tensor<1x12x1x32xf32>, tensor<1x12x1x24xf32>) -> (tensor<1x1x4x16xf32>, tensor<1x12x2x24xf32>) {
  ^bb0(%a: tensor<1x1x4x16xf32>, %b: tensor<1x8x2x16xf32>, %c: tensor<1x8x2x16xf32>, %d: tensor<1x8xf32>, %e: tensor<1x12x2x32xf32>, %f: tensor<1x12x1x32xf32>, %g: tensor<1x12x1x24xf32>):
    %0 = graph.attention %a, %b, %c, %d {mask = "custom"} : (tensor<1x1x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8xf32>) -> tensor<1x1x4x16xf32>
    %1 = graph.attention %e, %f, %g {mask = "causal", softcap = 30.0 : f32} : (tensor<1x12x2x32xf32>, tensor<1x12x1x32xf32>, tensor<1x12x1x24xf32>) -> tensor<1x12x2x24xf32>
    thunk.yield %0, %1 : tensor<1x1x4x16xf32>, tensor<1x12x2x24xf32>
  }
  return %r#0, %r#1 : tensor<1x1x4x16xf32>, tensor<1x12x2x24xf32>
}
func.func @rec(%q: tensor<1x1x2x16xf32>, %g: tensor<1x1x2xf32>, %s: tensor<1x2x16x16xf32>, %x: tensor<1x3x8xf32>, %wi: tensor<40x8xf32>, %wh: tensor<40x10xf32>, %bi: tensor<40xf32>) -> (tensor<1x1x2x16xf32>, tensor<1x2x16x16xf32>, tensor<1x3x10xf32>) {
  %r:3 = thunk.call @rec_thunk(%q, %g, %s, %x, %wi, %wh, %bi) {target = "metal"} : (tensor<1x1x2x16xf32>, tensor<1x1x2xf32>, tensor<1x2x16x16xf32>, tensor<1x3x8xf32>, tensor<40x8xf32>, tensor<40x10xf32>, tensor<40xf32>) -> (tensor<1x1x2x16xf32>, tensor<1x2x16x16xf32>, tensor<1x3x10xf32>) {
  ^bb0(%a: tensor<1x1x2x16xf32>, %b: tensor<1x1x2xf32>, %c: tensor<1x2x16x16xf32>, %d: tensor<1x3x8xf32>, %e: tensor<40x8xf32>, %f: tensor<40x10xf32>, %h: tensor<40xf32>):
    %0:2 = graph.gated_delta_net %a, %a, %a, %b, %b, %c : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>, tensor<1x1x2xf32>, tensor<1x1x2xf32>, tensor<1x2x16x16xf32>) -> (tensor<1x1x2x16xf32>, tensor<1x2x16x16xf32>)
    %1:3 = graph.lstm %d, %e, %f, %h : (tensor<1x3x8xf32>, tensor<40x8xf32>, tensor<40x10xf32>, tensor<40xf32>) -> (tensor<1x3x10xf32>, tensor<1x10xf32>, tensor<1x10xf32>)
    thunk.yield %0#0, %0#1, %1#0 : tensor<1x1x2x16xf32>, tensor<1x2x16x16xf32>, tensor<1x3x10xf32>
  }
  return %r#0, %r#1, %r#2 : tensor<1x1x2x16xf32>, tensor<1x2x16x16xf32>, tensor<1x3x10xf32>
}

// RUN: rlx-translate --mlir-to-msl %s | FileCheck %s
// RUN: rlx-translate --mlir-to-msl --attention-layout=per-key %s | FileCheck %s --check-prefix=PERKEY
// RUN: rlx-translate --mlir-to-msl --attention-layout=tiled %s | FileCheck %s --check-prefix=TILED
// RUN: not rlx-translate --mlir-to-msl --attention-layout=rows %s 2>&1 | FileCheck %s --check-prefix=BAD

// Attention decode's layouts (codegen/metal/attention_tiled.go). By
// default a cache whose key ranges give each simdgroup two steps or more
// (8k keys: 32 ranges of 256, 64 keys a step) takes the tiled layout, one
// of a step (1k: 64 keys a range) the per-key one. The tiled kernel
// serves all four query heads of a KV head. A lane loads its sixteen
// elements of q (four half4s; each simdgroup copies all of q, to its own
// region of threadgroup memory), then the first step's rows (K in 16-byte
// loads, two half4s each); the loop's first step loads the second step's
// rows and only then stores q, behind a simdgroup barrier (no threadgroup
// barrier before the loop). A step loads the next step's rows, scores its
// keys, moves the running max only when a score passes it by more than 8
// (one simd_any) and reads a key's four weights as one float4 (every lane
// adding them to its l, so that l needs no shuffles after the loop). The
// loop takes two steps, the registers of the two stages (c…, n…)
// swapping roles, so no row is copied between them.

// CHECK-LABEL: // attention_decode q[1 1 32 128] k[1 8192 8 128] v[1 8192 8 128], mask causal, {{.*}}, keys in 32 ranges of 256, tiled
// CHECK:         const uint grp = lane / 2u;
// CHECK:         threadgroup float *qs = tg + sg * 512u;
// CHECK-NEXT:    half4 qv0 = half4(0.0f);
// CHECK-NEXT:    {
// CHECK-NEXT:      const uint e = lane * 4u + 0u;
// CHECK-NEXT:      if (e < 512u) {
// CHECK-NEXT:        const half4 t = *((device const half4 *)(q + ((bb * 1u + i) * 32u + h0) * 128u + (e / 128u) * 128u + e % 128u));
// CHECK:         half4 qv3 = half4(0.0f);
// CHECK-NEXT:    {
// CHECK-NEXT:      const uint e = lane * 4u + 384u;
// CHECK:         ckeepk = cjk < jhi && (long)cjk <= absq;
// CHECK-NEXT:    {
// CHECK-NEXT:      const uint4 t = *((device const uint4 *)(k + ((bb * 8192u + (ckeepk ? cjk : 0u)) * 8u + hk) * 128u + kl * 8u + 0u));
// CHECK-NEXT:      ck_0 = as_type<half4>(t.xy);
// CHECK-NEXT:      ck_1 = as_type<half4>(t.zw);
// CHECK:         cv15_0 = t;
// CHECK-NOT:     njk
// CHECK-NOT:     threadgroup_barrier
// CHECK:         bool qdue = true;
// CHECK-NEXT:    threadgroup float *ps = tg + 2048u + sg * 64u;
// CHECK:         while (jb < jhi) {
// CHECK-NEXT:      {
// CHECK-NEXT:        njk = (jb + nsg * 16u) + grp;
// CHECK:             nv15_0 = t;
// CHECK:             if (qdue) {
// CHECK-NEXT:          qdue = false;
// CHECK:                 qs[e + 0u] = (float)qv0.x;
// CHECK:                 qs[e + 3u] = (float)qv3.w;
// CHECK:               simdgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:        }
// CHECK:             const float4 q0 = *((threadgroup const float4 *)(qs + 0u + kl * 8u + 0u));
// CHECK:             sc0 += simd_shuffle_xor(sc0, 1u);
// CHECK:             if (simd_any(sc0 > m0 + 8.0f || sc1 > m1 + 8.0f || sc2 > m2 + 8.0f || sc3 > m3 + 8.0f)) {
// CHECK:               mx3 = fmax(mx3, simd_shuffle_xor(mx3, 16u));
// CHECK:             ps[grp * 4u + 3u] = pk3;
// CHECK:             simdgroup_barrier(mem_flags::mem_threadgroup);
// CHECK:             const float4 p0 = *((threadgroup const float4 *)(ps + 60u));
// CHECK-NEXT:        l0 += p0.x;
// CHECK-NEXT:        o0_0 += p0.x * (float)cv15_0.x;
// CHECK:             simdgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:        jb += nsg * 16u;
// CHECK-NEXT:      }
// CHECK-NEXT:      if (jb >= jhi) {
// CHECK-NEXT:        break;
// CHECK-NEXT:      }
// CHECK-NEXT:      {
// CHECK-NEXT:        cjk = (jb + nsg * 16u) + grp;
// CHECK-NOT:         qdue
// CHECK:             cv15_0 = t;
// CHECK-NOT:         qdue
// CHECK:             o0_0 += p0.x * (float)nv15_0.x;
// CHECK:             jb += nsg * 16u;
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup float *ms = tg + 2304u;
// CHECK-NOT:     simd_shuffle_xor(l0
// CHECK:         mine[1] = l0;
// CHECK:       // attention_merge: 32 key ranges into y[1 1 32 128]

// CHECK-LABEL: // attention_decode q[1 1 32 128] k[1 1024 8 128] v[1 1024 8 128], mask causal, {{.*}}, keys in 16 ranges of 64
// CHECK-NOT:   tiled
// CHECK:         const uint grp = lane / 8u;

// PERKEY-NOT: tiled
// PERKEY:     keys in 16 ranges of 512
// PERKEY-NOT: tiled

// TILED:      keys in 32 ranges of 256, tiled
// TILED:      keys in 16 ranges of 64, tiled

// BAD: for the --attention-layout option: 'rows' is not one of auto, tiled, per-key

func.func @decode(%q: tensor<1x1x32x128xf16>, %k: tensor<1x8192x8x128xf16>, %v: tensor<1x8192x8x128xf16>, %k1: tensor<1x1024x8x128xf16>, %v1: tensor<1x1024x8x128xf16>) -> (tensor<1x1x32x128xf16>, tensor<1x1x32x128xf16>) {
  %r:2 = thunk.call @decode_thunk(%q, %k, %v, %k1, %v1) {target = "metal"} : (tensor<1x1x32x128xf16>, tensor<1x8192x8x128xf16>, tensor<1x8192x8x128xf16>, tensor<1x1024x8x128xf16>, tensor<1x1024x8x128xf16>) -> (tensor<1x1x32x128xf16>, tensor<1x1x32x128xf16>) {
  ^bb0(%a: tensor<1x1x32x128xf16>, %b: tensor<1x8192x8x128xf16>, %c: tensor<1x8192x8x128xf16>, %d: tensor<1x1024x8x128xf16>, %e: tensor<1x1024x8x128xf16>):
    %0 = graph.attention %a, %b, %c {mask = "causal"} : (tensor<1x1x32x128xf16>, tensor<1x8192x8x128xf16>, tensor<1x8192x8x128xf16>) -> tensor<1x1x32x128xf16>
    %1 = graph.attention %a, %d, %e {mask = "causal"} : (tensor<1x1x32x128xf16>, tensor<1x1024x8x128xf16>, tensor<1x1024x8x128xf16>) -> tensor<1x1x32x128xf16>
    thunk.yield %0, %1 : tensor<1x1x32x128xf16>, tensor<1x1x32x128xf16>
  }
  return %r#0, %r#1 : tensor<1x1x32x128xf16>, tensor<1x1x32x128xf16>
}

// RUN: rlx-translate --mlir-to-msl --msl-version=3.2 %s -o %t.metal
// RUN: FileCheck %s --input-file=%t.metal
// RUN: FileCheck %s --input-file=%t.manifest.json --check-prefix=MAN

// With MSL 3.2 attention decode folds its merge (codegen/metal/fold.go):
// each of the 4 key ranges writes its (m, l, 0, 0, o…) row of float4s to a
// coherent(device) buffer; after a device barrier one thread fences at
// device scope and counts the threadgroup in its head block's arrival
// counter (word 1 + group of the status buffer); the last of the four
// merges the ranges, writes y and sets the counter back to 0. The split
// GEMV keeps its gemv_merge dispatch.

// CHECK-LABEL: // gemv [1 256]·[256 64], f32·f32, K in 8 splits of 32
// CHECK-LABEL: // gemv_merge: 8 splits of 64 partial sums into f32
// CHECK-LABEL: // attention_decode q[1 1 8 128] k[1 256 2 128] v[1 256 2 128], mask causal, scale 0.088388346f, softcap 0.0f, keys in 4 ranges of 64, merge folded
// CHECK-NEXT:  kernel void attention_decode_0(
// CHECK:           coherent(device) device float4 *part {{\[\[}}buffer(3)]],
// CHECK-NEXT:      device float *y {{\[\[}}buffer(4)]],
// CHECK-NEXT:      device atomic_uint *arrive {{\[\[}}buffer(5)]],
// The grid: the (query, head block) in x, so that the four head blocks
// of a key range are neighbours in the dispatch order; the range in y.
// CHECK:         const uint split = tgpos.y;
// CHECK-NEXT:    const uint i = tgpos.x / 4u;
// CHECK-NEXT:    const uint h0 = (tgpos.x % 4u) * 2u;
// The partial rows, four elements of Dv a thread.
// CHECK:         const uint pr = (((split * 1u + bb) * 1u + i) * 8u + h) * 33u;
// CHECK:           part[pr] = ml;
// CHECK:         part[pr + 1u + d / 4u] = o;
// The arrival: a device barrier, then thread 0 fences, counts, and
// fences again if last; only the last goes on, past a second device
// barrier.
// CHECK-NEXT:  }
// CHECK-NEXT:  threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);
// CHECK-NEXT:  if (tpos.x == 0) {
// CHECK-NEXT:    atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
// CHECK-NEXT:    const bool last = atomic_fetch_add_explicit(arrive + 1u + bb * 4u + tgpos.x, 1u, memory_order_relaxed) == 3u;
// CHECK-NEXT:    if (last) {
// CHECK-NEXT:      atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
// CHECK-NEXT:    }
// CHECK-NEXT:    tg[0] = last ? 1.0f : 0.0f;
// CHECK-NEXT:  }
// CHECK-NEXT:  threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK-NEXT:  if (tg[0] == 0.0f) {
// CHECK-NEXT:    return;
// CHECK-NEXT:  }
// CHECK-NEXT:  threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);
// The merge, in two passes. A simdgroup a head and a lane a range load
// the ranges' m and l; then a thread's first element's o rows, every
// range's, load (in the simdgroup's first head, behind m and l; after
// the loop in a simdgroup without one); the head's max and sum and
// each range's weight go to threadgroup memory; then each element adds
// w·o in range order (a thread's later elements load their rows there).
// CHECK:         float4 po3;
// CHECK-NEXT:    for (uint hh = sg; hh < 2u; hh += nsg) {
// CHECK:           const uint r0 = lane;
// CHECK:           if (r0 < 4u) {
// CHECK-NEXT:        const float4 ml = part[r0 * 264u + row * 33u];
// CHECK:           if (hh == sg) {
// CHECK-NEXT:        if (tpos.x < 64u) {
// CHECK:               const float4 t0 = part[0u * 264u + row * 33u + 1u + d / 4u];
// CHECK:               const float4 t3 = part[3u * 264u + row * 33u + 1u + d / 4u];
// CHECK:           const float gm = simd_max(m0);
// CHECK-NEXT:      const float w0 = m0 == -INFINITY ? 0.0f : exp2(m0 - gm);
// CHECK:           const float gl = simd_sum(l0 * w0);
// CHECK:         if (sg >= 2u) {
// CHECK-NEXT:      if (tpos.x < 64u) {
// CHECK:         threadgroup_barrier(mem_flags::mem_threadgroup);
// CHECK:           if (e != tpos.x) {
// CHECK:             const float4 t3 = part[3u * 264u + row * 33u + 1u + d / 4u];
// CHECK:           o += wr[2u] * po0;
// CHECK:           o += wr[5u] * po3;
// CHECK:         yr[3] = (float)(gm == -INFINITY ? 0.0f : o.w / gl);
// CHECK-NEXT:  }
// CHECK-NEXT:  if (tpos.x == 0) {
// CHECK-NEXT:    atomic_store_explicit(arrive + 1u + bb * 4u + tgpos.x, 0u, memory_order_relaxed);
// CHECK-NEXT:  }
// CHECK-NEXT: }
// CHECK-NOT:  attention_merge

// MAN:       "msl_version": "3.2",
// MAN:       {"name": "gemv_merge_0", "family": "gemv_merge",
// MAN:       {"name": "attention_decode_0", "family": "attention_decode", "grid": [4, 4, 1],
// The partials are written, then read back only in the same dispatch.
// MAN:         {"index": 3, "name": "part", "access": "write", "type": "f32", "shape": [4, 1, 1, 8, 132], "bytes": 16896},
// MAN-NEXT:    {"index": 4, "name": "y", "access": "write",
// MAN-NEXT:    {"index": 5, "name": "arrive", "access": "read_write", "type": "u32", "shape": [5], "bytes": 20}]}
// MAN-NOT:   attention_merge
// MAN:         {"id": 8, "role": "temp", "index": 0, "type": "tensor<4x1x1x8x132xf32>", "bytes": 16896},
// MAN-NEXT:    {"id": 9, "role": "status", "index": 0, "type": "u32", "bytes": 20}
// MAN:       "dispatches": [
// MAN-NEXT:    {"kernel": "gemv_0", "buffers": [0, 6, 7],
// MAN-NEXT:    {"kernel": "gemv_merge_0", "buffers": [7, 4],
// MAN-NEXT:    {"kernel": "attention_decode_0", "buffers": [1, 2, 3, 8, 5, 9],

func.func @step(%x: tensor<1x256xf32>, %q: tensor<1x1x8x128xf32>, %k: tensor<1x256x2x128xf32>, %v: tensor<1x256x2x128xf32>) -> (tensor<1x64xf32>, tensor<1x1x8x128xf32>) {
  %r:2 = thunk.call @step_thunk(%x, %q, %k, %v) {target = "metal"} : (tensor<1x256xf32>, tensor<1x1x8x128xf32>, tensor<1x256x2x128xf32>, tensor<1x256x2x128xf32>) -> (tensor<1x64xf32>, tensor<1x1x8x128xf32>) {
  ^bb0(%a: tensor<1x256xf32>, %b: tensor<1x1x8x128xf32>, %c: tensor<1x256x2x128xf32>, %d: tensor<1x256x2x128xf32>):
    %w = graph.param "w" : tensor<256x64xf32>
    %0 = graph.matmul %a, %w : (tensor<1x256xf32>, tensor<256x64xf32>) -> tensor<1x64xf32>
    %1 = graph.attention %b, %c, %d {mask = "causal"} : (tensor<1x1x8x128xf32>, tensor<1x256x2x128xf32>, tensor<1x256x2x128xf32>) -> tensor<1x1x8x128xf32>
    thunk.yield %0, %1 : tensor<1x64xf32>, tensor<1x1x8x128xf32>
  }
  return %r#0, %r#1 : tensor<1x64xf32>, tensor<1x1x8x128xf32>
}

package metal

import "fmt"

// Folded merges (MSL 3.2 and later).
//
// Attention decode over key ranges writes each range's (max, sum,
// weighted values) that a second dispatch, attention_merge, combines.
// Apple describes the way to do without the second dispatch ("threadgroup
// sharing"): each threadgroup counts itself in an atomic counter once its
// partial is written, and the threadgroup that arrives last merges.
// Across threadgroups that needs the writes before the count to be
// visible to the last one's reads after it, which MSL gives from 3.2 on:
// atomic_thread_fence with thread_scope_device, and coherent(device)
// buffers. So with msl-version 3.2 attention decode folds its merge:
//
//   - the partials buffer is coherent(device);
//   - after a threadgroup barrier that orders device memory (so that
//     every thread's partial writes come before what thread 0 does
//     next), thread 0 fences at device scope and adds 1 to its group's
//     counter (a word of the region's status buffer, which the runtime
//     zeroes before the region: regionState.arrivals);
//   - only the threadgroup that saw n−1 (the group's last) goes on: its
//     thread 0 fences again, and a second device barrier puts that fence
//     before every thread's reads of the partials; it merges the group's
//     ranges in a fixed order (attnFold: each range's weight from
//     simd_max and simd_sum, then w·o; results do not depend on which
//     threadgroup came last), writes the result, and sets the counter
//     back to 0, so that the next dispatch of the region starts from 0
//     again.
//
// With every thread fencing (until run 17) 8k keys took 16.04 to 16.09
// µs on the H200; with thread 0's fences 15.98 to 16.04, faster in each
// of three interleaved pairs (docs/gpu-check.md, run 17). Metal's fences
// take relaxed or seq_cst orders only, so both are seq_cst.
//
// Nothing waits for another threadgroup, so there is no forward-progress
// assumption: a threadgroup that is not last returns.
//
// On the H200 (docs/gpu-check.md, run 13) the folded attention decode
// took 10.0, 20.9 and 50.8 µs at 1k, 8k and 32k keys against 10.0, 21.2
// and 51.3 with its merge dispatched. The split GEMV does not fold: its
// last threadgroup would add 128 splits at 4096×4096 one after another,
// and the fold's registers (38 against 32) cost the weight stream its
// occupancy: 22.2 µs against 15.7, and the lm head 358 against 292. The
// narrow GEMV's fold (32 splits, 32 registers) lost too (run 14:
// gemv_narrow.go).

// foldArrive emits the arrival of a threadgroup in group (an MSL uint
// expression) of n threadgroups: the threadgroup returns unless it is the
// group's last, and then it may read every partial of its group. The
// kernel's threadgroup memory (float, at least one element) carries the
// verdict; a threadgroup barrier after it lets the merge reuse it.
func foldArrive(b *kb, group string, n int64) {
	if b.tgT != "float" || b.k.ThreadgroupMemory < 4 {
		panic(fmt.Sprintf("foldArrive in %s: needs float threadgroup memory, has %q (%d bytes)", b.k.Name, b.tgT, b.k.ThreadgroupMemory))
	}
	b.l("threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);")
	b.l("if (tpos.x == 0) {")
	b.l("atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);")
	b.l("const bool last = atomic_fetch_add_explicit(arrive + 1u + %s, 1u, memory_order_relaxed) == %du;", group, n-1)
	b.l("if (last) {")
	b.l("atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);")
	b.l("}")
	b.l("tg[0] = last ? 1.0f : 0.0f;")
	b.l("}")
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	b.l("if (tg[0] == 0.0f) {")
	b.l("return;")
	b.l("}")
	b.l("threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);")
}

// foldDone sets group's counter back to 0, after the last threadgroup's
// merge.
func foldDone(b *kb, group string) {
	b.l("if (tpos.x == 0) {")
	b.l("atomic_store_explicit(arrive + 1u + %s, 0u, memory_order_relaxed);", group)
	b.l("}")
}

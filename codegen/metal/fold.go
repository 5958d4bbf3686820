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
//   - every thread fences at device scope after its partial writes, and
//     after a threadgroup barrier one thread adds 1 to its group's counter
//     (a word of the region's status buffer, which the runtime zeroes
//     before the region: regionState.arrivals);
//   - only the threadgroup that saw n−1 (the group's last) goes on: it
//     fences again, merges the group's ranges in a fixed order (attnFold:
//     each range's weight from simd_max and simd_sum, then w·o; results
//     do not depend on which threadgroup came last), writes the result, and sets the counter back to 0, so that
//     the next dispatch of the region starts from 0 again.
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
	b.l("atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);")
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	b.l("if (tpos.x == 0) {")
	b.l("tg[0] = atomic_fetch_add_explicit(arrive + 1u + %s, 1u, memory_order_relaxed) == %du ? 1.0f : 0.0f;", group, n-1)
	b.l("}")
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	b.l("if (tg[0] == 0.0f) {")
	b.l("return;")
	b.l("}")
	b.l("threadgroup_barrier(mem_flags::mem_threadgroup);")
	b.l("atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);")
}

// foldDone sets group's counter back to 0, after the last threadgroup's
// merge.
func foldDone(b *kb, group string) {
	b.l("if (tpos.x == 0) {")
	b.l("atomic_store_explicit(arrive + 1u + %s, 0u, memory_order_relaxed);", group)
	b.l("}")
}

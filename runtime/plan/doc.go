// Package plan turns a function after hybrid-split and codegen into what a
// runtime executes: an ordered list of steps over one arena of bytes and
// one buffer of weights.
//
// A step is one region of the function, in program order: an mps.subgraph
// (one MPSGraph executable: its inputs and results), a thunk.call with
// target "metal" (its kernel dispatches, read from the manifest of
// codegen/metal, with every binding resolved to a buffer and a byte
// offset), a thunk.call with target "host" (run on the CPU), or a copy the
// plan adds to carry a decode state into its argument's slot.
//
// Every value that crosses a step (a function argument, a region result)
// and every kernel temporary gets an arena slot: an aligned byte range
// (Options.Align, 256 bytes by default) that no other value occupies while
// it is live. A value is live from the step that writes it to the last
// step that reads it, both included, so a step's inputs, outputs and
// temporaries never share a byte. Slots are reused by liveness with a
// greedy best-fit allocator (largest values first, each placed in the
// tightest gap left by the values it overlaps in time); LowerBound is the
// largest sum of live bytes at any step, which no allocation can beat.
// Status words (kernels report an out-of-range gather index there) live
// for the whole run, so a runtime checks them once, after its one wait.
// Weights (graph.param, by name) and the constants of Metal kernels get
// slots in the weight buffer, bound once.
//
// With Options.Carry, a decode step's states (an argument and a result
// with the same rlx.name and type) stay in the arena from one run to the
// next: the result is written straight into the argument's slot when the
// argument is dead by then, and otherwise copied there by a final copy
// step, so the next run reads it without the host touching it.
//
// Check verifies a plan without trusting the allocator: it replays the
// steps and dispatches over the arena, one granule (Align bytes) at a
// time, and fails when two values live at the same time share a byte, or
// when a read finds in a slot anything but the value it expects (the
// class of bug that broke the original's multi-output handoff). Build runs
// it on every plan.
//
// A plan prints as text for lit tests (Plan.Print, rlx-run --plan) and
// round-trips through versioned JSON (Plan.WriteJSON, ReadJSON).
// Commands lowers a plan to the command stream every backend and the AOT
// host module encode: fills, dispatches, MPS regions, copies and the one
// commit-and-wait at the end (more only when a host step needs the CPU).
package plan

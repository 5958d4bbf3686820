// Package hybridsplit is the hybrid-split pass: it partitions a func.func
// of graph ops into a sequence of mps.subgraph regions (run by MPSGraph)
// and thunk.call regions (native kernels). docs/hybrid-split.md explains
// it to users; this comment states what the code guarantees and why.
//
// # Output
//
// Every compute op (every graph op but graph.param and graph.constant)
// ends up in exactly one region; the function body keeps only the region
// ops, func.return, and the leaves func.return reads. Region ops are
// isolated from above. A leaf is cloned into every region that reads it
// (identical leaves, by attributes and type, count as one); a leaf read by
// one region only and not returned is moved there rather than cloned, and
// leaves left without uses are erased. A region's operands are the
// external values its ops read (function arguments and results of
// earlier regions), each once, in order of first use; its results are the
// values of its ops read by a later region or returned, in order of
// definition. Ops keep their order inside a region (they are moved, not
// copied, so they keep their identity and location). Symbols are
// @<function>_mps<i> and @<function>_thunk<i>, i the region's position;
// thunk.call gets the target's thunk attribute (target = "metal" on the
// macOS targets, "host" on cpu). The output is a function of the input
// alone: the same input gives byte-identical output.
//
// # Classification
//
// An op must stay native when the target says no (Options.Target, the
// `target` option; its capability table, package target/mpsgraph,
// evaluated on the function before the split, so attention's
// leaf-materialised rule sees the original producers) or when its name is
// in native-ops. Dynamic shapes make an op native, never
// an error. A body op that is not a registered graph op is an error, and
// so is a partly split function (region ops beside loose compute ops); a
// function already split is left unchanged (hybrid-split is idempotent).
// On error the function is unchanged.
//
// # mode=dependency
//
// Ops are nodes of the dependency DAG (edges from producer to consumer
// compute op; leaves and arguments are not nodes). The pass runs a
// topological sort in waves with two ready sets, one per kind: it opens a
// region of the current kind, moves every ready op of that kind into it,
// releasing consumers as their last producer is placed (a released op of
// the same kind joins the open region), closes the region when no op of
// its kind is ready, and switches kind. It does this twice, starting with
// an MPS region and starting with a native one, and keeps the run with
// fewer regions (ties: MPS first).
//
// Convexity. A region R of kind K holds exactly the K-ops placed while it
// was open. Suppose a path a → c → … → b leaves R at a and re-enters at b.
// c depends on a, so it is placed after a, that is, no earlier than R's
// phase; b depends on c, so c is placed before b, that is, no later than
// R's phase. So c is placed during R's phase, when only K-ops are placed,
// into R. Hence no path leaves a region and comes back, and since every
// op is placed after its producers, the regions in placement order form a
// sequence in which each region reads only earlier ones: SSA dominance
// holds and there is no cycle between regions.
//
// Optimality (an exchange argument). Fix the starting kind. Let G_i be
// the set of ops placed after the greedy's first i phases, and S_i the
// same for any other schedule of convex regions that alternates kinds with
// the same start (a region of kind K may take any set of K-ops whose
// producers are placed before it or inside it). Claim: G_i ⊇ S_i for all
// i. It holds for i = 0. In phase i both schedules place ops of the same
// kind K. Take the ops of S_i \ S_{i-1} in a topological order: each one's
// producers lie in S_{i-1} ⊆ G_{i-1} or earlier in S_i \ S_{i-1}, which by
// induction on that order are already in G_i; since the greedy keeps
// taking every ready K-op until none is left, the op is ready in phase i
// and is taken too. So the greedy never falls behind and needs no more
// phases than any schedule with the same start. Every split into convex
// regions without cycles between them can be ordered as a sequence, and
// two consecutive regions of one kind can be merged (nothing outside them
// lies between them, so the union stays convex) without adding regions;
// so some optimal split alternates, with one of the two starting kinds,
// and the better of the two greedy runs has the fewest regions possible.
// The region count is also at least one more than the largest number of
// kind changes along any dependency path (each change needs a later
// region). The property tests check the count against an exhaustive
// search and against that path bound on thousands of random graphs.
//
// min-subgraph-ops=N then makes every MPS region with fewer than N compute
// ops native, and merges runs of consecutive native regions into one
// (merging consecutive regions keeps the sequence valid, as above).
//
// # mode=seed
//
// A faithful reimplementation of RLX's build_hybrid_plan: walk the ops in
// body order; gated_delta_net, lstm, attention and dequant_matmul flush
// the pending run and become one-op thunk regions; any other compute op
// joins the pending run; a flushed run becomes an MPS region when every
// op in it may go to MPS, else one thunk region. Runs are contiguous in a
// topological order, hence convex. A function holding gated_delta_net,
// attention or lstm, or for which no MPS region forms, becomes one thunk
// region holding every compute op (the original returned "no hybrid plan"
// then). min-subgraph-ops demotes small MPS regions here too, without
// merging, before that last rule. The tests compare this mode with a
// literal transcription of the original over node lists.
//
// # Cost
//
// Memory is O(ops + uses), and so is time but for one search: one walk
// over the body records, for each op, its operand and result counts and
// whether it must stay native; link then finds each operand's producer by
// a galloping search backward over body positions, O(log d) for a
// producer d ops back (mostly a few; no map), and records in flat arrays
// where each operand comes from. The two wave runs visit every op and
// edge once. Outlining computes escaping results from the operand
// sources, finds each external value's block argument through per-value
// slots stamped with a running count (never cleared, so never rescanned),
// finds identical leaves through an open-addressing table, and moves each
// op once. No step scans all ops per op or walks use lists. The
// outliner's int32 tables reuse the arrays the partitioning is done with
// (spare), since on a large function fresh memory is the dominant cost
// (docs/hybrid-split.md, Performance).
package hybridsplit

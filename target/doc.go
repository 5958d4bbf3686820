// Package target says what each device rlx compiles for can run. A
// Target is a value: its name (what `hybrid-split{target=…}` takes), the
// capability table of its MPSGraph (package mpsgraph; nil for a target
// without one), where its native kernels run (the thunk.call target
// attribute), the oldest OS its generated code assumes, and the split
// points of seed mode. All lists the targets; a second device, another
// MPSGraph version or a CPU-only fallback is a new entry there, not an
// edit of the passes that ask.
//
// The graph dialect knows nothing of devices: hybrid-split asks a Target
// where each op may go, the mps dialect's verifier asks MPSPlaceable what
// an mps.subgraph may hold, and the code generators read the OS version.
package target

//go:generate go test -run TestTargetsDoc -update

package target

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/target/mpsgraph"
)

// Default is the name of the target hybrid-split and the code generators
// use when none is given.
const Default = "macos14"

// Where thunk.call regions run (the values of their target attribute).
const (
	ThunkMetal = "metal"
	ThunkHost  = "host"
)

// A Target is one device rlx compiles for: what MPSGraph can run there,
// where native kernels run, and the OS version generated code may assume.
// Targets are values: a new device is a new entry in All, not an edit of
// the passes that ask.
type Target struct {
	// Name is what `hybrid-split{target=…}` and the translations' options
	// take.
	Name string
	// Summary is one line for --help and the docs.
	Summary string
	// MacOS is the oldest macOS the generated code runs on ("14.0"), or ""
	// for a target that is not an Apple GPU.
	MacOS string
	// MPS is what MPSGraph can run there; nil when nothing runs through
	// MPSGraph, so every compute op stays native.
	MPS *mpsgraph.Table
	// Thunk is the target attribute of the thunk.call regions made for
	// this target: ThunkMetal or ThunkHost.
	Thunk string
	// SplitPoints are the ops that RLX's original hybrid plan always made
	// a one-op native step (hybrid-split's seed mode).
	SplitPoints []string
}

// All returns every target, new values on each call, in the order the
// docs list them.
func All() []*Target {
	split := []string{graph.GatedDeltaNetName, graph.LSTMName, graph.AttentionName, graph.DequantMatMulName}
	return []*Target{
		{
			Name:        "macos13",
			Summary:     "Apple GPU, MPSGraph of macOS 13: no bfloat16 tensors, so bf16 ops stay native",
			MacOS:       "13.0",
			MPS:         mpsgraph.New(mpsgraph.Config{}),
			Thunk:       ThunkMetal,
			SplitPoints: split,
		},
		{
			Name:        "macos14",
			Summary:     "Apple GPU, MPSGraph of macOS 14 (the default)",
			MacOS:       "14.0",
			MPS:         mpsgraph.New(mpsgraph.Config{BF16: true}),
			Thunk:       ThunkMetal,
			SplitPoints: split,
		},
		{
			Name:        "macos15",
			Summary:     "Apple GPU, MPSGraph of macOS 15: what macos14 runs; the code generators may use macOS 15's selectors",
			MacOS:       "15.0",
			MPS:         mpsgraph.New(mpsgraph.Config{BF16: true}),
			Thunk:       ThunkMetal,
			SplitPoints: split,
		},
		{
			Name:        "cpu",
			Summary:     "No GPU: every op runs natively as host code (thunk.call target \"host\")",
			Thunk:       ThunkHost,
			SplitPoints: split,
		},
	}
}

// Names returns the names of All's targets.
func Names() []string {
	var names []string
	for _, t := range All() {
		names = append(names, t.Name)
	}
	return names
}

// Lookup returns the named target, or an error listing the known ones.
func Lookup(name string) (*Target, error) {
	for _, t := range All() {
		if t.Name == name {
			return t, nil
		}
	}
	return nil, fmt.Errorf("'%s' is not a target (expected one of: %s)", name, strings.Join(Names(), ", "))
}

// MustLookup is Lookup for names known to exist (Default, or a name an
// option has already checked); it panics otherwise.
func MustLookup(name string) *Target {
	t, err := Lookup(name)
	if err != nil {
		panic(err)
	}
	return t
}

// Capable reports whether op may be placed in an mps.subgraph on this
// target and otherwise, formatted only when explain is set, why not.
func (t *Target) Capable(op *ir.Operation, explain bool) (bool, string) {
	if t.MPS == nil {
		if !explain {
			return false, ""
		}
		if graph.IsLeaf(op) {
			return true, "leaf: cloned into every region that uses them"
		}
		return false, op.Name() + ": target " + t.Name + " runs nothing through MPSGraph"
	}
	if explain {
		return t.MPS.Capable(op)
	}
	return t.MPS.IsCapable(op), ""
}

// IsSplitPoint reports whether op is one of t's split points.
func (t *Target) IsSplitPoint(op *ir.Operation) bool {
	for _, n := range t.SplitPoints {
		if op.Name() == n {
			return true
		}
	}
	return false
}

// MPSPlaceable returns the mps.subgraph verifier's rule: a function
// that returns "" when some target of All lets op be in an mps.subgraph,
// else the reason the default target gives. An mps.subgraph may hold what
// any MPSGraph version runs; which version a pass chose for is the pass's
// business. The tables are made once, when MPSPlaceable is called, and
// the default target's is asked first.
func MPSPlaceable() func(op *ir.Operation) string {
	var tables []*mpsgraph.Table
	for _, t := range All() {
		switch {
		case t.MPS == nil:
		case t.Name == Default:
			tables = append([]*mpsgraph.Table{t.MPS}, tables...)
		default:
			tables = append(tables, t.MPS)
		}
	}
	return func(op *ir.Operation) string {
		first := ""
		for i, t := range tables {
			why := t.Placeable(op)
			if why == "" {
				return ""
			}
			if i == 0 {
				first = why
			}
		}
		return first
	}
}

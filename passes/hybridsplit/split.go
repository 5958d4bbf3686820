package hybridsplit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/dialect/thunk"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/target"
)

// Mode is the partitioning algorithm.
type Mode string

// Modes of the pass.
const (
	// ModeDependency follows dependencies: two-ready-set waves, the fewest
	// regions.
	ModeDependency Mode = "dependency"
	// ModeSeed is RLX's original algorithm: contiguous runs cut at the
	// target's split points.
	ModeSeed Mode = "seed"
)

// Options configure Split. The zero value is mode=dependency for the
// default target with no forced native ops, min-subgraph-ops=1 and no
// remarks.
type Options struct {
	// Mode is ModeDependency (or "") or ModeSeed.
	Mode Mode
	// Target says what the device runs through MPSGraph and where native
	// regions run; nil is target.Default.
	Target *target.Target
	// NativeOps are op names ("graph.softmax", or "softmax") that always
	// stay native.
	NativeOps []string
	// MinSubgraphOps makes an MPS region with fewer compute ops native.
	MinSubgraphOps int
	// Explain emits a remark on every compute op kept native, saying why.
	Explain bool
	// noSink leaves out the sink step (dag.sink), so that a test can
	// compare the boundary with and without it.
	noSink bool
}

// Result says what Split did to one function.
type Result struct {
	// AlreadySplit is set when the function was already in split form and
	// was left alone.
	AlreadySplit bool
	// MPSRegions and ThunkRegions count the regions made; MPSOps and
	// ThunkOps count the compute ops (not leaves) in each kind.
	MPSRegions, ThunkRegions int
	MPSOps, ThunkOps         int
	// BoundaryValues counts the region results (values computed in one
	// region and read outside it); BoundaryBytes sums their sizes (values
	// with dynamic shapes count 0; the sum saturates at math.MaxInt64).
	BoundaryValues int
	BoundaryBytes  int64
}

// Coverage returns the fraction of compute ops placed in MPS regions. It
// is 1 for a function without compute ops: none had to be kept native.
func (r Result) Coverage() float64 {
	if t := r.MPSOps + r.ThunkOps; t > 0 {
		return float64(r.MPSOps) / float64(t)
	}
	return 1
}

// NativeSet checks the names of native-ops and returns them as a set of
// full op names.
func NativeSet(names []string) (map[string]bool, error) {
	set, err := nativeSet(names)
	if err != nil {
		return nil, fmt.Errorf("native-ops: %w", err)
	}
	return set, nil
}

// nativeSet is NativeSet with errors that do not name the option, for the
// pass's option check (whose diagnostic names it already).
func nativeSet(names []string) (map[string]bool, error) {
	set := map[string]bool{}
	if len(names) == 0 {
		return set, nil
	}
	known := map[string]bool{}
	for _, n := range graph.OpNames() {
		known[n] = true
	}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		full := n
		if !strings.Contains(n, ".") {
			full = "graph." + n
		}
		if !known[full] || full == graph.ParamName || full == graph.ConstantName {
			return nil, fmt.Errorf("'%s' is not a graph compute op", n)
		}
		set[full] = true
	}
	return set, nil
}

// Split partitions the func.func op into mps.subgraph and thunk.call
// regions (see the package doc). It returns a located error, leaving the
// function unchanged, when the body holds an op that is not a registered
// graph op, has more than one block, or is only partly split. A function
// already split (only region ops, leaves and the terminator) is left as it
// is, and so is a declaration. Options that the command line would
// refuse (an unknown Mode, a negative MinSubgraphOps, a native-ops name
// that is not a graph compute op) are an error too.
func Split(f *ir.Operation, opts Options) (Result, error) {
	var res Result
	switch opts.Mode {
	case "", ModeDependency, ModeSeed:
	default:
		return res, fmt.Errorf("hybrid-split: mode: '%s' is not a valid value (expected one of: %s, %s)", opts.Mode, ModeDependency, ModeSeed)
	}
	if opts.MinSubgraphOps < 0 {
		return res, fmt.Errorf("hybrid-split: min-subgraph-ops: '%d' is negative", opts.MinSubgraphOps)
	}
	native, err := NativeSet(opts.NativeOps)
	if err != nil {
		return res, err
	}
	if f == nil {
		return res, errors.New("hybrid-split: no function")
	}
	if opts.Target == nil {
		opts.Target = target.MustLookup(target.Default)
	}
	return split(f, opts, native)
}

func split(f *ir.Operation, opts Options, native map[string]bool) (Result, error) {
	var res Result
	view, ok := fn.AsFunc(f)
	if !ok {
		return res, ir.OpError(f, "hybrid-split runs on func.func ops")
	}
	if view.IsDeclaration() {
		return res, nil
	}
	if n := f.Region(0).NumBlocks(); n != 1 {
		return res, ir.OpError(f, "hybrid-split needs a function body of one block, found %d blocks", n)
	}
	body := view.Body()
	ret := body.Last()
	if ret == nil || ret.Name() != fn.ReturnName {
		return res, ir.OpError(f, "hybrid-split needs a function body ending in func.return")
	}
	d := newDAG(body.NumOps(), opts.Explain, opts.Target)
	var regionOp, loose *ir.Operation
	for op := body.First(); op != ret; op = op.Next() {
		switch name := op.Name(); {
		case name == mps.SubgraphName || name == thunk.CallName:
			if regionOp == nil {
				regionOp = op
			}
		case !op.IsRegistered():
			return res, ir.OpErrorPlain(op, "hybrid-split cannot partition the unregistered op '%s'", name)
		case op.OpName().Dialect() != "graph":
			return res, ir.OpErrorPlain(op, "hybrid-split partitions functions of graph ops only, found '%s'", name)
		case graph.IsLeaf(op):
			d.addLeaf(op)
		default:
			d.add(op, native)
			if loose == nil {
				loose = op
			}
		}
	}
	if regionOp != nil {
		if loose != nil {
			diag := ir.OpErrorPlain(loose, "'%s' is outside the regions of an already split function; run hybrid-inline first", loose.Name())
			diag.AttachNote(regionOp.Loc(), "region op here")
			return res, diag
		}
		res.AlreadySplit = true
		if opts.Explain {
			f.EmitRemark("hybrid-split: @%s is already split, left as it is", view.Name())
		}
		return res, nil
	}
	if len(d.ops) == 0 {
		return res, nil
	}
	d.link()
	retSrc := d.returnSources(ret, body)
	ops := d.ops
	var why []string
	if opts.Explain {
		why = make([]string, len(ops))
	}
	var p *partition
	if opts.Mode == ModeSeed {
		p = d.demoteSmall(d.seed(why), opts.MinSubgraphOps, false, why)
		p = d.seedFinish(p, why)
	} else {
		p = d.dependency()
		if !opts.noSink {
			d.sink(p, ret, retSrc)
		}
		p = d.demoteSmall(p, opts.MinSubgraphOps, true, why)
	}
	d.retire()
	if opts.Explain {
		for i, op := range ops {
			if !p.native[p.region[i]] {
				continue
			}
			reason := d.reason[i]
			if !d.native[i] {
				reason = why[i]
			}
			if reason == "" {
				reason = "placed in a native region"
			}
			op.EmitRemark("kept native: %s", reason)
		}
	}
	o := newOutliner(d, p, body, ret, retSrc, view.Name())
	o.run()
	return o.res, nil
}

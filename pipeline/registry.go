package pipeline

import (
	"fmt"
	"sort"

	"github.com/rlx-compiler/rlx/internal/suggest"
)

// Registry maps pass and pipeline arguments to their descriptions. A tool
// builds one from an explicit list (rlx-opt uses passes.All()); there is no
// global registry.
type Registry struct {
	passes    map[string]*PassInfo
	pipelines map[string]*PipelineInfo
}

// NewRegistry returns a registry holding passes. It panics when two passes
// share an argument, which is a programming error in the list.
func NewRegistry(passes ...*PassInfo) *Registry {
	r := &Registry{passes: map[string]*PassInfo{}, pipelines: map[string]*PipelineInfo{}}
	for _, p := range passes {
		if err := r.Register(p); err != nil {
			panic(err)
		}
	}
	return r
}

// Register adds a pass. It fails when the argument is empty or taken.
func (r *Registry) Register(pi *PassInfo) error {
	if pi.Argument == "" || pi.New == nil {
		return fmt.Errorf("pipeline: pass %q needs an Argument and a New function", pi.DisplayName())
	}
	if r.taken(pi.Argument) {
		return fmt.Errorf("pipeline: pass argument %q registered twice", pi.Argument)
	}
	r.passes[pi.Argument] = pi
	return nil
}

// RegisterPipeline adds a named pipeline.
func (r *Registry) RegisterPipeline(pl *PipelineInfo) error {
	if pl.Argument == "" || pl.Build == nil {
		return fmt.Errorf("pipeline: pipeline %q needs an Argument and a Build function", pl.Argument)
	}
	if r.taken(pl.Argument) {
		return fmt.Errorf("pipeline: pass argument %q registered twice", pl.Argument)
	}
	r.pipelines[pl.Argument] = pl
	return nil
}

func (r *Registry) taken(arg string) bool {
	_, p := r.passes[arg]
	_, q := r.pipelines[arg]
	return p || q || arg == AnyOp
}

// Lookup returns the pass registered under arg, or nil.
func (r *Registry) Lookup(arg string) *PassInfo { return r.passes[arg] }

// LookupPipeline returns the named pipeline registered under arg, or nil.
func (r *Registry) LookupPipeline(arg string) *PipelineInfo { return r.pipelines[arg] }

// Passes returns the registered passes sorted by argument.
func (r *Registry) Passes() []*PassInfo {
	out := make([]*PassInfo, 0, len(r.passes))
	for _, p := range r.passes {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Argument < out[j].Argument })
	return out
}

// Pipelines returns the registered named pipelines sorted by argument.
func (r *Registry) Pipelines() []*PipelineInfo {
	out := make([]*PipelineInfo, 0, len(r.pipelines))
	for _, p := range r.pipelines {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Argument < out[j].Argument })
	return out
}

// Create makes an instance of the pass registered under arg, with options
// parsed from opts (the text between the braces of a textual pipeline,
// e.g. "max-iterations=3 top-down=false").
func (r *Registry) Create(arg, opts string) (Pass, error) {
	pi := r.passes[arg]
	if pi == nil {
		msg := fmt.Sprintf("'%s' does not refer to a registered pass or pass pipeline", arg)
		if s := suggest.Closest(arg, r.names()); s != "" {
			msg += "; did you mean '" + s + "'?"
		}
		return nil, fmt.Errorf("%s", msg)
	}
	p := NewPass(pi)
	if opts != "" {
		if err := ParseOptions(p, opts); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (r *Registry) names() []string {
	out := make([]string, 0, len(r.passes)+len(r.pipelines))
	for n := range r.passes {
		out = append(out, n)
	}
	for n := range r.pipelines {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

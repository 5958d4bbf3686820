package jinja

import (
	"strings"
	"time"
)

// Limits that keep a hostile template from running away; jinja2 would
// hit Python's recursion limit or run out of memory instead.
const (
	maxCallDepth = 64
	maxOutput    = 1 << 24
	maxIters     = 1 << 20
)

type renderer struct {
	t     *Template
	now   time.Time
	root  *frame
	out   strings.Builder
	depth int
	iters int
}

// frame is one scope: the template's top level, one iteration of a loop,
// or one call of a macro. An assignment writes the innermost frame, so a
// {% set %} in a loop body is gone at the next iteration, as in jinja2.
type frame struct {
	vars   map[string]any
	parent *frame
}

func (f *frame) lookup(name string) (any, bool) {
	for ; f != nil; f = f.parent {
		if v, ok := f.vars[name]; ok {
			return v, true
		}
	}
	return nil, false
}

// control carries break and continue out of the loop body.
type control struct {
	kind string
	pos  int
}

func (c *control) Error() string { return c.kind }

// loopInfo is the loop variable of a for loop.
type loopInfo struct {
	items []any
	index int
}

func (r *renderer) write(s string) error {
	if r.out.Len()+len(s) > maxOutput {
		return &Error{Name: r.t.name, Line: 1, Col: 1, Msg: "the output is too large"}
	}
	r.out.WriteString(s)
	return nil
}

func (r *renderer) block(body []node, f *frame) error {
	for _, n := range body {
		if err := r.node(n, f); err != nil {
			return err
		}
	}
	return nil
}

func (r *renderer) node(n node, f *frame) error {
	switch n := n.(type) {
	case *textNode:
		return r.write(n.s)
	case *outputNode:
		v, err := r.eval(n.e, f)
		if err != nil {
			return err
		}
		return r.write(str(v))
	case *ifNode:
		for i, c := range n.conds {
			v, err := r.eval(c, f)
			if err != nil {
				return err
			}
			if truth(v) {
				return r.block(n.bodies[i], f)
			}
		}
		return r.block(n.els, f)
	case *forNode:
		return r.forLoop(n, f)
	case *setNode:
		return r.set(n, f)
	case *macroNode:
		f.vars[n.name] = r.macro(n)
		return nil
	case *breakNode:
		return &control{"break", n.position()}
	case *continueNode:
		return &control{"continue", n.position()}
	case *filterBlock:
		inner := &frame{vars: map[string]any{}, parent: f}
		if n.filters == nil {
			return r.block(n.body, inner)
		}
		s, err := r.capture(n.body, inner)
		if err != nil {
			return err
		}
		v, err := r.applyFilters(s, n.filters, f)
		if err != nil {
			return err
		}
		return r.write(str(v))
	}
	return r.t.errorf(n.position(), "internal error: unknown node %T", n)
}

// capture renders body into a string of its own.
func (r *renderer) capture(body []node, f *frame) (string, error) {
	saved := r.out
	r.out = strings.Builder{}
	err := r.block(body, f)
	s := r.out.String()
	r.out = saved
	return s, err
}

func (r *renderer) applyFilters(v any, fs []*filterExpr, f *frame) (any, error) {
	for _, fe := range fs {
		var err error
		if v, err = r.filter(fe, v, f); err != nil {
			return nil, err
		}
	}
	return v, nil
}

func (r *renderer) set(n *setNode, f *frame) error {
	var v any
	var err error
	if n.body != nil {
		s, err := r.capture(n.body, f)
		if err != nil {
			return err
		}
		if v, err = r.applyFilters(s, n.filters, f); err != nil {
			return err
		}
	} else if v, err = r.eval(n.value, f); err != nil {
		return err
	}
	if n.target.ns != "" {
		obj, ok := f.lookup(n.target.ns)
		ns, isNS := obj.(*namespace)
		if !ok || !isNS {
			return r.t.errorf(n.position(), "cannot assign attribute on non-namespace object")
		}
		ns.attrs.Set(n.target.names[0], v)
		return nil
	}
	return r.assign(n.target, v, f, n.position())
}

func (r *renderer) assign(tg assignTarget, v any, f *frame, pos int) error {
	if !tg.tuple {
		f.vars[tg.names[0]] = v
		return nil
	}
	items, err := r.iterate(v, pos)
	if err != nil {
		return err
	}
	if len(items) != len(tg.names) {
		if len(items) > len(tg.names) {
			return r.t.errorf(pos, "too many values to unpack (expected %d)", len(tg.names))
		}
		return r.t.errorf(pos, "not enough values to unpack (expected %d, got %d)", len(tg.names), len(items))
	}
	for i, name := range tg.names {
		f.vars[name] = items[i]
	}
	return nil
}

// iterate lists what a for loop over v visits.
func (r *renderer) iterate(v any, pos int) ([]any, error) {
	items, err := iterValues(v)
	return items, r.located(err, pos)
}

func (r *renderer) forLoop(n *forNode, f *frame) error {
	seq, err := r.eval(n.iter, f)
	if err != nil {
		return err
	}
	items, err := r.iterate(seq, n.iter.position())
	if err != nil {
		return err
	}
	if n.cond != nil {
		var kept []any
		for _, it := range items {
			inner := &frame{vars: map[string]any{}, parent: f}
			if err := r.assign(n.target, it, inner, n.position()); err != nil {
				return err
			}
			v, err := r.eval(n.cond, inner)
			if err != nil {
				return err
			}
			if truth(v) {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	if len(items) == 0 {
		return r.block(n.els, f)
	}
	loop := &loopInfo{items: items}
	for i, it := range items {
		r.iters++
		if r.iters > maxIters {
			return r.t.errorf(n.position(), "too many loop iterations")
		}
		loop.index = i
		inner := &frame{vars: map[string]any{"loop": loop}, parent: f}
		if err := r.assign(n.target, it, inner, n.position()); err != nil {
			return err
		}
		err := r.block(n.body, inner)
		if c, ok := err.(*control); ok {
			if c.kind == "break" {
				break
			}
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// loopAttr is an attribute of the loop variable.
func (r *renderer) loopAttr(l *loopInfo, name string) (any, bool) {
	n := len(l.items)
	switch name {
	case "index":
		return int64(l.index + 1), true
	case "index0":
		return int64(l.index), true
	case "revindex":
		return int64(n - l.index), true
	case "revindex0":
		return int64(n - l.index - 1), true
	case "first":
		return l.index == 0, true
	case "last":
		return l.index == n-1, true
	case "length":
		return int64(n), true
	case "depth":
		return int64(1), true
	case "depth0":
		return int64(0), true
	case "previtem":
		if l.index == 0 {
			return &undefined{hint: "there is no previous item"}, true
		}
		return l.items[l.index-1], true
	case "nextitem":
		if l.index == n-1 {
			return &undefined{hint: "there is no next item"}, true
		}
		return l.items[l.index+1], true
	case "cycle":
		return &callable{name: "cycle", fn: func(r *renderer, args []any, kw *Dict) (any, error) {
			if len(args) == 0 {
				return nil, errorText("no items for cycling given")
			}
			return args[l.index%len(args)], nil
		}}, true
	}
	return nil, false
}

func (r *renderer) macro(n *macroNode) *callable {
	return &callable{name: n.name, fn: func(r *renderer, args []any, kw *Dict) (any, error) {
		if len(args) > len(n.params) {
			return nil, errorText("macro '" + n.name + "' takes not more than " + itoa(len(n.params)) + " argument(s)")
		}
		if r.depth >= maxCallDepth {
			return nil, errorText("maximum recursion depth exceeded")
		}
		inner := &frame{vars: map[string]any{}, parent: r.root}
		inner.vars[n.name] = r.macro(n)
		firstDefault := len(n.params) - len(n.defaults)
		for i, p := range n.params {
			switch v, ok := kw.Get(p); {
			case i < len(args):
				if ok {
					return nil, errorText("macro '" + n.name + "' got multiple values for argument '" + p + "'")
				}
				inner.vars[p] = args[i]
			case ok:
				inner.vars[p] = v
			case i >= firstDefault:
				d, err := r.eval(n.defaults[i-firstDefault], inner)
				if err != nil {
					return nil, err
				}
				inner.vars[p] = d
			default:
				inner.vars[p] = &undefined{hint: "parameter '" + p + "' was not provided"}
			}
		}
		for _, k := range kw.Keys() {
			if ks, _ := k.(string); !containsStr(n.params, ks) {
				return nil, errorText("macro '" + n.name + "' takes no keyword argument '" + ks + "'")
			}
		}
		r.depth++
		defer func() { r.depth-- }()
		s, err := r.capture(n.body, inner)
		if c, ok := err.(*control); ok {
			return nil, r.t.errorf(c.pos, "%s outside of a loop", c.kind)
		}
		return s, err
	}}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

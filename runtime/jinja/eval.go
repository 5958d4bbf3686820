package jinja

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// errorText is an error without a place; the expression that got it adds
// the place.
type errorText string

func (e errorText) Error() string { return string(e) }

func itoa(i int) string { return strconv.Itoa(i) }

// located gives err the place pos unless it has one.
func (r *renderer) located(err error, pos int) error {
	var et errorText
	if errors.As(err, &et) {
		return r.t.errorf(pos, "%s", string(et))
	}
	return err
}

func (r *renderer) evalAll(es []expr, f *frame) ([]any, error) {
	out := make([]any, len(es))
	for i, e := range es {
		v, err := r.eval(e, f)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// evalArgs evaluates a call's positional arguments and its keyword
// arguments names = vals.
func (r *renderer) evalArgs(args []expr, names []string, vals []expr, f *frame) ([]any, *Dict, error) {
	pos, err := r.evalAll(args, f)
	if err != nil {
		return nil, nil, err
	}
	kw := NewDict()
	for i, n := range names {
		v, err := r.eval(vals[i], f)
		if err != nil {
			return nil, nil, err
		}
		kw.Set(n, v)
	}
	return pos, kw, nil
}

// strict fails on an undefined value, which jinja2 allows only to be
// printed, tested, iterated and compared.
func (r *renderer) strict(v any, pos int) error {
	if u, ok := v.(*undefined); ok {
		return r.t.errorf(pos, "%s", u.err())
	}
	return nil
}

func (r *renderer) eval(e expr, f *frame) (any, error) {
	switch e := e.(type) {
	case *constExpr:
		return e.v, nil
	case *nameExpr:
		if v, ok := f.lookup(e.name); ok {
			return v, nil
		}
		if g := r.global(e.name); g != nil {
			return g, nil
		}
		return &undefined{hint: "'" + e.name + "' is undefined"}, nil
	case *listExpr:
		return r.evalAll(e.items, f)
	case *tupleExpr:
		items, err := r.evalAll(e.items, f)
		return tuple(items), err
	case *dictExpr:
		d := NewDict()
		for i := range e.keys {
			k, err := r.eval(e.keys[i], f)
			if err != nil {
				return nil, err
			}
			switch k.(type) {
			case nil, bool, int64, float64, string:
			default:
				return nil, r.t.errorf(e.keys[i].position(), "unhashable type: '%s'", typeName(k))
			}
			v, err := r.eval(e.vals[i], f)
			if err != nil {
				return nil, err
			}
			d.Set(k, v)
		}
		return d, nil
	case *getattrExpr:
		obj, err := r.eval(e.obj, f)
		if err != nil {
			return nil, err
		}
		if err := r.strict(obj, e.position()); err != nil {
			return nil, err
		}
		return r.getattr(obj, e.name), nil
	case *getitemExpr:
		obj, err := r.eval(e.obj, f)
		if err != nil {
			return nil, err
		}
		if err := r.strict(obj, e.position()); err != nil {
			return nil, err
		}
		if s, ok := e.index.(*sliceExpr); ok {
			return r.slice(obj, s, f)
		}
		idx, err := r.eval(e.index, f)
		if err != nil {
			return nil, err
		}
		v, err := r.getitem(obj, idx)
		return v, r.located(err, e.position())
	case *callExpr:
		fn, err := r.eval(e.fn, f)
		if err != nil {
			return nil, err
		}
		args, kw, err := r.evalArgs(e.args, e.kwNames, e.kwVals, f)
		if err != nil {
			return nil, err
		}
		switch fn := fn.(type) {
		case *callable:
			v, err := fn.fn(r, args, kw)
			return v, r.located(err, e.position())
		case *undefined:
			return nil, r.t.errorf(e.position(), "%s", fn.err())
		}
		return nil, r.t.errorf(e.position(), "'%s' object is not callable", typeName(fn))
	case *filterExpr:
		v, err := r.eval(e.arg, f)
		if err != nil {
			return nil, err
		}
		return r.filter(e, v, f)
	case *testExpr:
		v, err := r.eval(e.arg, f)
		if err != nil {
			return nil, err
		}
		args, kw, err := r.evalArgs(e.args, e.kwNames, e.kwVals, f)
		if err != nil {
			return nil, err
		}
		ok, err := tests[e.name](r, v, args, kw)
		if err != nil {
			return nil, r.located(err, e.position())
		}
		return ok != e.negate, nil
	case *unaryExpr:
		x, err := r.eval(e.x, f)
		if err != nil {
			return nil, err
		}
		if e.op == "not" {
			return !truth(x), nil
		}
		if err := r.strict(x, e.position()); err != nil {
			return nil, err
		}
		switch x := x.(type) {
		case bool, int64:
			i, _ := asInt(x)
			if e.op == "-" {
				if i == math.MinInt64 {
					return nil, r.t.errorf(e.position(), "integer overflow")
				}
				i = -i
			}
			return i, nil
		case float64:
			if e.op == "-" {
				return -x, nil
			}
			return x, nil
		}
		return nil, r.t.errorf(e.position(), "bad operand type for unary %s: '%s'", e.op, typeName(x))
	case *binExpr:
		l, err := r.eval(e.l, f)
		if err != nil {
			return nil, err
		}
		switch e.op {
		case "and":
			if !truth(l) {
				return l, nil
			}
			return r.eval(e.r, f)
		case "or":
			if truth(l) {
				return l, nil
			}
			return r.eval(e.r, f)
		}
		rv, err := r.eval(e.r, f)
		if err != nil {
			return nil, err
		}
		if e.op == "~" {
			return str(l) + str(rv), nil
		}
		if err := r.strict(l, e.position()); err != nil {
			return nil, err
		}
		if err := r.strict(rv, e.position()); err != nil {
			return nil, err
		}
		v, err := arith(e.op, l, rv)
		return v, r.located(err, e.position())
	case *compareExpr:
		l, err := r.eval(e.first, f)
		if err != nil {
			return nil, err
		}
		for i, op := range e.ops {
			rv, err := r.eval(e.rest[i], f)
			if err != nil {
				return nil, err
			}
			ok, err := r.compareOp(op, l, rv, e.position())
			if err != nil {
				return nil, err
			}
			if !ok {
				return false, nil
			}
			l = rv
		}
		return true, nil
	case *condExpr:
		c, err := r.eval(e.cond, f)
		if err != nil {
			return nil, err
		}
		if truth(c) {
			return r.eval(e.then, f)
		}
		if e.els == nil {
			return &undefined{hint: "the inline if-expression on line evaluated to false and no else section was defined."}, nil
		}
		return r.eval(e.els, f)
	case *sliceExpr:
		return nil, r.t.errorf(e.position(), "a slice outside of a subscript")
	}
	return nil, r.t.errorf(e.position(), "internal error: unknown expression %T", e)
}

func (r *renderer) compareOp(op string, l, rv any, pos int) (bool, error) {
	switch op {
	case "==":
		return equal(l, rv), nil
	case "!=":
		return !equal(l, rv), nil
	case "in", "notin":
		ok, err := contains(rv, l)
		if err != nil {
			return false, r.located(err, pos)
		}
		return ok == (op == "in"), nil
	}
	if err := r.strict(l, pos); err != nil {
		return false, err
	}
	if err := r.strict(rv, pos); err != nil {
		return false, err
	}
	c, ok := compare(l, rv)
	if !ok {
		return false, r.t.errorf(pos, "'%s' not supported between instances of '%s' and '%s'", op, typeName(l), typeName(rv))
	}
	switch op {
	case "<":
		return c < 0, nil
	case "<=":
		return c <= 0, nil
	case ">":
		return c > 0, nil
	}
	return c >= 0, nil
}

// contains is Python's "item in container".
func contains(container, item any) (bool, error) {
	switch c := container.(type) {
	case string:
		s, ok := item.(string)
		if !ok {
			return false, errorText("'in <string>' requires string as left operand, not " + typeName(item))
		}
		return strings.Contains(c, s), nil
	case []any, tuple, rangeValue:
		var items []any
		switch c := c.(type) {
		case []any:
			items = c
		case tuple:
			items = c
		case rangeValue:
			items = c.items()
		}
		for _, x := range items {
			if equal(x, item) {
				return true, nil
			}
		}
		return false, nil
	case *Dict:
		switch item.(type) {
		case []any, *Dict:
			return false, errorText("unhashable type: '" + typeName(item) + "'")
		}
		_, ok := c.Get(item)
		return ok, nil
	case *undefined:
		return false, nil
	}
	return false, errorText("argument of type '" + typeName(container) + "' is not iterable")
}

// arith is Python's binary arithmetic.
func arith(op string, l, rv any) (any, error) {
	li, lInt := asInt(l)
	ri, rInt := asInt(rv)
	lf, lNum := asFloat(l)
	rf, rNum := asFloat(rv)
	if lNum && rNum {
		if lInt && rInt {
			return intArith(op, li, ri)
		}
		switch op {
		case "+":
			return lf + rf, nil
		case "-":
			return lf - rf, nil
		case "*":
			return lf * rf, nil
		case "/":
			if rf == 0 {
				return nil, errorText("float division by zero")
			}
			return lf / rf, nil
		case "//":
			if rf == 0 {
				return nil, errorText("float floor division by zero")
			}
			return math.Floor(lf / rf), nil
		case "%":
			if rf == 0 {
				return nil, errorText("float modulo")
			}
			m := math.Mod(lf, rf)
			if m != 0 && (m < 0) != (rf < 0) {
				m += rf
			}
			return m, nil
		case "**":
			return math.Pow(lf, rf), nil
		}
	}
	switch op {
	case "+":
		switch l := l.(type) {
		case string:
			if s, ok := rv.(string); ok {
				return l + s, nil
			}
			return nil, errorText(`can only concatenate str (not "` + typeName(rv) + `") to str`)
		case []any:
			if s, ok := rv.([]any); ok {
				return append(append([]any(nil), l...), s...), nil
			}
			return nil, errorText(`can only concatenate list (not "` + typeName(rv) + `") to list`)
		case tuple:
			if s, ok := rv.(tuple); ok {
				return append(append(tuple(nil), l...), s...), nil
			}
		}
	case "*":
		if s, ok := l.(string); ok && rInt {
			return repeatStr(s, ri)
		}
		if s, ok := rv.(string); ok && lInt {
			return repeatStr(s, li)
		}
		if s, ok := l.([]any); ok && rInt {
			return repeatList(s, ri)
		}
		if s, ok := rv.([]any); ok && lInt {
			return repeatList(s, li)
		}
	case "%":
		if _, ok := l.(string); ok {
			return nil, errorText("printf-style string formatting is not supported")
		}
	}
	return nil, errorText("unsupported operand type(s) for " + op + ": '" + typeName(l) + "' and '" + typeName(rv) + "'")
}

func repeatStr(s string, n int64) (any, error) {
	if n <= 0 {
		return "", nil
	}
	if int64(len(s))*n > maxOutput {
		return nil, errorText("the string is too long")
	}
	return strings.Repeat(s, int(n)), nil
}

func repeatList(l []any, n int64) (any, error) {
	if n <= 0 {
		return []any{}, nil
	}
	if int64(len(l))*n > maxIters {
		return nil, errorText("the list is too long")
	}
	out := []any{}
	for range n {
		out = append(out, l...)
	}
	return out, nil
}

var errOverflow = errorText("integer overflow (Python's integers are unbounded; this package's are 64-bit)")

func intArith(op string, a, b int64) (any, error) {
	switch op {
	case "+":
		c := a + b
		if (c > a) != (b > 0) {
			return nil, errOverflow
		}
		return c, nil
	case "-":
		c := a - b
		if (c < a) != (b > 0) {
			return nil, errOverflow
		}
		return c, nil
	case "*":
		if a == 0 || b == 0 {
			return int64(0), nil
		}
		c := a * b
		if c/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
			return nil, errOverflow
		}
		return c, nil
	case "/":
		if b == 0 {
			return nil, errorText("division by zero")
		}
		return float64(a) / float64(b), nil
	case "//", "%":
		if b == 0 {
			return nil, errorText("integer division or modulo by zero")
		}
		if a == math.MinInt64 && b == -1 {
			return nil, errOverflow
		}
		q, m := a/b, a%b
		if m != 0 && (m < 0) != (b < 0) {
			q--
			m += b
		}
		if op == "//" {
			return q, nil
		}
		return m, nil
	case "**":
		if b < 0 {
			return math.Pow(float64(a), float64(b)), nil
		}
		res := int64(1)
		for range b {
			if a != 0 && a != 1 && a != -1 && (res > math.MaxInt64/abs64(a) || res < -math.MaxInt64/abs64(a)) {
				return nil, errOverflow
			}
			res *= a
			if a == 0 || a == 1 {
				break
			}
			if a == -1 {
				if b%2 == 0 {
					return int64(1), nil
				}
				return int64(-1), nil
			}
		}
		return res, nil
	}
	return nil, errorText("unsupported operator " + op)
}

func abs64(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

// getattr is jinja2's getattr: an attribute (a method) of the value
// first, then its item of that name; undefined when neither exists.
func (r *renderer) getattr(obj any, name string) any {
	if m := method(obj, name); m != nil {
		return m
	}
	switch o := obj.(type) {
	case *Dict:
		if v, ok := o.Get(name); ok {
			return v
		}
	case *namespace:
		if v, ok := o.attrs.Get(name); ok {
			return v
		}
	case *loopInfo:
		if v, ok := r.loopAttr(o, name); ok {
			return v
		}
	}
	return &undefined{hint: "'" + objName(obj) + "' has no attribute '" + name + "'"}
}

func objName(v any) string {
	if v == nil {
		return "None"
	}
	return typeName(v) + " object"
}

// getitem is jinja2's getitem: the item first, then the attribute. A
// key Python cannot hash (a list, a dict) is an undefined item there too,
// since jinja2 takes the TypeError for a missing item.
func (r *renderer) getitem(obj, idx any) (any, error) {
	switch o := obj.(type) {
	case *Dict:
		switch idx.(type) {
		case []any, *Dict:
			return &undefined{hint: "'" + objName(obj) + "' has no element " + repr(idx)}, nil
		}
		if v, ok := o.Get(idx); ok {
			return v, nil
		}
	case []any, tuple, string, rangeValue:
		if i, ok := asInt(idx); ok {
			var n int
			switch o := o.(type) {
			case []any:
				n = len(o)
			case tuple:
				n = len(o)
			case string:
				n = len([]rune(o))
			case rangeValue:
				n = len(o.items())
			}
			if i < 0 {
				i += int64(n)
			}
			if i >= 0 && i < int64(n) {
				switch o := o.(type) {
				case []any:
					return o[i], nil
				case tuple:
					return o[i], nil
				case string:
					return string([]rune(o)[i]), nil
				case rangeValue:
					return o.items()[i], nil
				}
			}
			return &undefined{hint: "'" + objName(obj) + "' has no element " + str(idx)}, nil
		}
	}
	if s, ok := idx.(string); ok {
		return r.getattr(obj, s), nil
	}
	return &undefined{hint: "'" + objName(obj) + "' has no element " + repr(idx)}, nil
}

func (r *renderer) slice(obj any, s *sliceExpr, f *frame) (any, error) {
	var bounds [3]*int64
	for i, e := range []expr{s.start, s.stop, s.step} {
		if e == nil {
			continue
		}
		v, err := r.eval(e, f)
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue
		}
		n, ok := asInt(v)
		if !ok {
			return nil, r.t.errorf(s.position(), "slice indices must be integers or None")
		}
		bounds[i] = &n
	}
	var items []any
	var runes []rune
	switch o := obj.(type) {
	case []any:
		items = o
	case tuple:
		items = o
	case string:
		runes = []rune(o)
	case rangeValue:
		items = o.items()
	default:
		return &undefined{hint: "'" + objName(obj) + "' has no slice"}, nil
	}
	n := int64(len(items))
	if runes != nil || obj == "" {
		n = int64(len(runes))
	}
	idx, err := sliceIndices(n, bounds)
	if err != nil {
		return nil, r.located(err, s.position())
	}
	if _, ok := obj.(string); ok {
		var b strings.Builder
		for _, i := range idx {
			b.WriteRune(runes[i])
		}
		return b.String(), nil
	}
	out := make([]any, len(idx))
	for k, i := range idx {
		out[k] = items[i]
	}
	if _, ok := obj.(tuple); ok {
		return tuple(out), nil
	}
	return out, nil
}

// sliceIndices is Python's slice.indices, listed.
func sliceIndices(n int64, b [3]*int64) ([]int64, error) {
	step := int64(1)
	if b[2] != nil {
		step = *b[2]
	}
	if step == 0 {
		return nil, errorText("slice step cannot be zero")
	}
	clamp := func(p *int64, def, lo, hi int64) int64 {
		if p == nil {
			return def
		}
		v := *p
		if v < 0 {
			v += n
			if v < lo {
				v = lo
			}
		} else if v > hi {
			v = hi
		}
		return v
	}
	var out []int64
	if step > 0 {
		start, stop := clamp(b[0], 0, 0, n), clamp(b[1], n, 0, n)
		for i := start; i < stop; i += step {
			out = append(out, i)
		}
	} else {
		start, stop := clamp(b[0], n-1, -1, n-1), clamp(b[1], -1, -1, n-1)
		for i := start; i > stop; i += step {
			out = append(out, i)
		}
	}
	return out, nil
}

package jinja

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

type filterFunc func(r *renderer, v any, args []any, kw *Dict) (any, error)

// filters is jinja2's filter table, cut to the subset; tojson is
// transformers' override.
var filters map[string]filterFunc

func init() {
	filters = map[string]filterFunc{
		"trim": fTrim, "tojson": fToJSON, "length": fLength, "count": fLength,
		"upper": strFilter(strings.ToUpper), "lower": strFilter(strings.ToLower),
		"title": strFilter(jinjaTitle), "capitalize": strFilter(capitalize),
		"string": fString, "int": fInt, "float": fFloat, "abs": fAbs, "round": fRound,
		"join": fJoin, "first": fFirst, "last": fLast, "default": fDefault, "d": fDefault,
		"replace": fReplace, "list": fList, "reverse": fReverse, "sort": fSort,
		"unique": fUnique, "items": fItems, "dictsort": fDictsort,
		"selectattr": selectFilter(true, true), "rejectattr": selectFilter(true, false),
		"select": selectFilter(false, true), "reject": selectFilter(false, false),
		"map": fMap, "indent": fIndent, "safe": fSafe, "escape": fEscape, "e": fEscape,
		"forceescape": fEscape, "wordcount": fWordcount, "batch": fBatch, "sum": fSum,
		"min": minMax(-1), "max": minMax(1), "attr": fAttr,
	}
}

func (r *renderer) filter(fe *filterExpr, v any, f *frame) (any, error) {
	args, kw, err := r.evalArgs(fe.args, fe.kwNames, fe.kwVals, f)
	if err != nil {
		return nil, err
	}
	out, err := filters[fe.name](r, v, args, kw)
	if err != nil {
		if ex, ok := err.(*Exception); ok {
			return nil, ex
		}
		if u, ok := err.(undefinedErr); ok {
			return nil, r.t.errorf(fe.position(), "%s", u.u.err())
		}
		return nil, r.located(err, fe.position())
	}
	return out, nil
}

// undefinedErr reports a filter's use of an undefined value.
type undefinedErr struct{ u *undefined }

func (e undefinedErr) Error() string { return e.u.err() }

func strFilter(fn func(string) string) filterFunc {
	return func(_ *renderer, v any, args []any, kw *Dict) (any, error) {
		if _, err := argsOf("filter", args, kw); err != nil {
			return nil, err
		}
		return fn(str(v)), nil
	}
}

var titleSplit = regexp.MustCompile(`([-\s({\[<]+)`)

// jinjaTitle is jinja2's title filter: words begin after a dash, a space
// or an opening bracket.
func jinjaTitle(s string) string {
	var b strings.Builder
	last := 0
	parts := []string{}
	for _, m := range titleSplit.FindAllStringIndex(s, -1) {
		parts = append(parts, s[last:m[0]], s[m[0]:m[1]])
		last = m[1]
	}
	parts = append(parts, s[last:])
	for _, p := range parts {
		if p == "" {
			continue
		}
		rs := []rune(p)
		b.WriteString(strings.ToUpper(string(rs[0])) + strings.ToLower(string(rs[1:])))
	}
	return b.String()
}

func fTrim(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	a, err := argsOf("trim", args, kw, "chars")
	if err != nil {
		return nil, err
	}
	chars, has, err := optString("strip", a[0])
	if err != nil {
		return nil, err
	}
	return strings.TrimFunc(str(v), stripFunc(chars, has)), nil
}

func fString(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	return str(v), nil
}

func fSafe(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	return str(v), nil
}

func fEscape(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	s := str(v)
	s = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
	return s, nil
}

func length(v any) (int, error) {
	switch v := v.(type) {
	case string:
		return len([]rune(v)), nil
	case []any:
		return len(v), nil
	case tuple:
		return len(v), nil
	case *Dict:
		return v.Len(), nil
	case *undefined:
		return 0, nil
	case rangeValue:
		return len(v.items()), nil
	case *namespace:
		return 0, errorText("object of type 'Namespace' has no len()")
	}
	return 0, errorText("object of type '" + typeName(v) + "' has no len()")
}

func fLength(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	n, err := length(v)
	return int64(n), err
}

func fToJSON(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	a, err := argsOf("tojson", args, kw, "ensure_ascii", "indent", "separators", "sort_keys")
	if err != nil {
		return nil, err
	}
	o := jsonOpts{ensureASCII: truth(a[0]), sortKeys: truth(a[3]), itemSep: ", ", keySep: ": "}
	if a[1] != nil {
		switch ind := a[1].(type) {
		case string:
			o.indent, o.hasIndent = ind, true
		default:
			n, ok := asInt(ind)
			if !ok {
				return nil, errorText("tojson indent must be an integer or a string")
			}
			o.indent, o.hasIndent = strings.Repeat(" ", int(max(0, min(n, 64)))), true
		}
		o.itemSep = ","
	}
	if a[2] != nil {
		seps, err := iterValues(a[2])
		if err != nil || len(seps) != 2 {
			return nil, errorText("tojson separators must be a pair of strings")
		}
		s0, ok0 := seps[0].(string)
		s1, ok1 := seps[1].(string)
		if !ok0 || !ok1 {
			return nil, errorText("tojson separators must be a pair of strings")
		}
		o.itemSep, o.keySep = s0, s1
	}
	var b strings.Builder
	if err := writeJSON(&b, v, o, 0); err != nil {
		return nil, err
	}
	return b.String(), nil
}

func fInt(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	a, err := argsOf("int", args, kw, "default", "base")
	if err != nil {
		return nil, err
	}
	def := a[0]
	if def == nil {
		def = int64(0)
	}
	switch x := v.(type) {
	case bool:
		i, _ := asInt(x)
		return i, nil
	case int64:
		return x, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) >= 1<<63 {
			return def, nil
		}
		return int64(x), nil
	case string:
		s := strings.TrimFunc(x, isPySpace)
		if i, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64); err == nil && !strings.HasPrefix(s, "_") {
			return i, nil
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) && math.Abs(f) < 1<<63 && !strings.ContainsAny(s, "xX_") {
			return int64(f), nil
		}
		return def, nil
	case *undefined:
		return nil, undefinedErr{x}
	}
	return def, nil
}

func fFloat(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	a, err := argsOf("float", args, kw, "default")
	if err != nil {
		return nil, err
	}
	def := a[0]
	if def == nil {
		def = 0.0
	}
	switch x := v.(type) {
	case bool, int64, float64:
		f, _ := asFloat(x)
		return f, nil
	case string:
		s := strings.TrimFunc(x, isPySpace)
		if f, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "xX_") {
			return f, nil
		}
		switch strings.ToLower(s) {
		case "inf", "+inf", "infinity", "+infinity":
			return math.Inf(1), nil
		case "-inf", "-infinity":
			return math.Inf(-1), nil
		}
		return def, nil
	case *undefined:
		return nil, undefinedErr{x}
	}
	return def, nil
}

func fAbs(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	switch x := v.(type) {
	case bool, int64:
		i, _ := asInt(x)
		if i == math.MinInt64 {
			return nil, errOverflow
		}
		return abs64(i), nil
	case float64:
		return math.Abs(x), nil
	}
	return nil, errorText("bad operand type for abs(): '" + typeName(v) + "'")
}

func fRound(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	a, err := argsOf("round", args, kw, "precision", "method")
	if err != nil {
		return nil, err
	}
	prec := int64(0)
	if a[0] != nil {
		p, ok := asInt(a[0])
		if !ok {
			return nil, errorText("round precision must be an integer")
		}
		prec = max(-20, min(p, 20))
	}
	method := "common"
	if a[1] != nil {
		method, _ = a[1].(string)
	}
	if method != "common" && method != "ceil" && method != "floor" {
		return nil, errorText("method must be 'common', 'ceil' or 'floor'")
	}
	if i, ok := asInt(v); ok && method == "common" {
		if _, isBool := v.(bool); !isBool && prec >= 0 {
			return i, nil
		}
	}
	f, ok := asFloat(v)
	if !ok {
		return nil, errorText("type " + typeName(v) + " doesn't define __round__ method")
	}
	switch method {
	case "ceil":
		p := math.Pow(10, float64(prec))
		return math.Ceil(f*p) / p, nil
	case "floor":
		p := math.Pow(10, float64(prec))
		return math.Floor(f*p) / p, nil
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return f, nil
	}
	if prec >= 0 {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', int(prec), 64), 64)
		return r, nil
	}
	p := math.Pow(10, float64(-prec))
	return math.RoundToEven(f/p) * p, nil
}

// attrGetter is jinja2's make_attrgetter: a dotted path of items.
func (r *renderer) attrGetter(path any) (func(any) (any, error), error) {
	if i, ok := asInt(path); ok {
		return func(v any) (any, error) { return r.getitem(v, i) }, nil
	}
	ps, ok := path.(string)
	if !ok {
		return nil, errorText("attribute must be a string or an integer")
	}
	parts := strings.Split(ps, ".")
	return func(v any) (any, error) {
		for _, p := range parts {
			var idx any = p
			if i, err := strconv.ParseInt(p, 10, 64); err == nil {
				idx = i
			}
			var err error
			if v, err = r.getitem(v, idx); err != nil {
				return nil, err
			}
		}
		return v, nil
	}, nil
}

func fJoin(r *renderer, v any, args []any, kw *Dict) (any, error) {
	a, err := argsOf("join", args, kw, "d", "attribute")
	if err != nil {
		return nil, err
	}
	_, items, err := r.attrItems(v, a[1])
	if err != nil {
		return nil, err
	}
	sep := ""
	if a[0] != nil {
		sep = str(a[0])
	}
	parts := make([]string, len(items))
	for i, x := range items {
		parts[i] = str(x)
	}
	return strings.Join(parts, sep), nil
}

func (r *renderer) mapAttr(items []any, attr, def any) ([]any, error) {
	get, err := r.attrGetter(attr)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(items))
	for i, x := range items {
		v, err := get(x)
		if err != nil {
			return nil, err
		}
		if _, ok := v.(*undefined); ok && def != nil {
			v = def
		}
		out[i] = v
	}
	return out, nil
}

func fFirst(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	items, err := iterValues(v)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return &undefined{hint: "No first item, sequence was empty."}, nil
	}
	return items[0], nil
}

func fLast(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	var items []any
	switch v.(type) {
	case []any, tuple, string, rangeValue:
		items, _ = iterValues(v)
	case *undefined:
	default:
		return nil, errorText("'" + typeName(v) + "' object is not reversible")
	}
	if len(items) == 0 {
		return &undefined{hint: "No last item, sequence was empty."}, nil
	}
	return items[len(items)-1], nil
}

func fDefault(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	a, err := argsOf("default", args, kw, "default_value", "boolean")
	if err != nil {
		return nil, err
	}
	def := a[0]
	if len(args) == 0 && !hasKw(kw, "default_value") {
		def = ""
	}
	if _, ok := v.(*undefined); ok || (truth(a[1]) && !truth(v)) {
		return def, nil
	}
	return v, nil
}

func hasKw(kw *Dict, name string) bool {
	_, ok := kw.Get(name)
	return ok
}

func fReplace(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	a, err := argsOf("replace", args, kw, "old", "new", "count")
	if err != nil {
		return nil, err
	}
	return replace(str(v), strOf(a[0]), strOf(a[1]), a[2])
}

func strOf(v any) any {
	if v == nil {
		return nil
	}
	return str(v)
}

func fList(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	items, err := iterValues(v)
	if err != nil {
		return nil, err
	}
	return append([]any{}, items...), nil
}

func fReverse(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	if s, ok := v.(string); ok {
		rs := []rune(s)
		slices.Reverse(rs)
		return string(rs), nil
	}
	items, err := iterValues(v)
	if err != nil {
		return nil, errorText("argument to reversed() must be a sequence")
	}
	out := append([]any{}, items...)
	slices.Reverse(out)
	return out, nil
}

// sortKey lowers strings unless case_sensitive, as jinja2's ignore_case.
func sortKey(v any, caseSensitive bool) any {
	if s, ok := v.(string); ok && !caseSensitive {
		return strings.ToLower(s)
	}
	return v
}

func sortValues(items []any, key func(any) any, reverse bool) ([]any, error) {
	out := append([]any{}, items...)
	var bad error
	slices.SortStableFunc(out, func(a, b any) int {
		c, ok := compare(key(a), key(b))
		if !ok && bad == nil {
			bad = errorText("'<' not supported between instances of '" + typeName(key(a)) + "' and '" + typeName(key(b)) + "'")
		}
		if reverse {
			return -c
		}
		return c
	})
	return out, bad
}

func fSort(r *renderer, v any, args []any, kw *Dict) (any, error) {
	a, err := argsOf("sort", args, kw, "reverse", "case_sensitive", "attribute")
	if err != nil {
		return nil, err
	}
	items, err := iterValues(v)
	if err != nil {
		return nil, err
	}
	get := func(x any) (any, error) { return x, nil }
	if a[2] != nil {
		if get, err = r.attrGetter(a[2]); err != nil {
			return nil, err
		}
	}
	var gerr error
	out, err := sortValues(items, func(x any) any {
		k, e := get(x)
		if e != nil {
			gerr = e
		}
		return sortKey(k, truth(a[1]))
	}, truth(a[0]))
	if gerr != nil {
		return nil, gerr
	}
	return out, err
}

// attrItems lists v, with each item's key: its attribute attr (a
// filter's attribute argument) where attr is not nil, else the item.
func (r *renderer) attrItems(v, attr any) (items, keys []any, err error) {
	if items, err = iterValues(v); err != nil {
		return nil, nil, err
	}
	keys = items
	if attr != nil {
		keys, err = r.mapAttr(items, attr, nil)
	}
	return items, keys, err
}

func fUnique(r *renderer, v any, args []any, kw *Dict) (any, error) {
	a, err := argsOf("unique", args, kw, "case_sensitive", "attribute")
	if err != nil {
		return nil, err
	}
	items, keys, err := r.attrItems(v, a[1])
	if err != nil {
		return nil, err
	}
	seen := NewDict()
	var out []any
	for i, x := range items {
		k := sortKey(keys[i], truth(a[0]))
		switch k.(type) {
		case []any, *Dict:
			return nil, errorText("unhashable type: '" + typeName(k) + "'")
		}
		if _, ok := seen.Get(k); ok {
			continue
		}
		seen.Set(k, true)
		out = append(out, x)
	}
	return nonNilList(out), nil
}

func nonNilList(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}

func fItems(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	switch d := v.(type) {
	case *undefined:
		return []any{}, nil
	case *Dict:
		out := make([]any, d.Len())
		for i, k := range d.keys {
			out[i] = tuple{k, d.vals[i]}
		}
		return out, nil
	}
	return nil, errorText("Can only get item pairs from a mapping.")
}

func fDictsort(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	a, err := argsOf("dictsort", args, kw, "case_sensitive", "by", "reverse")
	if err != nil {
		return nil, err
	}
	d, ok := v.(*Dict)
	if !ok {
		return nil, errorText("dictsort requires a mapping")
	}
	pos := 0
	if a[1] != nil {
		switch a[1] {
		case "key":
		case "value":
			pos = 1
		default:
			return nil, errorText("You can only sort by either 'key' or 'value'")
		}
	}
	items := make([]any, d.Len())
	for i, k := range d.keys {
		items[i] = tuple{k, d.vals[i]}
	}
	return sortValues(items, func(x any) any { return sortKey(x.(tuple)[pos], truth(a[0])) }, truth(a[2]))
}

// selectFilter makes select, reject, selectattr and rejectattr.
func selectFilter(attr, want bool) filterFunc {
	return func(r *renderer, v any, args []any, kw *Dict) (any, error) {
		if kw.Len() > 0 {
			return nil, errorText("select filters take no keyword arguments")
		}
		items, err := iterValues(v)
		if err != nil {
			return nil, err
		}
		get := func(x any) (any, error) { return x, nil }
		if attr {
			if len(args) == 0 {
				return nil, errorText("Missing parameter for attribute name")
			}
			if get, err = r.attrGetter(args[0]); err != nil {
				return nil, err
			}
			args = args[1:]
		}
		test := func(x any) (bool, error) { return truth(x), nil }
		if len(args) > 0 {
			name, ok := args[0].(string)
			t := tests[name]
			if !ok || t == nil {
				return nil, errorText(fmt.Sprintf("the test %s is not supported", repr(args[0])))
			}
			targs := args[1:]
			test = func(x any) (bool, error) { return t(r, x, targs, NewDict()) }
		}
		out := []any{}
		for _, x := range items {
			val, err := get(x)
			if err != nil {
				return nil, err
			}
			ok, err := test(val)
			if err != nil {
				return nil, err
			}
			if ok == want {
				out = append(out, x)
			}
		}
		return out, nil
	}
}

func fMap(r *renderer, v any, args []any, kw *Dict) (any, error) {
	items, err := iterValues(v)
	if err != nil {
		return nil, err
	}
	if attr, ok := kw.Get("attribute"); ok {
		def, _ := kw.Get("default")
		return r.mapAttr(items, attr, def)
	}
	if len(args) == 0 {
		return nil, errorText("map requires a filter argument")
	}
	name, ok := args[0].(string)
	fn := filters[name]
	if !ok || fn == nil {
		return nil, errorText(fmt.Sprintf("the filter %s is not supported", repr(args[0])))
	}
	out := make([]any, len(items))
	for i, x := range items {
		if out[i], err = fn(r, x, args[1:], kw); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func fIndent(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	a, err := argsOf("indent", args, kw, "width", "first", "blank")
	if err != nil {
		return nil, err
	}
	ind := "    "
	switch w := a[0].(type) {
	case nil:
	case string:
		ind = w
	default:
		n, ok := asInt(w)
		if !ok {
			return nil, errorText("indent width must be an integer or a string")
		}
		ind = strings.Repeat(" ", int(max(0, min(n, 1024))))
	}
	lines := splitLines(str(v) + "\n")
	var out string
	if truth(a[2]) {
		out = strings.Join(lines, "\n"+ind)
	} else {
		out = lines[0]
		for _, l := range lines[1:] {
			if l != "" {
				l = ind + l
			}
			out += "\n" + l
		}
	}
	if truth(a[1]) {
		out = ind + out
	}
	return out, nil
}

var wordRE = regexp.MustCompile(`[\p{L}\p{N}_]+`)

func fWordcount(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	return int64(len(wordRE.FindAllString(str(v), -1))), nil
}

func fBatch(_ *renderer, v any, args []any, kw *Dict) (any, error) {
	a, err := argsOf("batch", args, kw, "linecount", "fill_with")
	if err != nil {
		return nil, err
	}
	n, ok := asInt(a[0])
	if !ok || n <= 0 {
		return nil, errorText("batch needs a positive line count")
	}
	items, err := iterValues(v)
	if err != nil {
		return nil, err
	}
	out := []any{}
	for i := 0; i < len(items); i += int(n) {
		row := append([]any{}, items[i:min(len(items), i+int(n))]...)
		if _, ok := kw.Get("fill_with"); ok || len(args) > 1 {
			for int64(len(row)) < n {
				row = append(row, a[1])
			}
		}
		out = append(out, row)
	}
	return out, nil
}

func fSum(r *renderer, v any, args []any, kw *Dict) (any, error) {
	a, err := argsOf("sum", args, kw, "attribute", "start")
	if err != nil {
		return nil, err
	}
	_, items, err := r.attrItems(v, a[0])
	if err != nil {
		return nil, err
	}
	var acc any = int64(0)
	if a[1] != nil {
		acc = a[1]
	}
	for _, x := range items {
		if acc, err = arith("+", acc, x); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

func minMax(sign int) filterFunc {
	name := "min"
	if sign > 0 {
		name = "max"
	}
	return func(r *renderer, v any, args []any, kw *Dict) (any, error) {
		a, err := argsOf(name, args, kw, "case_sensitive", "attribute")
		if err != nil {
			return nil, err
		}
		items, keys, err := r.attrItems(v, a[1])
		if err != nil {
			return nil, err
		}
		if len(items) == 0 {
			return &undefined{hint: "No aggregated item, sequence was empty."}, nil
		}
		best := 0
		for i := 1; i < len(items); i++ {
			c, ok := compare(sortKey(keys[i], truth(a[0])), sortKey(keys[best], truth(a[0])))
			if !ok {
				return nil, errorText("'<' not supported between instances of '" + typeName(keys[i]) + "' and '" + typeName(keys[best]) + "'")
			}
			if c*sign > 0 {
				best = i
			}
		}
		return items[best], nil
	}
}

func fAttr(r *renderer, v any, args []any, kw *Dict) (any, error) {
	a, err := argsOf("attr", args, kw, "name")
	if err != nil {
		return nil, err
	}
	name, ok := a[0].(string)
	if !ok {
		return nil, errorText("attribute name must be a string")
	}
	if m := method(v, name); m != nil {
		return m, nil
	}
	if n, ok := v.(*namespace); ok {
		if x, ok := n.attrs.Get(name); ok {
			return x, nil
		}
	}
	return &undefined{hint: "'" + objName(v) + "' has no attribute '" + name + "'"}, nil
}

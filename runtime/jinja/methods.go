package jinja

import (
	"fmt"
	"strings"
	"unicode"
)

// mutators are the methods jinja2's ImmutableSandboxedEnvironment
// refuses: attribute access gives an undefined that fails when called.
var mutators = map[string]map[string]bool{
	"list": {"append": true, "extend": true, "insert": true, "pop": true, "remove": true, "reverse": true, "sort": true, "clear": true},
	"dict": {"pop": true, "popitem": true, "setdefault": true, "update": true, "clear": true},
}

// method returns obj's method name bound to obj, an unsafe undefined for
// a refused one, or nil.
func method(obj any, name string) any {
	tn := typeName(obj)
	if mutators[tn][name] {
		return &undefined{unsafe: fmt.Sprintf("access to attribute '%s' of '%s' object is unsafe.", name, tn)}
	}
	var fn func(args []any, kw *Dict) (any, error)
	switch o := obj.(type) {
	case string:
		fn = strMethod(o, name)
	case *Dict:
		fn = dictMethod(o, name)
	case []any:
		fn = listMethod(o, name)
	}
	if fn == nil {
		return nil
	}
	return &callable{name: tn + "." + name, fn: func(_ *renderer, args []any, kw *Dict) (any, error) {
		return fn(args, kw)
	}}
}

// argsOf binds positional and keyword arguments to names, as Python binds
// a call to a signature; absent ones are nil.
func argsOf(fname string, args []any, kw *Dict, names ...string) ([]any, error) {
	if len(args) > len(names) {
		return nil, errorText(fmt.Sprintf("%s() takes at most %d arguments (%d given)", fname, len(names), len(args)))
	}
	out := make([]any, len(names))
	copy(out, args)
	for i, k := range kw.Keys() {
		ks, _ := k.(string)
		j := -1
		for n, name := range names {
			if name == ks {
				j = n
			}
		}
		if j < 0 {
			return nil, errorText(fmt.Sprintf("%s() got an unexpected keyword argument '%s'", fname, ks))
		}
		if j < len(args) {
			return nil, errorText(fmt.Sprintf("%s() got multiple values for argument '%s'", fname, ks))
		}
		out[j] = kw.vals[i]
	}
	return out, nil
}

func optString(fname string, v any) (string, bool, error) {
	switch v := v.(type) {
	case nil:
		return "", false, nil
	case string:
		return v, true, nil
	}
	return "", false, errorText(fmt.Sprintf("%s arg must be None or str", fname))
}

func stripFunc(chars string, has bool) func(rune) bool {
	if !has {
		return isPySpace
	}
	return func(r rune) bool { return strings.ContainsRune(chars, r) }
}

func strMethod(s, name string) func(args []any, kw *Dict) (any, error) {
	switch name {
	case "strip", "lstrip", "rstrip":
		return func(args []any, kw *Dict) (any, error) {
			a, err := argsOf(name, args, kw, "chars")
			if err != nil {
				return nil, err
			}
			chars, has, err := optString(name, a[0])
			if err != nil {
				return nil, err
			}
			f := stripFunc(chars, has)
			switch name {
			case "strip":
				return strings.TrimFunc(s, f), nil
			case "lstrip":
				return strings.TrimLeftFunc(s, f), nil
			}
			return strings.TrimRightFunc(s, f), nil
		}
	case "split", "rsplit":
		return func(args []any, kw *Dict) (any, error) {
			a, err := argsOf(name, args, kw, "sep", "maxsplit")
			if err != nil {
				return nil, err
			}
			sep, has, err := optString(name, a[0])
			if err != nil {
				return nil, err
			}
			maxsplit := int64(-1)
			if a[1] != nil {
				m, ok := asInt(a[1])
				if !ok {
					return nil, errorText("maxsplit must be an integer")
				}
				maxsplit = m
			}
			if has && sep == "" {
				return nil, errorText("empty separator")
			}
			return toList(pySplit(s, sep, has, maxsplit, name == "rsplit")), nil
		}
	case "startswith", "endswith":
		return func(args []any, kw *Dict) (any, error) {
			a, err := argsOf(name, args, kw, "prefix")
			if err != nil {
				return nil, err
			}
			var cands []any
			switch p := a[0].(type) {
			case string:
				cands = []any{p}
			case tuple:
				cands = p
			default:
				return nil, errorText(name + " first arg must be str or a tuple of str, not " + typeName(a[0]))
			}
			for _, c := range cands {
				cs, ok := c.(string)
				if !ok {
					return nil, errorText("tuple for " + name + " must only contain str")
				}
				if name == "startswith" && strings.HasPrefix(s, cs) || name == "endswith" && strings.HasSuffix(s, cs) {
					return true, nil
				}
			}
			return false, nil
		}
	case "upper", "lower", "title", "capitalize", "isdigit", "isalpha", "isspace", "isupper", "islower", "splitlines":
		return func(args []any, kw *Dict) (any, error) {
			if _, err := argsOf(name, args, kw); err != nil {
				return nil, err
			}
			switch name {
			case "upper":
				return strings.ToUpper(s), nil
			case "lower":
				return strings.ToLower(s), nil
			case "title":
				return pyTitle(s), nil
			case "capitalize":
				return capitalize(s), nil
			case "splitlines":
				return toList(splitLines(s)), nil
			}
			return strPredicate(s, name), nil
		}
	case "replace":
		return func(args []any, kw *Dict) (any, error) {
			a, err := argsOf(name, args, kw, "old", "new", "count")
			if err != nil {
				return nil, err
			}
			return replace(s, a[0], a[1], a[2])
		}
	case "find", "rfind", "count":
		return func(args []any, kw *Dict) (any, error) {
			a, err := argsOf(name, args, kw, "sub")
			if err != nil {
				return nil, err
			}
			sub, ok := a[0].(string)
			if !ok {
				return nil, errorText("must be str, not " + typeName(a[0]))
			}
			var i int
			switch name {
			case "find":
				i = strings.Index(s, sub)
			case "rfind":
				i = strings.LastIndex(s, sub)
			default:
				return int64(strings.Count(s, sub)), nil
			}
			if i < 0 {
				return int64(-1), nil
			}
			return int64(len([]rune(s[:i]))), nil
		}
	case "join":
		return func(args []any, kw *Dict) (any, error) {
			a, err := argsOf(name, args, kw, "iterable")
			if err != nil {
				return nil, err
			}
			items, err := iterValues(a[0])
			if err != nil {
				return nil, err
			}
			parts := make([]string, len(items))
			for i, x := range items {
				xs, ok := x.(string)
				if !ok {
					return nil, errorText(fmt.Sprintf("sequence item %d: expected str instance, %s found", i, typeName(x)))
				}
				parts[i] = xs
			}
			return strings.Join(parts, s), nil
		}
	}
	return nil
}

func strPredicate(s, name string) bool {
	if s == "" {
		return false
	}
	cased := false
	for _, r := range s {
		switch name {
		case "isdigit":
			if !unicode.IsDigit(r) {
				return false
			}
		case "isalpha":
			if !unicode.IsLetter(r) {
				return false
			}
		case "isspace":
			if !isPySpace(r) {
				return false
			}
		case "isupper":
			if unicode.IsLower(r) {
				return false
			}
			cased = cased || unicode.IsUpper(r)
		case "islower":
			if unicode.IsUpper(r) {
				return false
			}
			cased = cased || unicode.IsLower(r)
		}
	}
	if name == "isupper" || name == "islower" {
		return cased
	}
	return true
}

func replace(s string, oldV, newV, countV any) (any, error) {
	old, ok1 := oldV.(string)
	nw, ok2 := newV.(string)
	if !ok1 || !ok2 {
		return nil, errorText("replace() arguments must be str")
	}
	n := -1
	if countV != nil {
		c, ok := asInt(countV)
		if !ok {
			return nil, errorText("replace() count must be an integer")
		}
		if c >= 0 {
			n = int(min(c, 1<<30))
		}
	}
	if old == "" && n != 0 && int64(len(s)+1)*int64(len(nw)) > maxOutput {
		return nil, errorText("the string is too long")
	}
	return strings.Replace(s, old, nw, n), nil
}

func toList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// pySplit is Python's str.split and str.rsplit.
func pySplit(s, sep string, hasSep bool, maxsplit int64, fromRight bool) []string {
	if hasSep {
		if maxsplit < 0 {
			return strings.Split(s, sep)
		}
		if !fromRight {
			return strings.SplitN(s, sep, int(min(maxsplit, 1<<30))+1)
		}
		var out []string
		for int64(len(out)) < maxsplit {
			i := strings.LastIndex(s, sep)
			if i < 0 {
				break
			}
			out = append(out, s[i+len(sep):])
			s = s[:i]
		}
		out = append(out, s)
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
		return out
	}
	if fromRight {
		fields := strings.FieldsFunc(s, isPySpace)
		if maxsplit < 0 || int64(len(fields)) <= maxsplit+1 {
			return nonNil(fields)
		}
		// Keep the left part whole, as rsplit does.
		rest := strings.TrimRightFunc(s, isPySpace)
		var out []string
		for range maxsplit {
			i := strings.LastIndexFunc(rest, isPySpace)
			out = append([]string{rest[i+1:]}, out...)
			rest = strings.TrimRightFunc(rest[:i+1], isPySpace)
		}
		return append([]string{rest}, out...)
	}
	var out []string
	rest := strings.TrimLeftFunc(s, isPySpace)
	for rest != "" {
		if maxsplit >= 0 && int64(len(out)) == maxsplit {
			out = append(out, rest)
			break
		}
		i := strings.IndexFunc(rest, isPySpace)
		if i < 0 {
			out = append(out, rest)
			break
		}
		out = append(out, rest[:i])
		rest = strings.TrimLeftFunc(rest[i:], isPySpace)
	}
	return nonNil(out)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// splitLines is Python's str.splitlines.
func splitLines(s string) []string {
	var out []string
	start := 0
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		switch rs[i] {
		case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			out = append(out, string(rs[start:i]))
			if rs[i] == '\r' && i+1 < len(rs) && rs[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	if start < len(rs) {
		out = append(out, string(rs[start:]))
	}
	return out
}

// pyTitle is Python's str.title: a letter after a letter is lowered, any
// other letter raised.
func pyTitle(s string) string {
	var b strings.Builder
	prev := false
	for _, r := range s {
		cased := unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r)
		if cased {
			if prev {
				r = unicode.ToLower(r)
			} else {
				r = unicode.ToTitle(r)
			}
		}
		prev = cased
		b.WriteRune(r)
	}
	return b.String()
}

func capitalize(s string) string {
	rs := []rune(s)
	if len(rs) == 0 {
		return s
	}
	return string(unicode.ToTitle(rs[0])) + strings.ToLower(string(rs[1:]))
}

func dictMethod(d *Dict, name string) func(args []any, kw *Dict) (any, error) {
	switch name {
	case "items", "keys", "values", "copy":
		return func(args []any, kw *Dict) (any, error) {
			if _, err := argsOf(name, args, kw); err != nil {
				return nil, err
			}
			out := make([]any, d.Len())
			for i, k := range d.keys {
				switch name {
				case "items":
					out[i] = tuple{k, d.vals[i]}
				case "keys":
					out[i] = k
				case "values":
					out[i] = d.vals[i]
				}
			}
			if name == "copy" {
				c := NewDict()
				for i, k := range d.keys {
					c.Set(k, d.vals[i])
				}
				return c, nil
			}
			return out, nil
		}
	case "get":
		return func(args []any, kw *Dict) (any, error) {
			if kw.Len() > 0 {
				return nil, errorText("get() takes no keyword arguments")
			}
			if len(args) < 1 || len(args) > 2 {
				return nil, errorText(fmt.Sprintf("get expected 1 or 2 arguments, got %d", len(args)))
			}
			switch args[0].(type) {
			case []any, *Dict:
				return nil, errorText("unhashable type: '" + typeName(args[0]) + "'")
			}
			if v, ok := d.Get(args[0]); ok {
				return v, nil
			}
			if len(args) == 2 {
				return args[1], nil
			}
			return nil, nil
		}
	}
	return nil
}

func listMethod(l []any, name string) func(args []any, kw *Dict) (any, error) {
	switch name {
	case "index", "count":
		return func(args []any, kw *Dict) (any, error) {
			a, err := argsOf(name, args, kw, "value")
			if err != nil {
				return nil, err
			}
			n := int64(0)
			for i, x := range l {
				if equal(x, a[0]) {
					if name == "index" {
						return int64(i), nil
					}
					n++
				}
			}
			if name == "index" {
				return nil, errorText(repr(a[0]) + " is not in list")
			}
			return n, nil
		}
	}
	return nil
}

// iterValues lists what Python's iter(v) yields.
func iterValues(v any) ([]any, error) {
	switch v := v.(type) {
	case []any:
		return v, nil
	case tuple:
		return v, nil
	case string:
		var out []any
		for _, c := range v {
			out = append(out, string(c))
		}
		return out, nil
	case *Dict:
		return append([]any(nil), v.keys...), nil
	case *undefined:
		if v.unsafe != "" {
			return nil, errorText(v.unsafe)
		}
		return nil, nil
	case rangeValue:
		return v.items(), nil
	}
	return nil, errorText("'" + typeName(v) + "' object is not iterable")
}

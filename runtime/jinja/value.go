package jinja

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Dict is a dictionary that keeps its keys in insertion order, as a
// Python dict does: iteration, items(), tojson and printing follow that
// order. Keys are strings, int64s, float64s, bools or nil.
type Dict struct {
	keys []any
	vals []any
	idx  map[any]int
}

// NewDict returns an empty Dict.
func NewDict() *Dict { return &Dict{idx: map[any]int{}} }

// Set adds key, or replaces its value keeping its place.
func (d *Dict) Set(key, val any) {
	k := hashKey(key)
	if i, ok := d.idx[k]; ok {
		d.vals[i] = val
		return
	}
	d.idx[k] = len(d.keys)
	d.keys = append(d.keys, key)
	d.vals = append(d.vals, val)
}

// Get returns the value of key and whether it is present.
func (d *Dict) Get(key any) (any, bool) {
	if d == nil {
		return nil, false
	}
	i, ok := d.idx[hashKey(key)]
	if !ok {
		return nil, false
	}
	return d.vals[i], true
}

// Len returns the number of keys.
func (d *Dict) Len() int {
	if d == nil {
		return 0
	}
	return len(d.keys)
}

// Keys returns the keys in insertion order.
func (d *Dict) Keys() []any { return d.keys }

// hashKey makes keys Python considers equal the same map key: 1, 1.0 and
// True are one key.
func hashKey(k any) any {
	switch k := k.(type) {
	case bool:
		if k {
			return int64(1)
		}
		return int64(0)
	case float64:
		if k == math.Trunc(k) && math.Abs(k) < 1<<62 {
			return int64(k)
		}
	case int:
		return int64(k)
	}
	return k
}

// tuple is a Python tuple: what items() yields and (a, b) builds.
type tuple []any

// undefined is jinja2's default Undefined: empty when printed, false,
// empty when iterated, an error when used any other way.
type undefined struct {
	hint string // jinja2's message: "'x' is undefined"
	// unsafe holds the SecurityError message for a refused attribute
	// (a mutating method of the immutable sandbox); calling it fails so.
	unsafe string
}

func (u *undefined) err() string {
	if u.unsafe != "" {
		return u.unsafe
	}
	return u.hint
}

// namespace is the object namespace(...) returns: the one value a
// template may assign attributes of.
type namespace struct{ attrs *Dict }

// callable is a global function, a method bound to its value, or a
// macro: positional and keyword arguments in, a value out.
type callable struct {
	name string
	fn   func(r *renderer, args []any, kw *Dict) (any, error)
}

// rangeValue is what range() returns; it prints as Python's range does.
type rangeValue struct{ start, stop, step int64 }

func (r rangeValue) items() []any {
	var out []any
	for i := r.start; (r.step > 0 && i < r.stop) || (r.step < 0 && i > r.stop); i += r.step {
		out = append(out, i)
	}
	return out
}

// normalize turns Go input values into the package's value types.
func normalize(v any) any {
	switch v := v.(type) {
	case int:
		return int64(v)
	case int32:
		return int64(v)
	case float32:
		return float64(v)
	case []string:
		out := make([]any, len(v))
		for i, s := range v {
			out[i] = s
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normalize(x)
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		d := NewDict()
		for _, k := range keys {
			d.Set(k, normalize(v[k]))
		}
		return d
	case []map[string]any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normalize(x)
		}
		return out
	case *Dict:
		if v == nil {
			return nil
		}
		d := NewDict()
		for i, k := range v.keys {
			d.Set(k, normalize(v.vals[i]))
		}
		return d
	}
	return v
}

// truth is Python's bool().
func truth(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case int64:
		return v != 0
	case float64:
		return v != 0
	case string:
		return v != ""
	case []any:
		return len(v) > 0
	case tuple:
		return len(v) > 0
	case *Dict:
		return v.Len() > 0
	case *undefined:
		return false
	case rangeValue:
		return len(v.items()) > 0
	}
	return true
}

// typeName is Python's type(v).__name__, for messages.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case int64:
		return "int"
	case float64:
		return "float"
	case string:
		return "str"
	case []any:
		return "list"
	case tuple:
		return "tuple"
	case *Dict:
		return "dict"
	case *undefined:
		return "Undefined"
	case *namespace:
		return "Namespace"
	case *callable:
		return "function"
	case *loopInfo:
		return "LoopContext"
	case rangeValue:
		return "range"
	}
	return fmt.Sprintf("%T", v)
}

// str is Python's str(), as {{ }} prints a value.
func str(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case *undefined:
		return ""
	}
	var b strings.Builder
	writeRepr(&b, v, false)
	return b.String()
}

// repr is Python's repr().
func repr(v any) string {
	var b strings.Builder
	writeRepr(&b, v, true)
	return b.String()
}

func writeRepr(b *strings.Builder, v any, quote bool) {
	switch v := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if v {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		b.WriteString(formatFloat(v))
	case string:
		if quote {
			b.WriteString(quoteString(v))
		} else {
			b.WriteString(v)
		}
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, x, true)
		}
		b.WriteByte(']')
	case tuple:
		b.WriteByte('(')
		for i, x := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, x, true)
		}
		if len(v) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case *Dict:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, k, true)
			b.WriteString(": ")
			writeRepr(b, v.vals[i], true)
		}
		b.WriteByte('}')
	case *undefined:
		if !quote {
			return
		}
		b.WriteString("Undefined")
	case *namespace:
		b.WriteString("<Namespace ")
		writeRepr(b, v.attrs, true)
		b.WriteByte('>')
	case rangeValue:
		if v.step == 1 {
			fmt.Fprintf(b, "range(%d, %d)", v.start, v.stop)
		} else {
			fmt.Fprintf(b, "range(%d, %d, %d)", v.start, v.stop, v.step)
		}
	case *callable:
		fmt.Fprintf(b, "<function %s>", v.name)
	case *loopInfo:
		fmt.Fprintf(b, "<LoopContext %d/%d>", v.index+1, len(v.items))
	default:
		fmt.Fprintf(b, "%v", v)
	}
}

// formatFloat is Python's repr of a float: the shortest digits that read
// back, in positional form for exponents -4 to 15 and with ".0" when
// integral, otherwise as d.ddde+XX.
func formatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expS, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expS)
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	digits := strings.Replace(mant, ".", "", 1)
	sign := ""
	if neg {
		sign = "-"
	}
	if exp < -4 || exp >= 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := "+"
		if exp < 0 {
			es = "-"
			exp = -exp
		}
		return fmt.Sprintf("%s%se%s%02d", sign, m, es, exp)
	}
	if exp < 0 {
		return sign + "0." + strings.Repeat("0", -exp-1) + digits
	}
	if len(digits) <= exp+1 {
		return sign + digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	}
	return sign + digits[:exp+1] + "." + digits[exp+1:]
}

// quoteString is Python's repr of a str.
func quoteString(s string) string {
	q := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r == utf8.RuneError:
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// asFloat reads a number (bool, int or float) as a float.
func asFloat(v any) (float64, bool) {
	switch v := v.(type) {
	case bool:
		if v {
			return 1, true
		}
		return 0, true
	case int64:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

// asInt reads a bool or int as an int.
func asInt(v any) (int64, bool) {
	switch v := v.(type) {
	case bool:
		if v {
			return 1, true
		}
		return 0, true
	case int64:
		return v, true
	}
	return 0, false
}

func isNumber(v any) bool {
	_, ok := asFloat(v)
	return ok
}

// equal is Python's ==.
func equal(a, b any) bool {
	if isNumber(a) && isNumber(b) {
		ai, aok := asInt(a)
		bi, bok := asInt(b)
		if aok && bok {
			return ai == bi
		}
		af, _ := asFloat(a)
		bf, _ := asFloat(b)
		return af == bf
	}
	switch a := a.(type) {
	case nil:
		return b == nil
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case []any:
		bl, ok := b.([]any)
		return ok && equalSeq(a, bl)
	case tuple:
		bl, ok := b.(tuple)
		return ok && equalSeq(a, bl)
	case *Dict:
		bd, ok := b.(*Dict)
		if !ok || a.Len() != bd.Len() {
			return false
		}
		for i, k := range a.keys {
			bv, ok := bd.Get(k)
			if !ok || !equal(a.vals[i], bv) {
				return false
			}
		}
		return true
	case *undefined:
		_, ok := b.(*undefined)
		return ok
	case rangeValue:
		br, ok := b.(rangeValue)
		return ok && equalSeq(a.items(), br.items())
	}
	return a == b
}

func equalSeq(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// compare is Python's ordering of two values: -1, 0 or 1, or false when
// Python refuses to order them.
func compare(a, b any) (int, bool) {
	if isNumber(a) && isNumber(b) {
		ai, aok := asInt(a)
		bi, bok := asInt(b)
		if aok && bok {
			return cmp3(ai < bi, ai > bi), true
		}
		af, _ := asFloat(a)
		bf, _ := asFloat(b)
		return cmp3(af < bf, af > bf), true
	}
	switch a := a.(type) {
	case string:
		if bs, ok := b.(string); ok {
			return strings.Compare(a, bs), true
		}
	case []any:
		if bl, ok := b.([]any); ok {
			return compareSeq(a, bl)
		}
	case tuple:
		if bl, ok := b.(tuple); ok {
			return compareSeq(a, bl)
		}
	}
	return 0, false
}

func compareSeq(a, b []any) (int, bool) {
	for i := 0; i < len(a) && i < len(b); i++ {
		if equal(a[i], b[i]) {
			continue
		}
		return compare(a[i], b[i])
	}
	return cmp3(len(a) < len(b), len(a) > len(b)), true
}

func cmp3(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

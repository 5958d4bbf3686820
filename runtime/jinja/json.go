package jinja

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
)

// jsonOpts are the arguments of Python's json.dumps that tojson passes.
type jsonOpts struct {
	ensureASCII, sortKeys bool
	indent                string
	hasIndent             bool
	itemSep, keySep       string
}

// writeJSON is Python's json.dumps.
func writeJSON(b *strings.Builder, v any, o jsonOpts, depth int) error {
	if depth > maxDepth {
		return errorText("the value is nested too deeply for tojson")
	}
	newline := func(d int) {
		if o.hasIndent {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat(o.indent, d))
		}
	}
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		switch {
		case math.IsNaN(v):
			b.WriteString("NaN")
		case math.IsInf(v, 1):
			b.WriteString("Infinity")
		case math.IsInf(v, -1):
			b.WriteString("-Infinity")
		default:
			b.WriteString(formatFloat(v))
		}
	case string:
		writeJSONString(b, v, o.ensureASCII)
	case []any, tuple, rangeValue:
		var items []any
		switch v := v.(type) {
		case []any:
			items = v
		case tuple:
			items = v
		case rangeValue:
			return errorText("Object of type range is not JSON serializable")
		}
		if len(items) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteByte('[')
		for i, x := range items {
			if i > 0 {
				b.WriteString(o.itemSep)
			}
			newline(depth + 1)
			if err := writeJSON(b, x, o, depth+1); err != nil {
				return err
			}
		}
		newline(depth)
		b.WriteByte(']')
	case *Dict:
		if v.Len() == 0 {
			b.WriteString("{}")
			return nil
		}
		type kv struct {
			k string
			v any
		}
		items := make([]kv, v.Len())
		for i, k := range v.keys {
			var ks string
			switch k := k.(type) {
			case string:
				ks = k
			case nil:
				ks = "null"
			case bool:
				ks = map[bool]string{true: "true", false: "false"}[k]
			case int64:
				ks = strconv.FormatInt(k, 10)
			case float64:
				ks = formatFloat(k)
			default:
				return errorText("keys must be str, int, float, bool or None, not " + typeName(k))
			}
			items[i] = kv{ks, v.vals[i]}
		}
		if o.sortKeys {
			sort.SliceStable(items, func(i, j int) bool { return items[i].k < items[j].k })
		}
		b.WriteByte('{')
		for i, it := range items {
			if i > 0 {
				b.WriteString(o.itemSep)
			}
			newline(depth + 1)
			writeJSONString(b, it.k, o.ensureASCII)
			b.WriteString(o.keySep)
			if err := writeJSON(b, it.v, o, depth+1); err != nil {
				return err
			}
		}
		newline(depth)
		b.WriteByte('}')
	default:
		if u, ok := v.(*undefined); ok && u.unsafe != "" {
			return errorText(u.unsafe)
		}
		return errorText(fmt.Sprintf("Object of type %s is not JSON serializable", typeName(v)))
	}
	return nil
}

func writeJSONString(b *strings.Builder, s string, ascii bool) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r < 0x20 || ascii && r == 0x7f:
				fmt.Fprintf(b, `\u%04x`, r)
			case ascii && r > 0x7f:
				if r > 0xffff {
					r1, r2 := utf16.EncodeRune(r)
					fmt.Fprintf(b, `\u%04x\u%04x`, r1, r2)
				} else {
					fmt.Fprintf(b, `\u%04x`, r)
				}
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// DecodeJSON decodes JSON into the values Render takes, objects as
// *Dict in the order their keys are written, integers as int64 and other
// numbers as float64, as Python's json.loads reads them.
func DecodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("jinja: trailing data after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("jinja: JSON nested more than %d deep", maxDepth)
	}
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		switch t {
		case '[':
			out := []any{}
			for dec.More() {
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			_, err := dec.Token()
			return out, err
		case '{':
			d := NewDict()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				d.Set(kt.(string), v)
			}
			_, err := dec.Token()
			return d, err
		}
		return nil, fmt.Errorf("jinja: unexpected %v in JSON", t)
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return i, nil
		}
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !strings.Contains(err.Error(), "range") {
			return nil, err
		}
		return f, nil
	}
	return t, nil
}

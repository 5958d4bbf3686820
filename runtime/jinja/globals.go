package jinja

import (
	"fmt"
	"strings"
	"time"
)

// maxRange is jinja2's sandbox limit on range().
const maxRange = 100000

func (r *renderer) global(name string) any {
	switch name {
	case "range":
		return &callable{name: name, fn: builtinRange}
	case "namespace":
		return &callable{name: name, fn: func(_ *renderer, args []any, kw *Dict) (any, error) {
			d := NewDict()
			for _, a := range args {
				ad, ok := a.(*Dict)
				if !ok {
					return nil, errorText("namespace() takes a dict or keyword arguments")
				}
				for i, k := range ad.keys {
					d.Set(k, ad.vals[i])
				}
			}
			for i, k := range kw.keys {
				d.Set(k, kw.vals[i])
			}
			return &namespace{attrs: d}, nil
		}}
	case "dict":
		return &callable{name: name, fn: func(_ *renderer, args []any, kw *Dict) (any, error) {
			if len(args) > 0 {
				return nil, errorText("dict() with positional arguments is not supported")
			}
			d := NewDict()
			for i, k := range kw.keys {
				d.Set(k, kw.vals[i])
			}
			return d, nil
		}}
	case "raise_exception":
		return &callable{name: name, fn: func(_ *renderer, args []any, kw *Dict) (any, error) {
			a, err := argsOf(name, args, kw, "message")
			if err != nil {
				return nil, err
			}
			return nil, &Exception{Msg: str(a[0])}
		}}
	case "strftime_now":
		return &callable{name: name, fn: func(r *renderer, args []any, kw *Dict) (any, error) {
			a, err := argsOf(name, args, kw, "format")
			if err != nil {
				return nil, err
			}
			f, ok := a[0].(string)
			if !ok {
				return nil, errorText("strftime() argument 1 must be str, not " + typeName(a[0]))
			}
			return strftime(r.now, f)
		}}
	}
	return nil
}

func builtinRange(_ *renderer, args []any, kw *Dict) (any, error) {
	if kw.Len() > 0 {
		return nil, errorText("range() takes no keyword arguments")
	}
	var n [3]int64
	for i, a := range args {
		if i >= 3 {
			return nil, errorText(fmt.Sprintf("range expected at most 3 arguments, got %d", len(args)))
		}
		v, ok := asInt(a)
		if !ok {
			return nil, errorText("'" + typeName(a) + "' object cannot be interpreted as an integer")
		}
		n[i] = v
	}
	rv := rangeValue{step: 1}
	switch len(args) {
	case 0:
		return nil, errorText("range expected at least 1 argument, got 0")
	case 1:
		rv.stop = n[0]
	case 2:
		rv.start, rv.stop = n[0], n[1]
	case 3:
		rv.start, rv.stop, rv.step = n[0], n[1], n[2]
	}
	if rv.step == 0 {
		return nil, errorText("range() arg 3 must not be zero")
	}
	var count int64
	if rv.step > 0 && rv.stop > rv.start {
		count = (rv.stop - rv.start + rv.step - 1) / rv.step
	} else if rv.step < 0 && rv.stop < rv.start {
		count = (rv.start - rv.stop - rv.step - 1) / -rv.step
	}
	if count > maxRange || count < 0 {
		return nil, errorText(fmt.Sprintf("Range too big. The sandbox blocks ranges larger than MAX_RANGE (%d).", maxRange))
	}
	return rv, nil
}

// strftime is Python's time.strftime for the directives chat templates
// use.
func strftime(t time.Time, f string) (any, error) {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'Y':
			fmt.Fprintf(&b, "%d", t.Year())
		case 'y':
			fmt.Fprintf(&b, "%02d", t.Year()%100)
		case 'm':
			fmt.Fprintf(&b, "%02d", int(t.Month()))
		case 'd':
			fmt.Fprintf(&b, "%02d", t.Day())
		case 'e':
			fmt.Fprintf(&b, "%2d", t.Day())
		case 'j':
			fmt.Fprintf(&b, "%03d", t.YearDay())
		case 'H':
			fmt.Fprintf(&b, "%02d", t.Hour())
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			fmt.Fprintf(&b, "%02d", h)
		case 'M':
			fmt.Fprintf(&b, "%02d", t.Minute())
		case 'S':
			fmt.Fprintf(&b, "%02d", t.Second())
		case 'p':
			if t.Hour() < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'b', 'h':
			b.WriteString(t.Month().String()[:3])
		case 'B':
			b.WriteString(t.Month().String())
		case 'a':
			b.WriteString(t.Weekday().String()[:3])
		case 'A':
			b.WriteString(t.Weekday().String())
		case 'w':
			fmt.Fprintf(&b, "%d", int(t.Weekday()))
		case '%':
			b.WriteByte('%')
		default:
			return nil, errorText(fmt.Sprintf("the strftime directive %%%c is not supported", f[i]))
		}
	}
	return b.String(), nil
}

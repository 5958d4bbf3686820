package jinja

type testFunc func(r *renderer, v any, args []any, kw *Dict) (bool, error)

// tests is jinja2's test table.
var tests map[string]testFunc

func init() {
	cmp := func(op string) testFunc {
		return func(r *renderer, v any, args []any, kw *Dict) (bool, error) {
			a, err := argsOf(op, args, kw, "other")
			if err != nil {
				return false, err
			}
			return r.compareOp(op, v, a[0], 0)
		}
	}
	is := func(fn func(v any) bool) testFunc {
		return func(_ *renderer, v any, args []any, kw *Dict) (bool, error) {
			if _, err := argsOf("test", args, kw); err != nil {
				return false, err
			}
			return fn(v), nil
		}
	}
	intArg := func(fn func(v, n int64) bool, name string) testFunc {
		return func(_ *renderer, v any, args []any, kw *Dict) (bool, error) {
			a, err := argsOf(name, args, kw, "num")
			if err != nil {
				return false, err
			}
			n, ok := asInt(v)
			if name == "divisibleby" {
				m, ok2 := asInt(a[0])
				if !ok || !ok2 {
					return false, errorText("divisibleby needs integers")
				}
				if m == 0 {
					return false, errorText("integer division or modulo by zero")
				}
				return fn(n, m), nil
			}
			if !ok {
				return false, errorText("not all arguments converted during string formatting")
			}
			return fn(n, 0), nil
		}
	}
	tests = map[string]testFunc{
		"defined":   is(func(v any) bool { _, u := v.(*undefined); return !u }),
		"undefined": is(func(v any) bool { _, u := v.(*undefined); return u }),
		"none":      is(func(v any) bool { return v == nil }),
		"boolean":   is(func(v any) bool { _, ok := v.(bool); return ok }),
		"false":     is(func(v any) bool { return v == false }),
		"true":      is(func(v any) bool { return v == true }),
		"integer":   is(func(v any) bool { _, ok := v.(int64); return ok }),
		"float":     is(func(v any) bool { _, ok := v.(float64); return ok }),
		"number":    is(isNumber),
		"string":    is(func(v any) bool { _, ok := v.(string); return ok }),
		"mapping":   is(func(v any) bool { _, ok := v.(*Dict); return ok }),
		"callable":  is(func(v any) bool { _, ok := v.(*callable); return ok }),
		"iterable": is(func(v any) bool {
			switch v.(type) {
			case string, []any, tuple, *Dict, *undefined, rangeValue:
				return true
			}
			return false
		}),
		"sequence": is(func(v any) bool {
			switch v.(type) {
			case string, []any, tuple, *Dict, *undefined, rangeValue:
				return true
			}
			return false
		}),
		"lower": is(func(v any) bool {
			s, ok := v.(string)
			return ok && strPredicate(str(s), "islower") || !ok && strPredicate(str(v), "islower")
		}),
		"upper": is(func(v any) bool {
			s, ok := v.(string)
			return ok && strPredicate(str(s), "isupper") || !ok && strPredicate(str(v), "isupper")
		}),
		"odd":  intArg(func(v, _ int64) bool { return v%2 != 0 }, "odd"),
		"even": intArg(func(v, _ int64) bool { return v%2 == 0 }, "even"),
		"divisibleby": intArg(func(v, n int64) bool {
			m := v % n
			return m == 0
		}, "divisibleby"),
		"eq": cmp("=="), "equalto": cmp("=="), "==": cmp("=="),
		"ne": cmp("!="), "!=": cmp("!="),
		"lt": cmp("<"), "lessthan": cmp("<"), "<": cmp("<"),
		"le": cmp("<="), "<=": cmp("<="),
		"gt": cmp(">"), "greaterthan": cmp(">"), ">": cmp(">"),
		"ge": cmp(">="), ">=": cmp(">="),
		"in": cmp("in"),
		"sameas": func(_ *renderer, v any, args []any, kw *Dict) (bool, error) {
			a, err := argsOf("sameas", args, kw, "other")
			if err != nil {
				return false, err
			}
			switch v.(type) {
			case nil, bool:
				return v == a[0], nil
			}
			return false, nil
		},
		"filter": func(_ *renderer, v any, args []any, kw *Dict) (bool, error) {
			s, ok := v.(string)
			return ok && filters[s] != nil, nil
		},
		"test": func(_ *renderer, v any, args []any, kw *Dict) (bool, error) {
			s, ok := v.(string)
			return ok && tests[s] != nil, nil
		},
	}
}

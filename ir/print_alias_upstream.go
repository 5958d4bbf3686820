package ir

import "strings"

// Aliases that mlir-opt 19 gives to attributes and types of dialects it
// registers but rlx keeps opaque: the one place the core names dialects
// (see the package doc). MLIR asks each dialect for an alias name;
// with the dialect unregistered rlx cannot ask, so the names those
// dialects choose are listed here as data, to print what mlir-opt prints.
// A dialect's name wins over the builtin dialect's (MLIR's "final" versus
// "overridable" aliases).

// testStringAliases are the string attributes MLIR's test dialect aliases.
var testStringAliases = map[string]string{
	"alias_test:dot_in_name":         "test.alias",
	"alias_test:trailing_digit":      "test_alias0",
	"alias_test:prefixed_digit":      "0_test_alias",
	"alias_test:prefixed_symbol":     "%test",
	"alias_test:sanitize_conflict_a": "test_alias_conflict0",
	"alias_test:sanitize_conflict_b": "test_alias_conflict0_",
	"alias_test:tensor_encoding":     "test_encoding",
}

// upstreamAliasName returns the alias an upstream dialect gives sym, or "".
func upstreamAliasName(sym any) string {
	switch x := sym.(type) {
	case *StringAttr:
		if x.Type == nil {
			return testStringAliases[x.Value]
		}
	case *OpaqueAttr:
		if x.Dialect == "sparse_tensor" && strings.HasPrefix(x.Data, "encoding<") {
			return "sparse"
		}
	case *OpaqueType:
		if x.Dialect != "test" {
			return ""
		}
		switch {
		case x.Data == "int<unsigned, 8>":
			return "test_ui8"
		case strings.HasPrefix(x.Data, "test_rec<type_to_alias,"):
			return "testrec"
		case strings.HasPrefix(x.Data, "test_rec_alias<"):
			name, _, _ := strings.Cut(strings.TrimPrefix(x.Data, "test_rec_alias<"), ",")
			return strings.TrimSpace(name)
		}
	case *TupleType:
		// The test dialect aliases tuples of its simple type A.
		if len(x.Types) == 0 {
			return ""
		}
		for _, t := range x.Types {
			if o, ok := t.(*OpaqueType); !ok || o.Dialect != "test" || o.Data != "smpla" {
				return ""
			}
		}
		return "test_tuple"
	}
	return ""
}

package lit

import "testing"

func TestEvalBool(t *testing.T) {
	features := map[string]bool{"its-true": true, "under_score": true, "e=quals": true, "d1g1ts": true, "x86_64-linux": true}
	tests := []struct {
		expr string
		want bool
	}{
		{"true", true},
		{"false", false},
		{"its-true", true},
		{"missing", false},
		{"under_score", true},
		{"e=quals", true},
		{"!missing", true},
		{"!!its-true", true},
		{"its-true && d1g1ts", true},
		{"its-true && missing", false},
		{"missing || d1g1ts", true},
		{"missing || missing2", false},
		{"!(missing || its-true)", false},
		{"(missing || its-true) && !missing", true},
		{"missing || its-true && missing", false}, // && binds tighter
		{"{{its.+}}", true},
		{"{{its}}", false}, // a regex matches a whole feature
		{"x86_64-{{linux|darwin}}", true},
		{"{{x86.*}}-linux", true},
		{"{{nothing.*}}", false},
		{"{{t.ue}}", true}, // "true" is a feature
		{"  its-true  ", true},
	}
	for _, tt := range tests {
		got, err := EvalBool(tt.expr, features)
		if err != nil {
			t.Errorf("EvalBool(%q): %v", tt.expr, err)
			continue
		}
		if got != tt.want {
			t.Errorf("EvalBool(%q) = %v, want %v", tt.expr, got, tt.want)
		}
	}
}

func TestParseBoolErrors(t *testing.T) {
	for _, expr := range []string{
		"", "&&", "a &&", "|| a", "!", "(a", "a)", "a b", "()", "a & b", "a | b",
		"{{}}", "{{a", "{{[}}", "a\nb", "*", "a, b",
	} {
		if _, err := ParseBool(expr); err == nil {
			t.Errorf("ParseBool(%q) succeeded, want an error", expr)
		}
	}
}

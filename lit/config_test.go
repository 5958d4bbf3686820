package lit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseConfig(t *testing.T) {
	src := `# comment
import os
import lit.formats
from lit.llvm import llvm_config

config.name = "demo"  # trailing comment
config.test_format = lit.formats.ShTest(execute_external=False)
config.test_source_root = os.path.dirname(__file__)
config.suffixes = [".mlir",
                   ".test"]
config.excludes = ["Inputs"]
config.available_features.add("f1")
config.available_features.update(["f2", 'f3'])
config.substitutions.append(("%%foo", r"bar\1"))
config.environment["FOO"] = "bar"
config.pipefail = False
config.rlx_tools = ["rlx-opt", "filecheck"]

# rlx-lit: llvm-lit only below
this is not Python the Go lit would understand
`
	c, err := ParseConfig("/s/lit.cfg.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "demo" || c.PipeFail || c.SourceRoot != "/s" || c.Environment["FOO"] != "bar" {
		t.Errorf("got %+v", c)
	}
	if diff := cmp.Diff([]string{".mlir", ".test"}, c.Suffixes); diff != "" {
		t.Errorf("suffixes: %s", diff)
	}
	if diff := cmp.Diff(map[string]bool{"f1": true, "f2": true, "f3": true}, c.Features); diff != "" {
		t.Errorf("features: %s", diff)
	}
	if diff := cmp.Diff([]string{"rlx-opt", "filecheck"}, c.Tools); diff != "" {
		t.Errorf("tools: %s", diff)
	}
	if len(c.Substs) != 1 || c.Substs[0].Pattern != "%%foo" || c.Substs[0].Value != `bar\1` {
		t.Errorf("substitutions: %+v", c.Substs)
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`config.suffixes = [".t"]` + "\nconfig.name = name_from_variable", ":2: expected a string literal"},
		{`config.suffixes = [".t"]` + "\nif x:\n  pass", ":2: cannot understand"},
		{`config.suffixes = [".t"]` + "\nconfig.test_format = lit.formats.ShTest(True)", "internal shell"},
		{`config.suffixes = [".t"]` + "\nconfig.limit_to_features = []", "unsupported field"},
		{`config.suffixes = [".t"]` + "\nconfig.substitutions.append(('a',))", "pair"},
		{`config.name = "x"`, "config.suffixes is not set"},
	}
	for _, tt := range tests {
		_, err := ParseConfig("lit.cfg.py", []byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseConfig(%q) error = %v, want %q", tt.src, err, tt.want)
		}
	}
}

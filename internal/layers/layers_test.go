package layers

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/rlx-compiler/rlx"

// rule says which rlx packages the packages under a prefix may not import
// (prefixes of import paths, relative to the module).
type rule struct {
	pkg    string // a package path relative to the module, or a prefix ending in "/"
	forbid []string
	why    string
}

var rules = []rule{
	{"ir/", []string{"asm", "dialect", "target", "passes", "pipeline", "codegen", "runtime", "models", "tools", "optdriver"}, "ir knows no dialect, pass or tool"},
	{"ir", []string{"asm", "dialect", "target", "passes", "pipeline", "codegen", "runtime", "models", "tools", "optdriver"}, "ir knows no dialect, pass or tool"},
	{"asm", []string{"dialect", "target", "passes", "pipeline", "codegen", "runtime", "models", "tools", "optdriver"}, "the parser knows no dialect"},
	{"dialect/graph", []string{"dialect/mps", "dialect/thunk", "dialect/regionop", "target", "codegen", "runtime", "passes"}, "the graph dialect is target-neutral"},
	{"dialect/thunk", []string{"dialect/mps", "target"}, "sibling dialects do not import each other"},
	{"dialect/mps", []string{"dialect/thunk", "target"}, "sibling dialects do not import each other; capability is injected"},
	{"dialect/regionop", []string{"dialect/mps", "dialect/thunk", "dialect/graph", "target"}, "the shared region form knows no dialect that uses it"},
	{"dialect/fn", []string{"dialect/graph", "dialect/mps", "dialect/thunk", "target"}, "sibling dialects do not import each other"},
	{"target/", []string{"passes", "codegen", "runtime", "pipeline", "tools", "optdriver"}, "targets sit below passes and codegen"},
	{"target", []string{"passes", "codegen", "runtime", "pipeline", "tools", "optdriver"}, "targets sit below passes and codegen"},
	{"pipeline/", []string{"passes", "codegen", "tools", "optdriver"}, "the pass manager knows no concrete pass"},
	{"pipeline", []string{"passes", "codegen", "tools", "optdriver", "dialect"}, "the pass manager knows no concrete pass or dialect"},
	{"passes/", []string{"codegen", "tools", "optdriver"}, "passes know no translation or tool"},
	{"codegen/", []string{"tools", "optdriver"}, "translations know no tool"},
	{"runtime/", []string{"tools", "optdriver", "codegen/translation"}, "the runtime knows no tool"},
	{"", []string{"tools"}, "nothing imports a command"},
}

func forbidden(rel, imp string) (bool, string) {
	for _, r := range rules {
		match := rel == r.pkg || (strings.HasSuffix(r.pkg, "/") && strings.HasPrefix(rel, r.pkg)) || r.pkg == ""
		if !match {
			continue
		}
		for _, f := range r.forbid {
			if imp == f || strings.HasPrefix(imp, f+"/") {
				return true, r.why
			}
		}
	}
	return false, ""
}

func TestImports(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go files, or only test files
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		checked++
		for _, imp := range pkg.Imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			in := strings.TrimPrefix(imp, module+"/")
			if bad, why := forbidden(rel, in); bad {
				t.Errorf("%s imports %s: %s", rel, in, why)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("checked %d packages; the walk is broken", checked)
	}
}

// TestRulesBite checks that the rules reject what they exist to reject.
func TestRulesBite(t *testing.T) {
	for _, c := range [][2]string{
		{"dialect/graph", "target/mpsgraph"},
		{"dialect/thunk", "dialect/mps"},
		{"ir", "dialect/graph"},
		{"passes/hybridsplit", "tools/rlx-opt"},
		{"pipeline", "passes/cse"},
	} {
		if bad, _ := forbidden(c[0], c[1]); !bad {
			t.Errorf("%s may import %s", c[0], c[1])
		}
	}
	if bad, why := forbidden("passes/hybridsplit", "target"); bad {
		t.Errorf("passes/hybridsplit may not import target: %s", why)
	}
}

package optdriver

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/dialect/builtin"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/pipeline/testpass"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden outputs in testdata/*.txtar")

// TestGolden runs every testdata/*.txtar case: an optional "config" file
// selects a minimal configuration (test passes, builtin and func dialects)
// instead of rlx-opt's; the "args" file holds the
// command line (one argument per line; %s is the input file, %t a scratch
// directory); "input.mlir" (and any other file) is written to a temporary
// directory; "stdout", "stderr" and "exit" are the expected results, and
// files named "out/NAME" are files the run must create under %t. The
// temporary directory is replaced by "%t/" in outputs.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runGolden(t, file)
		})
	}
}

func runGolden(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var args []string
	var stdin []byte
	cfg := testConfig()
	want := map[string]string{}
	for _, f := range ar.Files {
		switch {
		case f.Name == "args":
			for _, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
				if line = strings.TrimSpace(line); line != "" {
					args = append(args, line)
				}
			}
		case f.Name == "stdin":
			stdin = f.Data
		case f.Name == "config":
			// "minimal": only the test passes and the builtin and func
			// dialects, for outputs that list passes or dialects.
			cfg = Config{Passes: testpass.All(), RegisterDialects: func(ctx *ir.Context) {
				builtin.Register(ctx)
				fn.Register(ctx)
			}}
		case f.Name == "stdout" || f.Name == "stderr" || f.Name == "exit" || strings.HasPrefix(f.Name, "out/"):
			want[f.Name] = string(f.Data)
		default:
			p := filepath.Join(dir, f.Name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, a := range args {
		a = strings.ReplaceAll(a, "%s", filepath.Join(dir, "input.mlir"))
		args[i] = strings.ReplaceAll(a, "%t", dir)
	}
	var stdout, stderr bytes.Buffer
	code := MainWith(cfg, args, bytes.NewReader(stdin), &stdout, &stderr)
	clean := func(s string) string { return strings.ReplaceAll(s, dir+"/", "%t/") }
	got := map[string]string{
		"stdout": clean(stdout.String()),
		"stderr": clean(stderr.String()),
		"exit":   strconv.Itoa(code) + "\n",
	}
	for name := range want {
		if strings.HasPrefix(name, "out/") {
			data, err := os.ReadFile(filepath.Join(dir, strings.TrimPrefix(name, "out/")))
			if err != nil {
				got[name] = "<missing: " + err.Error() + ">\n"
			} else {
				got[name] = clean(string(data))
			}
		}
	}
	if *update {
		var keep []txtar.File
		for _, f := range ar.Files {
			if _, ok := got[f.Name]; !ok {
				keep = append(keep, f)
			}
		}
		var names []string
		for n := range got {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool { return goldenOrder(names[i]) < goldenOrder(names[j]) })
		for _, n := range names {
			if got[n] == "" && n != "exit" && want[n] == "" && !strings.HasPrefix(n, "out/") {
				if _, had := want[n]; !had {
					continue
				}
			}
			keep = append(keep, txtar.File{Name: n, Data: []byte(got[n])})
		}
		ar.Files = keep
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, n := range []string{"exit", "stdout", "stderr"} {
		if _, ok := want[n]; !ok {
			want[n] = map[string]string{"exit": "0\n"}[n]
		}
	}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("%s differs (args %q):\n--- got ---\n%s\n--- want ---\n%s", n, args, got[n], w)
		}
	}
}

func goldenOrder(name string) string {
	switch name {
	case "exit":
		return "0"
	case "stdout":
		return "1"
	case "stderr":
		return "2"
	}
	return "3" + name
}

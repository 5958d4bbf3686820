package littests

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/lit"
)

// TestDocCommands runs every command the documentation shows, so that the
// docs cannot drift from the tools: the lines of each ```sh block of
// README.md and docs/**/*.md, in order, one doc at a time, in a scratch
// directory holding a copy of examples/. They run through rlx's lit shell
// with the built tools (pipes, redirections and && as in RUN lines, with
// Go alone), and a command fails the test when it exits non-zero.
//
// `go run ./tools/NAME` runs the built NAME. `go build` and `go test`
// lines are not run: building the tools and running the tests is what
// this test itself does. A block that shows output, or a synopsis such as
// `rlx-opt [options] [input file]`, is not a sh block.
func TestDocCommands(t *testing.T) {
	mod, err := lit.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	docs, err := docFiles(mod)
	if err != nil {
		t.Fatal(err)
	}
	bin := tools(t)
	dir := t.TempDir()
	cfg := `import os
import lit.formats

config.name = "docs"
config.test_format = lit.formats.ShTest(execute_external=False)
config.test_source_root = os.path.dirname(__file__)
config.suffixes = [".test"]
config.excludes = ["examples"]
config.rlx_tools = ["rlx-opt", "rlx-run", "rlx-gen", "rlx-translate", "filecheck"]
`
	if err := os.WriteFile(filepath.Join(dir, "lit.cfg.py"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, "examples"), os.DirFS(filepath.Join(mod, "examples"))); err != nil {
		t.Fatal(err)
	}
	commands := 0
	for _, doc := range docs {
		src, err := os.ReadFile(filepath.Join(mod, doc))
		if err != nil {
			t.Fatal(err)
		}
		cmds := shellCommands(string(src))
		if len(cmds) == 0 {
			continue
		}
		commands += len(cmds)
		var test strings.Builder
		for _, c := range cmds {
			fmt.Fprintf(&test, "# %s:%d\n# RUN: %s\n", doc, c.line, c.text)
		}
		name := strings.NewReplacer("/", "_", ".md", ".test").Replace(doc)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(test.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := lit.OpenSuite(dir, lit.Options{ToolsDir: bin, ExecRoot: dir})
	if err != nil {
		t.Fatal(err)
	}
	tests, err := s.Discover()
	if err != nil {
		t.Fatal(err)
	}
	for _, test := range tests {
		t.Run(test.Path, func(t *testing.T) {
			if r := s.Run(context.Background(), test); r.Code != lit.Pass {
				t.Errorf("%s: a documented command failed (the comment before each RUN line names the doc line):\n%s", r.Code, r.Output)
			}
		})
	}
	t.Logf("%d commands from %d docs", commands, len(tests))
	if commands < 20 {
		t.Errorf("only %d commands found: are the docs' command blocks still marked sh?", commands)
	}
}

// docFiles lists README.md and docs/**/*.md, relative to the module root.
func docFiles(mod string) ([]string, error) {
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(mod, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(mod, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	return files, err
}

type docCommand struct {
	line int
	text string
}

var goRun = regexp.MustCompile(`\bgo run \./tools/([a-z-]+)`)

// shellCommands returns the commands of the ```sh blocks of a markdown
// text: one per line (a trailing backslash continues it), without comments
// (a line starting with #, or text after " #"), `go run ./tools/NAME`
// turned into NAME, and `go build`/`go test` lines left out.
func shellCommands(md string) []docCommand {
	var out []docCommand
	in := false
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		switch {
		case strings.HasPrefix(l, "```"):
			in = !in && l == "```sh"
			continue
		case !in || l == "" || strings.HasPrefix(l, "#"):
			continue
		}
		start := i + 1
		for strings.HasSuffix(l, `\`) && i+1 < len(lines) {
			i++
			l = strings.TrimSuffix(l, `\`) + " " + strings.TrimSpace(lines[i])
		}
		l = stripComment(l)
		if strings.HasPrefix(l, "go build") || strings.HasPrefix(l, "go test") {
			continue
		}
		out = append(out, docCommand{line: start, text: goRun.ReplaceAllString(l, "$1")})
	}
	return out
}

// stripComment drops a trailing comment: a '#' after a space, outside
// quotes.
func stripComment(l string) string {
	var quote byte
	for i := 0; i < len(l); i++ {
		switch c := l[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && i > 0 && (l[i-1] == ' ' || l[i-1] == '\t'):
			return strings.TrimSpace(l[:i])
		}
	}
	return l
}

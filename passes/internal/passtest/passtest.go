package passtest

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/canonicalize"
	"github.com/rlx-compiler/rlx/passes/cse"
	"github.com/rlx-compiler/rlx/passes/opstats"
	"github.com/rlx-compiler/rlx/passes/q6kcolumns"
	"github.com/rlx-compiler/rlx/passes/stripdebuginfo"
	"github.com/rlx-compiler/rlx/passes/symboldce"
	"github.com/rlx-compiler/rlx/passes/toposort"
	"github.com/rlx-compiler/rlx/passes/viewopgraph"
	"github.com/rlx-compiler/rlx/pipeline"
	"github.com/rlx-compiler/rlx/rewrite/rewritetest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// Registry returns rlx's passes with the tst dialect's canonicalization
// patterns, and with print-op-stats and view-op-graph writing to w.
func Registry(w io.Writer) *pipeline.Registry {
	return pipeline.NewRegistry(
		canonicalize.NewInfo(rewritetest.Patterns),
		cse.Info,
		opstats.NewInfo(w),
		q6kcolumns.Info,
		stripdebuginfo.Info,
		symboldce.Info,
		toposort.Info,
		viewopgraph.NewInfo(w),
	)
}

// NewContext returns a context with rlx's dialects, the tst dialect and
// unregistered ops allowed.
func NewContext() *ir.Context {
	ctx := ir.NewContext()
	ctx.AllowUnregistered = true
	dialect.RegisterAll(ctx)
	rewritetest.Register(ctx)
	return ctx
}

// Golden runs every dir/*.mlir file and compares with its .golden file.
func Golden(t *testing.T, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.mlir"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files in %s", dir)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Run(filepath.Base(file), string(src))
			if err != nil {
				t.Fatal(err)
			}
			golden := file + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (create it with -update)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (-update to accept):\n%s", golden, lineDiff(string(want), got))
			}
		})
	}
}

// Run runs the chunks of a test file and returns the combined output.
func Run(name, src string) (string, error) {
	first, _, _ := strings.Cut(src, "\n")
	text, ok := strings.CutPrefix(first, "// PIPELINE: ")
	if !ok {
		return "", fmt.Errorf("%s: the first line must be `// PIPELINE: <pipeline>`", name)
	}
	var opts ir.PrintOptions
	if strings.Contains(src, "\n// PRINT: debuginfo\n") {
		opts.DebugInfo = true
	}
	var out []string
	for _, chunk := range strings.Split(src, "\n// -----\n") {
		out = append(out, runChunk(name, chunk, text, opts))
	}
	return strings.Join(out, "// -----\n"), nil
}

func runChunk(name, chunk, text string, opts ir.PrintOptions) string {
	ctx := NewContext()
	var stderr strings.Builder
	opm, err := pipeline.Parse(Registry(&stderr), text)
	if err != nil {
		return "// pipeline error: " + err.Error() + "\n"
	}
	f, err := asm.Parse(ctx, name, []byte(chunk), asm.Options{})
	if err != nil {
		return "// parse error: " + err.Error() + "\n"
	}
	if err := ir.Verify(f.Op); err != nil {
		return "// verify error: " + err.Error() + "\n"
	}
	pm := pipeline.NewWith(ctx, opm)
	pm.DisableThreading = true
	var sb strings.Builder
	if err := pm.Run(f.Op); err != nil {
		sb.WriteString("// pass error: " + strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "\n// ") + "\n")
	}
	if err := ir.Print(&sb, f.Op, opts); err != nil {
		return "// print error: " + err.Error() + "\n"
	}
	if !strings.HasSuffix(sb.String(), "\n") {
		sb.WriteString("\n")
	}
	if stderr.Len() > 0 {
		sb.WriteString("// stderr:\n" + stderr.String())
	}
	return sb.String()
}

// lineDiff shows the first lines where want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n-%s\n+%s", i+1, a, b)
		}
	}
	return ""
}

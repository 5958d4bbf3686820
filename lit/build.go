package lit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ModuleRoot walks up from dir to the directory holding go.mod.
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
		dir = parent
	}
}

// TestTag is the build tag BuildTools builds the tools with. rlx-opt
// built with it registers the test passes (pipeline/testpass) that the
// lit suite runs, which the installed command leaves out.
const TestTag = "rlxtest"

// BuildTools builds every main package under moduleRoot/tools into outDir
// with one "go build -tags rlxtest -o outDir ./tools/...". If that fails it builds the
// packages one by one, so one broken tool does not hide the others, and
// returns an error naming the packages that did not build.
func BuildTools(ctx context.Context, moduleRoot, outDir string) error {
	if err := os.MkdirAll(outDir, 0o777); err != nil {
		return err
	}
	out, err := goCmd(ctx, moduleRoot, "build", "-tags", TestTag, "-o", outDir+string(filepath.Separator), "./tools/...")
	if err == nil {
		return nil
	}
	list, lerr := goCmd(ctx, moduleRoot, "list", "-f", "{{if eq .Name \"main\"}}{{.ImportPath}}{{end}}", "-e", "./tools/...")
	if lerr != nil {
		return fmt.Errorf("go build ./tools/...: %v\n%s", err, out)
	}
	var failed []string
	var msgs bytes.Buffer
	for _, pkg := range strings.Fields(string(list)) {
		if o, err := goCmd(ctx, moduleRoot, "build", "-tags", TestTag, "-o", outDir+string(filepath.Separator), pkg); err != nil {
			failed = append(failed, pkg)
			msgs.Write(o)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return fmt.Errorf("tools that do not build: %s\n%s", strings.Join(failed, ", "), msgs.String())
}

func goCmd(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

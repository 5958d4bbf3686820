package hybridsplit_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/dialect/mps"
	"github.com/rlx-compiler/rlx/filecheck"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/lit"
	"github.com/rlx-compiler/rlx/optdriver"
	"github.com/rlx-compiler/rlx/passes"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/pipeline"
	"github.com/rlx-compiler/rlx/runtime/ref/run"
)

// A bug is a copy of hybridsplit.Split with a bug in it. The property test
// runs it in place of the pass (hybridsplit.CheckGraph), and rlx-opt runs
// it as hybrid-split (bugPass), so that the reproducer's RUN lines can be
// run with the bug present and without it.
type bug func(*ir.Operation, hybridsplit.Options) (hybridsplit.Result, error)

var bugs = []struct {
	name    string
	variant string
	kind    string // of the failure
	split   bug
	// checked: the reproducer has RUN lines.
	checked bool
}{
	{
		name: "panic", variant: "seed+options", kind: "panic in split", checked: true,
		split: func(f *ir.Operation, o hybridsplit.Options) (hybridsplit.Result, error) {
			f.Walk(func(op *ir.Operation) {
				if op.Name() == graph.ExpName {
					panic("bug: an exp")
				}
			})
			return hybridsplit.Split(f, o)
		},
	},
	{
		name: "verify", variant: "dependency", kind: "verify", checked: true,
		split: func(f *ir.Operation, o hybridsplit.Options) (hybridsplit.Result, error) {
			res, err := hybridsplit.Split(f, o)
			ctx := f.Context()
			f.SetAttr(ctx, "function_type", ctx.TypeAttr(ctx.FunctionType(f.Region(0).First().ArgumentTypes(), nil)))
			return res, err
		},
	},
	{
		name: "semantics", variant: "dependency", kind: "semantics", checked: true,
		split: func(f *ir.Operation, o hybridsplit.Options) (hybridsplit.Result, error) {
			res, err := hybridsplit.Split(f, o)
			f.Walk(func(op *ir.Operation) {
				if op.Name() == graph.RMSNormName || op.Name() == graph.LayerNormName {
					op.SetAttr(f.Context(), "epsilon", f.Context().FloatAttr(f.Context().F32(), 0.25))
				}
			})
			return res, err
		},
	},
	{
		name: "optimum", variant: "dependency", kind: "optimum", checked: true,
		split: func(f *ir.Operation, o hybridsplit.Options) (hybridsplit.Result, error) {
			o.Mode = hybridsplit.ModeSeed
			return hybridsplit.Split(f, o)
		},
	},
	{
		name: "form", variant: "dependency", kind: "form", checked: false,
		split: func(f *ir.Operation, o hybridsplit.Options) (hybridsplit.Result, error) {
			res, err := hybridsplit.Split(f, o)
			f.Walk(func(op *ir.Operation) {
				if op.Name() == mps.SubgraphName {
					op.SetAttr(f.Context(), "sym_name", f.Context().StringAttr(ir.SymbolName(op)+"_x"))
				}
			})
			return res, err
		},
	},
}

// TestReproducers makes the property test find, shrink and write out the
// failure of each bug, then runs the reproducer's RUN lines as lit would,
// with rlx-opt, rlx-run and FileCheck in process: they must fail when
// rlx-opt's hybrid-split has the bug and pass with the real pass. A
// failure the lit tools cannot see must have no RUN line and say so.
func TestReproducers(t *testing.T) {
	for _, b := range bugs {
		t.Run(b.name, func(t *testing.T) {
			fd, seed := find(t, b.variant, b.kind, b.split)
			text, err := os.ReadFile(fd.Path)
			if err != nil {
				t.Fatal(err)
			}
			header := fmt.Sprintf("// hybrid-split, variant %s, on the random function of seed %d (shrunk from ", b.variant, seed)
			rerun := fmt.Sprintf("go test ./passes/hybridsplit -run 'TestRandomGraphs$' -seed %d -graphs 1\n", seed)
			if !strings.HasPrefix(string(text), header) || !strings.Contains(string(text), "// Failure ("+b.kind+"):\n") ||
				!strings.Contains(string(text), rerun) || !strings.HasSuffix(string(text), fd.Small) {
				t.Fatalf("reproducer %s:\n%s", fd.Path, text)
			}
			script, err := lit.ParseScript(text)
			if !b.checked {
				// lit finds no RUN line: the test is UNRESOLVED.
				if err == nil || !strings.Contains(string(text), "// No RUN line: ") {
					t.Errorf("RUN lines for a failure the lit tools cannot see:\n%s", text)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v:\n%s", err, text)
			}
			if line, out := runScript(t, fd.Path, script, b.split); line == "" {
				t.Errorf("the RUN lines pass with the bug:\n%s", text)
			} else {
				t.Logf("%s\nwith the bug, RUN: %s fails:\n%s", text, line, out)
			}
			if line, out := runScript(t, fd.Path, script, nil); line != "" {
				t.Errorf("RUN: %s fails without the bug:\n%s\n%s", line, out, text)
			}
		})
	}
}

// find returns the first failure of kind that split has on a random
// function, and the function's seed.
func find(t *testing.T, variant, kind string, split bug) (*hybridsplit.Finding, int64) {
	for seed := int64(1); seed <= 300; seed++ {
		src, err := hybridsplit.RandomSource(seed)
		if err != nil {
			t.Fatal(err)
		}
		if fd := hybridsplit.CheckGraph(t.TempDir(), seed, variant, split, src); fd != nil && fd.Kind == kind {
			return fd, seed
		}
	}
	t.Fatalf("no random function of the first 300 fails with %s", kind)
	return nil, 0
}

// runScript runs the RUN lines of the reproducer at path, with rlx-opt's
// hybrid-split replaced by split unless it is nil. It returns the first
// line that fails and its output, or "".
func runScript(t *testing.T, path string, script *lit.Script, split bug) (string, string) {
	tmp := filepath.Join(t.TempDir(), "out.tmp")
	tools := map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
		"rlx-opt": func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
			return optdriver.MainWith(rlxOpt(split), args, stdin, stdout, stderr)
		},
		"rlx-run": run.Main,
		"FileCheck": func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
			return filecheck.Main(filecheck.Env{Args: append([]string{"FileCheck"}, args...), Stdin: stdin, Stdout: stdout, Stderr: stderr})
		},
	}
	for _, d := range script.Directives {
		cmd := strings.NewReplacer("%s", path, "%t", tmp).Replace(d.Command)
		node, err := lit.ParseShell(cmd, true)
		if err != nil {
			t.Fatalf("RUN: %s: %v", d.Command, err)
		}
		p, ok := node.(*lit.Pipeline)
		if !ok {
			t.Fatalf("RUN: %s: not a pipeline", d.Command)
		}
		var out bytes.Buffer
		var in io.Reader = strings.NewReader("")
		status := 0
		for k, c := range p.Commands {
			var stdout, stderr bytes.Buffer
			errTo := io.Writer(&stderr)
			for _, r := range c.Redirects {
				if r.Op != ">&" || r.FD != 2 || r.Target.Text != "1" {
					t.Fatalf("RUN: %s: redirection %s%s not run here", d.Command, r.Op, r.Target.Text)
				}
				errTo = &stdout
			}
			tool := tools[c.Args[0].Text]
			if tool == nil {
				t.Fatalf("RUN: %s: no tool %s here", d.Command, c.Args[0].Text)
			}
			var args []string
			for _, w := range c.Args[1:] {
				args = append(args, w.Text)
			}
			if code := tool(args, in, &stdout, errTo); code != 0 {
				status = code
			}
			out.Write(stderr.Bytes())
			if k == len(p.Commands)-1 {
				out.Write(stdout.Bytes())
			}
			in = &stdout
		}
		if status != 0 {
			return d.Command, out.String()
		}
	}
	return "", ""
}

// rlxOpt is rlx-opt's configuration with hybrid-split replaced by split
// unless it is nil.
func rlxOpt(split bug) optdriver.Config {
	cfg := optdriver.Config{ToolName: "rlx-opt", RegisterDialects: dialect.RegisterAll}
	for _, p := range passes.All() {
		if split != nil && p == hybridsplit.Info {
			info := *p
			info.New = func() pipeline.Pass { return &bugPass{info: &info, split: split} }
			p = &info
		}
		cfg.Passes = append(cfg.Passes, p)
	}
	return cfg
}

// bugPass is hybrid-split with split as its Split: the options and the
// region-count statistics of the real pass.
type bugPass struct {
	info                     *pipeline.PassInfo
	split                    bug
	opts                     hybridsplit.Options
	mpsRegions, thunkRegions pipeline.Statistic
}

func (p *bugPass) Info() *pipeline.PassInfo { return p.info }

func (p *bugPass) Declare(d *pipeline.Decl) {
	d.Enum((*string)(&p.opts.Mode), "mode", string(hybridsplit.ModeDependency),
		[]pipeline.EnumValue{{Name: string(hybridsplit.ModeDependency)}, {Name: string(hybridsplit.ModeSeed)}}, "")
	d.StringList(&p.opts.NativeOps, "native-ops", nil, "")
	d.Int(&p.opts.MinSubgraphOps, "min-subgraph-ops", 1, "")
	d.Stat(&p.mpsRegions, "mps-regions", "Number of mps.subgraph regions")
	d.Stat(&p.thunkRegions, "thunk-regions", "Number of thunk.call regions")
}

func (p *bugPass) Run(op *ir.Operation, _ *pipeline.AnalysisManager) error {
	res, err := p.split(op, p.opts)
	p.mpsRegions.Add(int64(res.MPSRegions))
	p.thunkRegions.Add(int64(res.ThunkRegions))
	return err
}

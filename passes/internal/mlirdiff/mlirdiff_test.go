package mlirdiff

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/opstats"
	"github.com/rlx-compiler/rlx/passes/viewopgraph"
	"github.com/rlx-compiler/rlx/pipeline"
)

var (
	live   = flag.Bool("oracle", false, "run mlir-opt-19 instead of reading the recorded outputs")
	update = flag.Bool("update", false, "with -oracle, rewrite the recorded mlir-opt outputs")
)

const (
	dataDir     = "../../testdata/mlir"
	splitMarker = "//===RLX-CHUNK===//"
)

// mlirDialects are the dialects mlir-opt 19 registers (`mlir-opt-19
// --show-dialects`). An op of one of them, other than builtin and func,
// means mlir-opt knows semantics rlx does not.
var mlirDialects = toSet(strings.Split("acc,affine,amdgpu,amx,arith,arm_neon,arm_sme,arm_sve,async,"+
	"bufferization,cf,complex,dlti,emitc,gpu,index,irdl,linalg,llvm,math,memref,mesh,ml_program,"+
	"mpi,nvgpu,nvvm,omp,pdl,pdl_interp,polynomial,ptr,quant,rocdl,scf,shape,sparse_tensor,spirv,"+
	"tensor,test,test_dyn,tosa,transform,ub,vector,x86vector,xegpu", ","))

func toSet(names []string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// A diffCase runs one input file through one pipeline in rlx and in
// mlir-opt.
type diffCase struct {
	name     string // oracle file stem
	input    string // file under testdata/mlir
	pipeline string // the pass pipeline, for rlx and for mlir-opt
	// upstream marks a verbatim upstream file: chunks using ops of
	// dialects rlx does not have are out of scope. Upstream files are not
	// committed, so such a case is also optional.
	upstream bool
	// optional marks an input that is not committed: the case is skipped
	// when the file is absent.
	optional  bool
	debugInfo bool
	local     bool
	// stderr compares what the passes write to stderr (print-op-stats,
	// view-op-graph) instead of the printed IR; the input must be one
	// chunk.
	stderr bool
}

type mode struct {
	name    string
	generic bool
}

var modes = []mode{{"generic", true}, {"pretty", false}}

// splitChunks splits a file at `// -----` lines, as --split-input-file
// does.
func splitChunks(src string) []string {
	var chunks []string
	var cur strings.Builder
	for _, line := range strings.SplitAfter(src, "\n") {
		if strings.HasPrefix(line, "// -----") {
			chunks = append(chunks, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteString(line)
	}
	return append(chunks, cur.String())
}

func (c *diffCase) mlirArgs(m mode) []string {
	args := []string{"--allow-unregistered-dialect", "--split-input-file", "--output-split-marker=" + splitMarker}
	if c.stderr {
		args = []string{"--allow-unregistered-dialect", "-o", "/dev/null"}
	}
	args = append(args, "--pass-pipeline="+c.pipeline)
	if m.generic {
		args = append(args, "--mlir-print-op-generic")
	}
	if c.debugInfo {
		args = append(args, "--mlir-print-debuginfo")
	}
	if c.local {
		args = append(args, "--mlir-print-local-scope")
	}
	return args
}

func (c *diffCase) oraclePath(m mode) string {
	return filepath.Join(dataDir, "oracle", c.name+"."+m.name+".txtar")
}

// oracle returns what mlir-opt prints for each chunk ("" when it failed
// on the chunk).
func (c *diffCase) oracle(t *testing.T, m mode, n int) []string {
	t.Helper()
	if !*live {
		ar, err := txtar.ParseFile(c.oraclePath(m))
		if err != nil {
			t.Fatalf("%v (record it with -oracle -update)", err)
		}
		if len(ar.Files) != n {
			t.Fatalf("%s: %d recorded chunks, input has %d (re-record with -oracle -update)", c.oraclePath(m), len(ar.Files), n)
		}
		out := make([]string, n)
		for i, f := range ar.Files {
			out[i] = strings.Trim(string(f.Data), "\n")
		}
		return out
	}
	bin, err := exec.LookPath("mlir-opt-19")
	if err != nil {
		t.Skip("mlir-opt-19 is not installed (Debian package mlir-19-tools); using no oracle")
	}
	dir := t.TempDir()
	base := filepath.Base(c.input)
	src, err := os.ReadFile(filepath.Join(dataDir, c.input))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, base), src, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(c.mlirArgs(m), base)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run() // a failing chunk makes mlir-opt fail; its output is empty
	pieces := strings.Split(stdout.String(), splitMarker)
	if c.stderr {
		pieces = []string{stderr.String()}
	}
	if len(pieces) != n {
		t.Fatalf("mlir-opt printed %d chunks, input has %d", len(pieces), n)
	}
	out := make([]string, n)
	for i, p := range pieces {
		out[i] = strings.Trim(p, "\n")
	}
	if *update {
		ar := &txtar.Archive{Comment: []byte("mlir-opt-19 " + strings.Join(args, " ") + "\n")}
		for i, o := range out {
			data := o
			if data != "" {
				data += "\n"
			}
			ar.Files = append(ar.Files, txtar.File{Name: fmt.Sprintf("chunk-%03d", i+1), Data: []byte(data)})
		}
		if err := os.WriteFile(c.oraclePath(m), txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// rlx runs the case on one chunk. inScope is false when the chunk uses
// ops that only mlir-opt knows (upstream files) or that rlx cannot parse.
func (c *diffCase) rlx(chunk string, m mode) (out string, inScope bool, err error) {
	ctx := ir.NewContext()
	ctx.AllowUnregistered = true
	dialect.RegisterAll(ctx)
	f, err := asm.Parse(ctx, filepath.Base(c.input), []byte(chunk), asm.Options{})
	if err != nil {
		return "", !c.upstream || !mentionsMLIRDialect(chunk), err
	}
	if c.upstream && !restricted(f.Op) {
		return "", false, nil
	}
	if err := ir.Verify(f.Op); err != nil {
		return "", true, err
	}
	var stderr strings.Builder
	reg := registry
	if c.stderr {
		reg = pipeline.NewRegistry(opstats.NewInfo(&stderr), viewopgraph.NewInfo(&stderr))
	}
	opm, err := pipeline.Parse(reg, c.pipeline)
	if err != nil {
		return "", true, err
	}
	pm := pipeline.NewWith(ctx, opm)
	if err := pm.Run(f.Op); err != nil {
		return "", true, err
	}
	if c.stderr {
		return strings.Trim(stderr.String(), "\n"), true, nil
	}
	var sb strings.Builder
	err = ir.Print(&sb, f.Op, ir.PrintOptions{Generic: m.generic, DebugInfo: c.debugInfo, LocalScope: c.local})
	return strings.Trim(sb.String(), "\n"), true, err
}

// restricted reports whether op uses only builtin and func ops and ops of
// dialects mlir-opt does not register.
func restricted(op *ir.Operation) bool {
	ok := true
	op.Walk(func(o *ir.Operation) {
		if d := o.OpName().Dialect(); d != "builtin" && d != "func" && mlirDialects[d] {
			ok = false
		}
	})
	return ok
}

// dialectRef matches what names a dialect's op, type or attribute: a
// generic op name, a custom op at the start of a statement, !d.type and
// #d.attr. (Discardable attribute names like {test.nested} do not count.)
var dialectRef = regexp.MustCompile(`(?:"|^\s*|=\s*|[!#])([a-z_][a-z0-9_]*)\.[a-z_]`)

// mentionsMLIRDialect reports whether the code of a chunk (comments
// aside) names an op, type or attribute of a dialect only mlir-opt has;
// such a chunk is out of scope even when rlx cannot parse it.
func mentionsMLIRDialect(chunk string) bool {
	for _, line := range strings.Split(chunk, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		for _, m := range dialectRef.FindAllStringSubmatch(line, -1) {
			if mlirDialects[m[1]] {
				return true
			}
		}
	}
	return false
}

var knownLine = regexp.MustCompile(`^(\S+#\d+/\w+):\s*(.*)$`)

// knownDifferences reads the chunks expected to differ, with reasons.
func knownDifferences(t *testing.T) map[string]string {
	data, err := os.ReadFile(filepath.Join(dataDir, "known-differences.txt"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		m := knownLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("known-differences.txt: malformed line %q", line)
		}
		known[m[1]] = m[2]
	}
	return known
}

type tally struct{ pass, total, outOfScope, chunks int }

func TestAgainstMLIROpt(t *testing.T) {
	known := knownDifferences(t)
	var fixed, printerDiffs []string
	totals := map[string]*tally{}
	var report []string
	absent := map[string]bool{}
	for _, c := range cases {
		src, err := os.ReadFile(filepath.Join(dataDir, c.input))
		if (c.upstream || c.optional) && os.IsNotExist(err) {
			// MLIR's own test files and the translations derived from
			// them are not committed (see the README next to them); their
			// cases run where someone put them.
			t.Logf("%s: %s is not present, case skipped", c.name, c.input)
			absent[c.name] = true
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		chunks := splitChunks(string(src))
		ms := modes
		if c.stderr {
			ms = []mode{{name: "stderr"}}
		}
		for _, m := range ms {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				want := c.oracle(t, m, len(chunks))
				tl := &tally{chunks: len(chunks)}
				for i, chunk := range chunks {
					key := fmt.Sprintf("%s#%d/%s", c.name, i+1, m.name)
					got, inScope, err := c.rlx(chunk, m)
					if !inScope {
						tl.outOfScope++
						continue
					}
					tl.total++
					var diff string
					switch {
					case want[i] == "" && err == nil:
						diff = "mlir-opt fails on this chunk, rlx does not:\n" + got
					case want[i] != "" && err != nil:
						diff = fmt.Sprintf("rlx fails: %v\nmlir-opt prints:\n%s", err, want[i])
					case want[i] != got:
						diff = fmt.Sprintf("rlx prints:\n%s\nmlir-opt prints:\n%s", got, want[i])
					}
					if diff == "" {
						tl.pass++
						if _, ok := known[key]; ok {
							fixed = append(fixed, key)
						}
						continue
					}
					if _, ok := known[key]; ok {
						continue
					}
					// The custom form also tests the printers of the
					// dialects, which other packages own: report, do not
					// fail.
					if m.name == "pretty" {
						printerDiffs = append(printerDiffs, key)
						t.Logf("%s differs from mlir-opt-19 (custom form):\n%s", key, diff)
						continue
					}
					t.Errorf("%s differs from mlir-opt-19:\n%s", key, diff)
				}
				totals[c.name+"/"+m.name] = tl
				report = append(report, fmt.Sprintf("%-40s %3d/%-3d match (%d chunks, %d out of scope)", c.name+"/"+m.name, tl.pass, tl.total, tl.chunks, tl.outOfScope))
			})
		}
	}
	for key := range known {
		name := key[:strings.IndexByte(key, '#')]
		found := false
		for _, c := range cases {
			found = found || c.name == name
		}
		if !found && !absent[name] {
			t.Errorf("known-differences.txt names unknown case %q", key)
		}
	}
	sort.Strings(report)
	byMode := map[string]*tally{}
	for key, tl := range totals {
		m := key[strings.LastIndexByte(key, '/')+1:]
		if byMode[m] == nil {
			byMode[m] = &tally{}
		}
		byMode[m].pass += tl.pass
		byMode[m].total += tl.total
	}
	for _, m := range []string{"generic", "pretty", "stderr"} {
		if tl := byMode[m]; tl != nil && tl.total > 0 {
			report = append(report, fmt.Sprintf("%-40s %3d/%-3d match (%.1f%%)", "total "+m, tl.pass, tl.total, 100*float64(tl.pass)/float64(tl.total)))
		}
	}
	t.Log("pass rate against mlir-opt-19:\n" + strings.Join(report, "\n"))
	if len(printerDiffs) > 0 {
		sort.Strings(printerDiffs)
		t.Log("custom-form differences (printer or parser, not the passes):\n" + strings.Join(printerDiffs, "\n"))
	}
	if len(fixed) > 0 {
		sort.Strings(fixed)
		t.Error("now matching mlir-opt; remove from known-differences.txt:\n" + strings.Join(fixed, "\n"))
	}
}

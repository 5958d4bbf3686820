package optdriver

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/internal/mutate"
	"github.com/rlx-compiler/rlx/internal/splitinput"
)

// The mutation differential test: mutants of valid inputs go to rlx-opt
// and to mlir-opt-19, which must agree on the exit code, stdout and the
// first error's line, column and message. The bases are the inputs both
// tools accept and print alike: the MLIR conformance corpus
// (../shared/conformance/mlir, when present), the lit tests, the examples
// and the driver's mlir-compat inputs, each in generic and in custom form.
// Every difference must be one of the known differences below, each of
// which docs/rlx-opt.md lists with its reason, and the tools must agree on
// at least 99% of the mutants.
//
// By default a seeded subset of mutantsDefault mutants runs (a few
// seconds); RLX_MUTANTS=N runs N (the figure in docs/rlx-opt.md is for
// 10000) and RLX_MUTANT_SEED=S changes the seed. Both tools take the
// mutants in batches through --split-input-file, which costs mlir-opt one
// process per batch instead of one per mutant.
const (
	mutantsDefault = 1000
	mutantBatch    = 250
)

// mutantResult is what one tool did with one mutant.
type mutantResult struct {
	failed bool
	stdout string
	// firstError is the first error's "LINE:COL: error: MESSAGE", without
	// the buffer name.
	firstError string
}

// mutant is one mutated input and what the two tools made of it.
type mutant struct {
	index      int
	base       string
	flags      []string
	mutation   mutate.Mutation
	text       []byte
	rlx, mlir  mutantResult
	mlirCrash  bool
	difference string
}

func TestMutantsAgainstMLIROpt(t *testing.T) {
	mlirOpt, err := exec.LookPath("mlir-opt-19")
	if err != nil {
		t.Skip("mlir-opt-19 not installed")
	}
	n := mutantsDefault
	if s := os.Getenv("RLX_MUTANTS"); s != "" {
		if n, err = strconv.Atoi(s); err != nil || n <= 0 {
			t.Fatalf("RLX_MUTANTS=%q: want a positive count", s)
		}
	}
	seed := uint64(1)
	if s := os.Getenv("RLX_MUTANT_SEED"); s != "" {
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("RLX_MUTANT_SEED=%q: %v", s, err)
		}
	}
	bases := mutationBases(t, mlirOpt)
	names := slices.Sorted(maps.Keys(bases))
	t.Logf("%d bases", len(names))

	flagSets := [][]string{
		{"--allow-unregistered-dialect"},
		{"--allow-unregistered-dialect", "--mlir-print-op-generic"},
	}
	var mutants []*mutant
	for i := range n {
		r := rand.New(rand.NewPCG(seed, uint64(i)))
		name := names[r.IntN(len(names))]
		var text []byte
		var m mutate.Mutation
		for {
			text, m = mutate.Mutate(r, bases[name])
			// A mutant must stay one chunk of the batch.
			if !bytes.Contains(text, []byte("// ---")) {
				break
			}
		}
		mutants = append(mutants, &mutant{index: i, base: name, flags: flagSets[i%len(flagSets)], mutation: m, text: text})
	}
	for fi, flags := range flagSets {
		var group []*mutant
		for _, m := range mutants {
			if m.index%len(flagSets) == fi {
				group = append(group, m)
			}
		}
		for len(group) > 0 {
			k := min(mutantBatch, len(group))
			runMutants(t, mlirOpt, flags, group[:k])
			group = group[k:]
		}
	}

	counts := map[string]int{}
	agree, crashes := 0, 0
	var unknown []*mutant
	for _, m := range mutants {
		switch {
		case m.mlirCrash:
			crashes++
		case m.rlx == m.mlir:
			agree++
		default:
			m.difference = classifyDifference(m)
			if m.difference == "" {
				unknown = append(unknown, m)
			} else {
				counts[m.difference]++
			}
		}
	}
	compared := len(mutants) - crashes
	rate := 100 * float64(agree) / float64(compared)
	t.Logf("%d mutants (seed %d), %d compared (%d crashed mlir-opt-19): %d agree (%.2f%%)", len(mutants), seed, compared, crashes, agree, rate)
	for _, d := range knownDifferences {
		if counts[d.name] > 0 {
			t.Logf("  %5d  %s", counts[d.name], d.name)
		}
	}
	if path := os.Getenv("RLX_MUTANT_REPORT"); path != "" {
		writeMutantReport(t, path, mutants)
	}
	for i, m := range unknown {
		if i == 20 {
			t.Errorf("... and %d more unexplained differences", len(unknown)-i)
			break
		}
		t.Errorf("mutant %d of %s (%v; flags %v) differs:\n--- mutant ---\n%s\n--- rlx-opt: failed=%v %s\n%s--- mlir-opt-19: failed=%v %s\n%s",
			m.index, m.base, m.mutation, m.flags, m.text, m.rlx.failed, m.rlx.firstError, m.rlx.stdout, m.mlir.failed, m.mlir.firstError, m.mlir.stdout)
	}
	if rate < 99 {
		t.Errorf("agreement %.2f%%, want at least 99%%", rate)
	}
}

// runMutants runs both tools on a batch of mutants with flags and records
// their results. A batch in which mlir-opt crashes is run again one mutant
// at a time, to tell the mutant that crashes it.
func runMutants(t *testing.T, mlirOpt string, flags []string, ms []*mutant) {
	t.Helper()
	texts := make([][]byte, len(ms))
	for i, m := range ms {
		texts[i] = m.text
	}
	mlir, ok := runMLIROptBatch(t, mlirOpt, flags, texts)
	if !ok {
		if len(ms) == 1 {
			ms[0].mlirCrash = true
			ms[0].rlx = runRLXBatch(t, flags, texts)[0]
			return
		}
		for _, m := range ms {
			runMutants(t, mlirOpt, flags, []*mutant{m})
		}
		return
	}
	rlx := runRLXBatch(t, flags, texts)
	for i, m := range ms {
		m.rlx, m.mlir = rlx[i], mlir[i]
	}
}

// joinBatch joins inputs into one --split-input-file text. Each input
// starts right after its marker, so that lines and columns in a chunk are
// those of the input.
func joinBatch(texts [][]byte) []byte {
	var b bytes.Buffer
	for i, t := range texts {
		if i > 0 {
			b.WriteString("\n// -----")
		}
		b.Write(t)
	}
	return b.Bytes()
}

// splitResults cuts a batch run's stdout and stderr into each chunk's
// result. It reports false when they cannot be attributed.
func splitResults(batch []byte, n int, stdout, stderr string) ([]mutantResult, bool) {
	chunks, misses := splitinput.Split("<stdin>", batch, "// -----")
	if len(chunks) != n || len(misses) != 0 {
		return nil, false
	}
	outs := strings.Split(stdout, "// -----\n")
	if len(outs) != n {
		return nil, false
	}
	res := make([]mutantResult, n)
	index := map[string]int{}
	for i, c := range chunks {
		index[c.Name] = i
		res[i].stdout = outs[i]
	}
	for _, line := range strings.Split(stderr, "\n") {
		rest, ok := strings.CutPrefix(line, "within split at <stdin>:")
		if !ok {
			continue
		}
		num, tail, ok := strings.Cut(rest, " offset :")
		if !ok {
			continue
		}
		i, found := index["within split at <stdin>:"+num+" offset "]
		if !found || !strings.Contains(tail, ": error: ") {
			continue
		}
		if !res[i].failed {
			res[i].failed = true
			res[i].firstError = tail
		}
	}
	// A failing chunk prints nothing; one that fails without an error
	// message is still a failure.
	return res, true
}

func runMLIROptBatch(t *testing.T, mlirOpt string, flags []string, texts [][]byte) ([]mutantResult, bool) {
	batch := joinBatch(texts)
	cmd := exec.Command(mlirOpt, append(append([]string{}, flags...), "--split-input-file", "-")...)
	cmd.Stdin = bytes.NewReader(batch)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			return nil, false
		}
	}
	if strings.Contains(errb.String(), "Stack dump") || strings.Contains(errb.String(), "PLEASE submit a bug report") {
		return nil, false
	}
	return splitResults(batch, len(texts), out.String(), errb.String())
}

func runRLXBatch(t *testing.T, flags []string, texts [][]byte) []mutantResult {
	t.Helper()
	batch := joinBatch(texts)
	var out, errb bytes.Buffer
	code := MainWith(testConfig(), append(append([]string{}, flags...), "--split-input-file", "-"), bytes.NewReader(batch), &out, &errb)
	if code != 0 && code != 1 {
		t.Fatalf("rlx-opt exited %d", code)
	}
	res, ok := splitResults(batch, len(texts), out.String(), errb.String())
	if !ok {
		t.Fatalf("rlx-opt's output for a batch of %d cannot be split:\n%s\n%s", len(texts), out.String(), errb.String())
	}
	return res
}

// foreignDialect matches a dialect prefix of an op, type or attribute
// name: `"arith.`, `!llvm.`, `#gpu.`.
var foreignDialect = regexp.MustCompile(`(["!#])([a-z_][a-z0-9_]*)\.`)

// unregister renames every dialect but builtin and func, which both tools
// register, so that the ops, types and attributes of dialects only one of
// them knows (arith, memref and scf are mlir-opt's; graph, mps and thunk
// are rlx's) are unregistered in both.
func unregister(src []byte) []byte {
	return foreignDialect.ReplaceAllFunc(src, func(m []byte) []byte {
		sub := foreignDialect.FindSubmatch(m)
		switch string(sub[2]) {
		case "builtin", "func":
			return m
		}
		return []byte(string(sub[1]) + "x_" + string(sub[2]) + ".")
	})
}

// mutationBases collects the inputs to mutate: every chunk of the
// candidate files that rlx-opt accepts, printed in generic form with
// foreign dialects renamed, and mlir-opt's custom form of it; kept only
// where the two tools agree exactly on it.
func mutationBases(t *testing.T, mlirOpt string) map[string][]byte {
	var files []string
	for _, dir := range []string{"../lit-tests", "../examples", "testdata/mlir-compat"} {
		err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".mlir") {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{"../../shared/conformance/mlir/generic", "../conformance/mlir/generic"} {
		m, _ := filepath.Glob(filepath.Join(dir, "*.mlir"))
		files = append(files, m...)
	}
	var names []string
	var generic [][]byte
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		chunks, _ := splitinput.Split(f, src, "// -----")
		for i, c := range chunks {
			var out bytes.Buffer
			code := MainWith(testConfig(), []string{"--allow-unregistered-dialect", "--mlir-print-op-generic", "-"}, bytes.NewReader(c.Src), &out, &bytes.Buffer{})
			if code != 0 || bytes.Contains(out.Bytes(), []byte("// ---")) {
				continue
			}
			names = append(names, fmt.Sprintf("%s#%d", strings.TrimPrefix(f, "../"), i))
			generic = append(generic, unregister(out.Bytes()))
		}
	}
	if len(names) == 0 {
		t.Fatal("no inputs to mutate")
	}
	// mlir-opt's custom form of each generic text.
	pretty := make([][]byte, len(generic))
	for start := 0; start < len(generic); start += mutantBatch {
		end := min(start+mutantBatch, len(generic))
		res, ok := runMLIROptBatch(t, mlirOpt, []string{"--allow-unregistered-dialect"}, generic[start:end])
		if !ok {
			t.Fatal("mlir-opt-19 failed on the unmutated inputs")
		}
		for i, r := range res {
			if !r.failed {
				pretty[start+i] = []byte(r.stdout)
			}
		}
	}
	bases := map[string][]byte{}
	for i, name := range names {
		bases[name+" generic"] = generic[i]
		if pretty[i] != nil {
			bases[name+" custom"] = pretty[i]
		}
	}
	// Keep the bases both tools agree on in both printing modes.
	var keys []string
	var texts [][]byte
	for k, v := range bases {
		keys = append(keys, k)
		texts = append(texts, v)
	}
	sort.Sort(byKey{keys, texts})
	for _, flags := range [][]string{{"--allow-unregistered-dialect"}, {"--allow-unregistered-dialect", "--mlir-print-op-generic"}} {
		for start := 0; start < len(texts); start += mutantBatch {
			end := min(start+mutantBatch, len(texts))
			mlir, ok := runMLIROptBatch(t, mlirOpt, flags, texts[start:end])
			if !ok {
				t.Fatal("mlir-opt-19 failed on the unmutated inputs")
			}
			rlx := runRLXBatch(t, flags, texts[start:end])
			for i := range mlir {
				if mlir[i] != rlx[i] || mlir[i].failed {
					delete(bases, keys[start+i])
				}
			}
		}
	}
	return bases
}

type byKey struct {
	keys  []string
	texts [][]byte
}

func (b byKey) Len() int           { return len(b.keys) }
func (b byKey) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byKey) Swap(i, j int) {
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
	b.texts[i], b.texts[j] = b.texts[j], b.texts[i]
}

// knownDifference is a difference between rlx-opt and mlir-opt-19 that
// docs/rlx-opt.md lists with its reason.
type knownDifference struct {
	name  string
	match func(m *mutant) bool
}

// knownDifferences are the differences docs/rlx-opt.md lists under
// "Differences from mlir-opt", each with its reason; a mutant that differs
// in any other way fails the test.
var knownDifferences = []knownDifference{
	{
		// mlir-opt-19 registers the upstream dialects (arith, memref, scf,
		// tensor, test, …); rlx registers builtin, func, graph, mps and
		// thunk, so a custom op of one of mlir-opt's dialects is an op of
		// an unknown dialect to rlx.
		name: "custom ops of mlir-opt's dialects",
		match: func(m *mutant) bool {
			return strings.Contains(m.rlx.firstError, "error: Dialect `") && strings.Contains(m.mlir.firstError, "' is unknown")
		},
	},
	{
		// rlx reads the types of unregistered dialects opaquely; mlir-opt
		// knows that some of its dialects (tensor, memref, …) define no
		// types, as in `!tensor<4xf32>`.
		name: "types of mlir-opt's dialects",
		match: func(m *mutant) bool {
			return strings.Contains(m.mlir.firstError, "provides no type parsing hook")
		},
	},
	{
		// mlir-opt stores dense arrays of any integer width; rlx's dense
		// arrays hold 64-bit integers.
		name: "dense arrays wider than 64 bits",
		match: func(m *mutant) bool {
			return strings.Contains(m.rlx.firstError, "dense arrays of integers wider than 64 bits are not supported")
		},
	},
}

func classifyDifference(m *mutant) string {
	for _, d := range knownDifferences {
		if d.match(m) {
			return d.name
		}
	}
	return ""
}

// writeMutantReport writes every mutant on which the tools differ, and
// every one that crashed mlir-opt-19, to path,
// for reading differences in bulk (RLX_MUTANT_REPORT=FILE).
func writeMutantReport(t *testing.T, path string, ms []*mutant) {
	var b strings.Builder
	for _, m := range ms {
		if m.mlirCrash {
			fmt.Fprintf(&b, "=== mutant %d [mlir-opt-19 crashed] of %s (%v; flags %v)\n%s\n--- rlx-opt: failed=%v %s\n", m.index, m.base, m.mutation, m.flags, m.text, m.rlx.failed, m.rlx.firstError)
			continue
		}
		if m.rlx == m.mlir {
			continue
		}
		fmt.Fprintf(&b, "=== mutant %d [%s] of %s (%v; flags %v)\n%s\n--- rlx-opt: failed=%v %s\n--- mlir-opt: failed=%v %s\n", m.index, m.difference, m.base, m.mutation, m.flags, m.text, m.rlx.failed, m.rlx.firstError, m.mlir.failed, m.mlir.firstError)
		if m.rlx.stdout != m.mlir.stdout {
			fmt.Fprintf(&b, "--- rlx-opt stdout:\n%s--- mlir-opt stdout:\n%s", m.rlx.stdout, m.mlir.stdout)
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

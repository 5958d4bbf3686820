package llvmir_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rlx-compiler/rlx/codegen/llvmir"
	"github.com/rlx-compiler/rlx/codegen/metal/mslcpu"
	"github.com/rlx-compiler/rlx/internal/runtimetest"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
	"github.com/rlx-compiler/rlx/runtime/abi"
	"github.com/rlx-compiler/rlx/runtime/backend"
	"github.com/rlx-compiler/rlx/runtime/plan"
)

// tool returns the path of an LLVM tool, or skips.
func tool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not found (Debian's llvm-19 and clang-19 packages; .ci/run installs them)", name)
	}
	return p
}

func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
}

// compile writes the host module of a split model into dir and checks it
// with opt-19 -passes=verify.
func compile(t *testing.T, dir string, s *runtimetest.Split) *llvmir.Output {
	t.Helper()
	out, err := llvmir.Compile(s.Module, llvmir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ll := filepath.Join(dir, "host.ll")
	if err := os.WriteFile(ll, []byte(out.Host.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	name := "rlx_" + llvmir.CName(out.Compiled.Plan.Function) + ".h"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(out.Header), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := abi.Write(dir, abi.Header); err != nil {
		t.Fatal(err)
	}
	run(t, dir, tool(t, "opt-19"), "-passes=verify", "-disable-output", ll)
	return out
}

// TestRecordedSequence writes the host modules of the toy models (MPS and
// Metal steps, weights, constants, status words), verifies each with
// opt-19, compiles it with clang-19, links it with the recording
// implementation of rlx_runtime.h and stand-in builders that return their
// own names, runs it, and compares the record, call by call, with the
// sequence written here from the plan: the kernels, the MPS regions with
// their builders and tensors, the weights, then the run's fills,
// dispatches (grids, threadgroups, bindings), MPS encodes and copies, one
// commit-and-wait, and the status checks.
func TestRecordedSequence(t *testing.T) {
	cc := tool(t, "clang-19")
	for _, m := range runtimetest.Models()[:3] {
		t.Run(m.Name, func(t *testing.T) {
			s, err := runtimetest.SplitModel(m.Build, hybridsplit.Options{})
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			out := compile(t, dir, s)
			p := out.Compiled.Plan
			f := "rlx_" + llvmir.CName(p.Function)
			var stubs strings.Builder
			for _, b := range out.MPS.Builders {
				fmt.Fprintf(&stubs, "void *%s(void *g, void *i, void *w, void *c) { return (void *)\"%s\"; }\n", b.Function, b.Function)
			}
			driver := fmt.Sprintf(`#include <string.h>
#include "%s.h"
%s
static int zero(void *user, const char *name, void *dst, uint64_t bytes) { memset(dst, 0, bytes); return 0; }
int main(void) {
  rlx_context *ctx;
  if (%s_create(NULL, &ctx)) return 1;
  if (%s_bind_weights(ctx, zero, NULL)) return 2;
  if (%s_run(ctx)) return 3;
  rlx_destroy(ctx);
  return 0;
}
`, f, stubs.String(), f, f, f)
			if err := os.WriteFile(filepath.Join(dir, "driver.c"), []byte(driver), 0o644); err != nil {
				t.Fatal(err)
			}
			files, err := abi.Write(dir, abi.Recorder)
			if err != nil {
				t.Fatal(err)
			}
			run(t, dir, cc, "-c", "-O1", "host.ll", "-o", "host.o")
			run(t, dir, cc, "-std=c11", "-Wall", "-Werror", "-I", dir, "driver.c", files[0], "host.o", "-o", "prog")
			rec := filepath.Join(dir, "record")
			cmd := exec.Command(filepath.Join(dir, "prog"))
			cmd.Env = append(os.Environ(), "RLX_RECORD="+rec)
			if o, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("the linked host module: %v\n%s", err, o)
			}
			got, err := os.ReadFile(rec)
			if err != nil {
				t.Fatal(err)
			}
			want := expectedRecord(t, out)
			if string(got) != want {
				t.Errorf("the record differs from the plan (-plan +record):\n%s", cmp.Diff(want, string(got)))
			}
			t.Logf("%d recorded calls, %d of them dispatches, %d CPU wait(s)", strings.Count(want, "\n"), strings.Count(want, "\ndispatch "), strings.Count(want, "commit_and_wait"))
		})
	}
}

// expectedRecord writes what rlx_record.c records for a run of the host
// module of out, from the plan alone.
func expectedRecord(t *testing.T, out *llvmir.Output) string {
	p := out.Compiled.Plan
	var b strings.Builder
	fmt.Fprintf(&b, "create arena %d weights %d library null\n", p.ArenaBytes, p.WeightBytes)
	for i, k := range out.Compiled.MSL.Manifest.Kernels {
		fmt.Fprintf(&b, "kernel %d %s\n", i, k.Name)
	}
	tensorLine := func(what, buf, typ string, off, n int64, name string) {
		code, err := llvmir.DType(typ)
		if err != nil {
			t.Fatal(err)
		}
		dt, shape, err := backend.ParseType(typ)
		if err != nil {
			t.Fatal(err)
		}
		_ = dt
		dims := make([]string, len(shape))
		for i, d := range shape {
			dims[i] = fmt.Sprint(d)
		}
		fmt.Fprintf(&b, "  %s %s@%d+%d dtype 0x%08x shape [%s] name %s\n", what, buf, off, n, code, strings.Join(dims, ", "), name)
	}
	weight := map[string]*plan.Weight{}
	for _, w := range p.Weights {
		weight[w.Name] = w
	}
	builders := map[string]int{}
	for i, bl := range out.MPS.Builders {
		builders[bl.Symbol] = i
	}
	region := map[int]int{}
	for _, st := range p.Steps {
		if st.Kind != plan.StepMPS {
			continue
		}
		id := len(region)
		region[st.Index] = id
		bl := out.MPS.Builders[builders[st.Symbol]]
		fmt.Fprintf(&b, "mps_region %d %s builder %s\n", id, st.Symbol, bl.Function)
		for _, v := range st.Inputs {
			pv := p.Values[v]
			tensorLine("input", "arena", pv.Type, pv.Offset, pv.Bytes, "-")
		}
		for _, v := range st.Outputs {
			pv := p.Values[v]
			tensorLine("result", "arena", pv.Type, pv.Offset, pv.Bytes, "-")
		}
		for _, w := range bl.Weights {
			pw := weight[w.Name]
			tensorLine("weight", "weights", pw.Type, pw.Offset, pw.Bytes, w.Name)
		}
		for _, c := range bl.Constants {
			fmt.Fprintf(&b, "  constant %s %d\n", c.Key, len(c.Data))
		}
	}
	b.WriteString("set_weight_loader\n")
	for _, w := range p.Weights {
		if w.Kind == plan.WeightParam {
			fmt.Fprintf(&b, "bind_weight %s weights@%d+%d\n", w.Name, w.Offset, w.Bytes)
			continue
		}
		data, _ := hex.DecodeString(w.Data)
		h := fnv.New64a()
		h.Write(data)
		fmt.Fprintf(&b, "set_weight_bytes weights@%d+%d fnv %016x\n", w.Offset, w.Bytes, h.Sum64())
	}
	b.WriteString("begin\n")
	for _, v := range p.Values {
		if v.Kind == plan.KindStatus {
			fmt.Fprintf(&b, "fill_zero arena@%d+%d\n", v.Offset, v.Bytes)
		}
	}
	kernel := map[string]int{}
	for i, k := range out.Compiled.MSL.Manifest.Kernels {
		kernel[k.Name] = i
	}
	for _, st := range p.Steps {
		switch st.Kind {
		case plan.StepMPS:
			fmt.Fprintf(&b, "mps %d\n", region[st.Index])
		case plan.StepMetal:
			for _, d := range st.Dispatches {
				fmt.Fprintf(&b, "dispatch %d grid %d %d %d threadgroup %d %d %d tgmem %d\n", kernel[d.Kernel],
					d.Grid[0], d.Grid[1], d.Grid[2], d.Threadgroup[0], d.Threadgroup[1], d.Threadgroup[2], d.ThreadgroupMemory)
				for _, bd := range d.Bindings {
					fmt.Fprintf(&b, "  bind %s@%d+%d %s\n", bd.Buffer, bd.Offset, bd.Bytes, bd.Access)
				}
			}
		case plan.StepCopy:
			for _, c := range st.Copies {
				fmt.Fprintf(&b, "copy arena@%d -> arena@%d +%d\n", p.Values[c.From].Offset, p.Values[c.To].Offset, c.Bytes)
			}
		}
	}
	b.WriteString("commit_and_wait\n")
	for _, st := range p.Steps {
		for _, id := range st.Temps {
			if v := p.Values[id]; v.Kind == plan.KindStatus {
				fmt.Fprintf(&b, "check_status arena@%d+%d %s\n", v.Offset, v.Bytes, st.Symbol)
			}
		}
	}
	b.WriteString("destroy\n")
	return b.String()
}

// TestThunkOnlyRuns plans the toy Qwen3.5-like model split so that every
// region is a Metal thunk (min-subgraph-ops above the model's size), and
// links its host module with the CPU implementation of rlx_runtime.h and
// the emitted kernels compiled for the CPU: a C program with nothing of
// Go in it loads the weights by name, writes the inputs at the ports'
// slots, runs, and writes the outputs, which must match the interpreter's
// run of the original function.
func TestThunkOnlyRuns(t *testing.T) {
	cc := tool(t, "clang-19")
	comp, err := mslcpu.NewCompiler()
	if err != nil {
		t.Skip(err)
	}
	cxx := comp.Path()
	s, err := runtimetest.SplitModel(runtimetest.Qwen(0, "", 0), hybridsplit.Options{MinSubgraphOps: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := compile(t, dir, s)
	p := out.Compiled.Plan
	if st := p.Stats(); st.MPSSteps != 0 || st.MetalSteps == 0 {
		t.Fatalf("the split is not Metal thunks only: %+v", st)
	}
	w, in, want, err := s.Reference()
	if err != nil {
		t.Fatal(err)
	}
	// The weights in one file, found by name through a table; the inputs
	// one after another.
	wbuf, err := out.Compiled.LoadWeights(w)
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	for _, pw := range p.Weights {
		if pw.Kind == plan.WeightParam {
			fmt.Fprintf(&table, "  {%q, %d},\n", pw.Name, pw.Offset)
		}
	}
	var inbuf bytes.Buffer
	for _, x := range in {
		data, err := backend.TensorBytes(x)
		if err != nil {
			t.Fatal(err)
		}
		inbuf.Write(data)
	}
	for name, data := range map[string][]byte{"weights.bin": wbuf, "inputs.bin": inbuf.Bytes()} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := "rlx_" + llvmir.CName(p.Function)
	driver := fmt.Sprintf(`#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "%[1]s.h"
static const struct { const char *name; uint64_t offset; } table[] = {
%[2]s};
static unsigned char *weights;
static int load(void *user, const char *name, void *dst, uint64_t bytes) {
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strcmp(table[i].name, name) == 0) { memcpy(dst, weights + table[i].offset, bytes); return 0; }
  return 1;
}
static unsigned char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(n ? n : 1);
  if (fread(b, 1, n, f) != (size_t)n) exit(9);
  fclose(f);
  return b;
}
int main(void) {
  rlx_context *ctx;
  weights = slurp("weights.bin");
  unsigned char *in = slurp("inputs.bin"), *arena;
  if (%[1]s_create(NULL, &ctx)) { fprintf(stderr, "%%s\n", rlx_error(ctx)); return 1; }
  if (%[1]s_bind_weights(ctx, load, NULL)) { fprintf(stderr, "%%s\n", rlx_error(ctx)); return 2; }
  arena = rlx_arena(ctx);
  for (uint32_t i = 0; i < %[1]s_num_inputs; i++) {
    memcpy(arena + %[1]s_inputs[i].offset, in, %[1]s_inputs[i].bytes);
    in += %[1]s_inputs[i].bytes;
  }
  if (%[1]s_run(ctx)) { fprintf(stderr, "%%s\n", rlx_error(ctx)); return 3; }
  FILE *o = fopen("outputs.bin", "wb");
  for (uint32_t i = 0; i < %[1]s_num_outputs; i++) fwrite(arena + %[1]s_outputs[i].offset, 1, %[1]s_outputs[i].bytes, o);
  fclose(o);
  rlx_destroy(ctx);
  return 0;
}
`, f, table.String())
	if err := os.WriteFile(filepath.Join(dir, "driver.c"), []byte(driver), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := mslcpu.WriteSources(dir, out.Compiled.MSL.Source, out.Compiled.MSL.Kernels, mslcpu.Plain)
	if err != nil {
		t.Fatal(err)
	}
	cpu, err := abi.Write(dir, abi.CPU)
	if err != nil {
		t.Fatal(err)
	}
	run(t, dir, cc, "-c", "-O1", "host.ll", "-o", "host.o")
	run(t, dir, cc, "-c", "-std=c11", "-Wall", "-Werror", "-I", dir, "driver.c", "-o", "driver.o")
	args := append(append([]string{}, src.Flags...), "-I", src.Include, "-I", dir, "host.o", "driver.o", cpu[0])
	run(t, dir, cxx, append(append(args, src.Files...), "-o", "prog")...)
	prog := exec.Command(filepath.Join(dir, "prog"))
	prog.Dir = dir
	prog.Env = append(os.Environ(), "RLX_MSL_EXECUTOR=fibers")
	if o, err := prog.CombinedOutput(); err != nil {
		t.Fatalf("the linked host module: %v\n%s", err, o)
	}
	res, err := os.ReadFile(filepath.Join(dir, "outputs.bin"))
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range p.Outputs {
		v := p.Values[o.Value]
		dt, shape, err := backend.ParseType(v.Type)
		if err != nil {
			t.Fatal(err)
		}
		got, err := backend.TensorFromBytes(dt, shape, res[:v.Bytes])
		if err != nil {
			t.Fatal(err)
		}
		res = res[v.Bytes:]
		e := runtimetest.NMSE(got, want[i])
		t.Logf("output %d (%s): NMSE %.3g", i, o.Name, e)
		if e > 1e-6 || math.IsNaN(e) {
			t.Errorf("output %d (%s): NMSE %g against the interpreter", i, o.Name, e)
		}
	}
	t.Logf("%d Metal steps, %d dispatches, from a C program", p.Stats().MetalSteps, p.Stats().Dispatches)
}

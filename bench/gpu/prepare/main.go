// Command prepare writes what bench/gpu/run.sh needs on the GPU machine,
// which has no Go: the emitted MSL, manifests and CUDA sources of three
// suites (small, real, planted), their job files and reference outputs,
// the CUDA shim, the fill check, and the device scripts.
//
//	go run ./bench/gpu/prepare -o /work/main/.devcarry/gpu
//
// With -random N it adds a fourth suite, random: hybrid-split's random
// functions with every op kept native (suite.RandomCases), whose fused
// kernels run on the GPU against the interpreter.
//
// docs/gpu-check.md says how the pieces fit.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rlx-compiler/rlx/bench/gpu/suite"
	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/cuda"
)

func main() {
	out := flag.String("o", "", "directory to write (emptied first)")
	parts := flag.Int("parts", 16, "translation units per suite, for parallel nvcc")
	skipReal := flag.Bool("skip-real", false, "leave out the real-size suite (its reference takes minutes)")
	tune := flag.String("tune", "", "comma-separated decode-threadgroups values: a timed-only suite of the split decode kernels (f16 GEMV, attention decode) for each")
	msl := flag.String("msl-version", "3.1", "the MSL version the suites are emitted for (3.1 or later: bf16 cases); 3.2 folds the split kernels' merges")
	gemv := flag.String("gemv-layout", "auto", "the f16 GEMV's layout ("+strings.Join(metal.GEMVLayouts(), ", ")+"), to time one against another")
	random := flag.Int("random", 0, "a random suite of this many of hybrid-split's random functions, every op a kernel (suite.RandomCases)")
	randomFirst := flag.Int("random-first", 1, "the random suite's first seed")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "prepare: -o DIR is required")
		os.Exit(2)
	}
	if *random < 0 || *randomFirst < 1 {
		fmt.Fprintln(os.Stderr, "prepare: -random wants a count of 0 or more and -random-first a seed of 1 or more")
		os.Exit(2)
	}
	if err := run(*out, *parts, *skipReal, *tune, randomSeeds{int64(*randomFirst), int64(*random)}, metal.Options{MSLVersion: *msl, GEMVLayout: *gemv}); err != nil {
		fmt.Fprintln(os.Stderr, "prepare:", err)
		os.Exit(1)
	}
}

// randomSeeds are the random suite's functions: seeds first to
// first+n-1 (none when n is 0).
type randomSeeds struct{ first, n int64 }

// run writes the suites to dir with mo's MSL version and GEMV layout.
func run(dir string, parts int, skipReal bool, tune string, random randomSeeds, mo metal.Options) error {
	// Checked before dir is emptied, so that a mistyped flag loses nothing.
	if err := metal.CheckMSLVersion(mo.MSLVersion); err != nil {
		return fmt.Errorf("-msl-version: %v", err)
	}
	if err := metal.CheckGEMVLayout(mo.GEMVLayout); err != nil {
		return fmt.Errorf("-gemv-layout: %v", err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := cuda.WriteShim(dir); err != nil {
		return err
	}
	for _, f := range []string{"run.sh", "check.py", "bench.py", "report.py", "ncu.py", "timeline.py"} {
		data, err := os.ReadFile(filepath.Join("bench", "gpu", f))
		if err != nil {
			return fmt.Errorf("%v (run prepare from the repository root)", err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o755); err != nil {
			return err
		}
	}

	t0 := time.Now()
	small, err := suite.Build("small", suite.SmallCases(), suite.Options{Inputs: suite.Seeded, Seed: 1, Parts: parts, Metal: mo})
	if err != nil {
		return err
	}
	if err := small.Write(dir); err != nil {
		return err
	}
	fmt.Printf("small: %d cases, %d kernels (%v)\n", len(small.Cases), len(small.Sources.Kernels), time.Since(t0).Round(time.Millisecond))

	// The planted bugs. A threadgroup_barrier deleted from the threadgroup
	// reduction of rms_norm (the CPU harness's TestCatchDeletedBarrier),
	// for racecheck; and rms_norm's output allocated one element short,
	// for memcheck and the guard bytes.
	var rms suite.Case
	for _, c := range suite.SmallCases() {
		if c.Name == "rms_norm_3x1000" {
			rms = c
		}
	}
	barrier := "  threadgroup_barrier(mem_flags::mem_threadgroup);\n"
	planted, err := suite.Build("planted", []suite.Case{rms}, suite.Options{Inputs: suite.Seeded, Seed: 1, Parts: 1, Metal: mo,
		Edit: func(src string) string { return strings.Replace(src, barrier, "", 1) }})
	if err != nil {
		return err
	}
	if err := planted.Write(dir); err != nil {
		return err
	}
	if err := writeShortJob(dir, small, rms.Name); err != nil {
		return err
	}
	if err := writeFillCheck(dir); err != nil {
		return err
	}

	// The probe: cases that the GPU got wrong, rebuilt with variants of the
	// shim and of nvcc's flags by check.py's probe stage.
	var probe []suite.Case
	for _, c := range suite.SmallCases() {
		if c.Name == "ew_f16_chain" {
			probe = append(probe, c)
		}
	}
	ps, err := suite.Build("probe", probe, suite.Options{Inputs: suite.Seeded, Seed: 1, Parts: 1, Metal: mo})
	if err != nil {
		return err
	}
	if err := ps.Write(dir); err != nil {
		return err
	}

	if random.n > 0 {
		t0 = time.Now()
		cases, err := suite.RandomCases(random.first, random.n)
		if err != nil {
			return err
		}
		rs, err := suite.Build("random", cases, suite.Options{Inputs: suite.Seeded, Parts: parts, Metal: mo, Conditioning: true, ZerosAllowed: true})
		if err != nil {
			return err
		}
		if err := rs.Write(dir); err != nil {
			return err
		}
		fmt.Printf("random: %d cases (seeds %d to %d), %d kernels (%v)\n", len(rs.Cases), random.first, random.first+random.n-1,
			len(rs.Sources.Kernels), time.Since(t0).Round(time.Millisecond))
	}

	if !skipReal {
		t0 = time.Now()
		real, err := suite.Build("real", suite.RealCases(), suite.Options{Inputs: suite.Filled, Parts: parts, Metal: mo})
		if err != nil {
			return err
		}
		if err := real.Write(dir); err != nil {
			return err
		}
		fmt.Printf("real: %d cases, %d kernels (%v)\n", len(real.Cases), len(real.Sources.Kernels), time.Since(t0).Round(time.Millisecond))
		// The sanitizers' subset of the real suite: the cases of the
		// kernels that split their work (GEMV, dequantising GEMV,
		// attention decode), which the full suite's sanitizer runs cover
		// too, at a fraction of racecheck's time.
		n, err := writeJobSubset(dir, real, "real-split", func(kernel string) bool {
			for _, f := range []string{"gemv_", "dequant_gemv_", "attention_decode_", "attention_merge_"} {
				if strings.HasPrefix(kernel, f) {
					return true
				}
			}
			return false
		})
		if err != nil {
			return err
		}
		fmt.Printf("real-split: %d jobs\n", n)
	}
	for _, v := range strings.Split(tune, ",") {
		if v == "" {
			continue
		}
		t, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("-tune: %v", err)
		}
		var cs []suite.Case
		for _, c := range suite.RealCases() {
			if c.Bench != nil && (c.Bench.Group == "attention" || strings.HasPrefix(c.Name, "gemv_f16")) {
				cs = append(cs, c)
			}
		}
		name := fmt.Sprintf("tune%d", t)
		ts, err := suite.Build(name, cs, suite.Options{Inputs: suite.Filled, Parts: 4, NoReference: true,
			Metal: metal.Options{MSLVersion: mo.MSLVersion, GEMVLayout: mo.GEMVLayout, DecodeThreadgroups: t}})
		if err != nil {
			return err
		}
		if err := ts.Write(dir); err != nil {
			return err
		}
		fmt.Printf("%s: %d cases, %d kernels\n", name, len(ts.Cases), len(ts.Sources.Kernels))
	}
	return nil
}

// writeJobSubset writes <name>.jobs: the jobs of s whose dispatches use a
// kernel that keep accepts, with s's kernel table (the runner of s runs
// it). It returns how many jobs it wrote.
func writeJobSubset(dir string, s *suite.Suite, name string, keep func(kernel string) bool) (int, error) {
	var jobs []*cuda.Job
	for i, c := range s.Index.Cases {
		for _, d := range c.Dispatches {
			if keep(d.Kernel) {
				jobs = append(jobs, s.Jobs[i])
				break
			}
		}
	}
	f, err := os.Create(filepath.Join(dir, name+".jobs"))
	if err != nil {
		return 0, err
	}
	if err := cuda.WriteJobs(f, jobs, s.Sources.Kernels); err != nil {
		f.Close()
		return 0, err
	}
	return len(jobs), f.Close()
}

// writeShortJob writes short.jobs: the small suite's job for the named
// case with its output buffer one element short.
func writeShortJob(dir string, s *suite.Suite, name string) error {
	for i, c := range s.Index.Cases {
		if c.Name != name {
			continue
		}
		job := *s.Jobs[i]
		job.Name = name + "_short_output"
		job.Buffers = append([]cuda.Buffer(nil), job.Buffers...)
		out := c.Outputs[0].Buffer
		b := &job.Buffers[out]
		b.Size -= 4
		f, err := os.Create(filepath.Join(dir, "short.jobs"))
		if err != nil {
			return err
		}
		if err := cuda.WriteJobs(f, []*cuda.Job{&job}, s.Sources.Kernels); err != nil {
			f.Close()
			return err
		}
		meta, _ := json.Marshal(map[string]any{"case": name, "buffer": out, "bytes": b.Size})
		if err := os.WriteFile(filepath.Join(dir, "short.json"), meta, 0o644); err != nil {
			return err
		}
		return f.Close()
	}
	return fmt.Errorf("no case %s in the small suite", name)
}

// writeFillCheck writes fillcheck.bin and fillcheck.json: cuda.Fill's
// bytes for every element code, which the device's fill must reproduce.
func writeFillCheck(dir string) error {
	type entry struct {
		Elem   int    `json:"elem"`
		Size   int64  `json:"size"`
		Seed   uint32 `json:"seed"`
		Offset int    `json:"offset"`
	}
	var blob []byte
	var entries []entry
	for e := cuda.F32; e <= cuda.LastElem; e++ {
		size := int64(210 * 144 * 2) // whole blocks of every format
		seed := 1000 + uint32(e)
		entries = append(entries, entry{Elem: int(e), Size: size, Seed: seed, Offset: len(blob)})
		blob = append(blob, cuda.Fill(e, size, seed)...)
	}
	meta, err := json.Marshal(entries)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "fillcheck.json"), meta, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "fillcheck.bin"), blob, 0o644)
}

package suite

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/codegen/metal/cuda"
)

// TestCUDASyntax generates the CUDA sources of both suites and of the
// planted-barrier source and checks them, with the shim and the runtime,
// with clang-19 in CUDA mode (host and device sides). It is what CI can
// check of the device build; bench/gpu/run.sh compiles the same files
// with nvcc on the GPU machine.
func TestCUDASyntax(t *testing.T) {
	dir := t.TempDir()
	if err := cuda.WriteShim(dir); err != nil {
		t.Fatal(err)
	}
	files := []string{"rlx_cuda_runtime.cu", "rlx_cuda_main.cu"}
	for _, s := range []struct {
		name  string
		cases []Case
		msl   string
	}{{"small", SmallCases(), ""}, {"real", RealCases(), ""}, {"small32", SmallCases(), "3.2"}} {
		_, _, srcs, err := Emit(s.name, s.cases, Options{Parts: 1, Metal: metal.Options{MSLVersion: s.msl}})
		if err != nil {
			t.Fatal(err)
		}
		if err := srcs.WriteFiles(dir); err != nil {
			t.Fatal(err)
		}
		files = append(files, srcs.Parts...)
		files = append(files, srcs.Table)
	}
	err := cuda.SyntaxCheck(dir, files...)
	if errors.Is(err, cuda.ErrNoClang) {
		t.Skip("skipping: ", err)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestEditMustChange: a planted edit that misses its target is an error,
// not a planted bug that is silently absent.
func TestEditMustChange(t *testing.T) {
	_, _, _, err := Emit("planted", SmallCases()[:1], Options{Edit: func(s string) string { return s }})
	if err == nil || !strings.Contains(err.Error(), "changed nothing") {
		t.Fatalf("want an error for an edit that changes nothing, got %v", err)
	}
}

// TestDecodeLoadsStayVectors compiles the real suite's attention decodes
// to PTX with clang-19 (LLVM's NVPTX back end, which nvcc's shares) and
// checks that their half K, V and q rows load as vectors: in run 10
// (docs/gpu-check.md) a half4 load assigned to a register declared before
// the loop became four 2-byte loads through the shim's element-wise
// vector assignment, and attention decode ran 1.3 to 1.4 times slower for
// it. It also checks that the K and V loads are not behind branches of
// their own (run 10: 1.36 and 1.48 times slower at 8k and 32k keys): the
// vector loads must sit in at most a quarter as many basic blocks.
func TestDecodeLoadsStayVectors(t *testing.T) {
	kernels := realPTX(t, "attention_decode_gqa_", "rlx_k_attention_decode_")
	for name, body := range kernels {
		if n := strings.Count(body, "ld.global.u16"); n > 0 {
			t.Errorf("%s: %d 2-byte global loads; its half rows should load as vectors", name, n)
		}
		vec := strings.Count(body, "ld.global.u64") + strings.Count(body, "ld.global.v2.u32")
		if vec == 0 {
			t.Errorf("%s: no 8-byte vector loads", name)
		}
		// Guarded loads sit in blocks of their own: count the basic
		// blocks (label to label) that hold a vector load.
		blocks, inBlock := 0, false
		for _, line := range strings.Split(body, "\n") {
			line = strings.TrimSpace(line)
			if strings.HasSuffix(line, ":") {
				inBlock = false
			}
			if (strings.HasPrefix(line, "ld.global.u64") || strings.HasPrefix(line, "ld.global.v2.u32")) && !inBlock {
				blocks++
				inBlock = true
			}
		}
		if blocks > vec/4 {
			t.Errorf("%s: %d vector loads in %d basic blocks: the loads are guarded again", name, vec, blocks)
		}
		t.Logf("%s: %d vector loads in %d basic blocks", name, vec, blocks)
	}
}

// TestNormRowsStayVectors compiles the real suite's rms_norm over 4096
// rows (f32 and f16) to PTX and checks the loads codegen/metal's norm
// chooses: f16 rows load gamma as 8-byte vectors, and x so in the loops
// a launch of another size runs (x in both passes, gamma: 3), gamma in
// the held path too (4); f32 rows load x as 16-byte vectors in the sum
// pass and x and gamma element by element in the output pass, which was
// 17% faster on the H100 than float4 there (run 37e). The held path's x
// (hv[j] = x4[i], four half4 a thread) is 16 element-wise 2-byte loads
// under CUDA: the shim's vector assignment copies element by element
// (rlx_types.h, an nvcc 13.0 miscompile of the byte copy), as y4[i] = o
// is four stores, where Metal's compiler has one vector load and one
// store; run 38b timed the kernel so (28.5 µs on the H100, against
// torch's 28.9). Any other element-wise load fails (run 10's element-wise
// half4 loads, TestDecodeLoadsStayVectors, would show here as more
// 2-byte ones).
func TestNormRowsStayVectors(t *testing.T) {
	kernels := realPTX(t, "rms_norm_rows_", "rlx_k_rms_norm_")
	if len(kernels) != 2 {
		t.Fatalf("%d rms_norm kernels in the rows cases, want 2 (f32, f16)", len(kernels))
	}
	for name, body := range kernels {
		count := func(ops ...string) int {
			n := 0
			for _, op := range ops {
				n += strings.Count(body, op+" ")
			}
			return n
		}
		scalar := count("ld.global.f32", "ld.global.u16", "ld.global.b16")
		vector := count("ld.global.v4.f32", "ld.global.u64", "ld.global.v2.u32", "ld.global.v4.u16", "ld.global.v4.b16")
		f32 := count("ld.global.v4.f32", "ld.global.f32") > 0
		switch {
		case f32 && (scalar != 2 || vector < 1):
			t.Errorf("%s (f32 rows): %d element-wise global loads, %d vector loads; want 2 (x and gamma in the output pass) and at least 1 (x in the sum pass)", name, scalar, vector)
		case !f32 && (scalar != 16 || vector < 7):
			t.Errorf("%s (f16 rows): %d element-wise global loads, %d vector loads; want 16 (the held path's four half4 of x) and at least 7 (the loops' x in both passes and gamma, the held path's four of gamma)", name, scalar, vector)
		}
		t.Logf("%s: %d vector loads", name, vector)
	}
}

// TestStagedDequantLoadsFirst compiles the real suite's q4_k and q6_k
// GEMVs, whose rows are staged through threadgroup memory (codegen/metal
// dequant_stage.go), to PTX and checks that each stage's copy is 16-byte
// loads, all issued before the first store to shared memory: the point
// of staging is many bytes in flight a thread, which a copy that loads
// and stores one unit at a time, or in narrower pieces, loses. A thread
// copies 9 units a stage in q4_k's kernels (eight rows of 16 blocks) and
// 7 in q6_k's (eight rows of 8 blocks, the next stage's loaded during
// this stage's decode).
func TestStagedDequantLoadsFirst(t *testing.T) {
	for _, f := range []struct {
		format string
		units  int
	}{{"q4_k", 9}, {"q6_k", 7}} {
		kernels := realPTX(t, "dequant_gemv_"+f.format+"_", "rlx_k_dequant_gemv_"+f.format+"_")
		for name, body := range kernels {
			if strings.HasPrefix(name, "rlx_k_dequant_gemv_q6_k_c16") {
				continue // not staged: q6_k_c16's columns (dequant_columns.go)
			}
			checkStagedLoads(t, name, body, f.units)
		}
	}
	// The MoE cases' experts, all chosen ones in one dispatch
	// (codegen/metal experts.go), share the staged body; their rows are
	// one stage, on four rows (dqLayoutOf): four rows of 8 blocks, 5
	// units a thread.
	kernels := realPTX(t, "moe_experts_q4_k_", "rlx_k_dequant_gemv_q4_k_experts_")
	if len(kernels) != 2 {
		t.Errorf("%d batched q4_k expert kernels in moe_experts_q4_k_*, want 2 (top 2, top 10)", len(kernels))
	}
	for name, body := range kernels {
		checkStagedLoads(t, name, body, 5)
	}
}

// checkStagedLoads fails when a staged GEMV's weights come in 1- or
// 2-byte global loads, or when fewer than units 16-byte loads are issued
// before a store to shared memory in one basic block.
func checkStagedLoads(t *testing.T, name, body string, units int) {
	t.Helper()
	if n := strings.Count(body, "ld.global.u16") + strings.Count(body, "ld.global.u8"); n > 0 {
		t.Errorf("%s: %d 1- or 2-byte global loads; the staged rows should load 16 bytes at a time", name, n)
	}
	// The longest run of 16-byte weight loads before a shared store in
	// one basic block.
	best, run := 0, 0
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasSuffix(line, ":") || strings.HasPrefix(line, "st.shared"):
			run = 0
		case strings.HasPrefix(line, "ld.global.v4.u32") || strings.HasPrefix(line, "ld.global.nc.v4.u32"):
			run++
			best = max(best, run)
		}
	}
	if best < units {
		t.Errorf("%s: at most %d 16-byte loads before a shared store; a stage's copy has %d a thread", name, best, units)
	}
	t.Logf("%s: %d 16-byte loads in flight before a store", name, best)
}

// TestColumnsLoads compiles the real suite's q6_k_c16 GEMVs
// (codegen/metal dequant_columns.go) to PTX and checks that a lane's
// loads of a weight row are what the layout is for: the column's low
// nibbles one 8-byte load, its top bits one 4-byte load, its scale a byte
// and d two bytes, for each of the four rows loaded ahead and the four
// loaded in the row loop. The CUDA shim's vector assignment copies
// element by element, which once split the 8-byte load in two.
func TestColumnsLoads(t *testing.T) {
	kernels := realPTX(t, "dequant_gemv_q6_k_c16_", "rlx_k_dequant_gemv_q6_k_c16_")
	if len(kernels) != 3 {
		t.Fatalf("%d q6_k_c16 kernels, want 3", len(kernels))
	}
	for name, body := range kernels {
		count := func(op string) int { return strings.Count(body, op+" ") + strings.Count(body, op+"\t") }
		got := [4]int{count("ld.global.u64") + count("ld.global.nc.u64") + count("ld.global.v2.u32") + count("ld.global.nc.v2.u32"),
			count("ld.global.u32") + count("ld.global.nc.u32"), count("ld.global.u8") + count("ld.global.nc.u8"),
			count("ld.global.u16") + count("ld.global.nc.u16")}
		if want := [4]int{8, 8, 8, 8}; got != want {
			t.Errorf("%s: 8-, 4-, 1- and 2-byte global loads %v, want %v", name, got, want)
		}
	}
}

// realPTX compiles the real suite's cases named casePrefix… to PTX with
// clang-19 (LLVM's NVPTX back end, which nvcc's shares) and returns the
// bodies of the kernels named kernelPrefix…, by name; it skips without
// clang-19 and fails when no case or kernel matches.
func realPTX(t *testing.T, casePrefix, kernelPrefix string) map[string]string {
	t.Helper()
	var cases []Case
	for _, c := range RealCases() {
		if strings.HasPrefix(c.Name, casePrefix) {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		t.Fatalf("no %s case in the real suite", casePrefix)
	}
	return casesPTX(t, cases, kernelPrefix)
}

// casesPTX compiles cases to PTX with clang-19 and returns the bodies of
// the kernels named kernelPrefix…, by name; it skips without clang-19 and
// fails when no kernel matches.
func casesPTX(t *testing.T, cases []Case, kernelPrefix string) map[string]string {
	t.Helper()
	clang, err := exec.LookPath("clang-19")
	if err != nil {
		t.Skip("skipping: ", cuda.ErrNoClang)
	}
	dir := t.TempDir()
	if err := cuda.WriteShim(dir); err != nil {
		t.Fatal(err)
	}
	_, _, srcs, err := Emit("real", cases, Options{Parts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := srcs.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	var flags []string
	for _, f := range cuda.ClangFlags {
		if f != "-fsyntax-only" {
			flags = append(flags, f)
		}
	}
	ptx := filepath.Join(dir, "part.ptx")
	args := append(flags, "--cuda-device-only", "-O3", "-S", "-I", dir, filepath.Join(dir, srcs.Parts[0]), "-o", ptx)
	if out, err := exec.Command(clang, args...).CombinedOutput(); err != nil {
		t.Fatalf("clang-19 %v: %v\n%s", args, err, out)
	}
	text, err := os.ReadFile(ptx)
	if err != nil {
		t.Fatal(err)
	}
	kernels := map[string]string{}
	for _, entry := range strings.Split(string(text), ".entry ")[1:] {
		name := entry[:strings.IndexAny(entry, "( \n")]
		if strings.HasPrefix(name, kernelPrefix) {
			kernels[name] = entry[:strings.Index(entry, "\n}")]
		}
	}
	if len(kernels) == 0 {
		t.Fatalf("no %s kernel in the PTX", kernelPrefix)
	}
	return kernels
}

// TestQ8WordLoads compiles the real q8_0 GEMVs (rows of 128 and 448
// blocks: even, so read as 4-byte words, dqLaneQ8_0Words) to PTX and
// fails when their quants come in 2-byte loads again: only each block's
// scale d is a 2-byte load, one a row and block slot (four rows, and the
// four slots of a step, the three of the tail step and the rest loop's
// one: dqSlotsOf and dqTailOf, unexported in codegen/metal), against five
// 4-byte loads a row and slot. The 448-block rows of 14336 are staged
// (seven stages of 64 blocks, dqLongStages): that kernel must read its
// weights in 16-byte loads and its quants from threadgroup memory as
// 4-byte words, with no 2-byte global load at all.
func TestQ8WordLoads(t *testing.T) {
	kernels := realPTX(t, "dequant_gemv_q8_0_", "rlx_k_dequant_gemv_q8_0_")
	const rows, slots = 4, 4 + 3 + 1
	staged := 0
	for name, body := range kernels {
		u16 := strings.Count(body, "ld.global.u16") + strings.Count(body, "ld.global.nc.u16")
		u32 := strings.Count(body, "ld.global.u32") + strings.Count(body, "ld.global.nc.u32")
		if strings.Contains(body, "ld.shared.u32") {
			staged++
			v4 := strings.Count(body, "ld.global.v4.u32") + strings.Count(body, "ld.global.nc.v4.u32")
			if u16 > 0 || u32 > 0 || v4 == 0 {
				t.Errorf("%s (staged): %d 2-byte, %d 4-byte and %d 16-byte global loads; want 16-byte ones only", name, u16, u32, v4)
			}
			t.Logf("%s (staged): %d 16-byte global loads", name, v4)
			continue
		}
		if u16 > rows*slots {
			t.Errorf("%s: %d 2-byte global loads, more than the %d scales", name, u16, rows*slots)
		}
		if u32 < 5*rows*slots {
			t.Errorf("%s: %d 4-byte global loads, fewer than five a row and slot (%d)", name, u32, 5*rows*slots)
		}
		t.Logf("%s: %d 2-byte and %d 4-byte global loads", name, u16, u32)
	}
	if staged != 1 {
		t.Errorf("%d staged q8_0 kernels, want 1 (14336×4096)", staged)
	}
}

var updatePTX = flag.Bool("update-ptx", false, "rewrite testdata/ptx.txt from the emitted kernels")

// TestTimedKernelsPTX compiles every kernel the real suite times (the
// cases with a Bench) to PTX with clang-19 and compares its count of
// PTX instructions with testdata/ptx.txt, exactly. A static count is not
// what a kernel executes (ncu's counts, on the device, are), but the
// decode kernels were tuned instruction by instruction (docs/gpu-check.md,
// runs 11 to 30) and CI never runs the GPU: a change to the emitter or
// the CUDA shim that grows a timed kernel shows here, in review, as a
// changed line (go test ./bench/gpu/suite -run TestTimedKernelsPTX
// -update-ptx rewrites it).
func TestTimedKernelsPTX(t *testing.T) {
	var cases []Case
	for _, c := range RealCases() {
		if c.Bench != nil {
			cases = append(cases, c)
		}
	}
	kernels := casesPTX(t, cases, "rlx_k_")
	_, out, _, err := Emit("real", cases, Options{Parts: 1})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("# PTX instructions (clang-19 -O3, sm_90) of the real suite's timed kernels, by case: TestTimedKernelsPTX\n")
	for _, r := range out.Manifest.Regions {
		ds := r.Dispatches
		for i := 0; i < len(ds); {
			body, ok := kernels["rlx_k_"+ds[i].Kernel]
			if !ok {
				t.Fatalf("%s: no PTX for kernel %s", r.Function, ds[i].Kernel)
			}
			j := i + 1
			for j < len(ds) && ds[j].Kernel == ds[i].Kernel {
				j++
			}
			fmt.Fprintf(&b, "%s %s %d", r.Function, ds[i].Kernel, ptxInstructions(body))
			if j-i > 1 {
				fmt.Fprintf(&b, " (%d dispatches)", j-i)
			}
			b.WriteString("\n")
			i = j
		}
	}
	path := filepath.Join("testdata", "ptx.txt")
	if *updatePTX {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("PTX instruction counts differ from %s (-want +got); if the change is meant, rerun with -update-ptx and say why in the commit:\n%s", path, diff)
	}
}

// ptxInstructions counts the instructions of a PTX kernel body: the
// statements that end in ';' and are not directives (.reg, .shared, …).
func ptxInstructions(body string) int {
	n := 0
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasSuffix(line, ";") && !strings.HasPrefix(line, ".") && !strings.HasPrefix(line, "//") {
			n++
		}
	}
	return n
}

package importer_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/models/importer"
	"github.com/rlx-compiler/rlx/models/rlximport"
	"github.com/rlx-compiler/rlx/optdriver"
	"github.com/rlx-compiler/rlx/runtime/ref/run"
)

// TestDrawnOnSim takes the drawn Llama 4, DeepSeek-V3 and DeepSeek-V2
// checkpoints and a desc_act GPTQ Qwen3 the whole way, as the docs' commands do: rlx-import, rlx-opt
// --hybrid-split, then rlx-run decoding eight tokens through the sim
// backend (the emitted MSL compiled with clang-19 and run on the CPU,
// guard bytes after every value) against the unsplit module in the
// interpreter, within 1e-4. Their new pieces reach the kernels: Llama 4's
// chunk mask and temperature tuning (i32 division, log), DeepSeek's
// latent attention (one kv head, values a slice of the cache, Dv ≠ D)
// and group-limited routing (V3's and V2's); the GPTQ checkpoint's x
// gathered by its columns' order before q5_0 dequant_matmuls.
func TestDrawnOnSim(t *testing.T) {
	if _, err := exec.LookPath("clang-19"); err != nil {
		t.Skip("clang-19 not found: the sim backend compiles the emitted MSL with it")
	}
	for name, dir := range importer.DrawnCheckpoints(t) {
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			full, split := filepath.Join(tmp, "m.mlir"), filepath.Join(tmp, "split.mlir")
			var out, errs bytes.Buffer
			if rc := rlximport.Main([]string{dir, "-o", full, "--max-tokens", "16"}, &out, &errs); rc != 0 {
				t.Fatalf("rlx-import: %s", errs.String())
			}
			if rc := optdriver.Main([]string{"--hybrid-split", full, "-o", split}, nil, &out, &errs); rc != 0 {
				t.Fatalf("rlx-opt: %s", errs.String())
			}
			out.Reset()
			if rc := run.Main([]string{split, "--weights", dir, "--tokens", "1,17,42,200,5,99,255,128", "--backend", "sim", "--guard", "64",
				"--compare-with", full, "--tolerance", "1e-4"}, nil, &out, &errs); rc != 0 {
				t.Fatalf("rlx-run: %s%s", out.String(), errs.String())
			}
			i := strings.LastIndex(out.String(), "result 0")
			if i < 0 || !strings.Contains(out.String(), "max-abs-diff") {
				t.Fatalf("rlx-run printed no comparison:\n%s", out.String())
			}
			t.Log(strings.TrimSpace(out.String()[i:]))
		})
	}
}

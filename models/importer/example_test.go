package importer_test

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/models/importer"
	"github.com/rlx-compiler/rlx/runtime/decode"
	"github.com/rlx-compiler/rlx/runtime/ref"
)

// Import a transformers checkpoint and decode three tokens through the
// reference interpreter, reading the weights from the checkpoint itself.
func ExampleImportHF() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := importer.ImportHF(ctx, "testdata/hf/qwen3", importer.Options{MaxTokens: 16})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Source.Close()
	p, err := ref.Compile(m.Module, "decode")
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := decode.New(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	logits, err := d.Run([]int{1, 17, 42}, m.Source)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Arch, logits.Type(), d.States()[:2])
	// Output:
	// Qwen3ForCausalLM tensor<3x256xf32> [l0.k_cache l0.v_cache]
}

// Import a llama.cpp GGUF file (a small Phi-3 in Q8_0 with a sliding
// window of 3) and list what the module binds: the quantised matrices
// stay quantised (graph.dequant_matmul reads their blocks), the fused
// attn_qkv and ffn_up ([gate; up]) are sliced after their projections.
func ExampleImportGGUF() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := importer.ImportGGUF(ctx, "testdata/gguf/phi3-q8_0.gguf", importer.Options{MaxTokens: 16})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Source.Close()
	info, _ := m.Source.Info("blk.0.attn_qkv.weight")
	fmt.Println(m.Arch, len(m.Weights), "weights;", info)
	// Output:
	// phi3 27 weights; Q8_0 [128, 64]
}

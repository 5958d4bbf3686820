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

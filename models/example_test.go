package models_test

import (
	"fmt"

	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/models"
)

// Build the Qwen3.5-like decode step at hidden 1024 (every other size is
// derived from it) and look at its interface and ops.
func ExampleQwen35() {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	cfg := models.DefaultQwen35()
	cfg.Hidden = 1024
	m, err := models.Qwen35(ctx, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range m.Inputs[:6] {
		fmt.Println("input ", p.Name, p.Type)
	}
	fmt.Println("output", m.Outputs[0].Name, m.Outputs[0].Type)
	counts, total := m.OpCounts()
	fmt.Println(total, "ops:", counts["graph.gated_delta_net"], "delta nets,", counts["graph.attention"], "attention,",
		counts["graph.dequant_matmul"], "q8_0 projections")

	cfg.Heads = 5
	_, err = models.Qwen35(ctx, cfg)
	fmt.Println(err)
	// Output:
	// input  token tensor<1x1xi32>
	// input  pos tensor<1xi32>
	// input  cos tensor<1x32xf32>
	// input  sin tensor<1x32xf32>
	// input  l0.conv_state tensor<1x3x2048xf32>
	// input  l0.ssm_state tensor<1x4x256x256xf32>
	// output logits tensor<1x256xf32>
	// 269 ops: 3 delta nets, 1 attention, 25 q8_0 projections
	// qwen35: kv-heads = 2 does not divide heads = 5; heads = 5 does not divide hidden = 1024 (set head-dim to choose the head size)
}

package dot

import (
	"fmt"

	"github.com/rlx-compiler/rlx/codegen/translation"
	"github.com/rlx-compiler/rlx/dialect/fn"
	"github.com/rlx-compiler/rlx/passes/viewopgraph"
)

// Translation returns the mlir-to-dot translation.
func Translation() *translation.Translation {
	return &translation.Translation{
		Name:    "mlir-to-dot",
		Summary: "Draw each function as a Graphviz DOT graph (the view-op-graph drawing)",
		Options: []translation.Option{{
			Name: "dot-color-by", Value: "<op|region>", Default: "region",
			Help: "What a node's colour depends on: its op name, or the region op holding it",
			Check: func(v string) error {
				if v != "op" && v != "region" {
					return fmt.Errorf("'%s' is not a valid value (expected one of: op, region)", v)
				}
				return nil
			},
		}},
		Run: run,
	}
}

func run(req *translation.Request) error {
	o := viewopgraph.DefaultOptions()
	o.ColorBy = req.Opt("dot-color-by")
	n := 0
	for op, skip := range req.Module.PreOrder() {
		if op.Name() != fn.FuncName {
			continue
		}
		skip()
		if err := viewopgraph.Write(req.Out, op, o); err != nil {
			return err
		}
		n++
	}
	if n == 0 {
		return fmt.Errorf("'%s' op holds no functions to draw", req.Module.Name())
	}
	return nil
}

package hybridsplit_test

import (
	"fmt"

	"github.com/rlx-compiler/rlx/asm"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
)

// layer is a small function: a matmul and an add MPSGraph can run, then a
// Q8_0 matmul it cannot, then an exp it can.
const layer = `func.func @f(%x: tensor<1x32xf32>, %q: tensor<1088xui8>) -> tensor<1x32xf32> {
  %w = graph.param "w" : tensor<32x32xf32>
  %0 = graph.matmul %x, %w : (tensor<1x32xf32>, tensor<32x32xf32>) -> tensor<1x32xf32>
  %1 = graph.add %0, %x : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %2 = graph.dequant_matmul %1, %q {format = "q8_0", k = 32 : i64, n = 32 : i64} : (tensor<1x32xf32>, tensor<1088xui8>) -> tensor<1x32xf32>
  %3 = graph.exp %2 : (tensor<1x32xf32>) -> tensor<1x32xf32>
  return %3 : tensor<1x32xf32>
}`

// firstFunc parses src and returns its first func.func.
func firstFunc(src string) (*ir.Operation, error) {
	ctx := ir.NewContext()
	dialect.RegisterAll(ctx)
	m, err := asm.Parse(ctx, "layer.mlir", []byte(src), asm.Options{})
	if err != nil {
		return nil, err
	}
	return m.Op.Region(0).First().First(), nil
}

// ExampleSplit splits one function in place and prints what the Result
// reports: three regions, MPS then native then MPS.
func ExampleSplit() {
	f, err := firstFunc(layer)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := hybridsplit.Split(f, hybridsplit.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("regions: %d mps, %d thunk\n", res.MPSRegions, res.ThunkRegions)
	fmt.Printf("ops: %d mps, %d thunk (coverage %.0f%%)\n", res.MPSOps, res.ThunkOps, 100*res.Coverage())
	fmt.Printf("boundary: %d values, %d bytes\n", res.BoundaryValues, res.BoundaryBytes)
	for op := range f.Region(0).First().Ops() {
		fmt.Println(op.Name())
	}
	// Output:
	// regions: 2 mps, 1 thunk
	// ops: 3 mps, 1 thunk (coverage 75%)
	// boundary: 3 values, 384 bytes
	// mps.subgraph
	// thunk.call
	// mps.subgraph
	// func.return
}

// ExampleSplit_options shows the options: native-ops keeps graph.exp
// native, so the last MPS region disappears into the thunk before it, and
// an unknown mode is an error, as on the command line.
func ExampleSplit_options() {
	f, err := firstFunc(layer)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := hybridsplit.Split(f, hybridsplit.Options{NativeOps: []string{"exp"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("regions: %d mps, %d thunk\n", res.MPSRegions, res.ThunkRegions)

	_, err = hybridsplit.Split(f, hybridsplit.Options{Mode: "fastest"})
	fmt.Println(err)
	// Output:
	// regions: 1 mps, 1 thunk
	// hybrid-split: mode: 'fastest' is not a valid value (expected one of: dependency, seed)
}

// ExampleNativeSet checks native-ops names: the dialect prefix may be left
// out, and leaves are not compute ops.
func ExampleNativeSet() {
	set, err := hybridsplit.NativeSet([]string{"softmax", "graph.rms_norm"})
	fmt.Println(len(set), set["graph.softmax"], set["graph.rms_norm"], err)
	_, err = hybridsplit.NativeSet([]string{"graph.param"})
	fmt.Println(err)
	// Output:
	// 2 true true <nil>
	// native-ops: 'graph.param' is not a graph compute op
}

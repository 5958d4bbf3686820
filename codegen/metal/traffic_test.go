package metal_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/dialect"
	"github.com/rlx-compiler/rlx/dialect/thunk"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/models"
	"github.com/rlx-compiler/rlx/passes/hybridsplit"
)

var updateTraffic = flag.Bool("update-traffic", false, "rewrite testdata/traffic.md")

// bandwidth is an M2 Max's device-memory bandwidth, bytes per second.
const bandwidth = 400e9

// TestTraffic writes the traffic table of a Qwen3.5-like decode step at
// hidden 1024 with q4_k weights (testdata/traffic.md, quoted in
// docs/codegen-metal.md) and checks the target: the Metal kernels move at
// most 1.25 times the minimum.
func TestTraffic(t *testing.T) {
	for _, layers := range []int{4, 24} {
		ctx := ir.NewContext()
		dialect.RegisterAll(ctx)
		cfg := models.DefaultQwen35()
		cfg.Hidden, cfg.Layers, cfg.Quant = 1024, layers, "q4_k"
		m, err := models.Qwen35(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := hybridsplit.Split(m.Func().Op, hybridsplit.Options{}); err != nil {
			t.Fatal(err)
		}
		out, err := metal.Emit(m.Module, metal.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var modelWeights int64
		for _, p := range m.Params {
			n := int64(1)
			for _, d := range p.Type.Shape {
				n *= d
			}
			modelWeights += n * int64(ir.ElemBytes(p.Type.Elem))
		}
		table, ratio := trafficTable(m, out, modelWeights)
		if ratio > 1.25 {
			t.Errorf("%d layers: traffic is %.3f× the minimum, over the 1.25× target", layers, ratio)
		}
		path := fmt.Sprintf("testdata/traffic-%dl.md", layers)
		if *updateTraffic {
			if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update-traffic to create it)", err)
		}
		if string(want) != table {
			t.Errorf("%s is stale (run with -update-traffic to refresh it); got:\n%s", path, table)
		}
	}
}

func trafficTable(m *models.Model, out *metal.Output, modelWeights int64) (string, float64) {
	var b strings.Builder
	ops := map[string]string{}
	for op := range m.Func().Body().Ops() {
		c, ok := thunk.AsCall(op)
		if !ok {
			continue
		}
		var names []string
		for inner := range c.Body().Ops() {
			if inner.Name() != thunk.YieldName && inner.Name() != "graph.param" && inner.Name() != "graph.constant" {
				names = append(names, strings.TrimPrefix(inner.Name(), "graph."))
			}
		}
		ops[c.Symbol()] = strings.Join(names, ", ")
	}
	kernelsOf := map[string][]string{}
	for _, r := range out.Manifest.Regions {
		for _, d := range r.Dispatches {
			kernelsOf[r.Symbol] = append(kernelsOf[r.Symbol], d.Kernel)
		}
	}
	b.WriteString("| region | ops | kernels | read | written | minimum | × min |\n|---|---|---|---:|---:|---:|---:|\n")
	var read, written, minimum, weights int64
	dispatches := 0
	for _, r := range out.Manifest.Traffic() {
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d | %.3f |\n", r.Symbol, ops[r.Symbol], strings.Join(kernelsOf[r.Symbol], " "),
			r.Read, r.Written, r.Min, float64(r.Read+r.Written)/float64(r.Min))
		read += r.Read
		written += r.Written
		minimum += r.Min
		weights += r.Weights
		dispatches += r.Dispatches
	}
	ratio := float64(read+written) / float64(minimum)
	fmt.Fprintf(&b, "| **total** | %d regions | %d dispatches, %d kernels | %d | %d | %d | %.3f |\n\n",
		len(out.Manifest.Regions), dispatches, len(out.Kernels), read, written, minimum, ratio)
	us := func(bytes int64) float64 { return float64(bytes) / bandwidth * 1e6 }
	fmt.Fprintf(&b, "- Metal kernels: %d bytes moved, %.1f µs at 400 GB/s; the minimum %d bytes, %.1f µs.\n", read+written, us(read+written), minimum, us(minimum))
	fmt.Fprintf(&b, "- Weights in Metal regions: %d bytes; all weights of the step (MPS regions' too): %d bytes, a bound of %.1f µs at 400 GB/s.\n", weights, modelWeights, us(modelWeights))
	return b.String(), ratio
}

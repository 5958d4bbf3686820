package mlirdiff

import (
	"github.com/rlx-compiler/rlx/passes"
	"github.com/rlx-compiler/rlx/pipeline"
)

// registry holds rlx's passes, as rlx-opt registers them.
var registry = pipeline.NewRegistry(passes.All()...)

const (
	aggressive = "builtin.module(canonicalize{region-simplify=aggressive})"
	combined   = "builtin.module(func.func(cse,canonicalize),symbol-dce)"
	viewOpts   = "builtin.module(view-op-graph{print-control-flow-edges print-attrs=false print-result-types=false max-label-len=5})"
	viewNoData = "builtin.module(view-op-graph{print-data-flow-edges=false max-label-len=0})"
)

// cases are run in this order. The rlx/ inputs are rlx's own and always
// run; the upstream/ and derived/ ones are not committed and run when
// present (see testdata/mlir/README.md). Case names are oracle file
// stems: those of uncommitted inputs end in -upstream or -derived, which
// .gitignore matches.
var cases = []diffCase{
	{name: "cse-func", input: "rlx/cse.mlir", pipeline: "builtin.module(func.func(cse))"},
	{name: "cse-module", input: "rlx/cse.mlir", pipeline: "builtin.module(cse)"},
	{name: "canonicalize", input: "rlx/canonicalize.mlir", pipeline: "builtin.module(canonicalize)"},
	{name: "canonicalize-func", input: "rlx/canonicalize.mlir", pipeline: "builtin.module(func.func(canonicalize))"},
	{name: "canonicalize-aggressive", input: "rlx/canonicalize.mlir", pipeline: aggressive},
	{name: "canonicalize-no-region-simplify", input: "rlx/canonicalize.mlir",
		pipeline: "builtin.module(canonicalize{region-simplify=disabled})"},
	{name: "canonicalize-bottom-up", input: "rlx/canonicalize.mlir", pipeline: "builtin.module(canonicalize{top-down=false})"},
	{name: "cse-canonicalize-symbol-dce", input: "rlx/canonicalize.mlir", pipeline: combined},
	{name: "symbol-dce", input: "rlx/symbol-dce.mlir", pipeline: "builtin.module(symbol-dce)"},
	{name: "symbol-dce-nested", input: "rlx/symbol-dce.mlir", pipeline: "builtin.module(builtin.module(symbol-dce))"},
	{name: "strip-debuginfo", input: "rlx/strip-debuginfo.mlir", pipeline: "builtin.module(strip-debuginfo)", debugInfo: true},
	{name: "strip-debuginfo-func", input: "rlx/strip-debuginfo.mlir",
		pipeline: "builtin.module(func.func(strip-debuginfo))", debugInfo: true},
	{name: "topological-sort", input: "rlx/topological-sort.mlir", pipeline: "builtin.module(topological-sort)"},
	{name: "print-op-stats", input: "rlx/op-graph.mlir", pipeline: "builtin.module(print-op-stats)", stderr: true},
	{name: "print-op-stats-json", input: "rlx/op-graph.mlir", pipeline: "builtin.module(print-op-stats{json})", stderr: true},
	{name: "view-op-graph", input: "rlx/op-graph.mlir", pipeline: "builtin.module(view-op-graph)", stderr: true},
	{name: "view-op-graph-options", input: "rlx/op-graph.mlir", pipeline: viewOpts, stderr: true},
	{name: "view-op-graph-no-data-flow", input: "rlx/op-graph.mlir", pipeline: viewNoData, stderr: true},
	{name: "view-op-graph-func", input: "rlx/op-graph.mlir", pipeline: "builtin.module(func.func(view-op-graph))", stderr: true},

	{name: "canonicalize-dce-upstream", input: "upstream/canonicalize-dce.mlir", upstream: true,
		pipeline: "builtin.module(func.func(canonicalize{region-simplify=aggressive}))"},
	{name: "symbol-dce-upstream", input: "upstream/test-symbol-dce.mlir", upstream: true, pipeline: "builtin.module(symbol-dce)"},
	{name: "symbol-dce-upstream-nested", input: "upstream/test-symbol-dce.mlir", upstream: true,
		pipeline: "builtin.module(builtin.module(symbol-dce))"},
	{name: "strip-debuginfo-upstream", input: "upstream/strip-debuginfo.mlir", upstream: true,
		pipeline: "builtin.module(strip-debuginfo)", debugInfo: true, local: true},

	{name: "cse-func-derived", input: "derived/cse.mlir", optional: true, pipeline: "builtin.module(func.func(cse))"},
	{name: "cse-module-derived", input: "derived/cse.mlir", optional: true, pipeline: "builtin.module(cse)"},
	{name: "canonicalize-derived", input: "derived/canonicalize.mlir", optional: true, pipeline: "builtin.module(canonicalize)"},
	{name: "canonicalize-func-derived", input: "derived/canonicalize.mlir", optional: true,
		pipeline: "builtin.module(func.func(canonicalize))"},
	{name: "canonicalize-aggressive-derived", input: "derived/canonicalize.mlir", optional: true, pipeline: aggressive},
	{name: "canonicalize-bottom-up-derived", input: "derived/canonicalize.mlir", optional: true,
		pipeline: "builtin.module(canonicalize{top-down=false})"},
	{name: "cse-canonicalize-symbol-dce-derived", input: "derived/canonicalize.mlir", optional: true, pipeline: combined},
	{name: "symbol-dce-derived", input: "derived/symbol-dce.mlir", optional: true, pipeline: "builtin.module(symbol-dce)"},
	{name: "symbol-dce-nested-derived", input: "derived/symbol-dce.mlir", optional: true,
		pipeline: "builtin.module(builtin.module(symbol-dce))"},
	{name: "strip-debuginfo-derived", input: "derived/strip-debuginfo.mlir", optional: true,
		pipeline: "builtin.module(strip-debuginfo)", debugInfo: true},
	{name: "topological-sort-derived", input: "derived/topological-sort.mlir", optional: true,
		pipeline: "builtin.module(topological-sort)"},
}

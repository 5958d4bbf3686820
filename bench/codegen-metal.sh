#!/usr/bin/env bash
# Emission time of codegen/metal against parse time.
#
# usage: bench/codegen-metal.sh [LAYERS]     (default 3300: about 10^5 ops)
#
# Generates a decode-step graph with ../shared/bench/gen_decode.py ($GEN_DECODE)
# (--gdn-every 4), splits it with rlx-opt --hybrid-split, and runs the Go
# benchmarks of codegen/metal on the two files: parsing the input graph,
# parsing the split graph, emitting the kernels and manifest in memory, and
# emitting and writing them. COUNT (default 5) repetitions of each.
set -euo pipefail
cd "$(dirname "$0")/.."
layers=${1:-3300}
work=${TMPDIR:-/tmp}/rlx-bench-codegen-metal
mkdir -p "$work"
go build -o "$work/" ./tools/rlx-opt
python3 "${GEN_DECODE:-../shared/bench/gen_decode.py}" "$layers" --gdn-every 4 > "$work/input.mlir"
"$work/rlx-opt" --hybrid-split "$work/input.mlir" -o "$work/split.mlir"
echo "graph ops: $(grep -cE '= "?graph\.' "$work/input.mlir"); thunk.call regions: $(grep -c 'thunk.call' "$work/split.mlir")"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
RLX_BENCH_INPUT=$work/input.mlir RLX_BENCH_SPLIT=$work/split.mlir \
	go test ./codegen/metal/ -run '^$' -bench 'ParseInput|ParseSplit|Emit' -benchtime "${BENCHTIME:-1x}" -count "${COUNT:-5}" -benchmem
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"

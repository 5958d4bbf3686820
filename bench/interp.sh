#!/usr/bin/env bash
# Measures the reference interpreter (runtime/ref) on a Qwen3.5-like decode
# step at hidden 1024 with 8 layers and prints:
#
#   - tokens/s (decode steps per second) through the interpreter, and
#     cpu-ms/token (CPU time per step, which stays meaningful when other
#     work shares the machine);
#   - GFLOP/s of the step's matmuls: over the whole step, over the time
#     spent in the matmul kernels alone, and per CPU-second;
#   - the same matmuls called directly on the kernels (no interpreter), a
#     plain triple-loop Go matmul, and the machine's peak estimate (the
#     method of bench/kernels.sh);
#   - the wall and CPU time of rlx-run on the model file (parse, verify,
#     compile, seeded weights, one step) and of --compare-with on itself.
#
# Two graphs: Decode is runtime/ref/decode_test.go's decodeMLIR (6 gated
# delta net layers, 2 attention layers over 256 cached positions, SwiGLU
# FFN 2816; 216 MFLOP of matmuls); DecodeFile is rlx-gen's qwen35 at the
# same size (f32 projections), when tools/rlx-gen builds.
#
#   bench/interp.sh [COUNT]     (default 3 runs of each benchmark; best kept)
#
# Best-of-N, because other work on a shared machine only ever slows a run.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/rlx-run" ./tools/rlx-run
go test ./runtime/ref -run '^TestWriteDecodeModel$' -write-decode="$tmp/decode.mlir" >/dev/null
files=("$tmp/decode.mlir")
benchargs=()
if go build -o "$tmp/rlx-gen" ./tools/rlx-gen 2>/dev/null; then
  "$tmp/rlx-gen" qwen35 --hidden 1024 --layers 8 --heads 16 --kv-heads 4 --ffn 2816 --past 256 \
    --quant none -o "$tmp/qwen35.mlir"
  files+=("$tmp/qwen35.mlir")
  benchargs=(-bench-mlir "$tmp/qwen35.mlir")
else
  echo "(tools/rlx-gen does not build; skipping its model)"
fi

printf "%-34s %9s %13s %9s %9s %15s %12s\n" "benchmark (best of $count)" "tokens/s" "cpu-ms/token" "GFLOP/s" "%matmul" "matmul-GFLOP/s" "GFLOP/cpu-s"
go test ./runtime/ref -run '^$' -bench 'Decode$|DecodeFile|DecodeNoProfile|DecodeMatMuls|NaiveMatMul' \
    -benchtime 3x -count "$count" "${benchargs[@]}" |
  awk '/^Benchmark/ {
         name = $1; sub(/-[0-9]+$/, "", name); names[name] = 1
         for (i = 2; i < NF; i++) {
           m = $(i+1); v = $i
           lower = (m == "%matmul" || m == "cpu-ms/token")
           if (!((name, m) in best) || (!lower && v > best[name, m]) || (lower && v < best[name, m])) best[name, m] = v
         }
       }
       function f(n, m) { return ((n, m) in best) ? sprintf("%.2f", best[n, m]) : "-" }
       END { for (n in names) printf "%-34s %9s %13s %9s %9s %15s %12s\n", n, f(n, "tokens/s"), f(n, "cpu-ms/token"), f(n, "GFLOP/s"), f(n, "%matmul"), f(n, "matmul-GFLOP/s"), f(n, "GFLOP/cpu-s") }' |
  sort

. bench/lib/peak.sh
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $cores cores"

TIMEFORMAT='%R s wall, %U s user, %S s sys'
for f in "${files[@]}"; do
  echo "== $(basename "$f")"
  echo "rlx-run (parse, compile, seeded weights generated as params run, one step):"
  time "$tmp/rlx-run" "$f" --num-values 0 >/dev/null
  echo "rlx-run --compare-with itself (weights materialised once, two steps):"
  time "$tmp/rlx-run" "$f" --compare-with "$f" | tail -1
done

#!/usr/bin/env bash
# Parse/print speed and memory of rlx-opt against mlir-opt-19, side by side
# in one run, on decode graphs from ../shared/bench/gen_decode.py (issue 2):
#
#   bench/parse-print.sh [RUNS]        (default 5 runs per tool and size)
#
# For each size it alternates the two tools RUNS times and reports the
# median wall time, median user+sys CPU time and median peak RSS, and the
# rlx/mlir-opt ratios. Both tools run with
# --allow-unregistered-dialect --mlir-print-op-generic and write to a file.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
GEN=../shared/bench/gen_decode.py
MLIR_OPT=${MLIR_OPT:-mlir-opt-19}
command -v "$MLIR_OPT" >/dev/null || { echo "bench: $MLIR_OPT not found (Debian mlir-19-tools)"; exit 1; }
[ -f "$GEN" ] || { echo "bench: $GEN not found"; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
go build -o "$TMP/rlx-opt" ./tools/rlx-opt

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

measure() { # tool file -> appends "wall cpu rss" to $TMP/<tool>.<size>
  local tool=$1 file=$2 out=$3
  local bin=$TMP/rlx-opt
  [ "$tool" = mlir ] && bin=$MLIR_OPT
  /usr/bin/time -f "%e %U %S %M" -o "$TMP/t" "$bin" --allow-unregistered-dialect --mlir-print-op-generic "$file" -o "$TMP/out.mlir" >/dev/null
  awk '{print $1, $2+$3, $4}' "$TMP/t" >> "$out"
}

printf '%-6s %10s %8s | %9s %9s %7s | %9s %9s %7s | %9s %9s %7s\n' layers ops MB \
  "rlx s" "mlir s" ratio "rlx cpu" "mlir cpu" ratio "rlx MB" "mlir MB" ratio
for layers in 3000 30000; do
  f=$TMP/d$layers.mlir
  python3 "$GEN" "$layers" --gdn-every 4 > "$f"
  ops=$(grep -c ' = "\| "func.return"' "$f" || true)
  size=$(du -m "$f" | cut -f1)
  : > "$TMP/rlx.$layers"; : > "$TMP/mlir.$layers"
  for ((i = 0; i < RUNS; i++)); do
    measure rlx "$f" "$TMP/rlx.$layers"
    measure mlir "$f" "$TMP/mlir.$layers"
  done
  col() { awk -v c="$2" '{print $c}' "$1" | median; }
  rw=$(col "$TMP/rlx.$layers" 1); mw=$(col "$TMP/mlir.$layers" 1)
  rc=$(col "$TMP/rlx.$layers" 2); mc=$(col "$TMP/mlir.$layers" 2)
  rm=$(col "$TMP/rlx.$layers" 3); mm=$(col "$TMP/mlir.$layers" 3)
  div() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a / b }'; }
  printf '%-6s %10s %8s | %9.2f %9.2f %7.2f | %9.2f %9.2f %7.2f | %9.0f %9.0f %7.2f\n' \
    "$layers" "$ops" "$size" "$rw" "$mw" "$(div "$rw" "$mw")" \
    "$rc" "$mc" "$(div "$rc" "$mc")" \
    "$(div "$rm" 1024)" "$(div "$mm" 1024)" "$(div "$rm" "$mm")"
  rm -f "$f"
done
echo "(medians of $RUNS runs; load average: $(cut -d' ' -f1-3 /proc/loadavg))"

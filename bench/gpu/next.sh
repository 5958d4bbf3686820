#!/usr/bin/env bash
# bench/gpu/next.sh: the device calls that stop 50 prepared and could not
# make (no device was lent that session), one stage a call, each within
# the device tool's 600 s.
#
# Prepare them here first (about two minutes; .devcarry stays under the
# tool's 64 MiB):
#
#   FULL=1 bash bench/gpu/variant.sh H && (cd .devcarry && tar -czf H.tgz H && rm -rf H)
#   bash bench/gpu/variant.sh CI bench/gpu/variants/c16-indexed.patch
#
# and for c, alone (carry [".devcarry/R"]; about 13 MB):
#
#   go run ./bench/gpu/prepare -o .devcarry/R -skip-real -random 300 && (cd .devcarry/R && rm -f ./*.metal small* planted* probe* short* fillcheck*)
#
# then, on the GPU machine (the device tool, carry [".devcarry"]):
#
#   bash bench/gpu/next.sh a   # about 5 min
#   bash bench/gpu/next.sh b   # about 7 min
#   bash bench/gpu/next.sh c   # about 5 min
#
# a: the CUDA probe's x-stationary q6_k kernel (xs6h_r32_d4_c2) with and
#    without __ldg's read-only loads, then ab.sh of the committed q6_k_c16
#    GEMV (H: rows through stepped pointers) against CI (its rows through
#    an index, as run 31a ran it), two rounds, the q6_k rows shown.
# b: the full check of H: correctness at small and real sizes, the
#    sanitizers at small sizes, the bench table (report.md under $OUT/C).
set -u
case ${1:-} in
a | b | c) ;;
*)
  echo "usage: bash bench/gpu/next.sh a|b|c (see the comment at its top)" >&2
  exit 2
  ;;
esac
out=${OUT:?set OUT to the results folder}
if [ "$1" = c ]; then
  OUT=$out/R bash .devcarry/R/run.sh full --only correct_random,sanitize_random --budget 500 >"$out/random.log" 2>&1
  tail -12 "$out/random.log"
  exit 0
fi
[ -d .devcarry/H ] || tar -xzf .devcarry/H.tgz -C .devcarry || exit 1
case $1 in
a)
  DQPROBE_ONLY=xs6h_r32_d4_c2_k4096,xs6h_r32_d4_c2_k14336,xs6hld_r32_d4_c2_k4096,xs6hld_r32_d4_c2_k14336 \
    OUT=$out/probe bash bench/gpu/dqprobe/run.sh
  cat "$out/probe/probe.tsv"
  grep -E "xsQ6K" "$out/probe/sass_counts.txt" | cut -c1-300
  VARIANTS="H CI" ROUNDS=2 SHOW='q6_k' OUT=$out bash .devcarry/ab.sh >"$out/ab.log" 2>&1
  cat "$out/ab.txt"
  ;;
b)
  OUT=$out/C bash .devcarry/H/run.sh full --budget 400 --only correct_small,correct_real,sanitize_small,bench >"$out/full.log" 2>&1
  tail -3 "$out/full.log"
  grep -E "cases pass|copy" "$out/C/report.md" | head -4
  grep -A14 '## Sanitizers' "$out/C/report.md" | grep -E '^\| (small|real)'
  grep -E "^\| (dequant_gemv_q|gemv_f16|attention_decode|moe|dense|topk_router)" "$out/C/report.md" | cut -c1-220
  ;;
esac

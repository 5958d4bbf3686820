#!/usr/bin/env bash
# bench/gpu/next.sh: the device calls prepared for the next session with
# the GPU machine, one stage a call, each within the device tool's 600 s.
#
# Prepare them here first (about two minutes; .devcarry stays under the
# tool's 64 MiB):
#
#   FULL=1 bash bench/gpu/variant.sh H && (cd .devcarry && tar -czf H.tgz H && rm -rf H)
#   bash bench/gpu/variant.sh T
#   bash bench/gpu/variant.sh R32 bench/gpu/variants/c16-rows32.patch
#   bash bench/gpu/variant.sh CI bench/gpu/variants/c16-indexed.patch
#
# and for c, alone (carry [".devcarry/R"]; about 13 MB):
#
#   go run ./bench/gpu/prepare -o .devcarry/R -skip-real -random 300 -random-first 1501 && (cd .devcarry/R && rm -f ./*.metal small* planted* probe* short* fillcheck*)
#
# then, on the GPU machine (the device tool; carry [".devcarry/T",
# ".devcarry/R32", ".devcarry/CI", ".devcarry/ab.sh"] for a, as the tree and H.tgz
# alone fill most of the 64 MiB; [".devcarry/H.tgz"] for b):
#
#   bash bench/gpu/next.sh a   # about 4 min
#   bash bench/gpu/next.sh b   # about 1 min
#   bash bench/gpu/next.sh c   # about 1.5 min
#
# a: ab.sh of the committed emitter (T: q6_k_c16 on 8 rows a 256-lane
#    threadgroup, its rows through stepped pointers) against R32 (32
#    rows at every K) and CI (its rows through an index), two rounds,
#    the q6_k rows shown. Run 36a answered it on the H200 (T fastest at
#    every real shape, 9% under q6_k); kept as the A/B to repeat after
#    any change to dequant_columns.go.
# b: the full check of H: correctness at small and real sizes, the
#    sanitizers at small sizes, the bench table (report.md under $OUT/C).
# c: the random suite in .devcarry/R: each job against the interpreter
#    three times, and the four sanitizers (report.md under $OUT/R).
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
case $1 in
a)
  VARIANTS="T R32 CI" ROUNDS=2 SHOW='q6_k' OUT=$out bash .devcarry/ab.sh >"$out/ab.log" 2>&1
  cat "$out/ab.txt"
  ;;
b)
  [ -d .devcarry/H ] || tar -xzf .devcarry/H.tgz -C .devcarry || exit 1
  OUT=$out/C bash .devcarry/H/run.sh full --budget 400 --only correct_small,correct_real,sanitize_small,bench >"$out/full.log" 2>&1
  tail -3 "$out/full.log"
  grep -E "cases pass|copy" "$out/C/report.md" | head -4
  grep -A14 '## Sanitizers' "$out/C/report.md" | grep -E '^\| (small|real)'
  grep -E "^\| (dequant_gemv_q|gemv_f16|attention_decode|moe|dense|topk_router)" "$out/C/report.md" | cut -c1-220
  ;;
esac

#!/usr/bin/env bash
# Run 49a (prepared at stop 67, not run): the next session's first call.
# Carries .devcarry/H.tgz (`FULL=1 bash bench/gpu/variant.sh H && (cd
# .devcarry && rm -f H.tgz && tar -czf H.tgz H && rm -rf H)`; HEAD's
# kernels, unchanged since ec88a40), .devcarry/R.tgz (random functions
# 12601–13200: bench/gpu/next.sh's recipe for c) and this script, with
# bench/gpu/results and models/importer/testdata/hf moved out of the
# tree for the call. $1: seconds the whole script may take (330).
# First DeepSeek-V2's transformers fixtures (deepseek_v2,
# deepseek_v2_lite: tools/hf-fixtures); on an H200 H's correctness and
# bench table (attention decode at 8k keys, not re-timed on an H200
# since stop 60; every GEMV's H200 numbers with q4_1, q5_0 and q5_1 on
# q4_0's lane), else the random batch, then the other in what is left.
set -u
t0=$(date +%s)
total=${1:-330}
left() { echo $((total - ($(date +%s) - t0))); }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt)
echo "$gpu"
O=/tmp/o; mkdir -p $O
timeout 90 python3 tools/hf-fixtures/make_fixtures.py --out $O/fx --only deepseek_v2 deepseek_v2_lite > $O/fx.log 2>&1
grep -E ": ok|FAILED" $O/fx.log | cut -c1-300
tar -czf $OUT/fx.tgz -C $O fx fx.log
h() { # h BUDGET: H's correctness and bench, report under $O/C
  [ -f .devcarry/H/small.jobs ] || { rm -rf .devcarry/H && tar -xzf .devcarry/H.tgz -C .devcarry; } || return
  OUT=$O/C timeout $(($1 + 20)) bash .devcarry/H/run.sh full --budget "$1" --only correct_small,correct_real,bench >"$O/C.log" 2>&1
  tail -2 "$O/C.log"
  grep -E "cases pass|copy" "$O/C/report.md" | head -4
  grep -E "^\| (dequant_gemv_q|gemv_f16|attention_decode|rms_norm)" "$O/C/report.md" | cut -c1-200
  cp "$O/C/report.md" $OUT/report.md
}
r() { # r BUDGET: the random batch, report under $O/R
  [ -d .devcarry/R ] || tar -xzf .devcarry/R.tgz -C .devcarry || return
  OUT=$O/R timeout $(($1 + 20)) bash .devcarry/R/run.sh full --only correct_random,sanitize_random --budget "$1" >"$O/random.log" 2>&1
  tail -8 "$O/random.log"
}
case $gpu in
*H200*) h 150; b=$(($(left) - 30)); [ $b -gt 100 ] && r $b ;;
*) r 150; b=$(($(left) - 30)); [ $b -gt 60 ] && h $b ;;
esac
rm -f $O/*/results.json
tar -czf $OUT/all.tgz -C $O .
echo "done after $(( $(date +%s) - t0 )) s"

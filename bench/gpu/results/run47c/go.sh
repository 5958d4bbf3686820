#!/usr/bin/env bash
# Run 47c (prepared at stop 66, not run: the session's device time ran
# out). The next session's first call: HEAD's full check (the factored
# unit GEMVs of q2_k, q3_k and q5_1 have been timed on a GPU but not
# checked there) and q4_1 on q4_0's lane (variants/q4_1-lane.patch),
# q5_0 and q5_1 on its pieces (variants/q5-lane.patch) against HEAD.
# Carries .devcarry/H.tgz (`FULL=1 bash
# bench/gpu/variant.sh H && (cd .devcarry && rm -f H.tgz && tar -czf
# H.tgz H && rm -rf H)`), .devcarry/T (`bash bench/gpu/variant.sh T`),
# .devcarry/Q1 (`bash bench/gpu/variant.sh Q1
# bench/gpu/variants/q4_1-lane.patch`), .devcarry/Q5 (the same with
# q5-lane.patch) and .devcarry/ab.sh, with
# bench/gpu/results and models/importer/testdata/hf moved out of the
# tree for the call. $1: seconds the whole script may take (560).
# On an H200: H's correctness at both sizes and its bench table (the
# attention re-time at 8k keys), one round of T, Q1 and Q5, then H's
# small sanitizers. Else: two rounds of T, Q1 and Q5, then H's
# correctness and the sanitizers on both suites.
set -u
t0=$(date +%s)
total=${1:-560}
left() { echo $((total - ($(date +%s) - t0))); }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt)
echo "$gpu"
O=/tmp/o; mkdir -p $O
h() { # h BUDGET STAGES REPORT: H's stages, report under $O/REPORT
  [ -f .devcarry/H/small.jobs ] || { rm -rf .devcarry/H && tar -xzf .devcarry/H.tgz -C .devcarry; } || exit 1
  OUT=$O/$3 timeout $(($1 + 20)) bash .devcarry/H/run.sh full --budget "$1" --only "$2" >"$O/$3.log" 2>&1
  tail -2 "$O/$3.log"
  grep -E "cases pass|copy" "$O/$3/report.md" | head -4
  grep -A16 '## Sanitizers' "$O/$3/report.md" | grep -E '^\| (small|real)'
  grep -E "^\| (dequant_gemv_q|gemv_f16|attention_decode|rms_norm)" "$O/$3/report.md" | cut -c1-200
}
ab() { # ab ROUNDS TIMEOUT
  VARIANTS="T Q1 Q5" ROUNDS=$1 SHOW='q4_1\|q5_0\|q5_1\|q4_0_4096x14336\|q4_0_14336' OUT=$OUT timeout $2 bash .devcarry/ab.sh 2>&1 | grep -v "^ sass" | head -70
}
case $gpu in
*H200*)
  h 220 correct_small,correct_real,bench C
  ab 1 140
  b=$(($(left) - 30)); [ $b -gt 60 ] && h $b sanitize_small S
  ;;
*)
  ab 2 240
  b=$(($(left) - 30)); [ $b -gt 60 ] && h $b correct_small,correct_real,sanitize_small,sanitize_real C
  ;;
esac
cp $O/C/report.md $OUT/report.md 2>/dev/null
rm -f $O/*/results.json
tar -czf $OUT/all.tgz -C $O .
echo "done after $(( $(date +%s) - t0 )) s"

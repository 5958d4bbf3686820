#!/usr/bin/env bash
# Run 47a: stop 66's first device call, the biggest (a fresh session's
# first call is the one most likely to get a machine). Carries
# .devcarry/{H.tgz,T,FQ,R2.tgz,ab.sh} (recipes in run46b/README.md).
# On an H200: H's correctness at both sizes and its bench table (the
# attention re-time at 8k keys), one round of T against FQ, then R2.
# Else: two rounds of T against FQ, R2 against the interpreter and
# under the four sanitizers, then H's real suite under the sanitizers
# (the uncut real racecheck) with what is left.
set -u
t0=$(date +%s)
total=${1:-560} # seconds the whole script may take
left() { echo $((total - ($(date +%s) - t0))); }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt)
echo "$gpu"
O=/tmp/o; mkdir -p $O
h() { # h BUDGET STAGES: H's stages, report under $O/C
  [ -f .devcarry/H/small.jobs ] || { rm -rf .devcarry/H && tar -xzf .devcarry/H.tgz -C .devcarry; } || exit 1
  OUT=$O/C timeout $(($1 + 20)) bash .devcarry/H/run.sh full --budget "$1" --only "$2" >"$O/full.log" 2>&1
  tail -2 "$O/full.log"
  grep -E "cases pass|copy" "$O/C/report.md" | head -4
  grep -A16 '## Sanitizers' "$O/C/report.md" | grep -E '^\| (small|real)'
  grep -E "^\| (dequant_gemv_q|gemv_f16|attention_decode|rms_norm)" "$O/C/report.md" | cut -c1-200
}
r() { # r BUDGET STAGES: R2's stages, report under $O/R2
  [ -d .devcarry/R2 ] || tar -xzf .devcarry/R2.tgz -C .devcarry || exit 1
  OUT=$O/R2 timeout $(($1 + 20)) bash .devcarry/R2/run.sh full --only "$2" --budget "$1" >"$O/R2.log" 2>&1
  grep -E "cases pass" $O/R2/report.md
  grep -A12 '## Sanitizers' $O/R2/report.md | grep -E '^\| random'
  rm -f $O/R2/results.json
}
ab() { # ab ROUNDS TIMEOUT
  VARIANTS="T FQ" ROUNDS=$1 SHOW='q2_k\|q3_k\|q4_1\|q5_0\|q5_1\|q4_0_4096x14336' OUT=$OUT timeout $2 bash .devcarry/ab.sh 2>&1 | grep -v "^ sass" | head -60
}
case $gpu in
*H200*)
  h $(( total > 400 ? 200 : 150 )) $( [ $total -gt 400 ] && echo correct_small,correct_real,bench || echo bench)
  ab 1 100
  b=$(($(left) - 30)); [ $b -gt 40 ] && r $b correct_random,sanitize_random
  ;;
*)
  ab 2 160
  b=$(($(left) - 30)); [ $b -gt 40 ] && r $(( b > 230 ? 230 : b )) correct_random,sanitize_random
  b=$(($(left) - 30)); [ $b -gt 60 ] && h $b sanitize_real
  ;;
esac
cp $O/C/report.md $OUT/report.md 2>/dev/null
tar -czf $OUT/all.tgz -C $O .
echo "done after $(( $(date +%s) - t0 )) s"

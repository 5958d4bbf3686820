#!/usr/bin/env bash
# Run 46b: the unit GEMVs factored, and the first random batch with
# randgraph's Formats tail. On an H200: H's bench table (the attention
# re-time at 8k), then one round of T and FQ. Else:
# ab.sh on T (HEAD) and FQ (T + variants/unit-factored.patch: the GEMV at M = 1 of q2_k, q3_k, q4_1, q5_0 and q5_1
# as a factored dot, fields masked in place against x prescaled), two
# rounds; then R2 (11401-12000, the tail's q2_k to mxfp4
# dequant_matmuls) against the interpreter and under the sanitizers the
# budget allows.
set -u
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt)
echo "$gpu"
O=/tmp/o; mkdir -p $O
h() { # h BUDGET STAGES: H's stages, report under $O/C
  [ -f .devcarry/H/small.jobs ] || { rm -rf .devcarry/H && tar -xzf .devcarry/H.tgz -C .devcarry; } || exit 1
  OUT=$O/C timeout $(($1 + 20)) bash .devcarry/H/run.sh full --budget "$1" --only "$2" >"$O/full.log" 2>&1
  tail -2 "$O/full.log"
  grep -E "copy" "$O/C/report.md" | head -2
  grep -A16 '## Sanitizers' "$O/C/report.md" | grep -E '^\| (small|real)'
  grep -E "^\| (dequant_gemv_q|gemv_f16|attention_decode|rms_norm)" "$O/C/report.md" | cut -c1-200
  cp $O/C/report.md $OUT/report.md
}
r() { # r NAME BUDGET STAGES
  [ -d .devcarry/$1 ] || tar -xzf .devcarry/$1.tgz -C .devcarry || exit 1
  OUT=$OUT/$1 timeout $(($2 + 20)) bash .devcarry/$1/run.sh full --only "$3" --budget "$2" >"$OUT/$1.log" 2>&1
  grep -E "cases pass" $OUT/$1/report.md
  grep -A12 '## Sanitizers' $OUT/$1/report.md | grep -E '^\| random'
  rm -f $OUT/$1/results.json
}
case $gpu in
*H200*)
  h 120 bench
  VARIANTS="T FQ" ROUNDS=1 SHOW='q2_k\|q3_k\|q4_1\|q5_0\|q5_1\|q4_0_4096x14336' OUT=$OUT timeout 100 bash .devcarry/ab.sh 2>&1 | grep -v "^ sass" | head -60
  ;;
*)
  VARIANTS="T FQ" ROUNDS=2 SHOW='q2_k\|q3_k\|q4_1\|q5_0\|q5_1\|q4_0_4096x14336' OUT=$OUT timeout 150 bash .devcarry/ab.sh 2>&1 | grep -v "^ sass" | head -60
  r R2 40 correct_random
  ;;
esac

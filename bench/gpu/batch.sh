#!/usr/bin/env bash
# bench/gpu/batch.sh: one device call that runs a prepared random batch
# and, on an H200, H's correctness and bench table first (attention
# decode at 8k keys, not re-timed on an H200 since stop 60; the q4_0
# lane's formats never timed on one). Carry [".devcarry/H.tgz",
# ".devcarry/R.tgz"]: H from `FULL=1 bash bench/gpu/variant.sh H`, R
# from next.sh's recipe for c (the batch is R's); the tree carried
# without bench/gpu/results and models/importer/testdata/hf. $1: seconds
# the whole script may take (380 fits the tool's 420 s call). Runs 53a
# to 54d ran copies of this script (their go.sh), which differ from it
# in their header and, from 53b on, a closing check of the machine's
# Python packages.
set -u
t0=$(date +%s)
total=${1:-400}
left() { echo $((total - ($(date +%s) - t0))); }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt)
echo "$gpu"
O=/tmp/o; mkdir -p $O
h() { # h BUDGET: H's correctness and bench, report under $O/C
  [ -f .devcarry/H/small.jobs ] || { rm -rf .devcarry/H && tar -xzf .devcarry/H.tgz -C .devcarry; } || return
  OUT=$O/C timeout $(($1 + 20)) bash .devcarry/H/run.sh full --budget "$1" --only correct_small,correct_real,bench >"$O/C.log" 2>&1
  tail -2 "$O/C.log"
  grep -E "cases pass|copy" "$O/C/report.md" | head -4
  grep -E "^\| (dequant_gemv_q|gemv_f16|attention_decode|rms_norm)" "$O/C/report.md" | cut -c1-200
  cp "$O/C/report.md" $OUT/report.md
}
r() { # r NAME BUDGET STAGES: a random batch, report under $O/NAME
  [ -d .devcarry/$1 ] || tar -xzf .devcarry/$1.tgz -C .devcarry || return
  OUT=$O/$1 timeout $(($2 + 20)) bash .devcarry/$1/run.sh full --only "$3" --budget "$2" >"$O/$1.log" 2>&1
  tail -8 "$O/$1.log"
}
case $gpu in
*H200*) h 150; b=$(($(left) - 30)); [ $b -gt 100 ] && r R $b correct_random,sanitize_random ;;
*) r R $(($(left) - 30)) correct_random,sanitize_random ;;
esac
rm -f $O/*/results.json
tar -czf $OUT/all.tgz -C $O .
echo "done after $(( $(date +%s) - t0 )) s"

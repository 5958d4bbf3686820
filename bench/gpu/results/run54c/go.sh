#!/usr/bin/env bash
# Run 54c (stop 70): the state-space fixtures first (go54b.sh), then on an
# H200 the part of run 54a that needs one: H's correctness and bench
# (attention decode at 8k keys, not re-timed on an H200 since stop 60;
# the lane GEMVs never timed on one). $1: seconds for H's part.
set -u
bash .devcarry/go54b.sh
gpu=$(cat $OUT/gpu.txt)
O=/tmp/o; mkdir -p $O
case $gpu in
*H200*)
  rm -rf .devcarry/H && tar -xzf .devcarry/H.tgz -C .devcarry
  OUT=$O/C timeout $(($1 + 20)) bash .devcarry/H/run.sh full --budget "$1" --only correct_small,correct_real,bench >"$O/C.log" 2>&1
  tail -2 "$O/C.log"
  grep -E "cases pass|copy" "$O/C/report.md" | head -4
  grep -E "^\| (dequant_gemv_q|gemv_f16|attention_decode|rms_norm)" "$O/C/report.md" | cut -c1-200
  cp "$O/C/report.md" $OUT/report.md
  rm -f $O/*/results.json
  tar -czf $OUT/all.tgz -C $O . ;;
esac

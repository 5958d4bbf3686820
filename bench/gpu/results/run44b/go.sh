#!/usr/bin/env bash
# One device call after run 44a's mxfp4 failure: correctness at small and
# real sizes and the sanitizers on the small suite, with the mxfp4 fill
# of 642c407 (exponent bytes 122..125).
set -u
O=/tmp/o; mkdir -p $O/C
nvidia-smi --query-gpu=name --format=csv,noheader | tee $O/gpu.txt
[ -f .devcarry/H/small.jobs ] || { rm -rf .devcarry/H && tar -xzf .devcarry/H.tgz -C .devcarry; } || exit 1
OUT=$O/C timeout 260 bash .devcarry/H/run.sh full --budget 220 --only correct_small,correct_real,sanitize_small,sanitize_real >"$O/full.log" 2>&1
tail -3 "$O/full.log"
grep -E "cases pass" "$O/C/report.md" | head -4
grep -A16 '## Sanitizers' "$O/C/report.md" | grep -E '^\| (small|real)'
grep -E "^\| (dequant_gemv_mxfp4|dequant_mxfp4|experts_mxfp4|fill)" "$O/C/report.md" | cut -c1-200
grep -iE "fill" "$O/C/report.md" | head -3
cp $O/C/report.md $OUT/report.md 2>/dev/null
cp $O/C/results.json $OUT/results.json 2>/dev/null

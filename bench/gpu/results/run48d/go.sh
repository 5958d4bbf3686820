#!/usr/bin/env bash
# Run 48d: the merged q4_0-lane kernels (ec88a40) on the GPU: correctness
# at both sizes, the bench table, the small suite under the sanitizers.
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
tar -xzf .devcarry/H.tgz -C .devcarry || exit 1
OUT=$OUT/D timeout 200 bash .devcarry/H/run.sh full --budget 180 --only correct_small,correct_real,bench,sanitize_small > $OUT/d.log 2>&1
tail -3 $OUT/d.log
grep -E "cases pass|copy" $OUT/D/report.md | head -4
grep -A12 '## Sanitizers' $OUT/D/report.md | grep -E '^\| small'
grep -E "^\| dequant_gemv_q(4_0|4_1|5_0|5_1)_" $OUT/D/report.md | cut -c1-200
cp $OUT/D/report.md $OUT/report.md; rm -f $OUT/D/results.json

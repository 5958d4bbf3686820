#!/usr/bin/env bash
# Run 45b: ab.sh on A (1d41bd2), B (unit GEMV v2, 8 rows), E (B + level tables), F (E + q3_k word decode), D (B, 16 rows),
# then the full check's correctness and sanitizer stages of B + E (H).
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
VARIANTS="A B E F D" ROUNDS=2 SHOW='q2_k\|q3_k\|q4_1\|q5_0\|q5_1\|iq4\|mxfp4\|q4_0_4096x14336' OUT=$OUT timeout 280 bash .devcarry/ab.sh > /dev/null 2>&1
grep -v "^ sass" $OUT/ab.txt
grep "^ sass" $OUT/ab.txt | grep -v "q4_0\|q8_0\|q4_k\|q5_k\|q6_k" | head -30
O=/tmp/o; mkdir -p $O/C
[ -f .devcarry/H/small.jobs ] || { rm -rf .devcarry/H && tar -xzf .devcarry/H.tgz -C .devcarry; } || exit 1
OUT=$O/C timeout 150 bash .devcarry/H/run.sh full --budget 130 --only correct_small,correct_real,sanitize_small,sanitize_real >"$O/full.log" 2>&1
tail -3 "$O/full.log"
grep -E "cases pass" "$O/C/report.md" | head -4
grep -A16 '## Sanitizers' "$O/C/report.md" | grep -E '^\| (small|real)'
grep -E "^\| (dequant_gemv_|dequant_(q2_k|q3_k|q4_1|q5_0|q5_1|iq4|mxfp4)|experts_)" "$O/C/report.md" | grep -v "q4_0\|q8_0\|q4_k\|q5_k\|q6_k" | cut -c1-150
grep -E "\| fail" "$O/C/report.md" | head
cp $O/C/report.md $OUT/report.md 2>/dev/null
cp $O/C/results.json $OUT/results.json 2>/dev/null

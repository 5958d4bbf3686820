#!/usr/bin/env bash
# Run 46a: ab.sh on T (HEAD 553a3a8) and MF (T + variants/unit-mf.patch),
# two alternating rounds, the unit formats' and attention's rows shown;
# then the full check's correctness and sanitizer stages of H (HEAD,
# FULL=1), which covers stop 64's q3_k word decode on the GPU; then the
# random batch 10801-11400 (next.sh c) with what time is left.
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
VARIANTS="T MF" ROUNDS=2 SHOW='q2_k\|q3_k\|q4_1\|q5_0\|q5_1\|attention' OUT=$OUT timeout 170 bash .devcarry/ab.sh > /dev/null 2>&1
grep -v "^ sass" $OUT/ab.txt | grep -v "_[0-9]*   [0-9]*   [0-9]* *$"
O=/tmp/o; mkdir -p $O/C
[ -f .devcarry/H/small.jobs ] || { rm -rf .devcarry/H && tar -xzf .devcarry/H.tgz -C .devcarry; } || exit 1
OUT=$O/C timeout 160 bash .devcarry/H/run.sh full --budget 140 --only correct_small,correct_real,sanitize_small,sanitize_real >"$O/full.log" 2>&1
tail -3 "$O/full.log"
grep -E "cases pass" "$O/C/report.md" | head -4
grep -A16 '## Sanitizers' "$O/C/report.md" | grep -E '^\| (small|real)'
grep -E "^\| dequant_(q3_k|q2_k)" "$O/C/report.md" | cut -c1-150
grep -E "\| fail" "$O/C/report.md" | head
cp $O/C/report.md $OUT/report.md 2>/dev/null
cp $O/C/results.json $OUT/results.json 2>/dev/null
rm -rf .devcarry/H
[ -d .devcarry/R ] || tar -xzf .devcarry/R.tgz -C .devcarry || exit 1
OUT=$OUT/R timeout 100 bash .devcarry/R/run.sh full --only correct_random,sanitize_random --budget 90 >"$OUT/random.log" 2>&1
tail -12 "$OUT/random.log"

#!/usr/bin/env bash
# One device call: the full check of H (the emitter with the q5_k, unit
# format and in-place MXFP4 kernels): correctness at small and real
# sizes, the sanitizers, the bench table (next.sh b, with the budget in
# seconds as $1, 520 by default); on an H200 its table holds the
# attention re-time too.
set -u
budget=${1:-520}
O=/tmp/o; mkdir -p $O/C
nvidia-smi --query-gpu=name --format=csv,noheader | tee $O/gpu.txt
[ -f .devcarry/H/small.jobs ] || { rm -rf .devcarry/H && tar -xzf .devcarry/H.tgz -C .devcarry; } || exit 1
OUT=$O/C timeout $((budget + 40)) bash .devcarry/H/run.sh full --budget "$budget" --only correct_small,correct_real,bench,sanitize_small,sanitize_real >"$O/full.log" 2>&1
tail -3 "$O/full.log"
grep -E "cases pass|copy" "$O/C/report.md" | head -4
grep -A16 '## Sanitizers' "$O/C/report.md" | grep -E '^\| (small|real)'
grep -E "^\| (dequant_gemv_|gemv_f16|attention_decode)" "$O/C/report.md" | cut -c1-200
cp $O/C/report.md $OUT/report.md 2>/dev/null
tar -czf $OUT/all.tgz -C $O .

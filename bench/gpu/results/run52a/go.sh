#!/usr/bin/env bash
# Run 52a (prepared at stop 68, for an H200): carries .devcarry/H.tgz
# (HEAD's kernels, unchanged since ec88a40) and this script, the tree
# without bench/gpu/results and models/importer/testdata/hf. First the
# qwen3_fp8 fixture (tools/hf-fixtures/fp8_fixture.py), then H's
# correctness and bench table: attention decode at 8k keys, not re-timed
# on an H200 since stop 60's NaN fix, and the q4_0 lane's formats on an
# H200 (on another GPU the fixture only). $1: the bench's budget in
# seconds.
set -u
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt)
echo "$gpu"
O=/tmp/o; mkdir -p $O
(cd tools/hf-fixtures && timeout 120 python3 fp8_fixture.py --out $O/fx) > $O/fx.log 2>&1
tail -4 $O/fx.log | cut -c1-400
tar -czf $OUT/fx8.tgz -C $O fx fx.log
case $gpu in *H200*) ;; *) echo "not an H200: no bench"; exit 0 ;; esac
[ -f .devcarry/H/small.jobs ] || { rm -rf .devcarry/H && tar -xzf .devcarry/H.tgz -C .devcarry; }
OUT=$O/C timeout $((${1:-170} + 20)) bash .devcarry/H/run.sh full --budget "${1:-170}" --only correct_small,correct_real,bench >"$O/C.log" 2>&1
tail -2 "$O/C.log"
grep -E "cases pass|copy" "$O/C/report.md" | head -4
grep -E "^\| (dequant_gemv_q4_0|dequant_gemv_q4_k|dequant_gemv_q6_k_|dequant_gemv_q4_1|dequant_gemv_q5|gemv_f16|attention_decode|rms_norm_rows)" "$O/C/report.md" | grep -v "pass |" | cut -c1-220
cp "$O/C/report.md" $OUT/report.md
rm -f $O/*/results.json
tar -czf $OUT/all.tgz -C $O C C.log

#!/usr/bin/env bash
# Run 48a (stop 67; README.md says what it carried and found): Llama 4's
# and DeepSeek-V3's transformers fixtures, then HEAD's correctness at
# both sizes and its bench table (.devcarry/H.tgz), then one round of
# HEAD (T) against variants/q4_1-lane.patch (Q1) and q5-lane.patch (Q5)
# in what is left. $1: seconds the whole script may take (330).
set -u
t0=$(date +%s)
total=${1:-560}
left() { echo $((total - ($(date +%s) - t0))); }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt)
echo "$gpu"
O=/tmp/o; mkdir -p $O
# Run 48a: first, Llama 4's transformers fixtures (tools/hf-fixtures).
timeout 100 python3 tools/hf-fixtures/make_fixtures.py --out $O/fx --only llama4 llama4_k2 llama4_vl deepseek_v3 deepseek_v3_q > $O/fx.log 2>&1
tail -5 $O/fx.log | cut -c1-300
tar -czf $OUT/fx.tgz -C $O fx fx.log
h() { # h BUDGET STAGES REPORT: H's stages, report under $O/REPORT
  [ -f .devcarry/H/small.jobs ] || { rm -rf .devcarry/H && tar -xzf .devcarry/H.tgz -C .devcarry; } || exit 1
  OUT=$O/$3 timeout $(($1 + 20)) bash .devcarry/H/run.sh full --budget "$1" --only "$2" >"$O/$3.log" 2>&1
  tail -2 "$O/$3.log"
  grep -E "cases pass|copy" "$O/$3/report.md" | head -4
  grep -A16 '## Sanitizers' "$O/$3/report.md" | grep -E '^\| (small|real)'
  grep -E "^\| (dequant_gemv_q|gemv_f16|attention_decode|rms_norm)" "$O/$3/report.md" | cut -c1-200
}
ab() { # ab ROUNDS TIMEOUT
  VARIANTS="T Q1 Q5" ROUNDS=$1 SHOW='q4_1\|q5_0\|q5_1\|q4_0_4096x14336\|q4_0_14336' OUT=$OUT timeout $2 bash .devcarry/ab.sh 2>&1 | grep -v "^ sass" | head -70
}
# Run 48a (the compact form, after eight failed starts): H's correctness
# at both sizes and its bench table, then one round of T, Q1 and Q5 in
# what is left.
h 150 correct_small,correct_real,bench C
b=$(($(left) - 25)); [ $b -gt 60 ] && ab 1 $b
cp $O/C/report.md $OUT/report.md 2>/dev/null
rm -f $O/*/results.json
tar -czf $OUT/all.tgz -C $O .
echo "done after $(( $(date +%s) - t0 )) s"

#!/usr/bin/env bash
# Run 54d (prepared at stop 70): carries .devcarry/H.tgz (HEAD's kernels,
# unchanged since ec88a40; built at 41ccc01: `FULL=1 bash bench/gpu/variant.sh H && (cd
# .devcarry && rm -f H.tgz && tar -czf H.tgz H && rm -rf H)`),
# .devcarry/R.tgz (random functions 16201–16800)
# made by bench/gpu/next.sh's recipe for c with -random-first 16201,
# and this script, the tree carried without bench/gpu/results and
# models/importer/testdata/hf. $1: seconds the whole script may take.
# On an H200: H's correctness and bench table first (attention decode
# at 8k keys, not re-timed on an H200 since stop 60; the q4_0 lane's
# formats never timed on one), then R. On an H100: R alone.
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
# Which quantisation packages this machine's Python has (for fixtures of
# compressed-tensors, GPTQ and AWQ checkpoints made by their own tools).
python3 -c "import importlib.util as u; print({m: u.find_spec(m) is not None for m in ['compressed_tensors', 'gptqmodel', 'auto_gptq', 'awq', 'optimum', 'llmcompressor']})" 2>&1 | tee $OUT/pkgs.txt
pip list 2>/dev/null | grep -i -E "compress|gptq|awq|optimum|quant|transformers|torch" | tee -a $OUT/pkgs.txt
rm -f $O/*/results.json
tar -czf $OUT/all.tgz -C $O .
echo "done after $(( $(date +%s) - t0 )) s"

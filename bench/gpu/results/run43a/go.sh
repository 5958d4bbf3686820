#!/usr/bin/env bash
# One device call: sources, fixtures, timing (H200 only), random batch.
# Everything but fx.tgz and src.txt is packed into $OUT/all.tgz (the
# tool brings back eight files).
set -u
O=/tmp/o; mkdir -p $O
nvidia-smi --query-gpu=name --format=csv,noheader | tee $O/gpu.txt
python3 .devcarry/dump.py $OUT/src.txt 2>$O/dump.err
(cd tools/hf-fixtures && timeout 260 python3 make_fixtures.py --out /tmp/fx --only starcoder2 phi stablelm stablelm_qk gpt_neox granitemoe granitemoeshared nemotron cohere_qk gemma gpt_oss glm4_moe qwen3_vl_moe > $O/fx.log 2>&1; tar -czf $OUT/fx.tgz -C /tmp/fx .)
grep -E ": (ok|FAILED)" $O/fx.log | cut -c1-200
(cd tools/hf-fixtures && timeout 60 python3 quant_vectors.py /tmp/qv; tar -czf $OUT/qv.tgz -C /tmp/qv .) > $O/qv.log 2>&1; tail -16 $O/qv.log
pip list 2>/dev/null | grep -i -E "^(gguf|numpy|torch|transformers|safetensors|sentencepiece|tokenizers) " > $O/pip.txt
if grep -q H200 $O/gpu.txt; then
  VARIANTS="V O" ROUNDS=3 SHOW='attention' OUT=$O timeout 230 bash .devcarry/ab.sh > $O/ab.log 2>&1
  cat $O/ab.txt
fi
left=$((585 - SECONDS)); [ $left -gt 240 ] && left=240
[ $left -gt 30 ] && OUT=$O timeout $left bash bench/gpu/next.sh c
tar -czf $OUT/all.tgz -C $O .

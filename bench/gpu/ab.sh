#!/usr/bin/env bash
# bench/gpu/ab.sh: time emitter variants against each other in one device
# call, alternating, so that the machine's drift falls on all of them
# alike (docs/gpu-check.md, runs 19e and 20). Each variant is a directory
# that `go run ./bench/gpu/prepare -o DIR` wrote, trimmed to the real
# suite (bench/gpu/variant.sh prepares and trims one, from HEAD and
# patches: about 1.3 MB), carried next to this script:
#
#   VARIANTS="A B" ROUNDS=2 NCU="B" OUT=$OUT bash .devcarry/ab.sh
#
# Each round runs every variant's bench stage (run.sh full --only bench:
# build and the speed table; in the first round also the sass stage, the
# static SASS counts) and
# prints the GEMV, attention decode, MoE, topk and rms_norm rows that match $SHOW
# (default q8_0; e.g. SHOW='q4_k\|attention', SHOW='moe\|dense'), and in its first round each
# dequantising GEMV's static instruction count (" sass KERNEL N"); in
# the first round the variants named in $NCU are also read by ncu (L1
# wavefronts and bank conflicts, instructions, occupancy, stall reasons,
# instructions by opcode) on the
# cases in $NCU_CASES. Every report and counter file goes into one
# archive, $OUT/ab.tar.gz, as the device tool brings back only eight
# files; the rows printed are also appended to $OUT/ab.txt as they come,
# so a call cut short by its time limit still brings back its finished
# rounds (run 23g lost its timing for want of that).
set -u
variants=${VARIANTS:?name the variant directories, e.g. VARIANTS="A B"}
root=$(cd "$(dirname "$0")" && pwd)
res=$(mktemp -d "${TMPDIR:-/tmp}/ab.XXXXXX")
final=${OUT:-/tmp/abo}
mkdir -p "$final"
metrics=l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_bank_conflicts_pipe_lsu.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
metrics=$metrics,smsp__inst_executed.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active
metrics=$metrics,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active
metrics=$metrics,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
metrics=$metrics,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
# The rest of the stall reasons (warps stalled for each, per issued
# instruction) and the executed instructions by opcode.
for stall in short_scoreboard wait math_pipe_throttle mio_throttle barrier not_selected selected dispatch_stall no_instruction branch_resolving; do
  metrics=$metrics,smsp__average_warps_issue_stalled_${stall}_per_issue_active.ratio
done
metrics=$metrics,sass__inst_executed_per_opcode
for round in $(seq 1 "${ROUNDS:-2}"); do
  for v in $variants; do
    echo "== $v$round $(date +%T)" | tee -a "$final/ab.txt"
    # The SASS (its dump is megabytes) only in the first round.
    stages=bench
    [ "$round" = 1 ] && stages=bench,sass
    OUT=$res/$v$round bash "$root/$v/run.sh" full --budget 150 --only $stages >"$res/$v$round.log" 2>&1
    grep -h "^| dequant_gemv_\|^| gemv_f16\|^| attention_decode\|^| moe_\|^| dense_\|^| topk_router\|^| rms_norm" "$res/$v$round/report.md" | awk -F'|' '{printf "%s %s %s\n", $2, $6, $8}' | grep "${SHOW:-q8_0}" | tee -a "$final/ab.txt"
    if [ "$round" = 1 ]; then
      # The static instruction counts (report.py's SASS table), once a variant.
      grep -h "^| dequant_gemv_[a-z0-9_]*_[0-9][0-9]* | [0-9][0-9]* | " "$res/$v$round/report.md" | awk -F'|' '{printf " sass %s %s\n", $2, $3}' | tee -a "$final/ab.txt"
    fi
    if [ "$round" = 1 ] && [ -n "${NCU:-}" ] && echo " $NCU " | grep -q " $v "; then
      # run.sh leaves its built variant in /tmp/rlx-gpu.
      (cd /tmp/rlx-gpu && timeout 150 ncu --clock-control none --print-metric-instances values --kernel-name regex:^rlx_k_ --metrics "$metrics" \
        python3 bench.py --profile "${NCU_CASES:-dequant_gemv_q8_0_4096x14336,dequant_gemv_q8_0_14336x4096}" >"$res/ncu_$v.txt" 2>&1)
      grep -E "^  rlx_k_|    [a-z]" "$res/ncu_$v.txt" | cut -c1-400 | head -90
    fi
  done
done
tar -czf "$final/ab.tar.gz" -C "$res" .

#!/bin/bash
# One device call of the probe: build, time (probe.tsv), count each
# kernel's SASS instructions by opcode (sass_counts.txt), and profile one
# launch of the chosen q4_0 kernels at 4096×14336 (ncu.txt).
#   OUT=dir DQPROBE_ONLY=float,pair_f_r4_t64 NCU_KERNELS='pairQ4_0' bash run.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:?set OUT to the results folder}
mkdir -p "$out"
nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/dqp "$here/dqprobe.cu" 2>"$out/nvcc.txt" || { cat "$out/nvcc.txt"; exit 1; }
/tmp/dqp >"$out/probe.tsv" 2>"$out/probe.err"
echo "probe rc=$?"
cuobjdump -sass /tmp/dqp | python3 -c '
import re, sys, collections
k = None; c = collections.Counter(); res = []
for line in sys.stdin:
    m = re.match(r"\s+Function : (\S+)", line)
    if m:
        if k: res.append((k, c))
        k, c = m.group(1), collections.Counter(); continue
    m = re.match(r"\s+/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)", line)
    if m and k: c[m.group(1).split(".")[0]] += 1
if k: res.append((k, c))
for k, c in res: print(k, sum(c.values()), c.most_common(14))
' >"$out/sass_counts.txt"
if [ -n "${NCU_KERNELS:-}" ]; then
  # L1 wavefronts and bank conflicts, and each stall reason (warps
  # stalled for it per issued instruction).
  metrics=l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_bank_conflicts_pipe_lsu.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed
  for stall in long_scoreboard short_scoreboard wait math_pipe_throttle mio_throttle lg_throttle barrier not_selected selected dispatch_stall no_instruction branch_resolving; do
    metrics=$metrics,smsp__average_warps_issue_stalled_${stall}_per_issue_active.ratio
  done
  DQPROBE_ONCE=1 timeout 300 ncu --clock-control none -k "regex:${NCU_KERNELS}" -c "${NCU_COUNT:-8}" \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
    --section InstructionStats --section ComputeWorkloadAnalysis --section SchedulerStats \
    --metrics "$metrics" /tmp/dqp >"$out/ncu.txt" 2>&1
  echo "ncu rc=$?"
fi

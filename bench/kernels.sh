#!/usr/bin/env bash
# Benchmarks the reference matmul kernels (runtime/kernels) and prints, for
# each case, the best GFLOP/s over several runs (best, because other work on
# the machine only ever slows a run down) next to the plain triple-loop
# baseline and a peak estimate for this machine.
#
#   bench/kernels.sh [COUNT]     (default 5 runs of each benchmark)
#
# GFLOP/cpu-s is the rate per CPU-second the process actually got, which
# stays meaningful when other work shares the machine.
#
# Peak estimate: cores × clock × FLOP/cycle, with the clock read from
# /proc/cpuinfo ("cpu MHz", the nominal clock; boost clocks are not visible
# in a VM). Two ceilings are printed: the vector peak a BLAS would approach
# (AVX-512: 2 FMA pipes × 16 lanes × 2 = 64 FLOP/cycle; AVX2: 32), and the
# scalar peak that bounds Go code, which the compiler keeps scalar and which
# must not fuse multiply-adds (2 multiply + 2 add pipes: 4 FLOP/cycle).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-5}

printf "%-46s %12s %16s\n" "benchmark (best of $count runs)" "GFLOP/s" "GFLOP/cpu-s"
go test ./runtime/kernels -run '^$' -bench 'MatMul|DecodeLayer' -benchtime 300ms -count "$count" |
  awk '/GFLOP\/s/ {
         name = $1; sub(/-[0-9]+$/, "", name)
         for (i = 2; i < NF; i++) {
           if ($(i+1) == "GFLOP/s" && (!(name in wall) || $i > wall[name])) wall[name] = $i
           if ($(i+1) == "GFLOP/cpu-s" && (!(name in cpu) || $i > cpu[name])) cpu[name] = $i
         }
       }
       END { for (n in wall) printf "%-46s %12.2f %16.2f\n", n, wall[n], cpu[n] }' |
  sort

. bench/lib/peak.sh

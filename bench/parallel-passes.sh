#!/usr/bin/env bash
# Measures how much faster a func.func-anchored pipeline runs over 1,000
# functions with threads than with --mlir-disable-threading:
#
#  1. the pass manager alone (go test -bench): BenchmarkFuncPipeline
#     (test-func-work: fixed CPU work per function) and
#     BenchmarkCSECanonicalize (cse,canonicalize on graph functions; also
#     without verify-each);
#  2. the rlx-opt binary end to end (parse, pipeline, print) on a generated
#     file, with PIPELINE (default: test-func-work).
#
# Threaded and sequential runs are interleaved and the best of RUNS is kept
# for each, so that both see the same background load. It prints the
# threads/no-threads wall-time ratio (target: <= 0.65 on two cores) and the
# load average: on a machine whose cores are busy with other work no ratio
# below 1 is possible, so run it on an idle machine.
#
#   bench/parallel-passes.sh [RUNS]      (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-5}"
FUNCS="${FUNCS:-1000}"
if [ -z "${PIPELINE:-}" ]; then
  PIPELINE='builtin.module(func.func(test-func-work{iterations=200},test-analysis))'
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

echo "machine: $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# Calibration: the same CPU-bound loop run twice in a row and then on two
# goroutines. On an idle two-core machine the ratio is about 0.5; a ratio
# near 1 means other processes hold the second core and no parallel
# speedup can show.
mkdir -p "$tmp/spin"
cat > "$tmp/spin/main.go" <<'GO'
package main

import (
	"fmt"
	"sync"
	"time"
)

func work(n int) (h uint64) {
	for i := 0; i < n; i++ {
		h = (h ^ uint64(i)) * 1099511628211
	}
	return h
}

func main() {
	const n = 200_000_000
	best := 10.0
	for round := 0; round < 3; round++ {
		s := time.Now()
		work(n)
		work(n)
		seq := time.Since(s)
		s = time.Now()
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			wg.Add(1)
			go func() { defer wg.Done(); work(n) }()
		}
		wg.Wait()
		best = min(best, float64(time.Since(s))/float64(seq))
	}
	fmt.Printf("calibration: 2 goroutines / sequential on a CPU-bound loop = %.2f (0.5 is ideal)\n", best)
}
GO
printf 'module spin\ngo 1.26\n' > "$tmp/spin/go.mod"
(cd "$tmp/spin" && go run .)

go test -c -o "$tmp/pipeline.test" ./pipeline/
go test -c -o "$tmp/optdriver.test" ./optdriver/
go build -o "$tmp/rlx-opt" ./tools/rlx-opt

# bestbench BINARY BENCH: interleaves RUNS runs of BENCH/threads* and
# BENCH/nothreads* and prints the ratio of the best ns/op of each.
bestbench() {
  local bin="$1" bench="$2" suffix="${3:-}"
  : > "$tmp/b.txt"
  for _ in $(seq "$RUNS"); do
    for mode in threads nothreads; do
      "$bin" -test.run '^$' -test.bench "^${bench}\$/^${mode}${suffix}\$" -test.benchtime 3x >> "$tmp/b.txt"
    done
  done
  python3 - "$tmp/b.txt" "$bench$suffix" <<'PY'
import re, sys
best = {}
for line in open(sys.argv[1]):
    f = line.split()
    m = re.match(r"Benchmark\w+/(threads|nothreads)", f[0]) if f else None
    if m and len(f) >= 3:
        best[m.group(1)] = min(best.get(m.group(1), float("inf")), float(f[2]))
t, n = best["threads"], best["nothreads"]
print(f"{sys.argv[2]}: threads/no-threads = {t/n:.2f}  (best {t/1e6:.0f} ms vs {n/1e6:.0f} ms)")
PY
}

echo "== pass manager only ($RUNS interleaved runs each, 1,000 functions)"
bestbench "$tmp/pipeline.test" BenchmarkFuncPipeline
bestbench "$tmp/optdriver.test" BenchmarkCSECanonicalize
bestbench "$tmp/optdriver.test" BenchmarkCSECanonicalize -noverify

echo "== rlx-opt end to end ($FUNCS functions, $RUNS interleaved runs each)"
python3 - "$FUNCS" > "$tmp/in.mlir" <<'PY'
import sys
n = int(sys.argv[1])
for i in range(n):
    print(f'func.func @f{i}(%a: i32) -> i32 {{')
    print(f'  %v0 = "test.op"(%a) {{n = {i} : i64}} : (i32) -> i32')
    for j in range(1, 20):
        print(f'  %v{j} = "test.op"(%v{j-1}, %a) : (i32, i32) -> i32')
    print('  return %v19 : i32')
    print('}')
PY
args=("$tmp/in.mlir" --allow-unregistered-dialect -p "$PIPELINE")
python3 - "$RUNS" "$tmp" "${args[@]}" <<'PY'
import subprocess, sys, time
runs, tmp, args = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
exe = f"{tmp}/rlx-opt"
import re
best = {}
pipe = {}
outs = {}
for _ in range(runs):
    for mode, extra in (("threads", []), ("nothreads", ["--mlir-disable-threading"])):
        out = f"{tmp}/out-{mode}.mlir"
        start = time.perf_counter()
        p = subprocess.run([exe, *args, *extra, "-o", out, "--mlir-timing", "--mlir-timing-display=list"],
                           check=True, capture_output=True, text=True)
        best[mode] = min(best.get(mode, float("inf")), time.perf_counter() - start)
        outs[mode] = open(out, "rb").read()
        # The wall time of the pipeline alone, from --mlir-timing.
        for line in p.stderr.splitlines():
            if "Pipeline Collection" in line:
                nums = re.findall(r"[0-9]+\.[0-9]+", line.split("Pipeline Collection")[0])
                pipe[mode] = min(pipe.get(mode, float("inf")), float(nums[-2]))
t, n = best["threads"], best["nothreads"]
same = "identical" if outs["threads"] == outs["nothreads"] else "DIFFERENT"
print(f"rlx-opt whole process: threads/no-threads = {t/n:.2f}  (best {t*1e3:.0f} ms vs {n*1e3:.0f} ms); outputs {same}")
if "threads" in pipe and "nothreads" in pipe:
    t, n = pipe["threads"], pipe["nothreads"]
    print(f"rlx-opt pipeline alone (--mlir-timing): threads/no-threads = {t/n:.2f}  (best {t*1e3:.0f} ms vs {n*1e3:.0f} ms)")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

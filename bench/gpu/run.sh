#!/usr/bin/env bash
# bench/gpu/run.sh: the whole GPU check in one call on the lent NVIDIA
# machine (docs/gpu-check.md). It runs from the repository root there, with
# what `go run ./bench/gpu/prepare -o .devcarry/gpu` wrote carried along:
#
#   bash .devcarry/gpu/run.sh smoke   # build, both suites' correctness, memcheck, planted bugs, ctypes check
#   bash .devcarry/gpu/run.sh full    # everything: all sanitizers on both suites and the speed tables
#
# Everything it learns goes under $OUT (results.json, report.md, logs),
# written after each stage, so a stage that fails or a call that runs out
# of time still leaves the others' results.
set -u
mode=${1:-full}
shift || true
carry=$(cd "$(dirname "$0")" && pwd)
work=/tmp/rlx-gpu
out=${OUT:-/tmp/rlx-gpu-out}
logs=$work/logs
rm -rf "$work" && mkdir -p "$work" "$out"
cp -r "$carry"/. "$work"/
mkdir -p "$logs"
cd "$work" || exit 1
export PYTHONUNBUFFERED=1
{ nvidia-smi; nvcc --version; compute-sanitizer --version; python3 -c 'import torch, numpy; print("torch", torch.__version__, "numpy", numpy.__version__)'; } >"$logs/env.txt" 2>&1
# At most eight files come back: results.json, report.md and log.txt, and
# the logs in one archive.
python3 check.py --mode "$mode" --out "$out" --logs "$logs" "$@" 2>&1 | tee "$out/log.txt"
tar -czf "$out/logs.tar.gz" -C "$work" logs

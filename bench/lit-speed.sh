#!/usr/bin/env bash
# Times rlx's Go lit against LLVM's lit on the whole lit-tests/ suite and
# prints the medians and their ratio. Needs hyperfine, python3 and LLVM 19's
# lit (/usr/lib/llvm-19/build/utils/lit/lit.py).
#
#   bash bench/lit-speed.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
llvm_lit=${LLVM_LIT:-/usr/lib/llvm-19/build/utils/lit/lit.py}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/bin/" ./tools/...
# Run the built binary, not "go run", so compiling is not timed.
ours="$work/bin/lit -q --tools-dir $work/bin --exec-root $work/ours lit-tests"
theirs="python3 $llvm_lit -q --param tools_dir=$work/bin --param exec_root=$work/llvm lit-tests"

hyperfine --warmup 2 --runs "$runs" --ignore-failure \
  --export-json "$work/times.json" -n "rlx lit" "$ours" -n "LLVM lit" "$theirs"

python3 - "$work/times.json" <<'PY'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open(sys.argv[1]))["results"]}
ours, theirs = r["rlx lit"], r["LLVM lit"]
print(f"median: rlx lit {ours*1000:.1f} ms, LLVM lit {theirs*1000:.1f} ms; "
      f"LLVM lit / rlx lit = {theirs/ours:.1f}x")
PY

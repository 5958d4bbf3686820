#!/usr/bin/env bash
# Builds rlx-opt and checks it against the MLIR conformance corpora:
#   shared  = ../shared/conformance/mlir relative to the repo root (if present)
#   new     = conformance/mlir in this repo
# Per corpus and category it prints one "N/M" line:
#   generic      rlx-opt --allow-unregistered-dialect --mlir-print-op-generic generic/X
#                prints generic/X byte for byte
#   generic-loc  same with --mlir-print-debuginfo on generic-loc/X
#   pretty       rlx-opt --allow-unregistered-dialect --mlir-print-op-generic pretty/X
#                prints generic/X (only chunks whose MANIFEST.tsv says mlir-opt
#                itself re-parses the pretty form to the same generic text)
#
#   conformance/mlir/run.sh [-v] [-k DIR] [-b RLX_OPT]
#     -v       also list every failing chunk
#     -k DIR   keep rlx-opt's output (and stderr) for failing chunks under DIR
#     -b PATH  use this rlx-opt binary instead of building one
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
verbose=0 keep="" bin=""
while getopts "vk:b:" o; do
  case $o in v) verbose=1 ;; k) keep=$OPTARG ;; b) bin=$OPTARG ;; *) exit 2 ;; esac
done
if [ -z "$bin" ]; then
  bdir="$(mktemp -d "${TMPDIR:-/tmp}/rlx-conformance.XXXXXX")"
  trap 'rm -rf "$bdir"' EXIT
  bin="$bdir/rlx-opt"
  (cd "$root" && go build -o "$bin" ./tools/rlx-opt) || { echo "build of rlx-opt failed" >&2; exit 1; }
fi
[ -n "$keep" ] && mkdir -p "$keep"

python3 - "$bin" "$verbose" "$keep" "$root/../shared/conformance/mlir" "$here" <<'PY'
import os, subprocess, sys
rlx, verbose, keep = sys.argv[1], sys.argv[2] == "1", sys.argv[3]
corpora = [("shared", sys.argv[4]), ("new", sys.argv[5])]
BASE = [rlx, "--allow-unregistered-dialect", "--mlir-print-op-generic"]

def run(args, path):
    try:
        p = subprocess.run(BASE + args + [path], capture_output=True, timeout=60)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -1, b"", b"timeout"

total_fail = 0
for cname, d in corpora:
    if not os.path.isdir(os.path.join(d, "generic")):
        print("%s: no corpus at %s" % (cname, d))
        continue
    man = {}
    with open(os.path.join(d, "MANIFEST.tsv")) as f:
        next(f)
        for line in f:
            c = line.rstrip("\n").split("\t")
            man[c[0]] = c
    for cat in ("generic", "generic-loc", "pretty"):
        ok = n = 0
        fails = []
        for fn in sorted(os.listdir(os.path.join(d, cat))):
            tag = fn[:-5]
            path = os.path.join(d, cat, fn)
            if cat == "pretty":
                if tag not in man or man[tag][4] != "same":
                    continue
                want = open(os.path.join(d, "generic", fn), "rb").read()
                rc, out, err = run([], path)
            elif cat == "generic-loc":
                want = open(path, "rb").read()
                rc, out, err = run(["--mlir-print-debuginfo"], path)
            else:
                want = open(path, "rb").read()
                rc, out, err = run([], path)
            n += 1
            if rc == 0 and out == want:
                ok += 1
                continue
            fails.append(tag)
            if keep:
                base = os.path.join(keep, "%s.%s.%s" % (cname, cat, tag))
                open(base + ".out", "wb").write(out)
                open(base + ".err", "wb").write(err)
        total_fail += len(fails)
        print("%-6s %-11s %d/%d" % (cname, cat, ok, n), flush=True)
        if verbose:
            for t in fails:
                print("    FAIL %s" % t)
sys.exit(1 if total_fail else 0)
PY

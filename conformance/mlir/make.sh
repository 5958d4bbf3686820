#!/usr/bin/env bash
# Regenerates generic/, pretty/, generic-loc/, MANIFEST.tsv and SUMMARY.tsv
# from src/ (test data only: nothing here is compiled into rlx).
#
#   MLIR_OPT=/path/to/mlir-opt ./make.sh   (default: mlir-opt-19, else the
#                                           mlir-opt in `llvm-config-19 --bindir`)
#
# Same rules as ../../../shared/conformance/mlir/make.sh (the starting corpus):
# every src/NAME.mlir is run three ways from this directory (so file names in
# locations are relative: src/NAME.mlir)
#   $MLIR_OPT --allow-unregistered-dialect --split-input-file --mlir-print-op-generic src/NAME.mlir
#   $MLIR_OPT --allow-unregistered-dialect --split-input-file src/NAME.mlir
#   $MLIR_OPT --allow-unregistered-dialect --split-input-file --mlir-print-op-generic --mlir-print-debuginfo src/NAME.mlir
# and the outputs are split at the "// -----" lines mlir-opt prints between
# chunks (a chunk that fails to parse or verify leaves an empty slot).
#
# Chunk K of NAME is kept as generic/NAME__cKKK.mlir (+ pretty/NAME__cKKK.mlir)
# only if
#   * three identical generic runs print it identically (determinism), and
#   * mlir-opt's standalone generic print of it is a byte-exact fixed point.
# generic-loc/NAME__cKKK.mlir is kept under the same fixed-point rule applied to
# --mlir-print-op-generic --mlir-print-debuginfo.  MANIFEST.tsv records for
# each kept chunk whether the pretty form re-parses to the same generic text.
# DENYLIST lists (source, chunk) pairs always dropped.
set -euo pipefail
if [ -z "${MLIR_OPT:-}" ]; then
  if command -v mlir-opt-19 >/dev/null 2>&1; then MLIR_OPT=mlir-opt-19
  else MLIR_OPT="$(llvm-config-19 --bindir)/mlir-opt"; fi
fi
cd "$(dirname "$0")"
exec python3 - "$MLIR_OPT" <<'PY'
import os, re, shutil, subprocess, sys, tempfile

MLIR_OPT = sys.argv[1]
BASE = ["--allow-unregistered-dialect"]
SPLIT = re.compile(r"^// -----$", re.M)
DENYLIST = set()   # {("NAME.mlir", chunk_index), ...}

def opt(args, path):
    p = subprocess.run([MLIR_OPT] + BASE + args + [path], capture_output=True,
                       timeout=300)
    return p.returncode, p.stdout.decode("utf-8", "surrogateescape")

def slots(out):
    return [x.strip("\n") for x in SPLIT.split(out)]

def write(path, text):
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)

def fixed_point(text, args, tmp):
    """mlir-opt's standalone print of text, if printing it again is byte-identical."""
    write(tmp, text + "\n")
    rc, again = opt(args, tmp)
    if rc != 0 or again.strip("\n") != text.strip("\n"):
        return None
    write(tmp, again)
    rc, third = opt(args, tmp)
    return again if rc == 0 and third == again else None

for d in ("generic", "pretty", "generic-loc"):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)

GEN = ["--mlir-print-op-generic"]
LOC = ["--mlir-print-op-generic", "--mlir-print-debuginfo"]
tmpdir = tempfile.mkdtemp(prefix="rlx-mlir-corpus-")
manifest, summary = [], []
for fn in sorted(os.listdir("src")):
    if not fn.endswith(".mlir"):
        continue
    name, src = fn[:-5], os.path.join("src", fn)
    gens = [slots(opt(["--split-input-file"] + GEN, src)[1]) for _ in range(3)]
    pre = slots(opt(["--split-input-file"], src)[1])
    loc = slots(opt(["--split-input-file"] + LOC, src)[1])
    n = max(len(gens[0]), len(pre), len(loc))
    for l in gens + [pre, loc]:
        l += [""] * (n - len(l))
    parsed = stable = 0
    for i in range(n):
        g = gens[0][i]
        if not g.strip():
            continue
        parsed += 1
        tag = "%s__c%03d" % (name, i + 1)
        if (fn, i + 1) in DENYLIST or gens[1][i] != g or gens[2][i] != g:
            continue
        text = fixed_point(g, GEN, os.path.join(tmpdir, tag + ".g.mlir"))
        if text is None:
            continue
        stable += 1
        write(os.path.join("generic", tag + ".mlir"), text)
        pretty_ok = "no-pretty"
        if pre[i].strip():
            write(os.path.join("pretty", tag + ".mlir"), pre[i] + "\n")
            rc, fromp = opt(GEN, os.path.join("pretty", tag + ".mlir"))
            pretty_ok = "same" if rc == 0 and fromp.strip("\n") == text.strip("\n") else "differs"
        loc_ok = "no"
        if loc[i].strip():
            ltext = fixed_point(loc[i], LOC, os.path.join(tmpdir, tag + ".l.mlir"))
            if ltext is not None:
                loc_ok = "yes"
                write(os.path.join("generic-loc", tag + ".mlir"), ltext)
        manifest.append((tag, fn, i + 1, len(text.encode("utf-8", "surrogateescape")),
                         pretty_ok, loc_ok))
    summary.append((fn, n, parsed, stable))
    print("%-55s chunks=%3d parsed=%3d stable=%3d" % (fn, n, parsed, stable), flush=True)

shutil.rmtree(tmpdir, ignore_errors=True)
with open("MANIFEST.tsv", "w") as f:
    f.write("chunk\tsource\tchunk_index\tgeneric_bytes\tpretty_reparses_to_generic\tgeneric_loc_kept\n")
    for row in manifest:
        f.write("\t".join(map(str, row)) + "\n")
with open("SUMMARY.tsv", "w") as f:
    f.write("source\tchunks\tparsed\tstable_generic\n")
    for row in summary:
        f.write("\t".join(map(str, row)) + "\n")
print("TOTAL: %d source files, %d chunks, %d parsed, %d stable generic chunks"
      % (len(summary), sum(r[1] for r in summary), sum(r[2] for r in summary),
         sum(r[3] for r in summary)))
PY

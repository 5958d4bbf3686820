#!/usr/bin/env bash
# Run LLVM's own FileCheck test suite (../shared/conformance/filecheck, next
# to the repository checkout) against rlx's FileCheck (tools/filecheck).
#
#   conformance/filecheck/run.sh [extra lit arguments...]
#
# Builds tools/filecheck into a temporary directory, runs the suite's
# run.sh (LLVM lit, with LLVM's `not`, `count` and `split-file`), and prints
# lit's output followed by the verdict line "N passed, M failed".
# Exit status: 0 if nothing failed, 1 if something did, 2 if the suite or
# its tools are missing.
#
# Environment: SUITE overrides the suite directory; LIT, PYTHON and
# LLVM_TOOLS_DIR are passed on to the suite's run.sh (see its README.md).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
suite="${SUITE:-$root/../shared/conformance/filecheck}"
if [ ! -x "$suite/run.sh" ]; then
  echo "error: conformance suite not found at $suite (set SUITE=...)" >&2
  exit 2
fi
if [ -z "${LLVM_TOOLS_DIR:-}" ] && ! command -v llvm-config-19 >/dev/null 2>&1; then
  echo "error: LLVM 19 tools not found (install llvm-19-tools or set LLVM_TOOLS_DIR and LIT)" >&2
  exit 2
fi

bin="$(mktemp -d "${TMPDIR:-/tmp}/rlx-filecheck.XXXXXX")"
trap 'rm -rf "$bin"' EXIT
(cd "$root" && go build -o "$bin/FileCheck" ./tools/filecheck) || {
  echo "error: building tools/filecheck failed" >&2
  exit 2
}
"$suite/run.sh" "$bin/FileCheck" "$@"

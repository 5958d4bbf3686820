#!/usr/bin/env bash
# bench/gpu/variant.sh: prepare an emitter variant for ab.sh.
#
#   bash bench/gpu/variant.sh NAME [PATCH...]
#
# checks out HEAD in a temporary worktree, applies each PATCH there (git
# apply; bench/gpu/variants/ keeps patches that still apply, such as
# loads-only.patch, the decode replaced by a fold of the loaded words),
# runs `go run ./bench/gpu/prepare -msl-version 3.2 -tune
# 2048` in it, and writes the result to .devcarry/NAME (replacing it)
# trimmed to what ab.sh's bench stage needs: the real suite without its
# expected outputs (about 1.3 MB). With FULL=1 it keeps what a full
# check (run.sh full) needs, less the MSL sources and the probe and tune
# suites (about 25 MB; the device tool carries 64 MiB with the tree).
# ab.sh itself is copied to .devcarry/ab.sh. The worktree is removed
# when the script ends, whatever happens. PREPARE overrides the prepare
# command (a test's stand-in); it runs in the worktree with the output
# directory as its last argument, after -o.
set -euo pipefail
name=${1:?usage: variant.sh NAME [PATCH...]}
shift
case $name in
  */* | .* | "") echo "variant.sh: NAME must be a plain directory name, got '$name'" >&2; exit 2 ;;
esac
root=$(git rev-parse --show-toplevel)
patches=()
for p in "$@"; do
  [ -f "$p" ] || { echo "variant.sh: no patch file $p" >&2; exit 2; }
  patches+=("$(cd "$(dirname "$p")" && pwd)/$(basename "$p")")
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/variant.XXXXXX")
wt=$tmp/tree
cleanup() {
  git -C "$root" worktree remove --force "$wt" >/dev/null 2>&1 || true
  git -C "$root" worktree prune >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
git -C "$root" worktree add --detach -q "$wt" HEAD
for p in "${patches[@]}"; do
  git -C "$wt" apply "$p" || { echo "variant.sh: $p does not apply to HEAD" >&2; exit 1; }
done
out=$tmp/out
(cd "$wt" && ${PREPARE:-go run ./bench/gpu/prepare -msl-version 3.2 -tune 2048} -o "$out")
cd "$out"
if [ "${FULL:-}" = 1 ]; then
  rm -rf real.metal small.metal probe* tune*
else
  rm -rf small* tune* planted* fillcheck* real.expect probe* short* real.metal
fi
mkdir -p "$root/.devcarry"
rm -rf "${root:?}/.devcarry/$name"
mv "$out" "$root/.devcarry/$name"
cp "$root/bench/gpu/ab.sh" "$root/.devcarry/ab.sh"
echo "variant.sh: .devcarry/$name ($(du -sh "$root/.devcarry/$name" | cut -f1)) from $(git -C "$root" rev-parse --short HEAD)${patches:+ with ${#patches[@]} patch(es)}"

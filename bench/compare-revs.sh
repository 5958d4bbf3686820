#!/usr/bin/env bash
# Before/after benchmark of rlx-opt --hybrid-split at two git revisions,
# in one run.
#
# usage: bench/compare-revs.sh OLD NEW [OPS...]   (default OPS: 100000 1000000)
#
# Builds rlx-opt at OLD and at NEW (git worktrees under $TMPDIR), generates
# a decode-step graph of about OPS graph ops with
# ../shared/bench/gen_decode.py (--gdn-every 4) for each size, and runs
#
#   rlx-opt --hybrid-split --mlir-timing --mlir-disable-threading --verify-each=false -o /dev/null FILE
#
# REPEAT times (default 7) per binary and size, the two binaries taking
# turns within each repetition so that a slow spell of a shared machine
# falls on both alike. It prints, per size, the median parse time, pass
# time and whole-process wall time of each, and NEW/OLD ratios of the
# medians (1.00 is no change; on a shared 2-core machine, differences of a
# few percent are noise: compare with the spread printed beside them).
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: bench/compare-revs.sh OLD NEW [OPS...]}
new=${2:?usage: bench/compare-revs.sh OLD NEW [OPS...]}
shift 2
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000)
repeat=${REPEAT:-7}
work=${TMPDIR:-/tmp}/rlx-bench-compare
rm -rf "$work"
mkdir -p "$work"
for rev in old new; do
	r=$old
	[ $rev = new ] && r=$new
	git worktree add -q --detach "$work/src-$rev" "$r"
	(cd "$work/src-$rev" && go build -o "$work/rlx-opt-$rev" ./tools/rlx-opt)
	git worktree remove --force "$work/src-$rev"
done
count_ops() { grep -cE '= "?graph\.' "$1"; }
python3 ../shared/bench/gen_decode.py 20 --gdn-every 4 > "$work/cal.mlir"
per=$(( $(count_ops "$work/cal.mlir") / 20 ))
for n in "${sizes[@]}"; do
	python3 ../shared/bench/gen_decode.py $(( (n + per - 1) / per )) --gdn-every 4 > "$work/in-$n.mlir"
done
# one run: prints "parse pass wall"
run() {
	local bin=$1 file=$2 t0 t1 log
	log=$work/log
	t0=$(date +%s.%N)
	"$bin" --hybrid-split --mlir-timing --mlir-disable-threading --verify-each=false -o /dev/null "$file" 2>"$log"
	t1=$(date +%s.%N)
	awk -v w="$(echo "$t1 - $t0" | bc)" '
		/Parser/ && !p { p = $1 }
		/HybridSplit/ && !h { h = $1 }
		END { printf "%s %s %s\n", p, h, w }' "$log"
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < repeat; i++)); do
	for n in "${sizes[@]}"; do
		for rev in old new; do
			run "$work/rlx-opt-$rev" "$work/in-$n.mlir" >> "$work/times-$rev-$n"
		done
	done
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
spread() { sort -g | awk '{ a[NR] = $1 } END { printf "%.3f-%.3f", a[1], a[NR] }'; }
printf "\nrevisions: old %s, new %s; %d runs each, medians (min-max)\n" "$(git rev-parse --short "$old")" "$(git rev-parse --short "$new")" "$repeat"
printf "%-9s %-6s %-22s %-22s %-22s\n" ops rev "parse s" "pass s" "process s"
for n in "${sizes[@]}"; do
	ops=$(count_ops "$work/in-$n.mlir")
	for rev in old new; do
		f=$work/times-$rev-$n
		printf "%-9s %-6s %-22s %-22s %-22s\n" "$ops" $rev \
			"$(cut -d' ' -f1 "$f" | median) ($(cut -d' ' -f1 "$f" | spread))" \
			"$(cut -d' ' -f2 "$f" | median) ($(cut -d' ' -f2 "$f" | spread))" \
			"$(cut -d' ' -f3 "$f" | median) ($(cut -d' ' -f3 "$f" | spread))"
	done
	for k in 1 2 3; do
		o=$(cut -d' ' -f$k "$work/times-old-$n" | median)
		w=$(cut -d' ' -f$k "$work/times-new-$n" | median)
		r[$k]=$(echo "scale=3; $w / $o" | bc)
	done
	printf "%-9s new/old: parse %s, pass %s, process %s\n" "$ops" "${r[1]}" "${r[2]}" "${r[3]}"
done

#!/usr/bin/env bash
# Scale benchmark of the hybrid-split pass.
#
# usage: bench/hybrid-split.sh [OPS...]      (default: 10000 100000 1000000)
#
# For each size it generates two decode-step graphs of about OPS graph ops —
# one with ../shared/bench/gen_decode.py (--gdn-every 4) and one with
# rlx-gen qwen35 — and runs
#
#   rlx-opt --hybrid-split --mlir-timing --mlir-disable-threading -o /dev/null FILE
#
# REPEAT times (default 5), keeping the median run by pass time. The sizes
# take turns within each repetition (10^4, 10^5, 10^6, 10^4, …), so a slow
# spell of a shared machine falls on every size alike instead of on one
# size's runs and one growth ratio. It reports the parse
# time and the pass time from --mlir-timing (the pass alone, with
# --verify-each=false, and the pass with the verifier run after it, as
# rlx-opt does by default), the whole process (wall, user CPU, peak RSS),
# and the growth of each from one size to the next, scaled to 10x ops
# (linear is 10x; the target is at most 11x). The last lines check the
# targets: growth <= 11x per 10x, and the pass alone on the largest graph
# faster than parsing it. These are wall times: on a shared machine they
# move with the load (printed before and after), so the median of REPEAT
# runs is what is compared (the fastest of a few millisecond-long runs at
# 10^4 ops is a lucky outlier that inflates the growth). For a measure
# that does not move, see
# BenchmarkSplit in passes/hybridsplit (go test -bench).
#
# With mlir-opt-19 installed (MLIR_OPT names another; ANCHOR=0 skips it),
# the anchor runs in the same repetitions on the gen_decode files:
#
#   mlir-opt-19 --allow-unregistered-dialect --cse --mlir-timing --mlir-disable-threading -o /dev/null FILE
#
# (mlir-opt has no hybrid-split; cse is a linear pass over the same ops).
# It reports mlir-opt's parser, printer and whole-run times, their growth
# per 10x ops, and rlx-opt's growth divided by mlir-opt's (below 1: rlx-opt
# grows more slowly than MLIR does on the same files).
#
# With perf installed it also counts the page faults taken inside the pass
# (one more run per file), and it prints what a fault costs on this
# machine (bench/firsttouch): where the host backs guest memory lazily, a
# first touch of a 4 KB page costs ~16 µs, and faults times that cost is
# most of what the pass's growth has beyond linear.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000 1000000)
repeat=${REPEAT:-5}
work=${TMPDIR:-/tmp}/rlx-bench-hybrid-split
mkdir -p "$work/bin"
go build -o "$work/bin/" ./tools/rlx-opt ./tools/rlx-gen
opt=$work/bin/rlx-opt
gen=$work/bin/rlx-gen

count_ops() { grep -cE '= "?graph\.' "$1"; }

# ops per layer of each generator, measured on a small graph
python3 ../shared/bench/gen_decode.py 20 --gdn-every 4 > "$work/cal.mlir"
per_decode=$(( $(count_ops "$work/cal.mlir") / 20 ))
"$gen" qwen35 --layers 60 -o "$work/cal.mlir"
per_qwen=$(( $(count_ops "$work/cal.mlir") / 60 ))

# run FILE OUT EXTRA-FLAGS... runs rlx-opt once and appends
# "parse pass wall user rss" to OUT.
run() {
	local f=$1 out=$2; shift 2
	/usr/bin/time -f "%e %U %M" -o "$work/time.txt" \
		"$opt" --hybrid-split --mlir-timing --mlir-timing-display=list --mlir-disable-threading "$@" -o /dev/null "$f" 2> "$work/timing.txt"
	local parse pass
	parse=$(awk '/ Parser$/ {print $1}' "$work/timing.txt")
	pass=$(awk '/ HybridSplit$/ {print $1}' "$work/timing.txt")
	echo "$parse $pass $(cat "$work/time.txt")" >> "$out"
}

# median OUT prints the median line of OUT by pass time (for an even
# count, the lower middle one).
median() {
	sort -g -k2,2 "$1" | sed -n "$(( ($(wc -l < "$1") + 1) / 2 ))p"
}

# pass_faults FILE prints the page faults taken inside the pass (perf
# samples of every fault whose stack goes through package hybridsplit), or
# "-" without a usable perf. Memory a process touches for the first time
# faults; where a fault is expensive (see the first-touch line below) the
# faults explain most of the pass's growth beyond linear.
pass_faults() {
	if ! command -v perf > /dev/null || ! perf record -q -e page-faults -c 1 -g -o "$work/faults.data" \
		"$opt" --hybrid-split --mlir-disable-threading --verify-each=false -o /dev/null "$1" 2> /dev/null; then
		echo "-"
		return
	fi
	perf script -i "$work/faults.data" 2> /dev/null |
		awk '/^[^ \t]/ {if (s) n++; s = 0; next} /hybridsplit/ {s = 1} END {if (s) n++; print n + 0}'
	rm -f "$work/faults.data"
}

# anchor FILE OUT runs mlir-opt once and appends "parse output wall" to OUT.
anchor() {
	/usr/bin/time -f "%e" -o "$work/atime.txt" \
		"$mlir_opt" --allow-unregistered-dialect --cse --mlir-timing --mlir-timing-display=list --mlir-disable-threading -o /dev/null "$1" 2> "$work/atiming.txt"
	echo "$(awk '/ Parser$/ {print $1}' "$work/atiming.txt") $(awk '/ Output$/ {print $1}' "$work/atiming.txt") $(cat "$work/atime.txt")" >> "$2"
}
mlir_opt=${MLIR_OPT:-mlir-opt-19}
use_anchor=0
if [ "${ANCHOR:-1}" != 0 ] && command -v "$mlir_opt" > /dev/null; then
	use_anchor=1
fi

fail=0
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "first-touch memory on this machine: $(go run ./bench/firsttouch 128)"
printf '%-10s %9s %9s %9s %11s %11s %10s %9s %8s %12s\n' generator ops "parse s" "pass s" "pass+ver s" "process s" "user s" "RSS MB" "pass/parse" "pass faults"
for g in gen_decode rlx-gen; do
	for n in "${sizes[@]}"; do
		f=$work/$g-$n.mlir
		if [ ! -s "$f" ]; then
			if [ $g = gen_decode ]; then
				python3 ../shared/bench/gen_decode.py $(( (n + per_decode - 1) / per_decode )) --gdn-every 4 > "$f"
			else
				"$gen" qwen35 --layers $(( (n + per_qwen - 1) / per_qwen )) -o "$f"
			fi
		fi
		rm -f "$work/$g-$n.pass" "$work/$g-$n.ver" "$work/$g-$n.anchor"
	done
	# The sizes take turns within each repetition, so that a slow spell of
	# the machine falls on all of them and not on one size's runs.
	for _ in $(seq "$repeat"); do
		for n in "${sizes[@]}"; do
			run "$work/$g-$n.mlir" "$work/$g-$n.pass" --verify-each=false
			run "$work/$g-$n.mlir" "$work/$g-$n.ver"
			if [ $g = gen_decode ] && [ $use_anchor = 1 ]; then
				anchor "$work/$g-$n.mlir" "$work/$g-$n.anchor"
			fi
		done
	done
	prev_ops="" ; prev_pass="" ; prev_ver="" ; prev_wall=""
	growth=()
	for n in "${sizes[@]}"; do
		f=$work/$g-$n.mlir
		ops=$(count_ops "$f")
		read -r parse pass _ _ _ <<< "$(median "$work/$g-$n.pass")"
		read -r _ ver wall user rss <<< "$(median "$work/$g-$n.ver")"
		faults=$(pass_faults "$f")
		printf '%-10s %9d %9.3f %9.3f %11.3f %11.2f %10.2f %9d %8.2f %12s\n' $g "$ops" "$parse" "$pass" "$ver" "$wall" "$user" $(( rss / 1024 )) \
			"$(awk -v a="$pass" -v b="$parse" 'BEGIN {print a / b}')" "$faults"
		if [ -n "$prev_ops" ]; then
			growth+=("$(awk -v o1="$prev_ops" -v o2="$ops" -v p1="$prev_pass" -v p2="$pass" -v v1="$prev_ver" -v v2="$ver" -v w1="$prev_wall" -v w2="$wall" \
				'BEGIN {s = 10 / (o2 / o1); printf "%d -> %d ops: pass %.1fx, pass+verify %.1fx, process %.1fx (per 10x ops)", o1, o2, p2 / p1 * s, v2 / v1 * s, w2 / w1 * s}')")
			if awk -v o1="$prev_ops" -v o2="$ops" -v p1="$prev_pass" -v p2="$pass" 'BEGIN {exit !(p2 / p1 * 10 / (o2 / o1) > 11)}'; then
				fail=1
				growth+=("  FAIL: the pass grew more than 11x per 10x ops")
			fi
		fi
		prev_ops=$ops prev_pass=$pass prev_ver=$ver prev_wall=$wall
		last_parse=$parse last_pass=$pass
	done
	for l in "${growth[@]}"; do echo "  $g growth: $l"; done
	if [ $g = gen_decode ] && [ $use_anchor = 1 ]; then
		# The anchor's medians (by whole-run time) and its growth, and
		# rlx-opt's growth over the anchor's: pass over parser, process
		# over whole run.
		printf '  %s (anchor) %9s %9s %9s %9s\n' "$mlir_opt" ops "parse s" "output s" "run s"
		prev=""
		for n in "${sizes[@]}"; do
			ops=$(count_ops "$work/$g-$n.mlir")
			read -r aparse aout awall <<< "$(sort -g -k3,3 "$work/$g-$n.anchor" | sed -n "$(( ($(wc -l < "$work/$g-$n.anchor") + 1) / 2 ))p")"
			read -r _ pass _ _ _ <<< "$(median "$work/$g-$n.pass")"
			read -r _ _ wall _ _ <<< "$(median "$work/$g-$n.ver")"
			printf '  %s (anchor) %9d %9.3f %9.3f %9.2f\n' "$mlir_opt" "$ops" "$aparse" "$aout" "$awall"
			if [ -n "$prev" ]; then
				read -r o1 ap1 ao1 aw1 p1 w1 <<< "$prev"
				awk -v o1="$o1" -v o2="$ops" -v ap1="$ap1" -v ap2="$aparse" -v ao1="$ao1" -v ao2="$aout" -v aw1="$aw1" -v aw2="$awall" -v p1="$p1" -v p2="$pass" -v w1="$w1" -v w2="$wall" \
					'BEGIN {s = 10 / (o2 / o1); printf "  anchor growth: %d -> %d ops: parser %.1fx, output %.1fx, whole run %.1fx; rlx-opt pass / anchor parser %.2f, rlx-opt process / anchor run %.2f\n", o1, o2, ap2 / ap1 * s, ao2 / ao1 * s, aw2 / aw1 * s, (p2 / p1) / (ap2 / ap1), (w2 / w1) / (aw2 / aw1)}'
			fi
			prev="$ops $aparse $aout $awall $pass $wall"
		done
	fi
	if awk -v a="$last_pass" -v b="$last_parse" 'BEGIN {exit !(a < b)}'; then
		echo "  $g: PASS: the pass alone ($last_pass s) is faster than parsing ($last_parse s) on the largest graph"
	else
		echo "  $g: FAIL: the pass alone ($last_pass s) is not faster than parsing ($last_parse s) on the largest graph"
		fail=1
	fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $fail

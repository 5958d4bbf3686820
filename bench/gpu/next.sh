#!/usr/bin/env bash
# bench/gpu/next.sh: the device calls prepared for the next session with
# the GPU machine, one stage a call, each within the device tool's 600 s.
#
# Prepare them here first (about two minutes; .devcarry stays under the
# tool's 64 MiB). Since stop 62 the tree alone is 67 MB (the importer's
# fixtures 32 MB, bench/gpu/results 26 MB): move bench/gpu/results out
# for every call (`mv bench/gpu/results /tmp/r`, back after; runs 43a
# and 43b did), which leaves about 41 MB for the tree. For b, whose
# H.tgz is 29 MB since stop 63, move models/importer/testdata/hf out too
# (12.5 MB of tree left; run 44a did, with results/run44a/go.sh, which
# is b with its budget as an argument).
#
#   FULL=1 bash bench/gpu/variant.sh H && (cd .devcarry && tar -czf H.tgz H && rm -rf H)
#
# and, for a, the two variants to compare (V and O; e.g. a patch from
# bench/gpu/variants/ or a results/run*/ folder):
#
#   bash bench/gpu/variant.sh V && bash bench/gpu/variant.sh O PATCH
#
# and for c, alone (carry [".devcarry/R.tgz"]; 600 functions are a 25 MB
# folder, which with the tree passes the tool's 64 MiB, and 4.6 MB packed):
#
#   go run ./bench/gpu/prepare -o .devcarry/R -skip-real -random 600 -random-first 14401 && (cd .devcarry/R && rm -f ./*.metal small* planted* probe* short* fillcheck*) && (cd .devcarry && tar -czf R.tgz R && rm -rf R)
#
# then, on the GPU machine (the device tool; carry [".devcarry/V",
# ".devcarry/O", ".devcarry/ab.sh"] for a, [".devcarry/H.tgz"] for b,
# as the tree and H.tgz alone fill most of the 64 MiB):
#
#   bash bench/gpu/next.sh a   # about 3 min
#   bash bench/gpu/next.sh b   # about 2.5 min
#   bash bench/gpu/next.sh c   # about 1.5 min
#
# a: ab.sh of .devcarry/V against .devcarry/O, three rounds, the
#    rms_norm rows shown (SHOW in the script; run 37a ran the norms'
#    output passes so, run 38b the held f16 rows).
# b: (the tree, 46 MB since stop 59, and H.tgz, 23 MB, no longer fit the
#    tool's 64 MiB together: run 40f moved bench/gpu/results out of the
#    tree for the call, `mv bench/gpu/results /tmp/r` and back after;
#    or run t for the table alone)
#    the full check of H: correctness at small and real sizes, the
#    sanitizers at small and real sizes, the bench table (report.md
#    under $OUT/C). Run 39a (an H100) checked H at 012112a; the
#    issue's numbers want an H200, which no call has had since run 36a.
# c: the random suite in .devcarry/R: each job against the interpreter
#    three times, and the four sanitizers (report.md under $OUT/R);
#    1–5400 and 6601–10800 have run (runs 33a–41b, 41g, 41i, 42a–43b; 4297
#    found run 41's non-finite scale, 7255 the attention NaN fix, 8350
#    the constants the conditioning now moves; 5401–10800 ran on the CPU
#    too, where 6736 and 6975 found the erfc and pow fixes); 10801–11400
#    (run 46a) against the interpreter and under memcheck only. Since
#    stop 65 every fourth function (seeds 1 mod 4) ends with randgraph's
#    Formats tail (q2_k to mxfp4 dequant_matmuls); 11401–12000, the
#    first batch with it, passed with all four sanitizers clean (run
#    47a), as did 12001–12600 (run 48a, on the unit kernels of q4_1,
#    q5_0 and q5_1 before they moved to q4_0's lane); 12601–13200 (run
#    49a) and 13201–13800 (run 50a, whose g13601 the conditioning now
#    marks: moveOperands) passed too, and 10801–11400 under all four
#    sanitizers (run 50a), 13801–14400 (run 51a), 14401–15000 (run
#    53a), 15001–15600 (run 53b), 15601–16200 (run 54a),
#    16201–16800 (run 54d), 16801–17400 (run 55a), 17401–18000
#    (run 55b), 18001–18600 (run 56a), 18601–19200 (run 56b),
#    19201–19800 (run 57a) and 19801–20400 (run 57b):
#    prepare the next with -random-first 20401,
#    and run it with bench/gpu/batch.sh (`bash bench/gpu/batch.sh 380`,
#    carry [".devcarry/H.tgz", ".devcarry/R.tgz"]; on an H200 it times
#    H first), in place of a copy of the last run's go.sh.
# For a check of an emitter change, keep the small files (RS.tgz, 16
#    MB, run 41g; run.sh full --only
#    correct_small,sanitize_small,correct_random,sanitize_random).
# t: the bench stage of H alone, from .devcarry/HB.tgz (carry it alone):
#    H without its correctness inputs and expectations, 0.4 MB packed,
#    for when the tree and H.tgz pass the tool's 64 MiB (they do since
#    stop 59: 44 MB + 23 MB). Make it from H.tgz:
#      mkdir -p /tmp/hb && tar -xzf .devcarry/H.tgz -C /tmp/hb && (cd /tmp/hb && rm -f H/small.jobs H/small.expect H/real.expect H/fillcheck.bin && tar -czf "$OLDPWD/.devcarry/HB.tgz" H)
#    Runs 40c (an H100) and 40e (an H200) timed it.
# d: remakes the transformers fixtures of stops 55 and 56 (run 37d:
#    Qwen2, Mistral, Mixtral, Phi-3, Qwen2-MoE, Qwen3-MoE, Gemma 3,
#    Llama with attention biases, LongRoPE, YaRN, a window, Gemma 2) as
#    $OUT/fixtures.tgz: untar it into models/importer/testdata/hf (the
#    variants' weights already shared by share_weights.py). No carry;
#    under a minute.
set -u
case ${1:-} in
a | b | c | d | t) ;;
*)
  echo "usage: bash bench/gpu/next.sh a|b|c|d|t (see the comment at its top)" >&2
  exit 2
  ;;
esac
out=${OUT:?set OUT to the results folder}
if [ "$1" = d ]; then
  python3 tools/hf-fixtures/make_fixtures.py --out "$out/fx" --only qwen2 mistral mixtral phi3 qwen2_moe qwen3_moe gemma3 llama_bias phi3_longrope_short phi3_longrope_long qwen2_yarn mistral_window gemma2 >"$out/fixtures.log" 2>&1
  tail -4 "$out/fixtures.log"
  tar -czf "$out/fixtures.tgz" -C "$out/fx" . && rm -rf "$out/fx"
  exit 0
fi
if [ "$1" = c ]; then
  [ -d .devcarry/R ] || tar -xzf .devcarry/R.tgz -C .devcarry || exit 1
  OUT=$out/R bash .devcarry/R/run.sh full --only correct_random,sanitize_random --budget 500 >"$out/random.log" 2>&1
  tail -12 "$out/random.log"
  exit 0
fi
case $1 in
t)
  # Its own folder: b, on the same warm machine, must find the whole H.
  [ -d .devcarry/hb/H ] || { mkdir -p .devcarry/hb && tar -xzf .devcarry/HB.tgz -C .devcarry/hb; } || exit 1
  OUT=$out/C bash .devcarry/hb/H/run.sh full --budget 300 --only bench >"$out/bench.log" 2>&1
  tail -3 "$out/bench.log"
  grep -E "copy" "$out/C/report.md" | head -1
  grep -E "^\| (dequant_gemv_q|gemv_f16|attention_decode|rms_norm)" "$out/C/report.md" | cut -c1-220
  ;;
a)
  VARIANTS="V O" ROUNDS=3 SHOW='rms_norm' OUT=$out bash .devcarry/ab.sh >"$out/ab.log" 2>&1
  cat "$out/ab.txt"
  ;;
b)
  [ -f .devcarry/H/small.jobs ] || { rm -rf .devcarry/H && tar -xzf .devcarry/H.tgz -C .devcarry; } || exit 1
  OUT=$out/C bash .devcarry/H/run.sh full --budget 520 --only correct_small,correct_real,sanitize_small,bench,sanitize_real >"$out/full.log" 2>&1
  tail -3 "$out/full.log"
  grep -E "cases pass|copy" "$out/C/report.md" | head -4
  grep -A16 '## Sanitizers' "$out/C/report.md" | grep -E '^\| (small|real)'
  grep -E "^\| (dequant_gemv_q|gemv_f16|attention_decode|moe|dense|topk_router|rms_norm)" "$out/C/report.md" | cut -c1-220
  ;;
esac

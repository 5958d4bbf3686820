# Sourced by the bench scripts: prints the machine's peak floating-point
# estimate (cores x clock x FMA lanes x 2 pipes x 2 flops for vector code;
# 4 flops per cycle for scalar code without FMA) and sets $cores.
cores=$(nproc)
mhz=$(awk -F: '/cpu MHz/ { print $2; exit }' /proc/cpuinfo)
lanes=8
grep -qw avx512f /proc/cpuinfo && lanes=16
awk -v c="$cores" -v m="$mhz" -v l="$lanes" 'BEGIN {
  g = m / 1000
  printf "peak estimate: %d cores x %.2f GHz: vector %.0f GFLOP/s (%d-lane FMA x 2 pipes), scalar no-FMA %.1f GFLOP/s\n",
         c, g, c * g * l * 2 * 2, l, c * g * 4
}'

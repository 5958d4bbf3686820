#!/usr/bin/env python3
"""timeline.py: where one kernel's time goes, threadgroup by threadgroup.

A diagnostic for the lent NVIDIA machine (docs/gpu-check.md, "Timelines").
It copies a prepared suite's CUDA text (<suite>.metal.cu), inserts a time
stamp at fixed kinds of sites of one kernel — its entry, after each
threadgroup_barrier, before each atomic_thread_fence and each return, at
the end of each step of a decode loop (`jb += …`, the steps numbered) and
at its end — builds it with the suite's own wrapper and nvcc flags, runs
it on random inputs from the manifest's bindings, and prints, for every
site, when thread 0 of each threadgroup passed it: cycles since that
threadgroup's entry (clock64) as µs, and the grid-wide clock
(%globaltimer) since the first threadgroup's entry. The same kernel
without stamps is timed beside it, so the stamps' own cost shows.

    python3 timeline.py --dir DIR --suite tune2048 --kernel attention_decode_1 [--json OUT]
    python3 timeline.py --dir DIR --suite S --kernel K --sites   # the stamps only, no build
    python3 timeline.py --summarize OUT                          # a stored run's table again

Standard library only; it needs nvcc and a GPU.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

NSTEPS = 16  # step-end stamps kept a site (later steps share the last slot)

HEADER = r"""
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#define RLX_TL_MAX_TG 65536
#define RLX_TL_SLOTS %(slots)d
__device__ unsigned long long rlx_tl_clock[RLX_TL_MAX_TG * RLX_TL_SLOTS];
__device__ unsigned long long rlx_tl_global[RLX_TL_MAX_TG * RLX_TL_SLOTS];
__device__ unsigned rlx_tl_sm[RLX_TL_MAX_TG];
static __device__ __forceinline__ void rlx_tl_stamp(unsigned k) {
#ifndef RLX_TL_OFF
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    const unsigned tg = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    if (tg < RLX_TL_MAX_TG) {
      unsigned long long g;
      asm volatile("mov.u64 %%0, %%%%globaltimer;" : "=l"(g));
      rlx_tl_clock[tg * RLX_TL_SLOTS + k] = clock64();
      rlx_tl_global[tg * RLX_TL_SLOTS + k] = g;
      if (k == 0) {
        unsigned sm;
        asm volatile("mov.u32 %%0, %%%%smid;" : "=r"(sm));
        rlx_tl_sm[tg] = sm;
      }
    }
  }
#endif
}
#define RLX_STAMP(k) rlx_tl_stamp(k)
"""

MAIN = r"""
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%%s: %%s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)
static unsigned long long rng = 0x9E3779B97F4A7C15ull;
static unsigned next32() { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (unsigned)(rng >> 11); }
int main() {
  const unsigned long long bytes[] = {%(bytes)s};
  const int kinds[] = {%(kinds)s};  // 0 random f16, 1 random f32, 2 zero, 3 random bf16
  const int nb = %(nb)d;
  rlx_buffers b;
  memset(&b, 0, sizeof b);
  for (int i = 0; i < nb; i++) {
    unsigned char *h = (unsigned char *)calloc(bytes[i] + 4, 1);
    if (kinds[i] == 0) for (unsigned long long j = 0; j + 2 <= bytes[i]; j += 2) {
      float f = (next32() %% 2001) / 1000.0f - 1.0f; __half x = __float2half(f); memcpy(h + j, &x, 2); }
    if (kinds[i] == 3) for (unsigned long long j = 0; j + 2 <= bytes[i]; j += 2) {
      float f = (next32() %% 2001) / 1000.0f - 1.0f; unsigned u; memcpy(&u, &f, 4); unsigned short s = u >> 16; memcpy(h + j, &s, 2); }
    if (kinds[i] == 1) for (unsigned long long j = 0; j + 4 <= bytes[i]; j += 4) {
      float f = (next32() %% 2001) / 1000.0f - 1.0f; memcpy(h + j, &f, 4); }
    CK(cudaMalloc(&b.p[i], bytes[i] + 4));
    CK(cudaMemcpy(b.p[i], h, bytes[i] + 4, cudaMemcpyHostToDevice));
    free(h);
  }
  const dim3 grid(%(gx)d, %(gy)d, %(gz)d), block(%(tx)d, %(ty)d, %(tz)d);
  const unsigned tgmem = %(tgmem)d;
  const int ntg = %(gx)d * %(gy)d * %(gz)d;
  CK(cudaFuncSetAttribute((const void *)rlx_tl_k, cudaFuncAttributeMaxDynamicSharedMemorySize, tgmem));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  float ms[%(reps)d];
  for (int r = 0; r < %(reps)d; r++) {
    for (int i = 0; i < nb; i++) if (kinds[i] == 2) CK(cudaMemset(b.p[i], 0, bytes[i] + 4));
    CK(cudaEventRecord(e0));
    rlx_tl_k<<<grid, block, tgmem>>>(b, 0u);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    CK(cudaEventElapsedTime(&ms[r], e0, e1));
  }
  static unsigned long long clk[RLX_TL_MAX_TG * RLX_TL_SLOTS], glb[RLX_TL_MAX_TG * RLX_TL_SLOTS];
  static unsigned sm[RLX_TL_MAX_TG];
  // One more launch on cleared stamps: a site a threadgroup passes only
  // in some launches (the last threadgroup's merge) keeps no stale time.
  void *pc, *pg;
  CK(cudaGetSymbolAddress(&pc, rlx_tl_clock));
  CK(cudaGetSymbolAddress(&pg, rlx_tl_global));
  CK(cudaMemset(pc, 0, sizeof clk));
  CK(cudaMemset(pg, 0, sizeof glb));
  for (int i = 0; i < nb; i++) if (kinds[i] == 2) CK(cudaMemset(b.p[i], 0, bytes[i] + 4));
  rlx_tl_k<<<grid, block, tgmem>>>(b, 0u);
  CK(cudaDeviceSynchronize());
  CK(cudaGetLastError());
  CK(cudaMemcpyFromSymbol(clk, rlx_tl_clock, sizeof(unsigned long long) * ntg * RLX_TL_SLOTS));
  CK(cudaMemcpyFromSymbol(glb, rlx_tl_global, sizeof(unsigned long long) * ntg * RLX_TL_SLOTS));
  CK(cudaMemcpyFromSymbol(sm, rlx_tl_sm, sizeof(unsigned) * ntg));
  int clock_khz = 0;
  CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  printf("{\"clock_khz\": %%d, \"ms\": [", clock_khz);
  for (int r = 0; r < %(reps)d; r++) printf("%%s%%.5f", r ? ", " : "", ms[r]);
  printf("], \"tg\": [\n");
  for (int t = 0; t < ntg; t++) {
    printf("%%s{\"sm\": %%u, \"clock\": [", t ? ",\n" : "", sm[t]);
    for (int k = 0; k < RLX_TL_SLOTS; k++) printf("%%s%%llu", k ? ", " : "", clk[t * RLX_TL_SLOTS + k]);
    printf("], \"global\": [");
    for (int k = 0; k < RLX_TL_SLOTS; k++) printf("%%s%%llu", k ? ", " : "", glb[t * RLX_TL_SLOTS + k]);
    printf("]}");
  }
  printf("]}\n");
  return 0;
}
"""


def function_span(text, name):
    """The [start, end) of kernel name's body, braces included."""
    m = re.search(r"kernel\s+void\s+" + re.escape(name) + r"\s*\(", text)
    if not m:
        raise SystemExit(f"timeline: no kernel {name}")
    # The parameter list has no braces: the first one opens the body.
    i = text.index("{", m.end())
    depth, j = 0, i
    while True:
        c = text[j]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i, j + 1
        j += 1


def instrument(body):
    """body with stamps; returns (text, sites): sites[k] names slot k."""
    lines = body.split("\n")
    sites = ["entry"]
    out = [lines[0] + " RLX_STAMP(0); uint rlx_tl_step = 0;"]
    step_base = None
    for ln in lines[1:-1]:
        s = ln.strip()
        if "atomic_thread_fence(" in s or s == "return;":
            sites.append("before " + s.split("(")[0].rstrip(";"))
            out.append(f"RLX_STAMP({len(sites) - 1});")
            out.append(ln)
            continue
        out.append(ln)
        if "threadgroup_barrier(" in s:
            sites.append(f"after threadgroup_barrier #{sum(1 for x in sites if 'threadgroup_barrier' in x) + 1}")
            out.append(f"RLX_STAMP({len(sites) - 1});")
        elif re.match(r"jb \+= ", s):
            if step_base is None:
                step_base = len(sites)
                sites.extend(f"end of step {n + 1}" + ("+" if n == NSTEPS - 1 else "") for n in range(NSTEPS))
            out.append(f"RLX_STAMP({step_base} + min(rlx_tl_step, {NSTEPS - 1}u)); rlx_tl_step++;")
    sites.append("end")
    out.append(f"RLX_STAMP({len(sites) - 1});")
    out.append(lines[-1])
    return "\n".join(out), sites


def wrapper(dirpath, suite, kernel):
    for f in sorted(os.listdir(dirpath)):
        if f.startswith(suite + "_part") and f.endswith(".cu"):
            t = open(os.path.join(dirpath, f)).read()
            m = re.search(r'extern "C" __global__ void __launch_bounds__\((\d+)\) rlx_k_' + re.escape(kernel) +
                          r"\(.*?\n}\n", t, re.S)
            if m:
                return m.group(0)
    raise SystemExit(f"timeline: no wrapper for {kernel}")


def summarize(res, sites):
    tgs = res["tg"]
    khz = res["clock_khz"]
    t0 = min(t["global"][0] for t in tgs)
    rows = []
    for k, name in enumerate(sites):
        local = [(t["clock"][k] - t["clock"][0]) / khz * 1e3 for t in tgs if t["clock"][k]]
        grid = [(t["global"][k] - t0) / 1e3 for t in tgs if t["global"][k]]
        if not local:
            continue
        q = lambda v, p: sorted(v)[min(len(v) - 1, int(p * len(v)))]
        rows.append({"site": name, "threadgroups": len(local),
                     "local_us": [round(q(local, p), 2) for p in (0.0, 0.5, 1.0)],
                     "grid_us": [round(q(grid, p), 2) for p in (0.0, 0.5, 1.0)]})
    return {"ms_on_median": statistics.median(res["ms_on"]), "ms_off_median": statistics.median(res["ms_off"]),
            "sms": len(set(t["sm"] for t in tgs)), "rows": rows}


def print_table(s, suite, kernel, reps, ntg):
    print(f"{suite} {kernel}: {s['ms_on_median'] * 1e3:.1f} µs with stamps, "
          f"{s['ms_off_median'] * 1e3:.1f} µs without (median of {reps} event-timed launches); "
          f"{ntg} threadgroups on {s['sms']} SMs")
    print(f"{'site':<44} {'tgs':>5}  {'since own entry µs (min/med/max)':>34}  {'since first entry µs (min/med/max)':>36}")
    for r in s["rows"]:
        print(f"{r['site']:<44} {r['threadgroups']:>5}  {'/'.join(map(str, r['local_us'])):>34}  "
              f"{'/'.join(map(str, r['grid_us'])):>36}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--suite")
    ap.add_argument("--kernel")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--json", help="write the summary and the raw stamps here")
    ap.add_argument("--sites", action="store_true", help="print the instrumented kernel and its sites; build nothing")
    ap.add_argument("--summarize", metavar="JSON", help="print the table of a run --json wrote")
    args = ap.parse_args()
    if args.summarize:
        d = json.load(open(args.summarize))
        print_table(summarize(d["raw"], d["sites"]), d["suite"], d["kernel"], d["reps"], len(d["raw"]["tg"]))
        return
    if not args.suite or not args.kernel:
        ap.error("--suite and --kernel are needed")
    man = json.load(open(os.path.join(args.dir, args.suite + ".manifest.json")))
    k = next((k for k in man["kernels"] if k["name"] == args.kernel), None)
    if k is None:
        raise SystemExit(f"timeline: {args.kernel} is not in {args.suite}")
    text = open(os.path.join(args.dir, args.suite + ".metal.cu")).read()
    a, z = function_span(text, args.kernel)
    body, sites = instrument(text[a:z])
    if args.sites:
        for n, site in enumerate(sites):
            print(f"{n}: {site}")
        print(body)
        return
    text = text[:a] + body + text[z:]
    w = wrapper(args.dir, args.suite, args.kernel)
    kinds = {"f16": 0, "f32": 1, "bf16": 3}
    bytes_, kind = [], []
    for bd in k["bindings"]:
        bytes_.append(bd["bytes"])
        kind.append(kinds.get(bd["type"], 2) if bd["access"] == "read" else 2)
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, args.suite + ".metal.cu")
        with open(src, "w") as f:
            f.write(text)
        tl = os.path.join(tmp, "tl.cu")
        with open(tl, "w") as f:
            f.write(HEADER % {"slots": len(sites)})
            f.write(f'#include "{args.suite}.metal.cu"\n#include "rlx_cuda_wrap.h"\n')
            f.write(w.replace("rlx_k_" + args.kernel, "rlx_tl_k"))
            f.write(MAIN % {"bytes": ", ".join(f"{n}ull" for n in bytes_), "kinds": ", ".join(map(str, kind)),
                            "nb": len(bytes_), "gx": k["grid"][0], "gy": k["grid"][1], "gz": k["grid"][2],
                            "tx": k["threadgroup"][0], "ty": k["threadgroup"][1], "tz": k["threadgroup"][2],
                            "tgmem": k["threadgroup_memory"], "reps": args.reps})
        # Built twice: with the stamps, and with them compiled out (the
        # same text), so that the stamps' own cost shows.
        out = {}
        for mode, flags in (("on", []), ("off", ["-DRLX_TL_OFF"])):
            exe = os.path.join(tmp, "tl_" + mode)
            cmd = ["nvcc", "-std=c++17", "-O3", "-arch=sm_90", "-lineinfo", "-I", tmp, "-I", args.dir] + flags + [tl, "-o", exe]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                sys.stderr.write(p.stderr[-6000:])
                raise SystemExit("timeline: nvcc failed")
            p = subprocess.run([exe], capture_output=True, text=True, timeout=120)
            if p.returncode != 0:
                sys.stderr.write(p.stderr[-4000:])
                raise SystemExit("timeline: run failed")
            out[mode] = json.loads(p.stdout)
    res = out["on"]
    res["ms_on"], res["ms_off"] = out["on"]["ms"], out["off"]["ms"]
    s = summarize(res, sites)
    print_table(s, args.suite, args.kernel, args.reps, len(res["tg"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"suite": args.suite, "kernel": args.kernel, "reps": args.reps, "summary": s, "sites": sites,
                       "raw": res}, f)


if __name__ == "__main__":
    main()

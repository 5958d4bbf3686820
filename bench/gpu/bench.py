"""Speed of the emitted kernels on the GPU (docs/gpu-check.md#speed).

Each benchmarked case of the real suite runs through the generated launch
table (ctypes into lib<suite>.so) on buffers that torch allocates, filled
on the device with the same generator the correctness jobs use. To keep
the weights out of the 60 MB L2, each timing cycles through enough
distinct buffer sets that together they are at least four times the L2;
the launches of one cycle are captured in a CUDA graph and the graph is
replayed, so that Python's launch cost stays out of the numbers. The time
of a launch is the median over trials of (trial time / launches). torch's
own kernel for the same shape (F.linear in f16, scaled_dot_product_attention
with GQA, F.rms_norm) is timed the same way in the same run.

Roofline fraction = bytes the case must move (every input and weight read
once, every result written once: the region's buffers but its
temporaries, such as a split kernel's partials) / time / the copy
bandwidth measured in the env stage. The kernels' own traffic (the
manifest's reads and writes, partials included) is reported beside it.

The tune stage times the same split kernels emitted for other
decode-threadgroups values (suites tune<N>, no torch anchor).
"""

import ctypes
import json
import math
import os
import time

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
TRIALS = 7
MIN_TRIAL_SECONDS = 0.02


class Lib:
    def __init__(self, suite):
        self.lib = ctypes.CDLL(os.path.join(HERE, f"lib{suite}.so"))
        self.lib.rlx_launch.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint),
                                        ctypes.c_ulonglong, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int, ctypes.c_uint,
                                        ctypes.c_void_p]
        self.lib.rlx_fill.argtypes = [ctypes.c_void_p, ctypes.c_ulonglong, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p]
        self.lib.rlx_last_error.restype = ctypes.c_char_p

    def fill(self, t, elem, seed):
        err = self.lib.rlx_fill(t.data_ptr(), t.numel() * t.element_size(), elem, seed & 0xFFFFFFFF,
                                torch.cuda.current_stream().cuda_stream)
        if err:
            raise RuntimeError(f"rlx_fill: {self.lib.rlx_last_error().decode()}")


class Launch:
    """One dispatch with its arguments prepared for ctypes."""

    def __init__(self, lib, d, ptrs):
        self.lib = lib
        self.k = d["k"]
        self.grid = (ctypes.c_uint * 3)(*d["grid"])
        self.tg = (ctypes.c_uint * 3)(*d["threadgroup"])
        self.tgmem = d["tgmem"]
        self.bufs = (ctypes.c_void_p * len(d["buffers"]))(*[ptrs[i] for i in d["buffers"]])
        self.n = len(d["buffers"])

    def __call__(self, poison=0):
        err = self.lib.lib.rlx_launch(self.k, self.grid, self.tg, self.tgmem, self.bufs, self.n, poison,
                                      torch.cuda.current_stream().cuda_stream)
        if err:
            raise RuntimeError(f"rlx_launch: {self.lib.lib.rlx_last_error().decode()}")


def region_buffers(lib, case, set_index):
    """One set of a case's buffers, allocated by torch and filled."""
    bufs = []
    for b in case["buffers"]:
        t = torch.empty(max(b["bytes"], 16), dtype=torch.uint8, device="cuda")
        if b["init"] == 3:  # Random: the correctness jobs' generator, another seed per set
            lib.fill(t[: b["bytes"]], b["elem"], b["seed"] + 7919 * set_index)
        elif b["init"] == 1:
            t[: b["bytes"]].copy_(torch.frombuffer(bytearray(bytes.fromhex(b["data"])), dtype=torch.uint8))
        elif b["init"] == 2:
            t.zero_()
        else:
            t.fill_(0xFF)
        bufs.append(t)
    return bufs


def sets_for(bytes_per_set, l2):
    """Enough distinct sets to be four times the L2 together, within reason."""
    return int(min(256, max(2, math.ceil(4 * l2 / max(bytes_per_set, 1)))))


def time_graph(enqueue, launches_per_call):
    """Median seconds per launch of enqueue() replayed as a CUDA graph."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        enqueue()
        enqueue()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        enqueue()
    g.replay()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    g.replay()
    b.record()
    b.synchronize()
    once = max(a.elapsed_time(b) * 1e-3, 1e-6)
    reps = max(1, int(MIN_TRIAL_SECONDS / once))
    times = []
    for _ in range(TRIALS):
        a.record()
        for _ in range(reps):
            g.replay()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) * 1e-3 / (reps * launches_per_call))
    del g
    times.sort()
    return times[len(times) // 2], times


def bench_rlx(lib, case, l2):
    per_set = sum(b["bytes"] for b in case["buffers"])
    n = sets_for(per_set, l2)
    sets = [region_buffers(lib, case, i) for i in range(n)]
    torch.cuda.synchronize()
    launches = [[Launch(lib, d, [t.data_ptr() for t in s]) for d in case["dispatches"]] for s in sets]

    def enqueue():
        for ls in launches:
            for l in ls:
                l()

    t, times = time_graph(enqueue, n)
    del sets
    torch.cuda.empty_cache()
    return {"seconds": t, "trials": times, "sets": n, "bytes_per_set": per_set}


def bench_anchor(case, l2):
    a, d = case["bench"]["anchor"], case["bench"]["dims"]
    if a == "linear":
        K, N = d["K"], d["N"]
        n = sets_for(N * K * 2, l2)
        x = torch.randn(1, K, dtype=torch.float16, device="cuda")
        ws = [torch.randn(N, K, dtype=torch.float16, device="cuda") * 0.02 for _ in range(n)]
        ys = [None] * n

        def enqueue():
            for i, w in enumerate(ws):
                ys[i] = F.linear(x, w)

        t, times = time_graph(enqueue, n)
        return {"kernel": "F.linear f16 [1,K]·[N,K]ᵀ", "seconds": t, "trials": times, "sets": n, "bytes": 2 * (K + N * K + N)}
    if a == "sdpa":
        H, Hkv, L, D = d["H"], d["Hkv"], d["L"], d["D"]
        n = sets_for(2 * Hkv * L * D * 2, l2)
        q = torch.randn(1, H, 1, D, dtype=torch.float16, device="cuda")
        kvs = [(torch.randn(1, Hkv, L, D, dtype=torch.float16, device="cuda"),
                torch.randn(1, Hkv, L, D, dtype=torch.float16, device="cuda")) for _ in range(n)]
        ys = [None] * n

        def enqueue():
            for i, (k, v) in enumerate(kvs):
                ys[i] = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)

        t, times = time_graph(enqueue, n)
        return {"kernel": "scaled_dot_product_attention f16, enable_gqa", "seconds": t, "trials": times, "sets": n,
                "bytes": 2 * (2 * Hkv * L * D + 2 * H * D)}
    if a == "topk":
        rows, n, k = d["rows"], d["N"], d["k"]
        count = sets_for(rows * n * 4, l2)
        xs = [torch.randn(rows, n, device="cuda") for _ in range(count)]
        ys = [None] * count

        def enqueue():
            for i, x in enumerate(xs):
                ys[i] = torch.topk(x, k)

        t, times = time_graph(enqueue, count)
        return {"kernel": "torch.topk f32", "seconds": t, "trials": times, "sets": count,
                "bytes": rows * (4 * n + 12 * k)}
    if a in ("rms_norm", "rms_norm_f16"):
        rows, dim = d["rows"], d["dim"]
        dt, size, name = (torch.float16, 2, "f16") if a == "rms_norm_f16" else (torch.float32, 4, "f32")
        n = sets_for(rows * dim * 2 * size, l2)
        g = torch.randn(dim, device="cuda", dtype=dt)
        xs = [torch.randn(rows, dim, device="cuda", dtype=dt) for _ in range(n)]
        ys = [None] * n

        def enqueue():
            for i, x in enumerate(xs):
                ys[i] = F.rms_norm(x, (dim,), g, 1e-6)

        t, times = time_graph(enqueue, n)
        return {"kernel": "F.rms_norm " + name, "seconds": t, "trials": times, "sets": n, "bytes": size * (2 * rows * dim + dim)}
    if a == "layer_norm_f16":
        rows, dim = d["rows"], d["dim"]
        n = sets_for(rows * dim * 2 * 2, l2)
        g = torch.randn(dim, device="cuda", dtype=torch.float16)
        b = torch.randn(dim, device="cuda", dtype=torch.float16)
        xs = [torch.randn(rows, dim, device="cuda", dtype=torch.float16) for _ in range(n)]
        ys = [None] * n

        def enqueue():
            for i, x in enumerate(xs):
                ys[i] = F.layer_norm(x, (dim,), g, b, 1e-5)

        t, times = time_graph(enqueue, n)
        return {"kernel": "F.layer_norm f16", "seconds": t, "trials": times, "sets": n, "bytes": 2 * (2 * rows * dim + 2 * dim)}
    return None


def run(R, out, suite="real", anchors=True):
    peak = R["env"]["peak_bandwidth"]
    l2 = R["env"].get("l2_bytes") or 60 * 2**20
    index = json.load(open(os.path.join(HERE, f"{suite}.json")))
    lib = Lib(suite)
    rows = []
    for case in index["cases"]:
        if not case.get("bench"):
            continue
        if time.time() > R.get("deadline", float("inf")) - 90:
            rows.append({"name": case["name"], "group": case["bench"]["group"], "skipped": "out of time"})
            continue
        row = {"name": case["name"], "group": case["bench"]["group"], "dims": case["bench"]["dims"],
               "kernels": [d["kernel"] for d in case["dispatches"]], "bytes": case.get("min_bytes") or case["bytes"],
               "traffic": case["bytes"]}
        row["launch"] = [{"grid": d["grid"], "threadgroup": d["threadgroup"], "tgmem": d["tgmem"]} for d in case["dispatches"]]
        try:
            r = bench_rlx(lib, case, l2)
            row.update(r)
            row["bandwidth"] = row["bytes"] / r["seconds"]
            row["roofline"] = row["bandwidth"] / peak
        except Exception as e:
            row["error"] = f"{type(e).__name__}: {e}"
        try:
            anchor = bench_anchor(case, l2) if anchors else None
            if anchor:
                anchor["roofline"] = anchor["bytes"] / anchor["seconds"] / peak
                row["anchor"] = anchor
                if "seconds" in row:
                    row["vs_anchor"] = row["seconds"] / anchor["seconds"]
        except Exception as e:
            row["anchor"] = {"error": f"{type(e).__name__}: {e}"}
        torch.cuda.empty_cache()
        print(f"   {row['name']}: {row.get('seconds', 0) * 1e6:.1f} us, roofline {row.get('roofline', 0):.2f}, "
              f"vs torch {row.get('vs_anchor', float('nan')):.2f}", flush=True)
        rows.append(row)
    return {"peak_bandwidth": peak, "rows": rows}


def tune(R, out):
    """The tuning variants: every tune<N> suite prepare wrote, timed like
    the real suite's cases, without anchors."""
    import re

    res = {}
    for f in sorted(os.listdir(HERE), key=lambda f: (len(f), f)):
        if re.fullmatch(r"tune\d+\.json", f):
            name = f[:-5]
            res[name] = run(R, out, name, anchors=False)["rows"]
    return res


def profile_cases(names):
    """Runs the named cases of the real suite once on each of two buffer sets,
    for ncu (check.py's profile stage) to read the counters of the second."""
    index = json.load(open(os.path.join(HERE, "real.json")))
    lib = Lib("real")
    for case in index["cases"]:
        if case["name"] not in names:
            continue
        sets = [region_buffers(lib, case, i) for i in range(2)]
        torch.cuda.synchronize()
        for s in sets:
            for d in case["dispatches"]:
                Launch(lib, d, [t.data_ptr() for t in s])()
        torch.cuda.synchronize()
        del sets
        torch.cuda.empty_cache()


def smoke(R):
    """The ctypes path and graph capture on one small kernel: its output
    must match the reference, captured and replayed."""
    index = json.load(open(os.path.join(HERE, "small.json")))
    expect = open(os.path.join(HERE, "small.expect"), "rb").read()
    lib = Lib("small")
    case = next(c for c in index["cases"] if c["name"] == "gemv_f16_weight_8x130x260")
    res = {}
    bufs = []
    # The case's inputs are in the job file; the runner's results hold them
    # unchanged beside the outputs.
    import check

    check.run_jobs("small", "small.jobs", os.path.join(HERE, "smoke.results"))
    got = check.read_results(os.path.join(HERE, "smoke.results"))[case["job"]]
    for b, (data, _, _) in zip(case["buffers"], got):
        t = torch.empty(max(b["bytes"], 16), dtype=torch.uint8, device="cuda")
        if b["role"] in ("input", "param", "constant"):
            t[: b["bytes"]].copy_(torch.frombuffer(bytearray(data), dtype=torch.uint8))
        else:
            t.fill_(0xFF)
        bufs.append(t)
    out = case["outputs"][0]
    launches = [Launch(lib, d, [t.data_ptr() for t in bufs]) for d in case["dispatches"]]
    t, times = time_graph(lambda: [l() for l in launches], 1)
    y = bufs[out["buffer"]][: out["bytes"]].cpu().numpy().tobytes()
    ref = check.decode(out["type"], expect[out["offset"]:out["offset"] + out["bytes"]])
    e, _ = check.nmse(ref, check.decode(out["type"], y))
    res["graph_replay_seconds"] = t
    res["nmse_after_replay"] = e
    res["ok"] = e <= case["limit"]
    return res


if __name__ == "__main__":
    import sys

    if len(sys.argv) == 3 and sys.argv[1] == "--profile":
        profile_cases(set(sys.argv[2].split(",")))
    else:
        sys.exit("usage: bench.py --profile CASE[,CASE...]")

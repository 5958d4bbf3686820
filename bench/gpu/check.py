"""The GPU check of the emitted MSL (docs/gpu-check.md), run by run.sh on
the lent NVIDIA machine from the files bench/gpu/prepare wrote.

Stages, each recorded in results.json as it ends (a failing stage is
recorded and the next one runs):

  env        the device, the toolchain, the measured copy bandwidth
  build      nvcc of each suite's generated sources, in parallel
  fill       the device's random fill against Go's cuda.Fill bytes
  correct    every job of a suite through the runner (guard bytes,
             poisoned outputs), compared with the reference's outputs
             (small, real, and random: hybrid-split's random functions
             with every op a kernel, where prepare -random wrote them)
  probe      the probe suite rebuilt with variants of the shim and of
             nvcc's flags (which variant changes a wrong result)
  sanitize   every job under compute-sanitizer memcheck, racecheck,
             synccheck (and initcheck), buffers at their exact sizes
  planted    the missing barrier (racecheck) and the one-short buffer
             (memcheck and the guard bytes) must be reported
  bench      (bench.py) the decode kernels against the roofline and torch
  report     (report.py) report.md

Nothing here needs torch but the bandwidth measurement and bench.py.
"""

import argparse
import concurrent.futures as cf
import json
import os
import re
import struct
import subprocess
import sys
import time
import traceback

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
NVCC = ["nvcc", "-std=c++17", "-O3", "-arch=sm_90", "-lineinfo", "-Xcompiler", "-fPIC", "-I", HERE]

# Element codes of the job files (Elem in codegen/metal/cuda/jobs.go).
ELEM_NAMES = ["f32", "f16", "bf16", "i32", "i64", "i8", "i1", "ui8", "u32", "q4_0", "q8_0", "q4_k", "q6_k", "q6_k_c16", "q5_k", "q2_k", "q3_k", "q4_1", "q5_0", "q5_1", "iq4_nl", "iq4_xs", "mxfp4"]


class Results:
    """results.json, rewritten after every stage."""

    def __init__(self, out, only=()):
        self.out = out
        self.only = set(only)
        self.data = {"stages": {}}

    def save(self):
        tmp = os.path.join(self.out, "results.json.tmp")
        with open(tmp, "w") as f:
            json.dump(self.data, f, indent=1, default=float)
        os.replace(tmp, os.path.join(self.out, "results.json"))

    def stage(self, name, fn, *args, needs=None):
        """Runs fn(*args) as stage name and records it. needs names a file
        of this directory the stage reads: without it the stage is recorded
        as skipped, the file named, instead of being left out silently."""
        t0 = time.time()
        if self.only and name not in self.only and name not in ("env", "build", "report"):
            return None
        if needs and not os.path.exists(os.path.join(HERE, needs)):
            why = f"skipped: {needs} not carried"
            self.data["stages"][name] = {"status": why, "seconds": 0}
            print(f"== {name}: {why}", flush=True)
            self.save()
            return None
        if time_left() < 10:
            self.data["stages"][name] = {"status": "skipped: out of time", "seconds": 0}
            self.save()
            return None
        print(f"== {name} ({time_left():.0f} s left)", flush=True)
        try:
            value = fn(*args)
            status = "ok"
        except Exception as e:  # one stage's failure must not lose the others
            value = {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()}
            status = "failed"
            print(traceback.format_exc(), flush=True)
        self.data["stages"][name] = {"status": status, "seconds": round(time.time() - t0, 2)}
        self.data[name] = value
        self.save()
        try:  # the report so far, in case the call runs out of time
            import report

            report.write(self.data, self.out)
        except Exception:
            print(traceback.format_exc(), flush=True)
        return value


# ---- building -----------------------------------------------------------------


def nvcc(args, log):
    t0 = time.time()
    p = subprocess.run(NVCC + args, capture_output=True, text=True)
    with open(log, "a") as f:
        f.write(f"$ nvcc {' '.join(args)}\n{p.stdout}{p.stderr}\n")
    if p.returncode != 0:
        raise RuntimeError(f"nvcc {' '.join(args)} failed:\n{p.stderr[-4000:]}")
    return p.stderr, time.time() - t0


def parse_ptxas(text):
    """Registers, spills and stack of every __global__ wrapper from -Xptxas -v."""
    info = {}
    current = None
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line) or re.search(r"Function properties for (\w+)", line)
        if m:
            current = m.group(1)
            info.setdefault(current, {})
            continue
        if current is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            info[current].update(stack=int(m.group(1)), spill_stores=int(m.group(2)), spill_loads=int(m.group(3)))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            info[current]["registers"] = int(m.group(1))
    return {k[len("rlx_k_"):]: v for k, v in info.items() if k.startswith("rlx_k_")}


def build(logs, suites):
    log = os.path.join(logs, "build.log")
    open(log, "w").close()
    res = {}
    t0 = time.time()
    with cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 8) as pool:
        common = {pool.submit(nvcc, ["-c", os.path.join(HERE, f), "-o", os.path.join(HERE, f[:-3] + ".o")], log): f
                  for f in ["rlx_cuda_runtime.cu", "rlx_cuda_main.cu"]}
        jobs = {}
        for s in suites:
            files = sorted(f for f in os.listdir(HERE) if f.startswith(s + "_part") and f.endswith(".cu")) + [s + "_table.cu"]
            for f in files:
                jobs[pool.submit(nvcc, ["-Xptxas", "-v", "-c", os.path.join(HERE, f), "-o", os.path.join(HERE, f[:-3] + ".o")], log)] = (s, f)
        for fut in common:
            fut.result()
        ptxas = {s: {} for s in suites}
        objs = {s: [] for s in suites}
        for fut, (s, f) in jobs.items():
            stderr, secs = fut.result()
            ptxas[s].update(parse_ptxas(stderr))
            objs[s].append(os.path.join(HERE, f[:-3] + ".o"))
    compile_secs = time.time() - t0
    runtime = [os.path.join(HERE, "rlx_cuda_runtime.o")]
    for s in suites:
        try:
            nvcc(["-shared", "-o", os.path.join(HERE, f"lib{s}.so")] + objs[s] + runtime, log)
        except RuntimeError:
            # The static CUDA runtime may not link into a shared object.
            nvcc(["-shared", "-cudart", "shared", "-o", os.path.join(HERE, f"lib{s}.so")] + objs[s] + runtime, log)
            res["cudart_shared"] = True
        nvcc(["-o", os.path.join(HERE, f"run_{s}")] + objs[s] + runtime + [os.path.join(HERE, "rlx_cuda_main.o")], log)
        res[s] = {"objects": len(objs[s]), "kernels": ptxas[s]}
    res["compile_seconds"] = round(compile_secs, 1)
    res["total_seconds"] = round(time.time() - t0, 1)
    return res


def sass(logs, suite="real", prefixes=("gemv", "dequant_gemv", "attention_decode", "attention_merge")):
    """The decode kernels' SASS, from cuobjdump (the text lands in the
    logs): per kernel, sass_counts's loads, opcodes and instructions. A
    failing cuobjdump fails the stage rather than leave it empty."""
    p = subprocess.run(["cuobjdump", "-sass", os.path.join(HERE, f"lib{suite}.so")], capture_output=True, text=True,
                       timeout=max(5, min(120, time_left())))
    with open(os.path.join(logs, f"sass-{suite}.txt"), "w") as f:
        f.write(p.stdout)
    if p.returncode != 0:
        raise RuntimeError(f"cuobjdump -sass lib{suite}.so: exit {p.returncode}: {p.stderr.strip()[-2000:]}")
    return sass_counts(p.stdout, prefixes)


# The full opcodes counted under their own name: loads of each width,
# local-memory traffic, shuffles and conversions.
SASS_LOADS = re.compile(r"LDG\.E[.\w]*|LDS[.\w]*|LDL[.\w]*|STL[.\w]*|SHFL\.\w+|I2F[.\w]*|F2F[.\w]*")
# An instruction line: its address comment, an optional predicate, the
# full opcode (its base name, before the first dot, is what "opcodes"
# counts).
SASS_INSTRUCTION = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*(?:\.\w+)*)[\s;]")


def sass_counts(text, prefixes):
    """Per kernel rlx_k_<name> whose name starts with one of prefixes: how
    many load instructions of each width (LDG.E.128 is a 16-byte load,
    LDG.E.U16 a 2-byte one) and the local-memory traffic (LDL/STL:
    register arrays moved off chip), each under its full opcode; and,
    under "opcodes" and "instructions", the static count of every
    instruction by its base opcode (LOP3.LUT counts as LOP3) and their
    total: the instruction mix of one copy of the kernel's code, not of
    its executed instructions (docs/gpu-check.md, run 27d)."""
    res, current = {}, None
    for line in text.splitlines():
        m = re.search(r"Function : rlx_k_(\w+)", line)
        if m:
            name = m.group(1)
            current = name if name.startswith(prefixes) else None
            if current:
                res[current] = {"opcodes": {}, "instructions": 0}
            continue
        if current is None:
            continue
        m = SASS_INSTRUCTION.search(line)
        if not m:
            continue
        k, op = res[current], m.group(1)
        base = op.split(".")[0]
        k["opcodes"][base] = k["opcodes"].get(base, 0) + 1
        k["instructions"] += 1
        if SASS_LOADS.fullmatch(op):
            k[op] = k.get(op, 0) + 1
    return res


# Cases the profile stage reads hardware counters of (ncu), one launch
# of each dispatch after a first on other buffers.
# The compute-sanitizer tools every suite runs under in full mode.
SANITIZERS = ["memcheck", "racecheck", "synccheck", "initcheck"]

PROFILE_CASES = ["gemv_f16_4096x4096", "dequant_gemv_q4_0_4096x14336", "dequant_gemv_q8_0_4096x14336",
                 "dequant_gemv_q4_k_14336x4096", "dequant_gemv_q6_k_4096x14336", "attention_decode_gqa_8k",
                 "attention_decode_gqa_32k"]
PROFILE_SECTIONS = ["SpeedOfLight", "MemoryWorkloadAnalysis", "Occupancy", "LaunchStats", "WarpStateStats", "InstructionStats",
                    "SchedulerStats"]


def profile(logs):
    """ncu's counters for the decode kernels (only when --only names this
    stage: it replays each kernel many times). Every metric of the chosen
    sections, per kernel launch, from ncu's CSV (raw text in the logs)."""
    import ncu

    cmd = ["ncu", "--clock-control", "none", "--csv", "--page", "details", "--kernel-name", "regex:^rlx_k_"]
    for s in PROFILE_SECTIONS:
        cmd += ["--section", s]
    # The warp stall reasons, per issued instruction.
    cmd += ["--metrics", r"regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$"]
    cmd += ["python3", os.path.join(HERE, "bench.py"), "--profile", ",".join(PROFILE_CASES)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=max(5, min(400, time_left() - 30)), cwd=HERE)
    with open(os.path.join(logs, "profile.csv"), "w") as f:
        f.write(p.stdout)
    with open(os.path.join(logs, "profile.err"), "w") as f:
        f.write(p.stderr)
    res = {"returncode": p.returncode, "launches": ncu.parse(p.stdout)}
    if p.returncode != 0:
        res["stderr_tail"] = p.stderr[-3000:]
    return res


# ---- running jobs ---------------------------------------------------------------


# The whole run must end inside the device call's limit: every subprocess
# timeout is cut to what is left of the budget (main sets DEADLINE).
DEADLINE = [float("inf")]


def time_left():
    return DEADLINE[0] - time.time()


def run_jobs(suite, jobs, results, flags=(), tool=None, timeout=300, extra=()):
    """Runs a job file through the suite's runner, under compute-sanitizer
    when tool names one; returns (returncode, output)."""
    timeout = max(5, min(timeout, time_left()))
    cmd = [os.path.join(HERE, f"run_{suite}"), os.path.join(HERE, jobs), results] + list(flags)
    if tool:
        cmd = ["compute-sanitizer", "--tool", tool, "--print-limit", "50"] + list(extra) + cmd
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return None, out + f"\n[timed out after {timeout} s]"


def read_results(path):
    """The runner's result file: per job, per buffer (bytes, guard before, guard after)."""
    jobs = []
    with open(path, "rb") as f:
        if f.read(8) != b"RLXCUR1\n":
            raise RuntimeError("not a result file")
        (njobs,) = struct.unpack("<I", f.read(4))
        for _ in range(njobs):
            head = f.read(4)
            if len(head) < 4:
                break  # the runner stopped early
            (nbuf,) = struct.unpack("<I", head)
            bufs = []
            for _ in range(nbuf):
                size, before, after = struct.unpack("<QII", f.read(16))
                bufs.append((f.read(size), before, after))
            jobs.append(bufs)
    return jobs


def elem_of(typ):
    return typ.rsplit("x", 1)[-1].rstrip(">").split("<")[-1]


def decode(typ, data):
    """A buffer's bytes as float64 values (the layout of mslcpu.TensorBytes)."""
    e = elem_of(typ)
    if e == "f32":
        return np.frombuffer(data, "<f4").astype(np.float64)
    if e == "f16":
        return np.frombuffer(data, "<f2").astype(np.float64)
    if e == "bf16":
        return (np.frombuffer(data, "<u2").astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if e == "i32":
        return np.frombuffer(data, "<i4").astype(np.float64)
    if e == "i64":
        return np.frombuffer(data, "<i8").astype(np.float64)
    if e in ("i8",):
        return np.frombuffer(data, "i1").astype(np.float64)
    return np.frombuffer(data, "u1").astype(np.float64)


def elem_bytes(typ):
    return {"f32": 4, "f16": 2, "bf16": 2, "i32": 4, "i64": 8}.get(elem_of(typ), 1)


def nmse(ref, got):
    """Σ(a−b)²/Σa² as codegen/metal's tests measure it: NaN in one and not
    the other, or infinities that differ, give inf; zero is reported when
    the reference is all zeros."""
    if ref.shape != got.shape:
        return float("inf"), False
    rn, gn = np.isnan(ref), np.isnan(got)
    if np.any(rn != gn):
        return float("inf"), False
    ri, gi = np.isinf(ref), np.isinf(got)
    if np.any((ri | gi) & ~(rn | gn) & (ref != got)):
        return float("inf"), False
    ok = ~(rn | ri | gi)
    a, b = ref[ok], got[ok]
    den = float(np.sum(a * a))
    num = float(np.sum((a - b) ** 2))
    if den == 0:
        return num, True
    return num / den, False


def compare(suite, res_path, expect_path):
    index = json.load(open(os.path.join(HERE, suite + ".json")))
    expect = open(expect_path, "rb").read()
    jobs = read_results(res_path)
    cases = []
    for c in index["cases"]:
        row = {"name": c["name"], "limit": c["limit"], "kernels": [d["kernel"] for d in c["dispatches"]], "nmse": [], "problems": []}
        cases.append(row)
        if c["job"] >= len(jobs):
            row["problems"].append("the runner stopped before this job")
            row["pass"] = False
            continue
        bufs = jobs[c["job"]]
        for b, (data, before, after) in zip(c["buffers"], bufs):
            if before or after:
                row["problems"].append(f"buffer {b['id']} ({b['role']}): {before} guard bytes before and {after} after it were written")
        if c["status"] >= 0:
            data = bufs[c["status"]][0]
            word = struct.unpack("<I", data[:4])[0] if data else None
            if word:
                row["problems"].append(f"status word {word:#x}")
            # The words after it: folded merges' arrival counters.
            for w in range(4, len(data or b"") - 3, 4):
                n = struct.unpack("<I", data[w:w + 4])[0]
                if n:
                    row["problems"].append(f"arrival counter {w // 4 - 1} left at {n}")
        for o in c["outputs"]:
            data = bufs[o["buffer"]][0]
            if not data:
                row["problems"].append(f"result #{o['index']} not read back")
                continue
            es = elem_bytes(o["type"])
            got_all = decode(o["type"], data)
            ref = decode(o["type"], expect[o["offset"]:o["offset"] + o["bytes"]])
            got = got_all[:: o["stride"]][: len(ref)]
            e, zero = nmse(ref, got)
            row["nmse"].append(e)
            if zero and not index.get("zeros_allowed"):
                row["problems"].append(f"result #{o['index']}: the reference is all zeros")
            if o.get("ill_conditioned"):
                # The reference itself moves beyond the limit when its inputs
                # move by a few ulps (suite.Options.Conditioning): reported,
                # not judged.
                row.setdefault("ill_conditioned", []).append({"index": o["index"], "at": len(row["nmse"]) - 1, "nmse": e, "perturbed": o.get("perturbed")})
            elif not e <= c["limit"]:
                row["problems"].append(f"result #{o['index']}: NMSE {e:.3g} over the limit {c['limit']:g}")
                # The worst elements, for the report: index, got, want.
                with np.errstate(invalid="ignore"):
                    d = np.abs(np.nan_to_num(got - ref, nan=np.inf))
                worst = np.argsort(-d)[:8]
                row.setdefault("worst", []).append([[int(i) * o["stride"], float(got[i]), float(ref[i])] for i in worst])
            # Unwritten elements still hold the poison (0xff bytes, NaN for
            # floats); check the whole result, not only the compared ones.
            if elem_of(o["type"]) in ("f32", "f16", "bf16") and not np.isnan(ref).any():
                raw = np.frombuffer(data, "u1").reshape(-1, es)
                unwritten = int(np.sum(np.all(raw == 0xFF, axis=1)))
                if unwritten:
                    row["problems"].append(f"result #{o['index']}: {unwritten} elements never written")
            row.setdefault("compared", []).append({"elements": len(got_all), "compared": len(ref), "stride": o["stride"]})
        row["pass"] = not row["problems"]
    return {"cases": cases, "passed": sum(r["pass"] for r in cases), "total": len(cases),
            "ill_conditioned": sum(len(r.get("ill_conditioned", [])) for r in cases)}


def correct(suite, timeout):
    res = os.path.join(HERE, f"{suite}.results")
    # Only what the kernels write comes back: the real suite's inputs are
    # gigabytes. Each job's dispatches run three times on the same buffers,
    # as a runtime runs a region step after step: the results must not
    # change, and folded merges must leave their arrival counters at 0.
    rc, output = run_jobs(suite, f"{suite}.jobs", res, ["--outputs-only", "--repeat", "3"], timeout=timeout)
    summary = {"returncode": rc, "output_tail": output[-3000:]}
    if os.path.exists(res):
        summary.update(compare(suite, res, os.path.join(HERE, f"{suite}.expect")))
    return summary


def probe(logs):
    """The probe suite (cases that failed on the GPU) built with variants of
    the shim and of nvcc's flags, each run and compared: which one changes
    the result says where the difference comes from."""
    variants = [("default", []), ("vector_copy_bytes", ["-DRLX_VEC_COPY_BYTES"]),
                ("vector_copy_bytes_fmad_false", ["-DRLX_VEC_COPY_BYTES", "--fmad=false"]),
                ("vector_copy_bytes_ptxas_O0", ["-DRLX_VEC_COPY_BYTES", "-Xptxas", "-O0"])]
    log = os.path.join(logs, "probe-build.log")
    res = {}
    runtime = [os.path.join(HERE, "rlx_cuda_runtime.o"), os.path.join(HERE, "rlx_cuda_main.o")]
    srcs = sorted(f for f in os.listdir(HERE) if f.startswith("probe_part") and f.endswith(".cu")) + ["probe_table.cu"]
    for name, flags in variants:
        objs = []
        for f in srcs:
            obj = os.path.join(HERE, f"{f[:-3]}.{name}.o")
            nvcc(flags + ["-c", os.path.join(HERE, f), "-o", obj], log)
            objs.append(obj)
        exe = os.path.join(HERE, "run_probe")
        nvcc(flags + ["-o", exe] + objs + runtime, log)
        out = os.path.join(HERE, "probe.results")
        rc, output = run_jobs("probe", "probe.jobs", out)
        cmp = compare("probe", out, os.path.join(HERE, "probe.expect"))
        res[name] = [{"name": c["name"], "nmse": c["nmse"], "pass": c["pass"], "worst": c.get("worst")} for c in cmp["cases"]]
    return res


# ---- sanitizers -----------------------------------------------------------------


def sanitizer_counts(tool, output):
    r = {}
    m = re.search(r"ERROR SUMMARY: (\d+) error", output)
    r["errors"] = int(m.group(1)) if m else None
    if tool == "racecheck":
        m = re.search(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", output)
        if m:
            r["hazards"], r["hazard_errors"], r["hazard_warnings"] = int(m.group(1)), int(m.group(2)), int(m.group(3))
        else:
            r["hazards"] = 0 if r["errors"] == 0 else None
    return r


def sanitize(logs, suite, tools, timeout, flags=("--exact",), jobs=None):
    """Every job of a suite (or of the job file jobs, run by the suite's
    runner) under each tool."""
    res = {}
    jobs = jobs or suite
    for tool in tools:
        t0 = time.time()
        extra = ["--racecheck-report", "all"] if tool == "racecheck" else []
        rc, output = run_jobs(suite, f"{jobs}.jobs", os.path.join(HERE, f"{jobs}.san"), list(flags), tool, timeout, extra)
        with open(os.path.join(logs, f"sanitize-{jobs}-{tool}.log"), "w") as f:
            f.write(output[-200000:])
        r = sanitizer_counts(tool, output)
        r.update(returncode=rc, seconds=round(time.time() - t0, 1), jobs_ran=output.count(": ran"), jobs_failed=output.count(": FAILED"))
        if tool == "racecheck":  # its summary is RACECHECK SUMMARY, not ERROR SUMMARY
            r["clean"] = rc == 0 and r.get("hazards") == 0 and r.get("hazard_errors", 0) == 0
        else:
            r["clean"] = rc == 0 and r["errors"] == 0
        res[tool] = r
        print(f"   {jobs} {tool}: {r}", flush=True)
    return res


def planted(logs):
    res = {}
    # The deleted barrier: racecheck must see the hazard the barrier prevented.
    rc, output = run_jobs("planted", "planted.jobs", os.path.join(HERE, "planted.san"), ["--exact"], "racecheck", 120,
                          ["--racecheck-report", "all"])
    with open(os.path.join(logs, "planted-barrier-racecheck.log"), "w") as f:
        f.write(output[-100000:])
    r = sanitizer_counts("racecheck", output)
    r["caught"] = bool(r.get("hazards") or r.get("errors"))
    r["first_report"] = next((l.strip() for l in output.splitlines() if "hazard" in l.lower() and "====" in l), "")
    res["missing_barrier_racecheck"] = r
    # The same job without sanitizer: do the results show it?
    rc, output = run_jobs("planted", "planted.jobs", os.path.join(HERE, "planted.results"))
    try:
        cmp = compare("planted", os.path.join(HERE, "planted.results"), os.path.join(HERE, "planted.expect"))
        res["missing_barrier_plain_run"] = cmp["cases"][0]
    except Exception as e:
        res["missing_barrier_plain_run"] = {"error": str(e)}
    # The one-short output: memcheck at exact sizes, and the guard bytes.
    rc, output = run_jobs("small", "short.jobs", os.path.join(HERE, "short.san"), ["--exact"], "memcheck", 120)
    with open(os.path.join(logs, "planted-short-memcheck.log"), "w") as f:
        f.write(output[-100000:])
    r = sanitizer_counts("memcheck", output)
    r["caught"] = bool(r.get("errors"))
    r["first_report"] = next((l.strip() for l in output.splitlines() if "Invalid __global__" in l), "")
    res["short_buffer_memcheck"] = r
    rc, output = run_jobs("small", "short.jobs", os.path.join(HERE, "short.results"))
    meta = json.load(open(os.path.join(HERE, "short.json")))
    jobs = read_results(os.path.join(HERE, "short.results"))
    _, before, after = jobs[0][meta["buffer"]]
    res["short_buffer_guards"] = {"guard_bytes_after_written": after, "caught": after > 0}
    return res


# ---- the device fill -----------------------------------------------------------


def fill_check():
    import ctypes

    import torch

    lib = ctypes.CDLL(os.path.join(HERE, "libsmall.so"))
    lib.rlx_fill.argtypes = [ctypes.c_void_p, ctypes.c_ulonglong, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p]
    entries = json.load(open(os.path.join(HERE, "fillcheck.json")))
    blob = open(os.path.join(HERE, "fillcheck.bin"), "rb").read()
    res = {}
    for e in entries:
        buf = torch.empty(e["size"], dtype=torch.uint8, device="cuda")
        err = lib.rlx_fill(buf.data_ptr(), e["size"], e["elem"], e["seed"], None)
        torch.cuda.synchronize()
        got = buf.cpu().numpy().tobytes()
        want = blob[e["offset"]:e["offset"] + e["size"]]
        diff = sum(a != b for a, b in zip(got, want))
        res[ELEM_NAMES[e["elem"]]] = {"error": err, "bytes_differing": diff}
    res["all_equal"] = all(v["bytes_differing"] == 0 and v["error"] == 0 for v in res.values() if isinstance(v, dict))
    return res


def env():
    import torch

    p = torch.cuda.get_device_properties(0)
    r = {"device": p.name, "sms": p.multi_processor_count, "memory_gib": round(p.total_memory / 2**30, 1),
         "l2_bytes": getattr(p, "L2_cache_size", None), "torch": torch.__version__, "cuda": torch.version.cuda,
         "numpy": np.__version__}
    # The memory roofline: a large device-to-device copy, bytes read plus
    # bytes written, median of 20 after a warm-up.
    n = 2 * 2**30
    src = torch.empty(n, dtype=torch.uint8, device="cuda").random_()
    dst = torch.empty_like(src)
    for _ in range(3):
        dst.copy_(src)
    times = []
    for _ in range(20):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        dst.copy_(src)
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) * 1e-3)
    times.sort()
    t = times[len(times) // 2]
    r["copy_bytes"] = 2 * n
    r["copy_seconds_median"] = t
    r["peak_bandwidth"] = 2 * n / t
    del src, dst
    torch.cuda.empty_cache()
    return r


def present_suites(here):
    """The suites prepare wrote to here (a <suite>_table.cu each), in build
    order: small, planted, real and random where present (prepare
    -skip-real leaves the real suite out, -random N adds the random one),
    then the tune suites."""
    suites = [s for s in ("small", "planted", "real", "random") if os.path.exists(os.path.join(here, s + "_table.cu"))]
    return suites + sorted(f[:-9] for f in os.listdir(here) if f.startswith("tune") and f.endswith("_table.cu"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="full", choices=["smoke", "full"])
    ap.add_argument("--out", required=True, help="results.json and report.md")
    ap.add_argument("--logs", required=True, help="build and sanitizer logs")
    ap.add_argument("--budget", type=float, default=500, help="seconds the whole run may take")
    ap.add_argument("--only", default="", help="comma-separated stages to run after env and build (all when empty)")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))
    DEADLINE[0] = time.time() + args.budget
    os.makedirs(args.logs, exist_ok=True)
    R = Results(args.out, only)
    R.data["mode"] = args.mode
    R.data["deadline"] = DEADLINE[0]
    suites = present_suites(HERE)
    R.stage("env", env)
    R.stage("build", build, args.logs, suites)
    R.stage("fill", fill_check)
    R.stage("correct_small", correct, "small", 120)
    R.stage("correct_real", correct, "real", 240)
    R.stage("correct_random", correct, "random", 180, needs="random.jobs")
    R.stage("probe", probe, args.logs, needs="probe.jobs")
    if "profile" in only:
        R.stage("profile", profile, args.logs)
    if args.mode == "smoke":
        R.stage("sanitize_small", sanitize, args.logs, "small", ["memcheck"], 180)
        R.stage("planted", planted, args.logs)
        R.stage("bench_smoke", lambda: __import__("bench").smoke(R.data))
    else:
        R.stage("sanitize_small", sanitize, args.logs, "small", SANITIZERS, 150)
        R.stage("planted", planted, args.logs)
        R.stage("bench", lambda: __import__("bench").run(R.data, args.out))
        R.stage("tune", lambda: __import__("bench").tune(R.data, args.out))
        R.stage("sass", sass, args.logs)
        if "real" in suites:
            R.stage("sanitize_real_split", sanitize, args.logs, "real", SANITIZERS, 120,
                    ("--exact", "--no-results"), "real-split", needs="real-split.jobs")
        R.stage("sanitize_real", sanitize, args.logs, "real", SANITIZERS, 120, ("--exact", "--no-results"))
        R.stage("sanitize_random", sanitize, args.logs, "random", SANITIZERS, 150, needs="random.jobs")
    import report

    R.stage("report", report.write, R.data, args.out)
    print(report.summary(R.data), flush=True)


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    main()

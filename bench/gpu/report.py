"""report.md from results.json: the tables docs/gpu-check.md quotes."""

import os

# Targets of the issue: the GEMV family at >= 70% of the roofline and at
# most 1.25x torch's time; attention decode at >= 50% at 8k and 32k.
GEMV_ROOFLINE, GEMV_VS_TORCH, ATTN_ROOFLINE = 0.70, 1.25, 0.50


def fmt_s(s):
    return f"{s * 1e6:.1f}" if s is not None else "–"


def target(row):
    if row["group"] == "gemv":
        ok = row.get("roofline", 0) >= GEMV_ROOFLINE and row.get("vs_anchor", 99) <= GEMV_VS_TORCH
        return "met" if ok else "missed"
    if row["group"] == "attention" and row["dims"].get("L", 0) >= 8192:
        return "met" if row.get("roofline", 0) >= ATTN_ROOFLINE else "missed"
    return ""


def correctness_lines(title, c):
    lines = [f"### {title}", ""]
    if not isinstance(c, dict) or "cases" not in c:
        return lines + [f"not run: {c}", ""]
    lines.append(f"{c['passed']} of {c['total']} cases pass (runner exit code {c.get('returncode')}).")
    if c.get("ill_conditioned"):
        lines.append(f"{c['ill_conditioned']} results are ill-conditioned (the reference moves beyond the limit when its "
                     "inputs move by a few ulps): their NMSE is shown, marked †, and not judged.")
    lines.append("")
    lines.append("| case | kernels | NMSE (per result) | limit | compared | result |")
    lines.append("| --- | --- | --- | --- | --- | --- |")
    for r in c["cases"]:
        ill = {x["at"] for x in r.get("ill_conditioned", [])}
        nm = ", ".join(f"{e:.2g}" + ("†" if i in ill else "") for i, e in enumerate(r["nmse"])) or "–"
        comp = ", ".join(f"{x['compared']}/{x['elements']}" for x in r.get("compared", []))
        res = "pass" if r.get("pass") else "FAIL: " + "; ".join(r["problems"])
        lines.append(f"| {r['name']} | {' '.join(r['kernels'])} | {nm} | {r['limit']:g} | {comp} | {res} |")
    return lines + [""]


def write(R, out):
    L = ["# GPU check of the emitted MSL (run by bench/gpu/run.sh)", ""]
    e = R.get("env", {})
    if "device" in e:
        L.append(f"Device: {e['device']}, {e['sms']} SMs, L2 {e.get('l2_bytes', 0) / 2**20:.0f} MiB, "
                 f"{e['memory_gib']} GiB; torch {e['torch']} (CUDA {e['cuda']}), numpy {e['numpy']}. "
                 f"Device-to-device copy (read + write): {e['peak_bandwidth'] / 1e12:.2f} TB/s, the roofline below.")
        L.append("")
    st = R.get("stages", {})
    L.append("Stages: " + ", ".join(f"{k} {v['status']} ({v['seconds']} s)" for k, v in st.items()))
    L.append("")
    b = R.get("build", {})
    if isinstance(b, dict) and "compile_seconds" in b:
        L.append(f"nvcc: {b['compile_seconds']} s for all translation units in parallel, {b['total_seconds']} s with linking.")
        L.append("")
    f = R.get("fill", {})
    if isinstance(f, dict) and "all_equal" in f:
        L.append(f"Device fill equal to Go's cuda.Fill for every element code: {f['all_equal']}.")
        L.append("")

    # A timing-only call (--only bench, tune) checks nothing: no sections
    # for what it did not run.
    if "correct_small" in R or "correct_real" in R or "correct_random" in R:
        L += ["## Correctness", ""]
        L += correctness_lines("Small sizes (the CPU harness's op suite)", R.get("correct_small"))
        if "correct_real" in R:
            L += correctness_lines("Real sizes", R.get("correct_real"))
        if "correct_random" in R:
            L += correctness_lines("Random functions (hybrid-split's, every op a kernel)", R.get("correct_random"))

    sanitized = [k for k in ("sanitize_small", "sanitize_real_split", "sanitize_real", "sanitize_random") if k in R]
    if sanitized:
        L += ["## Sanitizers", "", "| suite | tool | errors | hazards | jobs ran | seconds | clean |", "| --- | --- | --- | --- | --- | --- | --- |"]
        for key in sanitized:
            s = R.get(key)
            if not isinstance(s, dict):
                continue
            for tool, r in s.items():
                if not isinstance(r, dict) or "errors" not in r:
                    L.append(f"| {key[9:]} | {tool} | {r} | | | | |")
                    continue
                L.append(f"| {key[9:]} | {tool} | {r['errors']} | {r.get('hazards', '')} | {r['jobs_ran']} | {r['seconds']} | {r['clean']} |")
        L.append("")

    p = R.get("planted")
    if isinstance(p, dict) and "missing_barrier_racecheck" in p:
        L += ["## Planted bugs", ""]
        r = p["missing_barrier_racecheck"]
        L.append(f"- threadgroup_barrier deleted from rms_norm's reduction: racecheck reports {r.get('hazards')} hazards "
                 f"({r.get('hazard_errors')} errors) — caught: {r['caught']}. First: `{r.get('first_report', '')}`")
        pr = p.get("missing_barrier_plain_run", {})
        if "nmse" in pr:
            L.append(f"  Without the sanitizer the same job gives NMSE {', '.join(f'{x:.2g}' for x in pr['nmse'])} "
                     f"({'within' if pr.get('pass') else 'outside'} the limit).")
        r = p["short_buffer_memcheck"]
        L.append(f"- rms_norm's output allocated one element short: memcheck reports {r.get('errors')} errors — caught: {r['caught']}. "
                 f"First: `{r.get('first_report', '')}`")
        g = p["short_buffer_guards"]
        L.append(f"  Without the sanitizer, {g['guard_bytes_after_written']} guard bytes after the buffer were written — caught: {g['caught']}.")
        L.append("")

    bn = R.get("bench")
    if isinstance(bn, dict) and "rows" in bn:
        L += ["## Speed", "",
              f"Roofline = bytes the case must move (inputs and weights read once, results written once; a split "
              f"kernel's partials not counted) / time / {bn['peak_bandwidth'] / 1e12:.2f} TB/s. "
              "Times are medians per case (all its dispatches) of CUDA-graph replays over buffer sets that together "
              "exceed the L2 four times. Traffic: the dispatches' own reads and writes, partials included.", "",
              "| case | threadgroups × threads | MB | traffic MB | rlx µs | rlx GB/s | roofline | torch kernel | torch µs | torch roofline | rlx / torch | target |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for r in bn["rows"]:
            if "skipped" in r:
                L.append(f"| {r['name']} | skipped: {r['skipped']} | | | | | | | | | |")
                continue
            launch = launches(r)
            a = r.get("anchor") or {}
            mb = f"{r['bytes'] / 1e6:.1f} | {r.get('traffic', r['bytes']) / 1e6:.1f}"
            if "error" in r:
                L.append(f"| {r['name']} | {launch} | {mb} | error: {r['error']} | | | | | | | |")
                continue
            L.append(f"| {r['name']} | {launch} | {mb} | {fmt_s(r['seconds'])} | {r['bandwidth'] / 1e9:.0f} | "
                     f"{r['roofline']:.2f} | {a.get('kernel', a.get('error', '–'))} | {fmt_s(a.get('seconds'))} | "
                     f"{a['roofline']:.2f} | {r['vs_anchor']:.2f} | {target(r)} |" if "seconds" in a else
                     f"| {r['name']} | {launch} | {mb} | {fmt_s(r['seconds'])} | {r['bandwidth'] / 1e9:.0f} | "
                     f"{r['roofline']:.2f} | {a.get('error', '–')} | – | – | – | {target(r)} |")
        L.append("")
    tn = R.get("tune")
    if isinstance(tn, dict) and tn and "error" not in tn:
        L += ["## Tuning: the split kernels at other decode-threadgroups values", "",
              "| suite | case | threadgroups × threads | traffic MB | µs | roofline |", "| --- | --- | --- | --- | --- | --- |"]
        for name, rows in tn.items():
            for r in rows:
                if "seconds" not in r:
                    L.append(f"| {name} | {r['name']} | {r.get('error', r.get('skipped', ''))} | | | |")
                    continue
                L.append(f"| {name} | {r['name']} | {launches(r)} | {r.get('traffic', r['bytes']) / 1e6:.1f} | "
                         f"{fmt_s(r['seconds'])} | {r['roofline']:.2f} |")
        L.append("")
    if bn and isinstance(bn, dict) and "rows" in bn:
        regs = {}
        for s, v in (R.get("build") or {}).items():
            if isinstance(v, dict) and s == "real":
                regs.update(v.get("kernels", {}))
        if regs:
            L += ["Registers and spills of the benchmarked kernels (ptxas -v):", ""]
            seen = set()
            for r in bn["rows"]:
                for k in r.get("kernels", []):
                    if k in seen or k not in regs:
                        continue
                    seen.add(k)
                    g = regs[k]
                    L.append(f"- {k}: {g.get('registers')} registers, {g.get('spill_stores', 0)} B spill stores, {g.get('stack', 0)} B stack")
            L.append("")
    L += sass_lines(R.get("sass"))
    L += counters(R.get("profile"))
    text = "\n".join(L) + "\n"
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(text)
    return {"lines": len(L)}


# The opcodes sass_lines gives a column each (the decode's AND, its
# subtraction and multiply-add, integer address arithmetic, shared loads).
SASS_COLUMNS = ["LOP3", "FADD", "FFMA", "IMAD", "IADD3", "LDS", "LDG"]


def sass_lines(s):
    """The sass stage's static instruction counts of the dequantising
    GEMVs (none where the stage did not run, or ran before it counted
    opcodes)."""
    rows = {k: v for k, v in (s or {}).items() if isinstance(v, dict) and "opcodes" in v and k.startswith("dequant_gemv")}
    if not rows:
        return []
    L = ["Static SASS instructions of the dequantising GEMVs (cuobjdump; one copy of each kernel's code, "
         "not the instructions it executes):", "",
         "| kernel | instructions | " + " | ".join(SASS_COLUMNS) + " |",
         "| --- | --- | " + " | ".join("---" for _ in SASS_COLUMNS) + " |"]
    for k in sorted(rows):
        v = rows[k]
        L.append(f"| {k} | {v['instructions']} | " + " | ".join(str(v["opcodes"].get(c, 0)) for c in SASS_COLUMNS) + " |")
    L.append("")
    return L


def counters(p):
    """The profile stage's ncu counters, a row a launch (none without the
    stage). Issue-bound µs is the instructions each scheduler issued at
    one a cycle, the least time that instruction count allows."""
    if not isinstance(p, dict) or not p.get("launches"):
        return []

    def num(m, key):
        v = m.get(key)
        try:
            return float(str(v).replace(",", ""))
        except ValueError:
            return None

    def dims(t):
        n = 1
        for x in str(t).strip("()").split(","):
            n *= int(x)
        return n

    L = ["## Counters (ncu, `--clock-control none`)", "",
         "| kernel | threadgroups × threads | µs | registers | achieved occupancy % | warps issued a cycle a scheduler "
         "| instructions (M) | issue-bound µs | DRAM % of peak | first stall (cycles an issued instruction) |",
         "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    prefix, suffix = "smsp__average_warps_issue_stalled_", "_per_issue_active.ratio (inst)"
    for ln in p["launches"]:
        m = ln.get("metrics", {})
        dur, inst = num(m, "Duration (ns)"), num(m, "Executed Instructions (inst)")
        issued, clock = num(m, "Avg. Issued Instructions Per Scheduler (inst)"), num(m, "SM Frequency (hz)")
        stalls = [(num(m, k), k[len(prefix):-len(suffix)]) for k in m
                  if k.startswith(prefix) and k.endswith(suffix) and "selected" not in k]
        stalls = [x for x in stalls if x[0] is not None]
        first = max(stalls) if stalls else None
        cells = [ln["kernel"].removeprefix("rlx_k_"), f"{dims(ln['grid'])} × {dims(ln['block'])}",
                 f"{dur / 1e3:.1f}" if dur is not None else "–",
                 m.get("Registers Per Thread (register/thread)", "–"), m.get("Achieved Occupancy (%)", "–"),
                 m.get("Issued Warp Per Scheduler", "–"),
                 f"{inst / 1e6:.2f}" if inst is not None else "–",
                 f"{issued / clock * 1e6:.1f}" if issued and clock else "–",
                 m.get("DRAM Throughput (%)", "–"),
                 f"{first[1].replace('_', ' ')} ({first[0]:.2f})" if first else "–"]
        L.append("| " + " | ".join(str(c) for c in cells) + " |")
    L.append("")
    return L


def launches(r):
    """The dispatches of a row as threadgroups × threads, joined by +."""
    out = []
    for ln in r.get("launch", []):
        tgs = ln["grid"][0] * ln["grid"][1] * ln["grid"][2]
        thr = ln["threadgroup"][0] * ln["threadgroup"][1] * ln["threadgroup"][2]
        out.append(f"{tgs} × {thr}")
    return " + ".join(out)


def summary(R):
    """The short table printed last (the device call returns the output's tail)."""
    s = []
    for k, v in R.get("stages", {}).items():
        s.append(f"{k:16s} {v['status']:7s} {v['seconds']:7.1f} s")
    for key in ("correct_small", "correct_real", "correct_random"):
        c = R.get(key)
        if isinstance(c, dict) and "total" in c:
            s.append(f"{key}: {c['passed']}/{c['total']} pass" + (f", {c['ill_conditioned']} ill-conditioned results not judged" if c.get("ill_conditioned") else ""))
            s += ["  FAIL " + r["name"] + ": " + "; ".join(r["problems"])[:300] for r in c["cases"] if not r.get("pass")]
    for key in ("sanitize_small", "sanitize_real_split", "sanitize_real", "sanitize_random"):
        for tool, r in (R.get(key) or {}).items():
            if isinstance(r, dict):
                s.append(f"{key} {tool}: errors {r.get('errors')} hazards {r.get('hazards', '-')} clean {r.get('clean')}")
    p = R.get("planted") or {}
    for k, v in p.items():
        if isinstance(v, dict) and "caught" in v:
            s.append(f"planted {k}: caught {v['caught']}")
    for r in (R.get("bench") or {}).get("rows", []):
        if "seconds" in r:
            s.append(f"{r['name']:36s} {r['seconds'] * 1e6:9.1f} us  roofline {r['roofline']:.2f}  vs torch {r.get('vs_anchor', float('nan')):.2f} {target(r)}")
    tn = R.get("tune")
    if isinstance(tn, dict) and "error" not in tn:
        for name, rows in tn.items():
            s.append(name + ": " + ", ".join(f"{r['name'].replace('attention_decode_gqa_', 'attn_').replace('gemv_f16_', '')} "
                                              f"{r['seconds'] * 1e6:.1f}us {r['roofline']:.2f}" for r in rows if "seconds" in r))
    if "bench_smoke" in R:
        s.append(f"bench_smoke: {R['bench_smoke']}")
    if "fill" in R and isinstance(R["fill"], dict):
        s.append(f"fill all_equal: {R['fill'].get('all_equal')}")
    return "\n".join(s)

#!/usr/bin/python3
"""bench_report.py: runs lfcheck's benchmarks and prints side-by-side ratios.

Benchmarks are named "<comparison>/<variant>[/<params>]". In each comparison one
variant is the baseline (BASELINES below); every other variant with the same
params is compared with it in the same run:
    speedup = baseline real time / candidate real time   (> 1: candidate faster)
A benchmark whose batches differ in size between variants reports a counter
ns_per_op; when both sides have it, the ratio uses it instead of real time.
When both sides report a statistic where less is better (STATISTICS below:
latency percentiles p50_ns, p99_ns, p999_ns, the producers' post_p99_ns, the
Looper's blocked_share), it is also compared (ratio = baseline / candidate, > 1:
the candidate's is lower), as an extra entry of the same comparison with
"statistic": "p50" and so on; a candidate figure of 0 gets no ratio (both
figures stay in the main entry's params). Counted events (missed_16ms: deliveries
more than a 16 ms frame late) are kept as counts in the main entry's params, with
"fewer_missed_16ms" (candidate < baseline), and never turned into a ratio of two
small numbers.
A benchmark with more threads than the machine has cores (params "threads:T", or
a "threads" counter) is marked "oversubscribed" (printed "OVERSUBSCRIBED"): its
threads time-slice, so its figures include the OS scheduler and say nothing
about a goal stated for that many cores.
With --repetitions N (default 3) every benchmark runs N times and the medians
are compared (params keep each side's coefficient of variation, candidate_cv /
baseline_cv, a measure of how noisy the machine was).
The stress comparison (TSan vs plain) runs the two stress binaries on the same
seed and budget and compares operations per second. With --cachegrind DRIVER
(and valgrind installed) the branchless/branchy heap driver runs under
cachegrind's branch simulation: deterministic counts of conditional branches and
mispredictions, written under "cachegrind" and compared as mispredictions.
A multi-threaded benchmark (params "threads:T") also keeps, per side, CPU time /
real time (candidate_cpu_per_real, baseline_cpu_per_real): about how many of its
threads were on a core at once — its own "cpu_per_real" counter where it runs its own
threads (Google Benchmark's cpu_time is its main thread's), and nothing (no "loaded"
flag) for a benchmark that times itself without one. On an idle machine a side whose threads never sleep
reaches min(T, cores) (a side that blocks on a lock may stay below it). When neither
side reached 3/4 of min(T, cores), the machine was shared with other work, the
threads took turns, and the ratio is marked "loaded" (params "loaded": true): it
does not measure the designs' scaling.
A benchmark that stops with an error (a search that runs out of its budget) has no
time to compare: it is listed under "unfinished" with its message.
A benchmark with no baseline in its comparison (lin_monitor/<type>/ops:1000000: nothing
else decides such a history) is listed under "figures" with its own time per iteration and
counters.
Writes {"cores":N,"comparisons":[{"name","ratio","params"}],"unfinished":[...],
"figures":[...]} and, with --plot, an SVG bar chart.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from one_line_argparse import OneLineParser
import drain_profile

BASELINES = ("direct", "locked", "branchy", "heap2", "global", "plain", "permutation", "search")
# (statistic, counter, what it is): compared as baseline / candidate, less is better.
STATISTICS = (("p50", "p50_ns", "latency"), ("p99", "p99_ns", "latency"), ("p999", "p999_ns", "latency"),
              ("post_p99", "post_p99_ns", "post latency"), ("blocked_share", "blocked_share", "share of time blocked"))
# Counted events: kept as counts, never as a ratio.
COUNTS = ("missed_16ms",)
# Google Benchmark's own suffixes, the same for both variants: not part of the params.
TIMING_SUFFIXES = ("manual_time", "real_time")


def run_benchmarks(binary, smoke, repetitions):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    cmd = [binary, f"--benchmark_out={path}", "--benchmark_out_format=json",
           f"--benchmark_min_time={0.001 if smoke else 0.2}"]
    if repetitions > 1 and not smoke:
        # Interleaved: the repetitions of candidate and baseline alternate in random
        # order, so a burst of load from other processes hits both sides alike.
        cmd += [f"--benchmark_repetitions={repetitions}", "--benchmark_report_aggregates_only=true",
                "--benchmark_enable_random_interleaving=true"]
    if smoke:  # every benchmark function, but not its largest sizes (they take seconds per pass)
        cmd.append("--benchmark_filter=-(pending:100000|backlog:100000|timers:1000000|"
                   "permutation/history/.*ops:10000|held:16|ops:1000000|search/.*ops:10000)")
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stdout)
        raise SystemExit(f"bench: {binary} failed (exit {p.returncode})")
    doc = json.load(open(path))
    os.unlink(path)
    return doc


def cpu_per_real(b):
    """How many of a benchmark's threads were on a core at once: its own "cpu_per_real"
    counter if it has one (a benchmark that runs its own threads sums their CPU
    clocks); else, unless it times itself (manual time: Google Benchmark's cpu_time is
    then its main thread's, which only waits, and says nothing of its threads), Google
    Benchmark's cpu_time / real_time; else None (not known: no "loaded" flag)."""
    if "cpu_per_real" in b:
        return round(b["cpu_per_real"], 2)
    if "manual_time" in str(b.get("run_name", b.get("name", ""))).split("/") or not b.get("real_time"):
        return None
    return round(b["cpu_time"] / b["real_time"], 2)


def measured(doc):
    """{(comparison, params): {variant: benchmark}}: each benchmark's median with
    repetitions (the coefficient of variation of its time kept as "cv"), else its one run."""
    cvs = {}
    for b in doc["benchmarks"]:
        if b.get("aggregate_name") == "cv":
            cvs[b["run_name"]] = round(b.get("ns_per_op", b["real_time"]), 3)
    aggregated = any(b.get("run_type") == "aggregate" for b in doc["benchmarks"])
    by_key = {}
    for b in doc["benchmarks"]:
        if b.get("error_occurred"):
            continue
        if aggregated and not (b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median"):
            continue
        if not aggregated and b.get("run_type", "iteration") != "iteration":
            continue
        b = dict(b, cv=cvs.get(b.get("run_name")), repetitions=b.get("repetitions", 1))
        parts = [p for p in b.get("run_name", b["name"]).split("/")
                 if p not in TIMING_SUFFIXES and not p.startswith("iterations:")]
        if len(parts) < 2:
            continue
        name, variant, params = parts[0], parts[1], "/".join(parts[2:])
        by_key.setdefault((name, params), {})[variant] = b
    return by_key


def figures_from(doc):
    """Benchmarks with no baseline to compare with (lin_monitor/<type>/ops:1000000): their
    own time per iteration and counters."""
    out = []
    for (name, params), variants in sorted(measured(doc).items()):
        if any(v in variants for v in BASELINES):
            continue
        for variant, b in sorted(variants.items()):
            counters = {k: round(v, 1) for k, v in b.items() if k.endswith(("_per_second", "_ns"))}
            out.append({"name": name, "variant": variant, "args": params, "time": round(b["real_time"], 1),
                        "unit": b.get("time_unit", "ns") + " per iteration", "counters": counters,
                        "repetitions": b["repetitions"]})
    return out


def comparisons_from(doc):
    # With repetitions, each benchmark's median (of time and of every counter) is
    # compared, and the coefficient of variation of its time is kept in params.
    by_key = measured(doc)
    out = []
    for (name, params), variants in sorted(by_key.items()):
        base = next((v for v in BASELINES if v in variants), None)
        if base is None:
            continue
        for variant, b in sorted(variants.items()):
            if variant == base:
                continue
            bb = variants[base]
            if "ns_per_op" in b and "ns_per_op" in bb:
                cand_t, base_t, unit = b["ns_per_op"], bb["ns_per_op"], "ns per operation"
            else:
                cand_t, base_t, unit = b["real_time"], bb["real_time"], b.get("time_unit", "ns") + " per iteration"
            entry = {"name": name, "ratio": round(base_t / cand_t, 3),
                     "params": {"candidate": variant, "baseline": base, "args": params,
                                "metric": f"speedup = baseline time / candidate time ({unit})",
                                "candidate_time": round(cand_t, 1), "baseline_time": round(base_t, 1),
                                "repetitions": b["repetitions"]}}
            threads = next((int(p.split(":", 1)[1]) for p in params.split("/") if p.startswith("threads:")), None)
            total_threads = threads if threads is not None else (int(b["threads"]) if "threads" in b else None)
            oversubscribed = total_threads is not None and total_threads > (os.cpu_count() or 1)
            if total_threads is not None:
                entry["params"].update(threads=total_threads, oversubscribed=oversubscribed)
            cand_par, base_par = cpu_per_real(b), cpu_per_real(bb)
            if threads is not None and cand_par is not None and base_par is not None:
                possible = min(threads, os.cpu_count() or 1)
                entry["params"].update(candidate_cpu_per_real=cand_par, baseline_cpu_per_real=base_par,
                                       cpu_per_real_idle=possible,
                                       loaded=max(cand_par, base_par) < 0.75 * possible)
            if b["cv"] is not None and bb["cv"] is not None:
                entry["params"]["candidate_cv"], entry["params"]["baseline_cv"] = b["cv"], bb["cv"]
            for _, counter, _ in STATISTICS:
                if counter in b and counter in bb:
                    digits = 6 if counter == "blocked_share" else 1
                    entry["params"][f"candidate_{counter}"] = round(b[counter], digits)
                    entry["params"][f"baseline_{counter}"] = round(bb[counter], digits)
            for counter in COUNTS:
                if counter in b and counter in bb:
                    entry["params"][f"candidate_{counter}"] = int(b[counter])
                    entry["params"][f"baseline_{counter}"] = int(bb[counter])
                    entry["params"][f"fewer_{counter}"] = b[counter] < bb[counter]
            out.append(entry)
            for stat, counter, what in STATISTICS:
                if counter in b and counter in bb and b[counter] > 0:
                    unit, digits = ("_share", 6) if counter == "blocked_share" else ("_ns", 1)
                    stat_entry = {"name": name, "ratio": round(bb[counter] / b[counter], 3),
                                  "params": {"candidate": variant, "baseline": base, "args": params,
                                             "statistic": stat,
                                             "metric": f"baseline {stat} {what} / candidate {stat} {what} (> 1: candidate lower)",
                                             f"candidate{unit}": round(b[counter], digits),
                                             f"baseline{unit}": round(bb[counter], digits)}}
                    if total_threads is not None:
                        stat_entry["params"].update(threads=total_threads, oversubscribed=oversubscribed)
                    out.append(stat_entry)
    return out


def unfinished_from(doc):
    """Benchmarks that stopped with an error (e.g. a search that ran out of its budget):
    no time to compare, so they are listed with their message instead."""
    out, seen = [], set()
    for b in doc["benchmarks"]:
        if not b.get("error_occurred"):
            continue
        parts = [p for p in b.get("run_name", b["name"]).split("/") if p not in TIMING_SUFFIXES]
        parts = [p for p in parts if not p.startswith(("iterations:", "repeats:"))]
        if len(parts) < 2 or tuple(parts) in seen:
            continue
        seen.add(tuple(parts))
        out.append({"name": parts[0], "variant": parts[1], "args": "/".join(parts[2:]),
                    "error": b.get("error_message", "")})
    return out


def cachegrind_counts(driver, variant, pattern, n):
    """Ir, Bc (conditional branches), Bcm (mispredicted) of the driver's heap function."""
    with tempfile.NamedTemporaryFile(suffix=".cg", delete=False) as f:
        path = f.name
    p = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=yes",
                        f"--cachegrind-out-file={path}", driver, variant, pattern, str(n)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stdout)
        raise SystemExit(f"bench: cachegrind on {driver} failed (exit {p.returncode})")
    events, totals, fn = [], {}, ""
    for line in open(path):
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("fn="):
            fn = line[3:].strip()
        elif line[:1].isdigit() and fn == f"lfcheck_heap_ops_{variant}":
            for e, v in zip(events, line.split()[1:]):
                totals[e] = totals.get(e, 0) + int(v)
    os.unlink(path)
    return {"variant": variant, "pattern": pattern, "n": n, "instructions": totals.get("Ir", 0),
            "branches": totals.get("Bc", 0), "mispredicted": totals.get("Bcm", 0)}


def cachegrind_comparisons(driver, n):
    runs, out = [], []
    for pattern in ("random", "ties", "sorted"):
        base = cachegrind_counts(driver, "branchy", pattern, n)
        cand = cachegrind_counts(driver, "branchless", pattern, n)
        runs += [base, cand]
        out.append({"name": "branchless_vs_branchy_heap", "ratio": round(base["mispredicted"] / max(cand["mispredicted"], 1), 3),
                    "params": {"candidate": "branchless", "baseline": "branchy", "args": f"{pattern}/n:{n}",
                               "statistic": "mispredicts",
                               "metric": "baseline / candidate mispredicted conditional branches (cachegrind --branch-sim, "
                                         f"push {n} + pop {n}; deterministic)",
                               "candidate_mispredicted": cand["mispredicted"], "baseline_mispredicted": base["mispredicted"],
                               "candidate_branches": cand["branches"], "baseline_branches": base["branches"],
                               "candidate_instructions": cand["instructions"],
                               "baseline_instructions": base["instructions"]}})
    return runs, out


def stress_ops_per_second(binary, ops):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    p = subprocess.run([binary, "treiber", "--ops", str(ops), "--seed", "1", "--quiet", "--json", path],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stdout)
        raise SystemExit(f"bench: {binary} failed (exit {p.returncode})")
    run = json.load(open(path))["runs"][0]
    os.unlink(path)
    return run["ops"] / max(run["seconds"], 1e-9)


def write_svg(path, comparisons, cores):
    rows = len(comparisons)
    height = 60 + 28 * rows
    width = 1200
    import math
    lo = min([math.log10(max(c["ratio"], 1e-3)) for c in comparisons] + [-1])
    hi = max([math.log10(max(c["ratio"], 1e-3)) for c in comparisons] + [1])
    x0, x1 = 660, width - 60
    def x(v):
        return x0 + (math.log10(max(v, 1e-3)) - lo) / (hi - lo) * (x1 - x0)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
             f'<text x="10" y="20" font-size="14">lfcheck benchmarks: speedup of candidate over baseline (log scale), {cores} cores</text>',
             f'<line x1="{x(1)}" y1="30" x2="{x(1)}" y2="{height - 10}" stroke="#888" stroke-dasharray="4"/>']
    for i, c in enumerate(comparisons):
        y = 40 + 28 * i
        stat = f' [{c["params"]["statistic"]}]' if "statistic" in c["params"] else ""
        over = " (oversubscribed)" if c["params"].get("oversubscribed") else ""
        label = f'{c["name"]} {c["params"]["candidate"]} vs {c["params"]["baseline"]} {c["params"]["args"]}{stat}{over}'
        colour = "#999" if over else "#2a7" if c["ratio"] >= 1 else "#c53"
        left, right = sorted((x(1), x(c["ratio"])))
        parts.append(f'<text x="10" y="{y + 14}">{label[:96]}</text>')
        parts.append(f'<rect x="{left}" y="{y}" width="{max(right - left, 1)}" height="18" fill="{colour}"/>')
        parts.append(f'<text x="{right + 4}" y="{y + 14}">{c["ratio"]:.3g}x</text>')
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts))


def main():
    ap = OneLineParser(prog="lfcheck bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", help="write {\"comparisons\":[...]}")
    ap.add_argument("--plot", help="write an SVG chart of the ratios")
    ap.add_argument("--smoke", action="store_true", help="one quick pass of everything (tests)")
    ap.add_argument("--bench", action="append", default=[], help=argparse.SUPPRESS)
    ap.add_argument("--tsan-stress", help=argparse.SUPPRESS)
    ap.add_argument("--plain-stress", help=argparse.SUPPRESS)
    ap.add_argument("--cachegrind", help=argparse.SUPPRESS)
    ap.add_argument("--drain-profile", help=argparse.SUPPRESS)
    ap.add_argument("--repetitions", type=int, default=3,
                    help="runs of each benchmark; the median is compared (default 3; smoke: 1)")
    ap.add_argument("--check-args", action="store_true",
                    help=argparse.SUPPRESS)  # ./lfcheck: validate the arguments before building
    a = ap.parse_args()
    if a.repetitions < 1:
        ap.error(f"--repetitions must be at least 1, not {a.repetitions}")
    if a.check_args:
        return 0
    comparisons, unfinished, figures = [], [], []
    for binary in a.bench:
        doc = run_benchmarks(binary, a.smoke, a.repetitions)
        comparisons += comparisons_from(doc)
        unfinished += unfinished_from(doc)
        figures += figures_from(doc)
    if a.tsan_stress and a.plain_stress:
        ops = 20000 if a.smoke else 2000000
        plain = stress_ops_per_second(a.plain_stress, ops)
        tsan = stress_ops_per_second(a.tsan_stress, ops)
        comparisons.append({"name": "tsan_stress_overhead", "ratio": round(tsan / plain, 4),
                            "params": {"candidate": "tsan", "baseline": "plain", "args": f"treiber/{ops}ops/4threads",
                                       "metric": "speedup = candidate ops/s / baseline ops/s",
                                       "candidate_ops_per_s": round(tsan), "baseline_ops_per_s": round(plain)}})
    cachegrind = []
    if a.cachegrind:
        if shutil.which("valgrind"):
            cachegrind, extra = cachegrind_comparisons(a.cachegrind, 512 if a.smoke else 4096)
            comparisons += extra
        else:
            print("bench: valgrind not installed: no branch-miss counts (apt-get install valgrind)", file=sys.stderr)
    profiles = []
    if a.drain_profile:
        if shutil.which("valgrind") and shutil.which("addr2line"):
            for n in (1000,) if a.smoke else (1000, 100000):
                deli = drain_profile.profile(a.drain_profile, "deli", n)
                locked = drain_profile.profile(a.drain_profile, "locked", n)
                profiles += [deli, locked]
                d, l = deli["per_message"], locked["per_message"]
                comparisons.append({"name": "deliqueue_vs_locked_drain", "ratio": round(l["instructions"] / d["instructions"], 3),
                                    "params": {"candidate": "deli", "baseline": "locked", "args": f"backlog:{n}",
                                               "statistic": "instructions",
                                               "metric": "baseline / candidate instructions per delivered message "
                                                         "(callgrind, deterministic; steps under \"drain_profile\")",
                                               "candidate_instructions": d["instructions"],
                                               "baseline_instructions": l["instructions"]}})
        else:
            print("bench: valgrind or addr2line missing: no drain profiles (apt-get install valgrind binutils)",
                  file=sys.stderr)
    cores = os.cpu_count()
    reps = "" if a.smoke or a.repetitions < 2 else f", median of {a.repetitions} runs each"
    print(f"lfcheck bench on {cores} cores{reps}{' (smoke: one quick pass, figures not meaningful)' if a.smoke else ''}")
    print("  ratio = speedup of candidate over baseline (> 1: candidate faster / fewer mispredicts)")
    for c in comparisons:
        p = c["params"]
        args = p["args"] + (f' [{p["statistic"]}]' if "statistic" in p else "")
        par = ""
        if "cpu_per_real_idle" in p:  # threaded: how parallel each side really ran
            par = (f'  cpu/real {p["candidate_cpu_per_real"]:.2f} vs {p["baseline_cpu_per_real"]:.2f} '
                   f'(idle: {p["cpu_per_real_idle"]}){"  LOADED: not a scaling figure" if p["loaded"] else ""}')
        counts = "".join(f'  {k}: {p[f"candidate_{k}"]} vs {p[f"baseline_{k}"]}' for k in COUNTS if f"candidate_{k}" in p)
        over = (f'  OVERSUBSCRIBED: {p["threads"]} threads on {cores} cores, not a figure for {p["threads"]} cores'
                if p.get("oversubscribed") else "")
        print(f'  {c["name"]:<36} {p["candidate"]:>10} vs {p["baseline"]:<11} {args:<44} {c["ratio"]:>9.3f}x{par}{counts}{over}')
        for stat, counter, what in STATISTICS:  # a candidate figure of 0 has no ratio: say so
            if "statistic" not in p and p.get(f"candidate_{counter}") == 0 and f"baseline_{counter}" in p:
                print(f'  {c["name"]:<36} {p["candidate"]:>10} vs {p["baseline"]:<11} {p["args"] + f" [{stat}]":<44} '
                      f'no ratio: {what} 0 vs {p[f"baseline_{counter}"]}')
    for f in figures:
        counters = "".join(f"  {k} {v:,.0f}" for k, v in f["counters"].items())
        print(f'  {f["name"]:<36} {f["variant"]:>10} {f["args"]:<44} {f["time"]:>9,.1f} {f["unit"]}{counters}')
    for u in unfinished:
        print(f'  {u["name"]:<36} {u["variant"]:>10} {u["args"]}: did not finish ({u["error"]})')
    for r in cachegrind:
        print(f'  cachegrind {r["variant"]:>10} {r["pattern"]:<6} n={r["n"]}: {r["instructions"]} instructions, '
              f'{r["branches"]} conditional branches, {r["mispredicted"]} mispredicted')
    for r in profiles:
        drain_profile.print_profile(r)
    if a.json:
        with open(a.json, "w") as f:
            doc = {"cores": cores, "comparisons": comparisons}
            if cachegrind:
                doc["cachegrind"] = cachegrind
            if profiles:
                doc["drain_profile"] = profiles
            if unfinished:
                doc["unfinished"] = unfinished
            if figures:
                doc["figures"] = figures
            json.dump(doc, f, indent=1)
    if a.plot:
        write_svg(a.plot, comparisons, cores)
    return 0


if __name__ == "__main__":
    sys.exit(main())

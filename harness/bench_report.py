#!/usr/bin/python3
"""bench_report.py: runs lfcheck's benchmarks and prints side-by-side ratios.

Benchmarks are named "<comparison>/<variant>[/<params>]". In each comparison one
variant is the baseline (BASELINES below); every other variant with the same
params is compared with it in the same run:
    speedup = baseline real time / candidate real time   (> 1: candidate faster)
The stress comparison (TSan vs plain) runs the two stress binaries on the same
seed and budget and compares operations per second. Writes
{"comparisons":[{"name","ratio","params"}]} and, with --plot, an SVG bar chart.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

BASELINES = ("direct", "locked", "branchy", "heap2", "global", "plain")


def run_benchmarks(binary, smoke):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    cmd = [binary, f"--benchmark_out={path}", "--benchmark_out_format=json",
           f"--benchmark_min_time={0.001 if smoke else 0.3}"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stdout)
        raise SystemExit(f"bench: {binary} failed (exit {p.returncode})")
    doc = json.load(open(path))
    os.unlink(path)
    return doc


def comparisons_from(doc):
    by_key = {}
    for b in doc["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        parts = b["name"].split("/")
        if len(parts) < 2:
            continue
        name, variant, params = parts[0], parts[1], "/".join(parts[2:])
        by_key.setdefault((name, params), {})[variant] = b
    out = []
    for (name, params), variants in sorted(by_key.items()):
        base = next((v for v in BASELINES if v in variants), None)
        if base is None:
            continue
        for variant, b in sorted(variants.items()):
            if variant == base:
                continue
            ratio = variants[base]["real_time"] / b["real_time"]
            out.append({"name": name, "ratio": round(ratio, 3),
                        "params": {"candidate": variant, "baseline": base, "args": params,
                                   "metric": "speedup = baseline time / candidate time",
                                   "candidate_ns": round(b["real_time"], 1),
                                   "baseline_ns": round(variants[base]["real_time"], 1)}})
    return out


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
    width = 900
    import math
    lo = min([math.log10(max(c["ratio"], 1e-3)) for c in comparisons] + [-1])
    hi = max([math.log10(max(c["ratio"], 1e-3)) for c in comparisons] + [1])
    x0, x1 = 420, width - 40
    def x(v):
        return x0 + (math.log10(max(v, 1e-3)) - lo) / (hi - lo) * (x1 - x0)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
             f'<text x="10" y="20" font-size="14">lfcheck benchmarks: speedup of candidate over baseline (log scale), {cores} cores</text>',
             f'<line x1="{x(1)}" y1="30" x2="{x(1)}" y2="{height - 10}" stroke="#888" stroke-dasharray="4"/>']
    for i, c in enumerate(comparisons):
        y = 40 + 28 * i
        label = f'{c["name"]} {c["params"]["candidate"]} vs {c["params"]["baseline"]} {c["params"]["args"]}'
        colour = "#2a7" if c["ratio"] >= 1 else "#c53"
        left, right = sorted((x(1), x(c["ratio"])))
        parts.append(f'<text x="10" y="{y + 14}">{label[:60]}</text>')
        parts.append(f'<rect x="{left}" y="{y}" width="{max(right - left, 1)}" height="18" fill="{colour}"/>')
        parts.append(f'<text x="{right + 4}" y="{y + 14}">{c["ratio"]:.3g}x</text>')
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts))


def main():
    ap = argparse.ArgumentParser(prog="lfcheck bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", help="write {\"comparisons\":[...]}")
    ap.add_argument("--plot", help="write an SVG chart of the ratios")
    ap.add_argument("--smoke", action="store_true", help="one quick pass of everything (tests)")
    ap.add_argument("--bench", action="append", default=[], help=argparse.SUPPRESS)
    ap.add_argument("--tsan-stress", help=argparse.SUPPRESS)
    ap.add_argument("--plain-stress", help=argparse.SUPPRESS)
    a = ap.parse_args()
    comparisons = []
    for binary in a.bench:
        comparisons += comparisons_from(run_benchmarks(binary, a.smoke))
    if a.tsan_stress and a.plain_stress:
        ops = 20000 if a.smoke else 2000000
        plain = stress_ops_per_second(a.plain_stress, ops)
        tsan = stress_ops_per_second(a.tsan_stress, ops)
        comparisons.append({"name": "tsan_stress_overhead", "ratio": round(tsan / plain, 4),
                            "params": {"candidate": "tsan", "baseline": "plain", "args": f"treiber/{ops}ops/4threads",
                                       "metric": "speedup = candidate ops/s / baseline ops/s",
                                       "candidate_ops_per_s": round(tsan), "baseline_ops_per_s": round(plain)}})
    cores = os.cpu_count()
    print(f"lfcheck bench on {cores} cores{' (smoke: one quick pass, figures not meaningful)' if a.smoke else ''}")
    for c in comparisons:
        p = c["params"]
        print(f'  {c["name"]:<28} {p["candidate"]:>10} vs {p["baseline"]:<10} {p["args"]:<24} {c["ratio"]:>9.3f}x')
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"cores": cores, "comparisons": comparisons}, f, indent=1)
    if a.plot:
        write_svg(a.plot, comparisons, cores)
    return 0


if __name__ == "__main__":
    sys.exit(main())

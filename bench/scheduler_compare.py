#!/usr/bin/python3
"""scheduler_compare.py MODEL [--seeds 5] [--cap 4] [--depths 2,3] [--dpor] [--structure S]:
Relacy's random scheduler against lfcheck's PCT scheduler (and, with --dpor, its DPOR
search) on every seeded fault the model layer is meant to catch (issues 17, 29).
DPOR is deterministic (no seed): it runs once per fault, each scenario's search to its
end (or to the first failure), in the plan's order.

For each fault, each scheduler (random; pct at each depth) and each seed, it runs
  MODEL STRUCTURE --fault F --scheduler S [--depth D] --seed s --first-failure --jobs 1
                  --quiet --json ...
(one job: the sampled runs of every scenario of the fault's structure, the default
100000 iterations each, in round-robin slices of 10000 with --first-failure) under a
wall-clock cap of --cap seconds for the whole command. Iterations to the first
failure = every execution that ran, in every scenario's slices (the model's
"N executions ran" line; the JSON holds only the runs that ended); seconds = the
command's wall-clock time, process start included. A seed that finds nothing (exit 0) or hits
the cap is a miss. The table shows, per fault and scheduler, the median over the
seeds (a miss counts as infinitely late: the median is a miss when half the seeds
or more missed) and how many seeds found the fault.

Prints a Markdown table; --json FILE writes the raw cells. Exit 0 when every run
ended as fail (found), pass (missed) or the cap; 2 on anything else (a usage or
set-up error of MODEL)."""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def one(model, fault, structure, scheduler, depth, seed, cap, tmp):
    path = os.path.join(tmp, "run.json")
    if os.path.exists(path):
        os.unlink(path)
    cmd = [model, structure, "--fault", fault, "--scheduler", scheduler, "--seed", str(seed),
           "--first-failure", "--jobs", "1", "--quiet", "--json", path, "--artifacts", os.path.join(tmp, "arts")]
    if depth:
        cmd += ["--depth", str(depth)]
    try:
        started = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=cap)
        wall = time.monotonic() - started
    except subprocess.TimeoutExpired:
        return {"found": False, "why": "cap"}
    if p.returncode == 0:
        return {"found": False, "why": "clean"}
    if p.returncode != 1:
        sys.stderr.write(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr}")
        return None
    runs = json.load(open(path))["runs"]
    # Runs the first failure stopped (round-robin slices of other scenarios that ran
    # before it) are not in the JSON; the model prints how many executions ran in all.
    ran = re.search(r"stopped after the first failure \((\d+) executions ran\)", p.stdout)
    return {"found": any(r["verdict"] == "fail" for r in runs),
            "iterations": int(ran.group(1)) if ran else sum(r["iterations"] for r in runs),
            "seconds": wall,
            "scenario": next((r["scenario"] for r in runs if r["verdict"] == "fail"), "")}


def median_or_miss(cells, key):
    inf = float("inf")
    values = sorted(c[key] if c["found"] else inf for c in cells)
    m = statistics.median_low(values) if len(values) % 2 == 0 else statistics.median(values)
    return None if m == inf else m


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--cap", type=float, default=4.0, help="seconds per command (default 4)")
    ap.add_argument("--depths", default="2,3", help="pct depths to try (default 2,3)")
    ap.add_argument("--structure", default="")
    ap.add_argument("--dpor", action="store_true", help="also lfcheck's DPOR search (one run per fault)")
    ap.add_argument("--json")
    a = ap.parse_args()
    listing = subprocess.run([a.model, "--list-faults-json"] + ([a.structure] if a.structure else []),
                             stdout=subprocess.PIPE, text=True)
    if listing.returncode != 0:
        return 2
    faults = [f for f in json.loads(listing.stdout)["faults"] if "model" in f["expected_layers"]]
    schedulers = [("random", 0)] + [("pct", int(d)) for d in a.depths.split(",") if d]
    if a.dpor:
        schedulers.append(("dpor", 0))
    cells = {}
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for f in faults:
            for s, d in schedulers:
                runs = []
                for seed in range(1 if s == "dpor" else a.seeds):
                    r = one(a.model, f["name"], f["mechanism"], s, d, seed, a.cap, tmp)
                    if r is None:
                        return 2
                    runs.append(r)
                cells[(f["name"], s, d)] = runs
            sys.stderr.write(f"[{time.monotonic() - start:.0f}s] {f['name']} done\n")
    names = [f"{s}" if not d else f"pct d={d}" for s, d in schedulers]
    print(f"| fault | " + " | ".join(f"{n}: median iterations / seconds (found/seeds)" for n in names) + " |")
    print("|---|" + "---|" * len(names))
    summary = {n: {"le_1s": 0, "le_0.2s": 0, "missed": 0} for n in names}
    for f in faults:
        row = []
        for (s, d), n in zip(schedulers, names):
            runs = cells[(f["name"], s, d)]
            found = sum(r["found"] for r in runs)
            it, sec = median_or_miss(runs, "iterations"), median_or_miss(runs, "seconds")
            if sec is None:
                row.append(f"miss ({found}/{len(runs)})")
                summary[n]["missed"] += 1
            else:
                row.append(f"{it:,} / {sec:.3f} ({found}/{len(runs)})")
                summary[n]["le_1s"] += sec <= 1
                summary[n]["le_0.2s"] += sec <= 0.2
        print(f"| {f['name']} | " + " | ".join(row) + " |")
    print()
    for n in names:
        print(f"{n}: median <= 1 s for {summary[n]['le_1s']}/{len(faults)} faults, <= 0.2 s for "
              f"{summary[n]['le_0.2s']}, median a miss (within {a.cap:g} s) for {summary[n]['missed']}")
    if a.json:
        with open(a.json, "w") as out:
            json.dump({"cap_seconds": a.cap, "seeds": a.seeds,
                       "cells": [{"fault": k[0], "scheduler": k[1], "depth": k[2], "runs": v}
                                 for k, v in cells.items()]}, out, indent=1)
    return 0


sys.exit(main())

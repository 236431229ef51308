#!/usr/bin/python3
"""bench_report_truth.py [TOOLS_DIR] — what tools/bench_report.py says of how parallel a
threaded comparison ran (candidate_cpu_per_real, baseline_cpu_per_real, "loaded"), on
Google Benchmark reports made up here (no benchmark runs):
  manual    a benchmark that times itself (UseManualTime) and runs its own threads:
            Google Benchmark's cpu_time is its main thread's (it waits at barriers and
            does the untimed set-up), so cpu_time / real_time says nothing of its
            threads (6.95 "of 2 threads"): no figure and no "loaded" flag from it
  counter   such a benchmark's own "cpu_per_real" counter (its threads' CPU clocks) is
            the figure, and "loaded" is judged from it
  threads   a Google Benchmark ->Threads(T) run: cpu_time / real_time, as before
Exit 0 if every case holds, else 1."""
import os
import sys

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tools"))
import bench_report  # noqa: E402

failed = 0


def check(name, ok, got):
    global failed
    print(("ok:   " if ok else "FAIL: ") + name + ("" if ok else f": {got}"))
    failed += not ok


def doc(suffix, candidate, baseline):
    def bench(variant, fields):
        run = f"deliqueue_vs_locked_enqueue/{variant}/pending:1000/threads:2{suffix}"
        return dict({"name": run, "run_name": run, "run_type": "iteration", "repetitions": 1, "iterations": 10,
                     "real_time": 1000.0, "time_unit": "us", "ns_per_op": 50.0}, **fields)
    return {"benchmarks": [bench("deli", candidate), bench("locked", baseline)]}


cores = min(2, os.cpu_count() or 1)
[manual] = bench_report.comparisons_from(doc("/manual_time", {"cpu_time": 6950.0}, {"cpu_time": 6100.0}))
check("manual: no cpu/real figure from the main thread's cpu_time",
      "candidate_cpu_per_real" not in manual["params"] and "loaded" not in manual["params"], manual["params"])
[counter] = bench_report.comparisons_from(doc("/manual_time", {"cpu_time": 6950.0, "cpu_per_real": 1.9},
                                              {"cpu_time": 6100.0, "cpu_per_real": 0.4}))
p = counter["params"]
check("counter: the benchmark's own cpu_per_real is the figure",
      (p.get("candidate_cpu_per_real"), p.get("baseline_cpu_per_real")) == (1.9, 0.4)
      and p.get("loaded") == (1.9 < 0.75 * cores), p)
[threads] = bench_report.comparisons_from(doc("/real_time", {"cpu_time": 1900.0}, {"cpu_time": 600.0}))
p = threads["params"]
check("threads: Google Benchmark's cpu_time / real_time where it measures the threads",
      (p.get("candidate_cpu_per_real"), p.get("baseline_cpu_per_real")) == (1.9, 0.6), p)
print(f"bench report truth: {failed} failed")
sys.exit(1 if failed else 0)

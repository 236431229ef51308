#!/usr/bin/python3
"""lin_report.py OUT.json [--junit OUT.xml] [--model M.json] [--stress S.json]

The report of `./lfcheck lin`'s two layers: {"runs":[{"structure","layer",
"scenarios","executions","verdict","seconds",...}]} — the model layer's records
as lfcheck-lin-model wrote them, and the stress layer's lin.* workload records
whole, every field the runner wrote kept (a relaxed spec's worst_out_of_order and
out_of_order_bound, lin.history's histories and calls_checked, a HANG's
thread_positions, a TSan report's uninstrumented, a shard's "shard", "of_runs" and
"plan", ...), with "layer": "stress" and their work under the name of its unit:
a lin.scenarios run's "ops" (executions of its scenarios, "unit": "executions") as
"executions", a lin.history run's (calls, each stamped and kept for its history's
check) as "calls" — never as executions (issue 46). The layer files are the ones `verdicts.py settle` held to
the layers' exit statuses, so a layer that died is an error run here, never a
missing row. JUnit: written from the same runs (tools/verdicts.py). Prints one
summary line and exits with the status the runs stand for (verdicts.py's
exit_status); 2 if a layer file cannot be read at all."""
import argparse
import json
import sys

from verdicts import exit_status, junit, read_runs, summary

def lin_record(r):
    """A stress runner's record of a lin.* workload (or an error run of the layer) as a
    lin record: every field kept; "layer": "stress"; its work ("ops" in the runner's
    "unit") named by its unit: "calls" for lin.history, "executions" otherwise."""
    rec = {"structure": r.get("structure", ""), "layer": "stress"}
    rec.update({k: v for k, v in r.items() if k not in ("ops", "unit")})
    if "workload" in r or "ops" in r:   # a workload's record (an error run of the layer has neither)
        rec["calls" if r.get("workload") == "lin.history" else "executions"] = r.get("ops", 0)
    rec["verdict"] = r.get("verdict", "error")
    return rec


def main():
    ap = argparse.ArgumentParser(prog="lin_report.py")
    ap.add_argument("out")
    ap.add_argument("--junit")
    ap.add_argument("--model")
    ap.add_argument("--stress")
    a = ap.parse_args()
    runs = []
    try:
        if a.model:
            runs += read_runs(a.model)
        if a.stress:
            runs += [lin_record(r) for r in read_runs(a.stress)]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.stderr.write(f"lfcheck lin: cannot read a layer's results: {e}\n")
        return 2
    with open(a.out, "w") as out:
        json.dump({"runs": runs}, out, indent=1)
    if a.junit:
        with open(a.junit, "w") as out:
            out.write(junit(runs, "lfcheck.lin"))
    for r in runs:
        if r.get("verdict") != "pass":
            print(f"  {r.get('structure')} ({r.get('layer')}): {r.get('verdict')}: {r.get('failure', '')}")
    print(summary("lin", runs))
    return exit_status(runs)


if __name__ == "__main__":
    sys.exit(main())

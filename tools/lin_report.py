#!/usr/bin/python3
"""lin_report.py OUT.json [--junit OUT.xml] [--model M.json] [--stress S.json]

The report of `./lfcheck lin`'s two layers: {"runs":[{"structure","layer",
"scenarios","executions","verdict","seconds",...}]} — the model layer's records
as lfcheck-lin-model wrote them, the stress layer's lin.* workload records with
their executions and scenarios under the same names (and a shard's "shard",
"of_runs" and "plan"). The layer files are the ones `verdicts.py settle` held to
the layers' exit statuses, so a layer that died is an error run here, never a
missing row. JUnit: written from the same runs (tools/verdicts.py). Prints one
summary line and exits with the status the runs stand for (verdicts.py's
exit_status); 2 if a layer file cannot be read at all."""
import argparse
import json
import sys

from verdicts import exit_status, junit, read_runs, summary

# The stress runner's fields a lin record keeps under the same name.
STRESS_KEPT = ("workload", "scenarios", "seconds", "seed", "sanitizer", "failure", "replay", "fault", "shard",
               "of_runs", "plan")


def lin_record(r):
    """A stress runner's record of a lin.* workload (or an error run of the layer) as a lin record."""
    rec = {"structure": r.get("structure", ""), "layer": "stress"}
    rec.update({k: r[k] for k in STRESS_KEPT if k in r})
    rec["scenarios"] = r.get("scenarios", 0)
    rec["executions"] = r.get("ops", 0)
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

#!/usr/bin/python3
"""lin_report.py OUT.json [--junit OUT.xml] [--model M.json] [--stress S.json]

Merges the lin runs of both layers into one report: {"runs":[{"structure",
"layer","scenarios","executions","verdict","seconds",...}]} — the model layer's
records as lfcheck-lin-model wrote them, the stress layer's lin.* workload
records with their executions and scenarios under the same names. JUnit: one
testcase per structure and layer. A layer file that is missing or unreadable is
an error (exit 2): a report never silently drops a layer's verdicts."""
import argparse
import json
import sys
from xml.sax.saxutils import escape, quoteattr


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
            runs += json.load(open(a.model))["runs"]
        if a.stress:
            for r in json.load(open(a.stress))["runs"]:
                rec = {"structure": r["structure"], "layer": "stress", "workload": r["workload"],
                       "scenarios": r.get("scenarios", 0), "executions": r["ops"], "verdict": r["verdict"],
                       "seconds": r["seconds"], "seed": r["seed"], "sanitizer": r.get("sanitizer", "")}
                for k in ("failure", "replay", "fault"):
                    if k in r:
                        rec[k] = r[k]
                runs.append(rec)
    except (OSError, ValueError, KeyError) as e:
        sys.stderr.write(f"lfcheck lin: cannot read a layer's results: {e}\n")
        return 2
    with open(a.out, "w") as out:
        json.dump({"runs": runs}, out, indent=1)
    if a.junit:
        failures = sum(r["verdict"] != "pass" for r in runs)
        with open(a.junit, "w") as out:
            out.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n')
            out.write(f'<testsuite name="lfcheck.lin" tests="{len(runs)}" failures="{failures}">\n')
            for r in runs:
                out.write(f'  <testcase classname={quoteattr(r["structure"])} name={quoteattr(r["layer"])} '
                          f'time="{r["seconds"]}">')
                if r["verdict"] != "pass":
                    out.write(f'<failure message={quoteattr(r.get("failure", "failed"))}/>')
                out.write("</testcase>\n")
            out.write("</testsuite>\n</testsuites>\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

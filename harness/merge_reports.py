#!/usr/bin/python3
"""lfcheck merge FILES... [--json OUT] [--junit OUT]: one report from the reports
of several shards (or jobs, or machines).

FILES are the --json reports ({"runs":[...]}: model, stress, lin) and the --junit
files of the shards, in any mix (a file is JUnit when it starts with "<?xml" or
"<testsuites"). The merged JSON holds every run of every JSON file, in the order
given; the merged JUnit holds every testcase of every JUnit file in one testsuite
whose counts are recomputed.

Failures are grouped by signature — structure, scenario (or workload), the
checker's words ("failure") and, when the run names it, the top frame in the
user's code ("top_frame") — so fifty shards that hit one race print one group
with fifty seeds.

A run that appears in two files (the same structure, scenario or workload,
scheduler, bound, depth, fault and seed) means the shards overlapped: the merge
says so and exits 2. Exit status otherwise as for one run (harness/report.hpp):
1 if any run failed, else 2 if any run is an error or there is no run, else 0."""
import argparse
import json
import re
import sys

IDENTITY = ("structure", "layer", "scenario", "workload", "scheduler", "bound", "depth", "fault", "seed", "threads")


def identity(run):
    return tuple((k, run[k]) for k in IDENTITY if k in run)


def signature(run):
    return (run.get("structure", ""), run.get("scenario", run.get("workload", "")), run.get("failure", ""),
            run.get("top_frame", ""))


def merge_junit(texts):
    cases = []
    for t in texts:
        cases += re.findall(r"<testcase .*?</testcase>|<testcase [^>]*/>", t, re.S)
    failures = sum("<failure " in c for c in cases)
    errors = sum("<error " in c for c in cases)
    total = sum(float(m) for c in cases for m in re.findall(r'<testcase [^>]*time="([0-9.]+)"', c)[:1])
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n'
            f'<testsuite name="lfcheck.merged" tests="{len(cases)}" failures="{failures}" errors="{errors}" '
            f'time="{total:g}">\n' + "".join(f"  {c}\n" for c in cases) + "</testsuite>\n</testsuites>\n")


def main():
    ap = argparse.ArgumentParser(prog="lfcheck merge", description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--json", help="write the merged {\"runs\":[...]} here")
    ap.add_argument("--junit", help="write the merged JUnit XML here")
    a = ap.parse_args()
    runs, junit = [], []
    for path in a.files:
        try:
            text = open(path).read()
        except OSError as e:
            print(f"lfcheck merge: cannot read {path}: {e}", file=sys.stderr)
            return 2
        if text.lstrip().startswith(("<?xml", "<testsuites")):
            junit.append(text)
            continue
        try:
            runs += [dict(r, _from=path) for r in json.loads(text)["runs"]]
        except (ValueError, KeyError, TypeError) as e:
            print(f"lfcheck merge: {path} is neither a {{\"runs\":[...]}} report nor JUnit: {e}", file=sys.stderr)
            return 2

    seen, overlaps = {}, []
    for r in runs:
        key = identity(r)
        if key in seen:
            overlaps.append(f"{dict(key)} in {seen[key]} and {r['_from']}")
        seen.setdefault(key, r["_from"])
    groups = {}
    for r in runs:
        if r.get("verdict") != "pass":
            groups.setdefault((r.get("verdict"),) + signature(r), []).append(r)
    for r in runs:
        del r["_from"]

    verdicts = [r.get("verdict") for r in runs]
    print(f"merged {len(runs)} runs from {len(a.files) - len(junit)} JSON files"
          f"{f' and {len(junit)} JUnit files' if junit else ''}: {verdicts.count('pass')} pass, "
          f"{verdicts.count('fail')} fail, {verdicts.count('error')} error")
    for (verdict, structure, scenario, failure, frame), members in sorted(groups.items(), key=lambda g: -len(g[1])):
        seeds = ", ".join(sorted({str(m["seed"]) for m in members if "seed" in m}))
        print(f"  {len(members)} x {verdict}: {structure}/{scenario}: {failure or '?'}"
              + (f" at {frame}" if frame else "") + (f"  (seeds {seeds})" if seeds else ""))
    for o in overlaps:
        print(f"lfcheck merge: the same run twice (shards overlap): {o}", file=sys.stderr)
    if a.json:
        with open(a.json, "w") as out:
            out.write('{"runs":[' + ",".join("\n" + json.dumps(r, separators=(",", ":")) for r in runs) + "\n]}\n")
    if a.junit:
        with open(a.junit, "w") as out:
            out.write(merge_junit(junit))
    if overlaps:
        return 2
    return 1 if "fail" in verdicts else 2 if "error" in verdicts or not runs else 0


sys.exit(main())

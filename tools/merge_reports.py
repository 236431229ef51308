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

A run one command split into parts (`lfcheck lin --shard I/N`: each shard's run
of a structure has "shard": "I/N" and the scenarios i = I mod N) is summed back
into the unsharded run: its scenarios, executions and exhaustive scenarios are
the parts' sums; it fails if a part fails, with the failure of the part whose
failing scenario comes first (the one the unsharded run stops at); it is an
error if a part is missing ("INCOMPLETE") or none executed anything. A shard
that got no scenario (N above the scenario count) is an empty part, not an
error of the whole. --keep-shards keeps the parts as they are (one shard's own
report, e.g. `lfcheck run` in a shard).

A run that appears in two files (the same structure, scenario or workload,
scheduler, bound, depth, fault and seed) means the shards overlapped: the merge
says so and exits 2. Exit status otherwise as for one run (harness/report/report.hpp):
1 if any run failed, else 2 if any run is an error or there is no run, else 0.

Kill matrices (the --json of `lfcheck mutants --shard I/N`: {"faults":[...],
"correct_code":[...]}) merge into one matrix, when every JSON file is one: its
rows are every shard's rows; a fault or a correct-code cell in two files is an
overlap (exit 2), and so are matrices of different seeds, budgets or layers; the
shards must be all N of one N (otherwise the merge says which are missing and
the result is incomplete, exit 2 unless it already shows a miss). Exit status as
for one matrix: 1 if a fault is not caught (or missed by a layer its catalogue
names) or a correct-code cell is a false alarm, an error or (unless the shards
ran with --allow-unchecked) over budget; else 2 if incomplete; else 0."""
import argparse
import json
import re
import sys

from mutants import ERROR, OVER_BUDGET, judge

IDENTITY = ("structure", "layer", "scenario", "workload", "scheduler", "bound", "depth", "fault", "seed", "threads",
            "shard")
SUMMED = ("scenarios", "executions", "exhaustive_scenarios", "shrink_runs", "seconds")


def identity(run):
    return tuple((k, run[k]) for k in IDENTITY if k in run)


def join_parts(runs):
    """Runs with a "shard" are parts of one run: each group of parts becomes the
    unsharded run, in the place of its first part (see the module's doc)."""
    groups, out = {}, []
    for r in runs:
        if "shard" not in r:
            out.append(r)
            continue
        # A lin part's "scenario" is its failure's shrunk scenario, not a name: not part of the key.
        key = tuple(kv for kv in identity(r) if kv[0] not in ("shard", "scenario"))
        if key not in groups:
            groups[key] = []
            out.append(groups[key])
        groups[key].append(r)
    joined = []
    for item in out:
        if isinstance(item, dict):
            joined.append(item)
            continue
        parts = item
        try:
            shards = [tuple(int(x) for x in p["shard"].split("/")) for p in parts]
        except ValueError:
            shards = [(-1, -1)]
        totals = {n for _, n in shards}
        indices = [i for i, _ in shards]
        whole = {k: v for k, v in parts[0].items() if k not in ("shard", "of_scenarios", "failure", "scenario",
                                                                  "first_failure_seconds", "failing_index")}
        for k in SUMMED:
            if any(k in p for p in parts):
                total = sum(p.get(k, 0) for p in parts)
                whole[k] = round(total, 3) if isinstance(total, float) else total
        # The first failing scenario (lowest failing_index) is the one the unsharded run stops at.
        failing = sorted((p for p in parts if p.get("verdict") == "fail"), key=lambda p: p.get("failing_index", 0))
        broken = [p for p in parts if p.get("verdict") not in ("pass", "fail") and p.get("scenarios", 0) > 0]
        problem = ""
        if len(totals) != 1 or -1 in totals:
            problem = f"INCOMPLETE: the parts are not the shards of one N ({', '.join(p['shard'] for p in parts)})"
        elif len({p.get("of_scenarios") for p in parts}) > 1:
            problem = ("INCOMPLETE: the parts are shards of runs of different sizes (scenarios "
                       + ", ".join(sorted({str(p.get("of_scenarios")) for p in parts})) + ")")
        elif len(set(indices)) == len(indices) and len(indices) < next(iter(totals)):
            missing = sorted(set(range(next(iter(totals)))) - set(indices))
            problem = f"INCOMPLETE: shards {', '.join(map(str, missing))} of {next(iter(totals))} are missing"
        if failing:
            whole["verdict"] = "fail"
            for k in ("failure", "scenario", "first_failure_seconds", "failing_index"):
                if k in failing[0]:
                    whole[k] = failing[0][k]
            if problem:
                whole["incomplete"] = problem  # the failure stands; the rest of the run is not all here
        elif problem or broken or whole.get("executions", 0) == 0:
            whole["verdict"] = "error"
            whole["failure"] = problem or (broken[0].get("failure", "error") if broken else
                                           "NO WORK: no shard executed anything")
        else:
            whole["verdict"] = "pass"
        joined.append(whole)
    return joined, len(groups)


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


def merge_matrices(docs, paths, out_path):
    """The kill matrices of mutants shards as one matrix (see the module's doc)."""
    problems = []
    same = {k: {json.dumps(d.get(k)) for d in docs} for k in ("seeds", "budget_seconds", "layers", "allow_unchecked")}
    for k, values in same.items():
        if len(values) > 1:
            problems.append(f"the matrices differ in {k}: {', '.join(sorted(values))}")
    faults, correct, seen = [], [], {}
    for d, path in zip(docs, paths):
        for f in d["faults"]:
            key = ("fault", f["name"])
            if key in seen:
                problems.append(f"fault {f['name']} in {seen[key]} and {path}")
            seen.setdefault(key, path)
            faults.append(f)
        for c in d["correct_code"]:
            key = ("correct", c["structure"], c["layer"])
            if key in seen:
                problems.append(f"correct code {c['structure']} x {c['layer']} in {seen[key]} and {path}")
            seen.setdefault(key, path)
            correct.append(c)
    shards = [d.get("shard") for d in docs]
    complete = all(d.get("complete", False) for d in docs)
    if any(shards):
        totals = {s["total"] for s in shards if s}
        if None in shards or len(totals) != 1:
            problems.append("not the shards of one sharded run (a file without a shard, or different N)")
        else:
            n = totals.pop()
            have = sorted(s["index"] for s in shards)
            missing = sorted(set(range(n)) - set(have))
            if missing:
                complete = False
                print(f"lfcheck merge: incomplete: shards {', '.join(map(str, missing))} of {n} are missing",
                      file=sys.stderr)
    layers = docs[0].get("layers") or []
    allow = bool(docs[0].get("allow_unchecked"))
    caught, missed, bad, ok = judge(faults, correct, layers, allow)
    merged = {"faults": faults, "correct_code": correct,
              "false_alarms": sum(c.get("caught_seeds", 0) for c in correct),
              "unchecked": sum(c["status"] in (OVER_BUDGET, ERROR) for c in correct),
              "seeds": docs[0].get("seeds"), "budget_seconds": docs[0].get("budget_seconds"), "layers": layers,
              "allow_unchecked": allow, "complete": complete and not problems}
    print(f"merged {len(faults)} faults and {len(correct)} correct-code cells from {len(docs)} matrices: "
          f"kill rate overall {caught}/{len(faults)}, false alarms {merged['false_alarms']}")
    if missed:
        print("missed by a layer the catalogue says must catch it: " + ", ".join(missed))
    for c in bad:
        print(f"  {c['structure']} {c['layer']}: {c['status']}")
    for p in problems:
        print(f"lfcheck merge: {p}", file=sys.stderr)
    if out_path:
        with open(out_path, "w") as out:
            json.dump(merged, out, indent=1)
    if problems:
        return 2
    if not ok:
        return 1
    return 0 if merged["complete"] else 2


def main():
    ap = argparse.ArgumentParser(prog="lfcheck merge", description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--json", help="write the merged {\"runs\":[...]} here")
    ap.add_argument("--junit", help="write the merged JUnit XML here")
    ap.add_argument("--keep-shards", action="store_true",
                    help="keep the shard parts of a run apart (one shard's report), not summed into the run")
    a = ap.parse_args()
    runs, junit, matrices, matrix_paths = [], [], [], []
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
            doc = json.loads(text)
            if isinstance(doc, dict) and "faults" in doc and "correct_code" in doc:
                matrices.append(doc)
                matrix_paths.append(path)
                continue
            runs += [dict(r, _from=path) for r in doc["runs"]]
        except (ValueError, KeyError, TypeError) as e:
            print(f"lfcheck merge: {path} is neither a {{\"runs\":[...]}} report, a kill matrix nor JUnit: {e}",
                  file=sys.stderr)
            return 2
    if matrices:
        if runs:
            print("lfcheck merge: kill matrices (mutants) and run reports cannot be merged into one", file=sys.stderr)
            return 2
        if junit and a.junit:
            with open(a.junit, "w") as out:
                out.write(merge_junit(junit))
        return merge_matrices(matrices, matrix_paths, a.json)

    seen, overlaps = {}, []
    for r in runs:
        key = identity(r)
        if key in seen:
            overlaps.append(f"{dict(key)} in {seen[key]} and {r['_from']}")
        seen.setdefault(key, r["_from"])
    for r in runs:
        del r["_from"]
    parts = 0 if a.keep_shards else sum("shard" in r for r in runs)
    if parts:
        runs, wholes = join_parts(runs)
        print(f"joined {parts} shard parts into {wholes} runs")
    groups = {}
    for r in runs:
        if r.get("verdict") != "pass":
            groups.setdefault((r.get("verdict"),) + signature(r), []).append(r)

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

#!/usr/bin/python3
"""verdict_rules.py EXIT_STATUS JSON [JUNIT]: the rules every lfcheck run report
obeys, stated once. JSON is a model, stress or lin report ({"runs":[...]}), JUNIT the
JUnit file of the same run, EXIT_STATUS what the run exited with.

  1. The exit status is what the verdicts say: 1 if any run is "fail", else 2 if
     any is "error", else 0 — and a report with no run at all never exits 0.
  2. No run passes with zero work: a "pass" has iterations (model), ops
     (stress), executions (lin), calls (lin.history in ./lfcheck lin's report) or
     layer_runs (a kill-matrix row of a nightly) > 0.
  3. "exhaustive" only for a search (bound, full, dpor, or the plan's bound+full
     fallback) that passed and started at its root (not a replay: no "replay_of");
     an exhaustive dpor run names the bounds that remain ("bounds").
  4. The JUnit file says the same: one testcase per run, failures + errors = the
     runs that are not "pass".
  5. A verify run (lfcheck verify: "check": "verify") says "verified_up_to" only on a
     pass, and passes a bound only if every one of its scenarios ended ("ended" equal
     to "scenarios"); a ladder's pass names the bounds it verified.
Exit 0 if every rule holds, 1 with each broken rule otherwise."""
import json
import re
import sys


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__)
        return 2
    status = int(sys.argv[1])
    problems = []
    try:
        runs = json.load(open(sys.argv[2]))["runs"]
    except (OSError, ValueError, KeyError) as e:
        print(f"verdict rules: cannot read {sys.argv[2]}: {e}")
        return 1
    verdicts = [r.get("verdict") for r in runs]
    for i, v in enumerate(verdicts):
        if v not in ("pass", "fail", "error"):
            problems.append(f"run {i}: verdict {v!r} is not pass, fail or error")
    want = 1 if "fail" in verdicts else 2 if "error" in verdicts else 0
    if not runs and status == 0:
        problems.append("no run at all, yet exit status 0 (a pass with zero work)")
    elif runs and status != want:
        problems.append(f"exit status {status}, but the verdicts {sorted(set(verdicts))} say {want}")
    for i, r in enumerate(runs):
        name = "/".join(str(r.get(k, "")) for k in ("structure", "scenario", "workload", "scheduler") if k in r)
        # (a kill-matrix row of ./lfcheck nightly: the layer runs it took; lin.history in
        # ./lfcheck lin's report: its calls)
        work = r.get("iterations", r.get("ops", r.get("executions", r.get("layer_runs", r.get("calls")))))
        if r.get("verdict") == "pass" and not (isinstance(work, int) and work > 0):
            problems.append(f"{name}: pass with {work!r} iterations/ops")
        if r.get("exhaustive"):
            if r.get("scheduler") not in ("bound", "full", "dpor", "bound+full"):
                problems.append(f"{name}: exhaustive for the {r.get('scheduler')} scheduler")
            if r.get("scheduler") == "dpor" and not r.get("bounds"):
                problems.append(f"{name}: an exhaustive dpor run that does not name its bounds")
            if r.get("verdict") != "pass":
                problems.append(f"{name}: exhaustive but {r.get('verdict')}")
            if "replay_of" in r:
                problems.append(f"{name}: exhaustive for a search resumed from {r['replay_of']}")
        if r.get("check") == "verify":
            if r.get("verified_up_to") and r.get("verdict") != "pass":
                problems.append(f"{name}: verified_up_to {r['verified_up_to']!r} on a {r.get('verdict')} run")
            if r.get("verdict") == "pass" and r.get("mode") == "ladder" and not r.get("verified_bounds"):
                problems.append(f"{name}: a ladder that passed without a verified bound")
            if r.get("verdict") == "pass" and r.get("mode") != "ladder" and r.get("ended") != r.get("scenarios"):
                problems.append(f"{name}: a verify pass with {r.get('ended')} of {r.get('scenarios')} scenarios ended")
    if len(sys.argv) == 4:
        try:
            xml = open(sys.argv[3]).read()
        except OSError as e:
            problems.append(f"cannot read {sys.argv[3]}: {e}")
            xml = ""
        if xml:
            cases = len(re.findall(r"<testcase ", xml))
            bad = len(re.findall(r"<failure ", xml)) + len(re.findall(r"<error ", xml))
            m = re.search(r'<testsuite [^>]*tests="(\d+)"[^>]*failures="(\d+)"(?:[^>]*errors="(\d+)")?', xml)
            not_pass = sum(v != "pass" for v in verdicts)
            if cases != len(runs):
                problems.append(f"JUnit has {cases} testcases for {len(runs)} runs")
            if bad != not_pass:
                problems.append(f"JUnit marks {bad} testcases failed/errored, the JSON {not_pass} runs not pass")
            if m and int(m.group(2)) + int(m.group(3) or 0) != not_pass:
                problems.append(f"JUnit testsuite counts {m.group(2)} failures + {m.group(3) or 0} errors, "
                                f"the JSON {not_pass} runs not pass")
    if problems:
        print(f"verdict rules broken ({sys.argv[2]}, exit status {status}):")
        for p in problems:
            print("  " + p)
        return 1
    print(f"verdict rules hold: {len(runs)} runs, exit status {status}")
    return 0


sys.exit(main())

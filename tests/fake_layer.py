#!/usr/bin/python3
"""fake_layer.py LAYER [args]: a stand-in for lfcheck-model, lfcheck-stress,
lfcheck-props or lfcheck-lin-model (LAYER model, stress, props, lin) with scripted
outcomes, so tests/mutants_truth.sh can check how the kill matrix (tools/mutants.py)
and the faults tests (tests/check_faults_caught.sh) judge every kind of result, and
tests/driver_reports_truth.sh how ./lfcheck reports them, in seconds.

FAKE_OUTCOMES (environment): comma-separated LAYER:FAULT=OUTCOME, FAULT "correct"
for the correct code. Outcomes:
  pass      exit 0, a passing run in --json and --junit (props: "OK, passed 100 tests")
  fail      exit 1 with the layer's evidence (a failing run in --json, NOT
            LINEARIZABLE for lin; props: RapidCheck's "Falsifiable after" and
            reproduce line)
  crash     exit 1, a failing run "CRASH: SIGSEGV ...": the code under test crashed
            (a Relacy verdict, and a rejection of the code)
  unknown   exit 1, a failing run "USER ASSERT FAILED (LINEARIZABILITY UNKNOWN: ...)":
            the lin checker's budget ran out (undecided)
  crashed   exit 1, a failing run "CRASHED (signal 9)": a worker process died
  nondet    exit 1, a failing run "NONDETERMINISTIC SCENARIO"
  bare1     exit 1 with no evidence at all
  hang      props: a waiting check's watchdog line "TIMEOUT: ... (a hang)", exit 1
  exit2     exit 2 (usage or set-up error), no report
  signal    killed by SIGSEGV, no report
  sleep     sleeps 60 s (over any test budget)
  interruptible  waits up to 30 s for SIGTERM or SIGINT, then does what the runners
            do (harness/cli/interrupt.hpp): an error run "interrupted" in --json, exit 2
            (exit 0 with a pass if no signal came)
Every failing outcome but bare1 also prints the lines the faults test used to read as
evidence (a structures/ line, a replay line, a shrunk scenario), whether the failure
is a rejection or not. Unlisted (layer, fault): pass. A lin stand-in run as `verify ...`
(lfcheck verify) is LAYER verify: `--alphabets` prints the structures of FAKE_ALPHABETS
(comma-separated; it exits FAKE_ALPHABETS_STATUS, if set, printing nothing), other runs write a ladder's record (verified up to 2x1 (+1) on a pass). The fault list
(--list-faults-json, --list-faults) is fake.a and fake.b of mechanism "fake" (the
layers that must catch them: FAKE_CAUGHT_BY if set). FAKE_RECORDS_LAYER (if set, LAYER
in capitals): the JSON list of records a run of LAYER writes as its report instead (its
exit status: the one they stand for). --list (lin): the structure
"fake". FAKE_LOG (if set): each run appends "LAYER ARGS" to it. A run that inherited
GoogleTest's shard variables (GTEST_TOTAL_SHARDS: the matrix's own shard, which would
shard a real layer's runs) is a set-up error, exit 2."""
import json
import os
import signal
import sys
import time

CATALOGUE = {"faults": [
    {"name": "fake.a", "mechanism": "fake", "breaks": "", "real_bug": "", "expected_layers": "model"},
    {"name": "fake.b", "mechanism": "fake", "breaks": "", "real_bug": "", "expected_layers": "props"},
]}
FAILURES = {
    "fail": {"lin": "USER ASSERT FAILED (NOT LINEARIZABLE: no sequential order of these operations gives these "
                    "results)", "stress": "accounting: 3 accepted, 2 delivered"},
    "crash": "CRASH: SIGSEGV (address not mapped to object)",
    "unknown": "USER ASSERT FAILED (LINEARIZABILITY UNKNOWN: the checker's budget ran out on this history)",
    "crashed": "CRASHED (signal 9)",
    "nondet": "NONDETERMINISTIC SCENARIO",
}


def record(layer, structure, verdict, failure, seed):
    if layer == "lin":
        r = {"structure": structure, "layer": "model", "scenarios": 3, "executions": 42}
    elif layer == "verify":
        r = {"structure": structure, "check": "verify", "mode": "ladder", "scenarios": 3, "executions": 42}
        if verdict == "pass":
            r.update(verified_bounds=["2×1 (+1)"], verified_up_to="2×1 (+1)")
    elif layer == "stress":
        r = {"structure": structure, "workload": f"lin.{structure}", "threads": 4, "ops": 42}
    else:
        r = {"structure": structure, "scenario": "s", "scheduler": "pct", "iterations": 42}
    r.update({"seed": seed, "verdict": verdict, "seconds": 0.01})
    if failure:
        r["failure"] = failure
    return r


def main():
    layer, args = sys.argv[1], sys.argv[2:]
    if layer == "lin" and args[:1] == ["verify"]:
        layer, args = "verify", args[1:]
    if os.environ.get("FAKE_LOG"):
        with open(os.environ["FAKE_LOG"], "a") as log:
            log.write(" ".join([layer] + args) + "\n")
    catalogue = CATALOGUE
    if os.environ.get("FAKE_CAUGHT_BY"):
        catalogue = {"faults": [dict(f, expected_layers=os.environ["FAKE_CAUGHT_BY"]) for f in CATALOGUE["faults"]]}
    if "--list-faults-json" in args:
        print(json.dumps(catalogue))
        return 0
    if "--list-faults" in args:
        for f in catalogue["faults"]:
            print(f"{f['name']}  [{f['mechanism']}, caught by: {f['expected_layers']}] a fake fault")
        return 0
    if "--list" in args:
        print("fake")
        return 0
    if layer == "verify" and "--alphabets" in args:
        if os.environ.get("FAKE_ALPHABETS_STATUS", "0") != "0":  # the listing itself fails
            print("fake: cannot list the alphabets", file=sys.stderr)
            return int(os.environ["FAKE_ALPHABETS_STATUS"])
        named = args[0] if args and not args[0].startswith("-") else None
        for s in filter(None, os.environ.get("FAKE_ALPHABETS", "").split(",")):
            if named in (None, s):
                print(s)
        return 0
    if "GTEST_TOTAL_SHARDS" in os.environ:
        print("fake: GTEST_TOTAL_SHARDS inherited from the matrix's shard")
        return 2
    if layer == "props":
        fault = os.environ.get("LFCHECK_FAULT", "")
    else:
        fault = args[args.index("--fault") + 1] if "--fault" in args else ""
    outcomes = dict(item.split("=", 1) for item in os.environ.get("FAKE_OUTCOMES", "").split(",") if item)
    outcome = outcomes.get(f"{layer}:{fault or 'correct'}", "pass")
    json_path = args[args.index("--json") + 1] if "--json" in args else None
    structure = args[0] if args and not args[0].startswith("-") else "fake"
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 0

    junit_path = args[args.index("--junit") + 1] if "--junit" in args else None

    if os.environ.get("FAKE_RECORDS_" + layer.upper()):
        runs = json.loads(os.environ["FAKE_RECORDS_" + layer.upper()])
        if json_path:
            with open(json_path, "w") as f:
                json.dump({"runs": runs}, f)
        verdicts = [r.get("verdict") for r in runs]
        return 1 if "fail" in verdicts else 2 if "error" in verdicts else 0

    def report(verdict, failure=""):
        if json_path:
            with open(json_path, "w") as f:
                json.dump({"runs": [record(layer, structure, verdict, failure, seed)]}, f)
        if junit_path:
            element = f'<failure message="{failure}"/>' if verdict == "fail" else ""
            with open(junit_path, "w") as f:
                f.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n<testsuite name="fake" tests="1" '
                        f'failures="{int(verdict == "fail")}" errors="0">\n  <testcase classname="{structure}" '
                        f'name="{layer}" time="0.01">{element}</testcase>\n</testsuite>\n</testsuites>\n')

    if outcome == "sleep":
        time.sleep(60)
    if outcome == "interruptible":
        got = []
        for sig in (signal.SIGTERM, signal.SIGINT):
            if signal.getsignal(sig) != signal.SIG_IGN:  # an ignored one stays ignored, as in the runners
                signal.signal(sig, lambda n, _: got.append(n))
        deadline = time.monotonic() + 30
        while not got and time.monotonic() < deadline:
            time.sleep(0.05)
        if got:
            report("error", "interrupted")
            print(f"fake: interrupted (signal {got[0]})")
            return 2
    if outcome == "signal":
        os.kill(os.getpid(), signal.SIGSEGV)
    if outcome == "exit2":
        print("fake: set-up error")
        return 2
    if outcome == "bare1":
        return 1
    if outcome == "hang" and layer == "props":
        print("TIMEOUT: a Looper sleeping towards a deadline did not finish within 20 s (a hang)")
        return 1
    if outcome in FAILURES:
        words = FAILURES[outcome]
        words = words.get(layer, "DATA RACE") if isinstance(words, dict) else words
        report("fail", words)
        if layer == "props":
            print("Falsifiable after 3 tests and 2 shrinks\n"
                  'RC_PARAMS="reproduce=BchVlYlNmLsl"')
        else:
            print(f"=== {structure} FAILED: {words} ===\n"
                  "shrunk in 3 runs to: t0: pop(); t1: push(1)\n"
                  f"  1  top.load acq  structures/{structure}/{structure}.hpp(12)\n"
                  f"replay: ./lfcheck stress {structure} --seed {seed}")
        return 1
    report("pass")
    if layer == "props":
        print("OK, passed 100 tests")
    return 0


sys.exit(main())

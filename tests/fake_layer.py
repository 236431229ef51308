#!/usr/bin/python3
"""fake_layer.py LAYER [args]: a stand-in for lfcheck-model, lfcheck-stress or
lfcheck-props with scripted outcomes, so tests/mutants_truth.sh can check how the
kill matrix (tools/mutants.py) judges every kind of result in seconds.

FAKE_OUTCOMES (environment): comma-separated LAYER:FAULT=OUTCOME, FAULT "correct"
for the correct code. Outcomes:
  pass      exit 0, a passing run in --json (props: "OK, passed 100 tests")
  fail      exit 1 with the layer's evidence (a failing run in --json; props:
            RapidCheck's "Falsifiable after" and reproduce line)
  bare1     exit 1 with no evidence at all
  hang      props: a waiting check's watchdog line "TIMEOUT: ... (a hang)", exit 1
  exit2     exit 2 (usage or set-up error)
  signal    killed by SIGSEGV
  sleep     sleeps 60 s (over any test budget)
Unlisted (layer, fault): pass. The fault list (--list-faults-json) is fake.a and
fake.b of mechanism "fake". A run that inherited GoogleTest's shard variables
(GTEST_TOTAL_SHARDS: the matrix's own shard, which would shard a real layer's runs)
is a set-up error, exit 2."""
import json
import os
import signal
import sys
import time

CATALOGUE = {"faults": [
    {"name": "fake.a", "mechanism": "fake", "breaks": "", "real_bug": "", "expected_layers": "model"},
    {"name": "fake.b", "mechanism": "fake", "breaks": "", "real_bug": "", "expected_layers": "props"},
]}


def main():
    layer, args = sys.argv[1], sys.argv[2:]
    if "--list-faults-json" in args:
        print(json.dumps(CATALOGUE))
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

    def report(verdict):
        if json_path:
            work = "iterations" if layer == "model" else "ops"
            with open(json_path, "w") as f:
                json.dump({"runs": [{"structure": "fake", "verdict": verdict, work: 42}]}, f)

    if outcome == "sleep":
        time.sleep(60)
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
    if outcome == "fail":
        report("fail")
        if layer == "props":
            print("Falsifiable after 3 tests and 2 shrinks\n"
                  'RC_PARAMS="reproduce=BchVlYlNmLsl"')
        return 1
    report("pass")
    if layer == "props":
        print("OK, passed 100 tests")
    return 0


sys.exit(main())

#!/usr/bin/python3
"""fake_driver.py --build DIR COMMAND [args]: a stand-in for ./lfcheck with scripted
outcomes, so tests/nightly_truth.sh can check how ./lfcheck nightly (tools/nightly.py)
plans, shards, stops and reports, in seconds.

Commands: faults (the catalogue: fake.a and fake.b of structure "fake"), verify
--alphabets (the structures of FAKE_ALPHABETS, default "fake"), and model (--scheduler
pct: a PCT run of --iterations; dpor: a DPOR run that ends after 777 executions or
--dpor-executions, verified), lin, verify, stress (--sanitizer thread|address),
dpor-fuzz and mutants, which write a report to --json (and a JUnit file to --junit)
after FAKE_SECONDS (default 0.2) seconds.
FAKE_OUTCOMES (environment): comma-separated KIND=OUTCOME, KIND one of model, lin,
verify, tsan, asan, dpor-fuzz, mutants; unlisted: pass. Outcomes:
  pass      exit 0, a passing run with some work
  fail      exit 1, a failing run with a replay file (always, with --fault)
  signal    killed by SIGSEGV, no report
  interruptible  waits up to 30 s for SIGTERM, then writes an "interrupted" error
            run and exits 2 (exit 0 with a pass if no signal came)
  missed    mutants: fault fake.b is missed by every layer (exit 1)
  overbudget  mutants: the correct code's model cell is over budget (exit 1, as mutants does)
FAKE_HIDDEN_FAULT (if set): --fault does not make a run fail (a fault no layer catches).
A failing run writes a table artifact (LFCHECK_ARTIFACTS/fake.KIND.table.txt) and names it.
mutants honours --shard J/G: the matrix's rows (fake.a, fake.b, then the correct code of
"fake") are dealt as lfcheck mutants deals them, row i to shard i mod G.
FAKE_MODEL_SECONDS (if set): a model command takes (and reports) that many seconds per 1M
--iterations (the default plan: 100k), so a chunk's time follows its size.
FAKE_LOG (if set): each command appends "COMMAND ARGS" to it."""
import json
import os
import signal
import sys
import time


def option(args, name, default=None):
    return args[args.index(name) + 1] if name in args else default


def main(argv):
    if argv[:1] == ["--build"]:
        argv = argv[2:]
    cmd, args = argv[0], argv[1:]
    if os.environ.get("FAKE_LOG"):
        with open(os.environ["FAKE_LOG"], "a") as log:
            log.write(" ".join([cmd] + args) + "\n")
    if cmd == "faults":
        print("fake.a  [fake, caught by: model] a fake fault")
        print("fake.b  [fake, caught by: props] another")
        print("plain.a  [plain, caught by: stress] a fault of the structure without hand-written scenarios")
        return 0
    if cmd == "verify" and "--alphabets" in args:
        print("\n".join(filter(None, os.environ.get("FAKE_ALPHABETS", "fake").split(","))))
        return 0
    kind = cmd
    if cmd == "stress":
        kind = "tsan" if option(args, "--sanitizer", "thread") == "thread" else "asan"
    outcomes = dict(kv.split("=", 1) for kv in os.environ.get("FAKE_OUTCOMES", "").split(",") if kv)
    outcome = outcomes.get(kind, "pass")
    if "--fault" in args and not os.environ.get("FAKE_HIDDEN_FAULT"):
        outcome = "fail"
    structure = args[0] if args and not args[0].startswith("-") else "fake"
    json_path, junit_path = option(args, "--json"), option(args, "--junit")
    got = []
    signal.signal(signal.SIGTERM, lambda *_: got.append(1))
    if outcome == "interruptible":
        end = time.monotonic() + 30
        while not got and time.monotonic() < end:
            time.sleep(0.05)
    else:
        slept = float(os.environ.get("FAKE_SECONDS", "0.2"))
        if cmd == "model" and os.environ.get("FAKE_MODEL_SECONDS"):
            # A chunk's time in proportion to its size: FAKE_MODEL_SECONDS per 1M
            # iterations (the default plan: 100k).
            slept = float(os.environ["FAKE_MODEL_SECONDS"]) * int(option(args, "--iterations", "100000")) / 1e6
        time.sleep(slept)
    if outcome == "signal":
        signal.signal(signal.SIGSEGV, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGSEGV)
    if cmd == "mutants":
        seed = int(option(args, "--first-seed", "1"))
        layer = {"caught": True, "seeds": 1, "caught_seeds": 1, "clean_seeds": 0, "seconds": 0.1}
        miss = {"caught": False, "seeds": 1, "caught_seeds": 0, "clean_seeds": 1}
        b = miss if outcome == "missed" else layer
        rows = [("fault", {"name": "fake.a", "mechanism": "fake", "caught": True, "expected": "model",
                           "layers": {"model": layer}}),
                ("fault", {"name": "fake.b", "mechanism": "fake", "caught": b["caught"], "expected": "model",
                           "layers": {"model": b}}),
                ("correct", {"structure": "fake", "layer": "model",
                             "status": "over budget: not checked" if outcome == "overbudget" else "clean",
                             "seeds": 1, "caught_seeds": 0, "clean_seeds": 0 if outcome == "overbudget" else 1}
                 | ({"timeouts": 1} if outcome == "overbudget" else {}))]
        index, total = (int(x) for x in option(args, "--shard", "0/1").split("/"))
        mine = rows[index::total]
        if not mine:
            print(f"fake mutants: shard {index}/{total} has no row", file=sys.stderr)
            return 2
        doc = {"faults": [r for k, r in mine if k == "fault"], "correct_code": [r for k, r in mine if k == "correct"],
               "seeds": 1, "first_seed": seed, "layers": ["model"], "allow_unchecked": False,
               "complete": True}
        if total > 1:
            doc["shard"] = {"index": index, "total": total}
        if outcome == "missed" and not any(k == "fault" and r["name"] == "fake.b" for k, r in mine) or \
                outcome == "overbudget" and not any(k == "correct" for k, _ in mine):
            outcome = "pass"   # this shard's rows are not the ones the outcome is about
        if json_path:
            json.dump(doc, open(json_path, "w"))
        return 1 if outcome in ("missed", "overbudget") else 0
    run = {"structure": structure, "seed": int(option(args, "--seed", "0"))}
    if cmd == "lin":
        run.update(layer="model", scenarios=int(option(args, "--scenarios", "100")), executions=1000)
    elif cmd == "stress":
        run.update(workload="w", threads=int(option(args, "--threads", "4")), ops=5000, sanitizer=kind)
    elif cmd == "dpor-fuzz":
        run.update(structure="dpor-fuzz", scenario="random programs", programs=40, comparisons=80, executions=9000)
    elif cmd == "verify":
        run.update(check="verify", mode="ladder", scenarios=12, executions=345)
    elif option(args, "--scheduler") == "dpor":
        run.update(scenario="s", scheduler="dpor", iterations=min(int(option(args, "--dpor-executions", "500000")), 777),
                   exhaustive=True, bounds="the fake's")
    else:
        run.update(scenario="s", scheduler="pct", iterations=int(option(args, "--iterations", "100000")))
    if got:
        run.update(verdict="error", failure="interrupted", seconds=0.1)
        status = 2
    elif outcome == "fail":
        artifacts = os.environ.get("LFCHECK_ARTIFACTS", "/tmp")
        replay = os.path.join(artifacts, f"fake.{kind}.replay")
        open(replay, "w").write("lfcheck-replay 1\n")
        table = os.path.join(artifacts, f"fake.{kind}.table.txt")
        open(table, "w").write(f"step  thread 0\n  1  fake {kind} table row\n")
        run.update(verdict="fail", failure="FAKE FAILURE: " + (option(args, "--fault") or "none"), replay=replay,
                   table=table, seconds=0.1)
        status = 1
    else:
        run.update(verdict="pass", seconds=round(slept, 3) if cmd == "model" else 0.1)
        if cmd == "verify":
            run.update(verified_bounds=["2×1 (+1)"], verified_up_to="2×1 (+1)")
        status = 0
    if json_path:
        json.dump({"runs": [run]}, open(json_path, "w"))
    if junit_path:
        open(junit_path, "w").write('<?xml version="1.0"?>\n<testsuites></testsuites>\n')
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

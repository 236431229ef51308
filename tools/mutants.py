#!/usr/bin/python3
"""lfcheck mutants: the kill matrix — every seeded fault against every layer.

For each fault of the catalogue (lfcheck-model --list-faults-json: the one list)
and each layer (model, stress, props, and lin when --lin names lfcheck-lin-model),
run the layer on the faulty build within
the budget, over several seeds, and record whether it failed (caught) and the
iterations/operations and seconds to the first failure. The correct code runs
through the same layers, budgets and seeds; every failure there is a false alarm.

Seeds: model — the default sampled scheduler (PCT) sampling from a different starting
iteration per seed (lfcheck-model --seed: seed s starts at iteration s * 4M;
the bound search is deterministic and runs once per seed anyway); stress — --seed; props — RC_PARAMS="seed=...";
lin — the scenario seed (lfcheck-lin-model --seed, --lin-scenarios scenarios per run). A
structure without a spec has no lin cell ("n/a: no spec"), counted in no kill rate.
What counts: a run is "caught" only if it exits 1 with its layer's evidence that the
checker rejected the code (model, stress, lin: a run in its --json that
tools/verdicts.py's rejected() accepts — a failing run, but not LINEARIZABILITY
UNKNOWN (the checker did not decide), CRASHED (...) (a worker died) or
NONDETERMINISTIC SCENARIO; a crash of the code under test, "CRASH: SIGSEGV", is a
rejection; props: RapidCheck's "Falsifiable after", or a waiting check's watchdog line
"TIMEOUT: ... (a hang)"); exit 0 is "clean"; over the budget is "timeout"; anything
else (exit 2, a missing binary, a signal, exit 1 without that evidence) is an "error"
of the cell, never a catch.

Correct code: each (structure, layer) cell is "clean" (every seed ran to the end
and passed), "false alarm" (some seed failed), "over budget: not checked" (some
seed hit the budget: the false-alarm check did not run) or "error: not checked".
They are printed and written ("correct_code" in the JSON).

Exit status: 0 if every fault is caught by at least one layer and by every layer
its catalogue entry names, and every correct-code cell is clean; 1 otherwise
(an over-budget correct-code cell included, unless --allow-unchecked reports it
as unchecked); 2 on usage errors. Interrupted (Ctrl-C, SIGTERM): the matrix of
the runs that finished is still printed and written ("complete": false in the
JSON), exit 1 if it already shows a miss or a false alarm, else 2.

Shards (--shard I/N, or GoogleTest's GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS): the
matrix's rows — each fault (all its layers), then each structure's correct code
(all its layers) — are numbered in catalogue order, and shard I runs rows I, I+N,
I+2N, ...; N shards together run every row once. A shard's exit status and JSON
are its own rows' ("shard": {"index", "total"}); a shard with no row (N larger
than the matrix) checked nothing: exit 2. `lfcheck merge` of the N shards' JSON
gives the whole matrix. The shard variables are not passed on to the layers
(they would shard the layer's own runs).
"""
import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from xml.sax.saxutils import quoteattr

from one_line_argparse import OneLineParser
from verdicts import read_runs, rejected

LAYERS = ("model", "stress", "props", "lin")
NO_SPEC = "n/a: no spec"


def run(cmd, budget, env=None):
    """Runs cmd with a time budget; returns (exit status or None on timeout, seconds, output)."""
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=budget, env=env)
        return p.returncode, time.monotonic() - start, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return None, time.monotonic() - start, out
    except OSError as e:  # the binary is missing or not executable (e.g. being rebuilt)
        return 127, time.monotonic() - start, f"cannot run {cmd[0]}: {e}"


def catch_in(path):
    """The layer's evidence of a catch in its --json report: a run the checker rejected
    (tools/verdicts.py's rejected: a failing run, unless the checker did not decide —
    LINEARIZABILITY UNKNOWN, CRASHED, NONDETERMINISTIC SCENARIO). Returns (caught, why
    not: the failures that are not a rejection, if any)."""
    try:
        runs = read_runs(path)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False, ""
    if any(rejected(r) for r in runs):
        return True, ""
    failing = [r.get("failure", "?") for r in runs if r.get("verdict") == "fail"]
    return False, ("failing, but not the checker's rejection: " + "; ".join(failing)) if failing else ""


def judged(rc, evidence, out):
    """The outcome of one run: "caught", "clean", "timeout" or "error: ...".
    evidence: whether the run showed the layer's evidence of a catch, or (whether, why not)."""
    caught, why_not = evidence if isinstance(evidence, tuple) else (evidence, "")
    if rc is None:
        return "timeout"
    if rc == 0:
        return "clean"
    if rc == 1 and caught:
        return "caught"
    last = out.strip().splitlines()[-1] if out.strip() else ""
    why = (f"exit 1, {why_not}" if why_not else "exit 1 without the layer's failure evidence") if rc == 1 else \
        f"killed by signal {-rc}" if rc < 0 else f"exit {rc}"
    return f"error: {why}: {last}"


def json_runs_work(path, key):
    try:
        with open(path) as f:
            return sum(r.get(key, 0) for r in json.load(f)["runs"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return 0


def model_once(a, structure, fault, seed):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as j:
        path = j.name
    cmd = [a.model, structure, "--quiet", "--first-failure", "--json", path, "--seed", str(seed),
           "--artifacts", a.artifacts]
    if fault:
        cmd += ["--fault", fault]
    rc, secs, out = run(cmd, a.budget)
    outcome = judged(rc, catch_in(path), out)
    iterations = json_runs_work(path, "iterations")
    os.unlink(path)
    return outcome, secs, iterations


def stress_once(a, structure, fault, seed):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as j:
        path = j.name
    cmd = [a.stress, structure, "--quiet", "--first-failure", "--seed", str(seed), "--duration", str(a.stress_seconds),
           "--json", path, "--artifacts", a.artifacts]
    if fault:
        cmd += ["--fault", fault]
    rc, secs, out = run(cmd, a.budget + 30)
    outcome = judged(rc, catch_in(path), out)
    ops = json_runs_work(path, "ops")
    os.unlink(path)
    return outcome, secs, ops


def props_once(a, structure, fault, seed):
    env = dict(os.environ, LFCHECK_FAULT=fault or "", RC_PARAMS=f"seed={seed} max_success=500")
    rc, secs, out = run([a.props, f"--gtest_filter={structure}.*"], a.budget, env)
    m = re.search(r"Falsifiable after (\d+) tests", out)
    # A props check that waits (a Looper asleep towards a deadline) has its own
    # watchdog (property_tests/timed_wait_checks.hpp): a hang ends the binary with
    # exit 1 and this line, which is that check failing, not an error of the cell.
    hang = re.search(r"^TIMEOUT: .* \(a hang\)$", out, re.M)
    tests = int(m.group(1)) if m else len(re.findall(r"OK, passed (\d+) tests", out)) * 500
    return judged(rc, m is not None or hang is not None, out), secs, tests


def lin_once(a, structure, fault, seed):
    """The lin layer: generated scenarios from the structure's spec under Relacy
    (lfcheck-lin-model, deterministic per seed). Structures without a spec: n/a."""
    if structure not in a.lin_structures:
        return NO_SPEC, 0.0, 0
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as j:
        path = j.name
    cmd = [a.lin, structure, "--quiet", "--seed", str(seed), "--scenarios", str(a.lin_scenarios),
           "--json", path, "--artifacts", a.artifacts]
    if fault:
        cmd += ["--fault", fault]
    rc, secs, out = run(cmd, a.budget)
    outcome = judged(rc, catch_in(path), out)
    executions = json_runs_work(path, "executions")
    os.unlink(path)
    return outcome, secs, executions


RUNNERS = {"model": model_once, "stress": stress_once, "props": props_once, "lin": lin_once}


def compact(n):
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.1f}{unit}"
    return str(n)


def measure(a, layer, structure, fault):
    """Runs one layer over the seeds; returns the cell of the matrix."""
    caught, secs, work, timeouts, errors, clean = 0, [], [], 0, [], 0
    for seed in range(a.first_seed, a.first_seed + a.seeds):
        outcome, s, w = RUNNERS[layer](a, structure, fault, seed)
        if outcome == NO_SPEC:
            return {"caught": False, "seeds": 0, "caught_seeds": 0, "clean_seeds": 0, "status": NO_SPEC}
        if outcome == "caught":
            caught += 1
            secs.append(s)
            work.append(w)
        elif outcome == "timeout":
            timeouts += 1
        elif outcome == "clean":
            clean += 1
        else:
            errors.append(outcome[len("error: "):])
    cell = {"caught": caught > 0, "seeds": a.seeds, "caught_seeds": caught}
    if caught:
        cell["seconds"] = round(statistics.median(secs), 3)
        cell["seconds_worst"] = round(max(secs), 3)
        cell["iterations"] = int(statistics.median(work))
        cell["iterations_worst"] = int(max(work))
    if timeouts:
        cell["timeouts"] = timeouts
    if errors:
        cell["errors"] = errors
    cell["clean_seeds"] = clean
    return cell


CLEAN, FALSE_ALARM, OVER_BUDGET, ERROR = "clean", "false alarm", "over budget: not checked", "error: not checked"


def judge(faults, correct, layers, allow_unchecked):
    """The matrix's verdict, the one rule for a run and for a merge of shards:
    (faults caught by some layer, "fault (layer)" missed by a layer the catalogue
    names, correct-code cells that fail the matrix, ok)."""
    caught = sum(bool(f["caught"]) for f in faults)
    missed = [f"{f['name']} ({l})" for f in faults for l in f["expected"].split(",")
              if l in layers and not f["layers"][l]["caught"]]
    bad = [c for c in correct if c["status"] in (FALSE_ALARM, ERROR)
           or (c["status"] == OVER_BUDGET and not allow_unchecked)]
    return caught, missed, bad, caught == len(faults) and not missed and not bad


def matrix_junit(faults, correct, missed, bad, incomplete):
    """JUnit of a matrix, saying what its exit status says: one testcase per fault (a
    failure if no layer caught it or a layer its catalogue names missed it), one per
    correct-code cell (a failure if it fails the matrix, skipped if unchecked but
    allowed), and, for a matrix that is not whole (`incomplete`: why), an error testcase."""
    def case(classname, name, inner=""):
        return f"  <testcase classname={quoteattr(classname)} name={quoteattr(name)}>{inner}</testcase>\n"
    cases = []
    for f in faults:
        misses = [m for m in missed if m.startswith(f["name"] + " (")]
        why = "no layer caught this fault" if not f["caught"] else \
            "missed by a layer the catalogue says must catch it: " + ", ".join(misses) if misses else ""
        cases.append(case(f["mechanism"], f["name"], f"<failure message={quoteattr(why)}/>" if why else ""))
    for c in correct:
        inner = f"<failure message={quoteattr(c['status'])}/>" if c in bad else \
            f"<skipped message={quoteattr(c['status'])}/>" if c["status"] != CLEAN else ""
        cases.append(case(f"correct_code.{c['structure']}", c["layer"], inner))
    if incomplete:
        cases.append(case("matrix", "complete", f"<error message={quoteattr('INCOMPLETE: ' + incomplete)}/>"))
    failures = sum("<failure " in c for c in cases)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n'
            f'<testsuite name="lfcheck.mutants" tests="{len(cases)}" failures="{failures}" '
            f'errors="{int(bool(incomplete))}">\n' + "".join(cases) + "</testsuite>\n</testsuites>\n")


def correct_code_status(cell):
    """A correct-code cell is clean only if every seed ran to its end and passed."""
    if cell.get("status") == NO_SPEC:
        return NO_SPEC
    if cell["caught_seeds"]:
        return FALSE_ALARM
    if cell.get("errors"):
        return ERROR
    if cell.get("timeouts"):
        return OVER_BUDGET
    return CLEAN


def shard_of(option, ap):
    """(I, N) from --shard I/N, else GTEST_SHARD_INDEX of GTEST_TOTAL_SHARDS, else (0, 1)."""
    if option is not None:
        frm, text = "--shard", option
    elif os.environ.get("GTEST_TOTAL_SHARDS") is not None:
        if os.environ.get("GTEST_SHARD_INDEX") is None:
            ap.error("GTEST_TOTAL_SHARDS is set but GTEST_SHARD_INDEX is not")
        frm, text = "GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS", f'{os.environ["GTEST_SHARD_INDEX"]}/{os.environ["GTEST_TOTAL_SHARDS"]}'
    else:
        return 0, 1
    m = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not m or int(m.group(2)) < 1 or int(m.group(1)) >= int(m.group(2)):
        ap.error(f"{frm} takes I/N with 0 <= I < N, not '{text}'")
    return int(m.group(1)), int(m.group(2))


def main():
    ap = OneLineParser(prog="lfcheck mutants", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("structure", nargs="?", default="", help="only this structure's faults")
    ap.add_argument("--layer", choices=LAYERS + ("all",), default="all")
    ap.add_argument("--budget", type=float, default=120.0,
                    help="seconds per layer run (default 120); a run over budget is a miss, and on "
                         "the correct code an unchecked cell that fails the matrix")
    ap.add_argument("--stress-seconds", type=float, default=10.0,
                    help="duration of each stress run (default 10)")
    ap.add_argument("--seeds", type=int, default=5, help="seeds per layer and fault (default 5)")
    ap.add_argument("--first-seed", type=int, default=1,
                    help="the seeds are FIRST .. FIRST+SEEDS-1 (default 1; 1 to 1000: a model seed is at most 1000); "
                         "./lfcheck nightly runs one seed a night, picked by the night's seed")
    ap.add_argument("--allow-unchecked", action="store_true",
                    help="report an over-budget correct-code cell as unchecked without failing "
                         "the matrix (it is never counted as clean)")
    ap.add_argument("--json", help="write the matrix as JSON (DESIGN §6)")
    ap.add_argument("--junit", help="write JUnit XML: one testcase per fault")
    ap.add_argument("--model", required=True, help=argparse.SUPPRESS)
    ap.add_argument("--stress", required=True, help=argparse.SUPPRESS)
    ap.add_argument("--props", required=True, help=argparse.SUPPRESS)
    ap.add_argument("--lin", help=argparse.SUPPRESS)  # lfcheck-lin-model; without it, no lin column
    ap.add_argument("--lin-scenarios", type=int, default=200,
                    help="generated scenarios per lin run (default 200: the lin faults tests' budget)")
    ap.add_argument("--artifacts", default=os.environ.get("LFCHECK_ARTIFACTS", "/tmp/lfcheck-artifacts"),
                    help=argparse.SUPPRESS)
    ap.add_argument("--shard", metavar="I/N",
                    help="only shard I (0 to N-1) of N: rows I, I+N, ... of the matrix "
                         "(default: GTEST_SHARD_INDEX of GTEST_TOTAL_SHARDS, if set)")
    ap.add_argument("--check-args", action="store_true",
                    help=argparse.SUPPRESS)  # ./lfcheck: validate the arguments before building
    a = ap.parse_args()
    if not 1 <= a.first_seed or a.first_seed + a.seeds - 1 > 1000:
        ap.error("--first-seed and --seeds must keep the seeds within 1..1000")
    if a.seeds < 1 or a.budget <= 0 or a.stress_seconds <= 0 or a.lin_scenarios < 1:
        ap.error("--seeds, --budget, --stress-seconds and --lin-scenarios must be positive")
    a.shard_index, a.shards = shard_of(a.shard, ap)
    if a.check_args:
        return 0
    a.stress_seconds = min(a.stress_seconds, a.budget)
    # The layers must not see the matrix's shard: lfcheck-model and GoogleTest would
    # each run only a shard of their own runs.
    for var in ("GTEST_SHARD_INDEX", "GTEST_TOTAL_SHARDS"):
        os.environ.pop(var, None)
    if a.shards > 1 and os.environ.get("GTEST_SHARD_STATUS_FILE"):
        open(os.environ.pop("GTEST_SHARD_STATUS_FILE"), "a").close()  # GoogleTest's protocol: shard-aware

    listing = subprocess.run([a.model, "--list-faults-json"] + ([a.structure] if a.structure else []),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if listing.returncode != 0:
        sys.stderr.write(listing.stderr)
        return 2
    faults = json.loads(listing.stdout)["faults"]
    all_layers = LAYERS if a.lin else tuple(l for l in LAYERS if l != "lin")
    if a.layer == "lin" and not a.lin:
        ap.error("--layer lin needs the lin binary")
    layers = all_layers if a.layer == "all" else (a.layer,)
    a.lin_structures = set()
    if "lin" in layers:
        specs = subprocess.run([a.lin, "--list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if specs.returncode != 0:
            sys.stderr.write(specs.stderr)
            return 2
        a.lin_structures = set(specs.stdout.split())
    structures = sorted({f["mechanism"] for f in faults})
    if a.shards > 1:
        # Rows in catalogue order, faults then correct code; this shard keeps every N-th.
        rows = [("fault", f) for f in faults] + [("correct", s) for s in structures]
        mine = rows[a.shard_index::a.shards]
        print(f"shard {a.shard_index}/{a.shards}: {len(mine)} of the matrix's {len(rows)} rows", flush=True)
        if not mine:  # more shards than rows: this one would check nothing, which is not a pass
            print(f"lfcheck mutants: shard {a.shard_index}/{a.shards} has no row (the matrix has {len(rows)}): "
                  "nothing checked", file=sys.stderr)
            return 2
        faults = [f for kind, f in mine if kind == "fault"]
        structures = [s for kind, s in mine if kind == "correct"]
    total = (len(faults) + len(structures)) * len(layers)
    done = 0
    start = time.monotonic()

    def progress(what):
        nonlocal done
        done += 1
        el = time.monotonic() - start
        eta = el / done * (total - done)
        sys.stderr.write(f"[mutants] {done}/{total} {what}  {el:.0f}s elapsed, ETA {eta:.0f}s\n")

    # Ctrl-C or SIGTERM: stop, and still print (and write) what was measured.
    def on_term(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_term)
    interrupted = False

    results, correct = [], []
    try:
        for f in faults:
            row = {"name": f["name"], "mechanism": f["mechanism"], "expected": f["expected_layers"],
                   "layers": {}}
            for layer in layers:
                row["layers"][layer] = measure(a, layer, f["mechanism"], f["name"])
                progress(f"{f['name']} x {layer}: {'caught' if row['layers'][layer]['caught'] else 'missed'}")
            row["caught"] = any(c["caught"] for c in row["layers"].values())
            results.append(row)

        for s in structures:
            for layer in layers:
                cell = measure(a, layer, s, "")
                cell = {"structure": s, "layer": layer, "status": correct_code_status(cell), **cell}
                del cell["caught"]
                correct.append(cell)
                progress(f"{s} correct code x {layer}: {cell['status']}")
    except KeyboardInterrupt:
        interrupted = True
        sys.stderr.write("[mutants] interrupted: the matrix below covers only the runs that finished\n")
    false_alarms = sum(c["caught_seeds"] for c in correct)
    tally = {st: [c for c in correct if c["status"] == st] for st in (CLEAN, FALSE_ALARM, OVER_BUDGET, ERROR, NO_SPEC)}

    # The matrix.
    width = max([len(r["name"]) for r in results] + [5])
    print(f"\nkill matrix: {len(results)} faults x {', '.join(layers)}; {a.seeds} seeds, "
          f"budget {a.budget:g}s per run (median / worst seconds to first failure)\n")
    print(f"{'fault':<{width}}  " + "  ".join(f"{l:<34}" for l in layers) + "  expected")
    for r in results:
        cells = []
        for layer in layers:
            c = r["layers"][layer]
            if c.get("status") == NO_SPEC:
                cells.append(NO_SPEC)
            elif c["caught"]:
                unit = {"model": "it", "stress": "ops", "props": "tests", "lin": "exec"}[layer]
                cells.append(f"caught {c['caught_seeds']}/{c['seeds']} {c['seconds']:.2f}/{c['seconds_worst']:.2f}s "
                             f"{compact(c['iterations'])} {unit}")
            else:
                cells.append("missed" + (" (over budget)" if c.get("timeouts") else "") +
                             (" (error)" if c.get("errors") else ""))
        print(f"{r['name']:<{width}}  " + "  ".join(f"{c:<34}" for c in cells) + f"  {r['expected']}")
    print()
    for layer in layers:
        k = sum(r["layers"][layer]["caught"] for r in results)
        applicable = sum(r["layers"][layer].get("status") != NO_SPEC for r in results)
        print(f"kill rate {layer:<7} {k}/{applicable} ({100.0 * k / max(1, applicable):.0f}%)" +
              (f"  ({len(results) - applicable} faults of structures without a spec)" if applicable < len(results) else ""))
    overall = sum(r["caught"] for r in results)
    print(f"kill rate overall {overall}/{len(results)} ({100.0 * overall / max(1, len(results)):.0f}%)")
    only = [(r["name"], [l for l in layers if r["layers"][l]["caught"]][0]) for r in results
            if sum(r["layers"][l]["caught"] for l in layers) == 1]
    if only:
        print("caught by one layer only: " + ", ".join(f"{n} ({l})" for n, l in only))
    _, missed_expected, correct_bad, ok = judge(results, correct, layers, a.allow_unchecked)
    if missed_expected:
        print("missed by a layer the catalogue says must catch it: " + ", ".join(missed_expected))
    print(f"\ncorrect code ({a.seeds} seeds, the same budgets):")
    print(f"{'structure':<{width}}  " + "  ".join(f"{l:<34}" for l in layers))
    for s in structures:
        cells = {c["layer"]: c for c in correct if c["structure"] == s}
        if cells:
            print(f"{s:<{width}}  " + "  ".join(f"{cells[l]['status'] if l in cells else 'not run':<34}"
                                                  for l in layers))
    print(f"correct code: {len(tally[CLEAN])} clean, {len(tally[FALSE_ALARM])} false alarm, "
          f"{len(tally[OVER_BUDGET])} over budget: not checked, {len(tally[ERROR])} error: not checked, "
          f"{len(tally[NO_SPEC])} without a spec ({len(correct)} of {len(structures) * len(layers)} cells run)")
    print(f"false alarms on the correct code: {false_alarms}")
    if tally[OVER_BUDGET]:
        print(("unchecked (--allow-unchecked): " if a.allow_unchecked else "NOT CHECKED, over budget: ") +
              ", ".join(f"{c['structure']} x {c['layer']}" for c in tally[OVER_BUDGET]))
    if interrupted:
        print(f"INCOMPLETE: interrupted after {len(results)} of {len(faults)} faults")
    for c in tally[FALSE_ALARM] + tally[ERROR]:
        print(f"  {c['structure']} {c['layer']}: {c['status']}: {c.get('errors', '')}")

    doc = {"faults": [{"name": r["name"], "mechanism": r["mechanism"], "caught": r["caught"],
                       "expected": r["expected"], "layers": r["layers"]} for r in results],
           "correct_code": correct, "false_alarms": false_alarms,
           "unchecked": len(tally[OVER_BUDGET]) + len(tally[ERROR]),
           "seeds": a.seeds, "first_seed": a.first_seed, "budget_seconds": a.budget, "layers": list(layers),
           "allow_unchecked": a.allow_unchecked, "complete": not interrupted}
    if a.shards > 1:
        doc["shard"] = {"index": a.shard_index, "total": a.shards}
    if a.json:
        with open(a.json, "w") as out:
            json.dump(doc, out, indent=1)
    if a.junit:
        with open(a.junit, "w") as out:
            out.write(matrix_junit(results, correct, missed_expected, correct_bad,
                                   f"interrupted after {len(results)} of {len(faults)} faults" if interrupted else ""))
    if interrupted:
        return 1 if not ok else 2  # incomplete: nothing wrong found, but not a pass either
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

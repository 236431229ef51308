#!/usr/bin/python3
"""lfcheck nightly: the nightly plan, scaled to the time it is given.

One definition of a nightly, used by `./lfcheck nightly`, `ctest --preset nightly`
and the CI shard files (ci/). For every structure of the build:
  model      PCT chunks (--first-failure, at new seeds and depths) and one DPOR chunk
             (--dpor-executions N: a scenario whose search ends within N is verified)
  verify     `./lfcheck verify --ladder` for its share: every scenario of the spec's
             alphabet, the bound raised (2x1, 3x1, 2x2, 2x3, 3x2, ...) until the share
             ends; the summary says "verified up to ..." (structures whose spec
             declares a call alphabet; the others are listed as not checked)
  lin        `./lfcheck lin` chunks of generated scenarios at new seeds (Relacy model
             layer, and real threads under TSan: the scenarios and lin.history)
  tsan       `./lfcheck stress` under ThreadSanitizer, every workload, for its share
  asan       `./lfcheck stress --sanitizer address` (ASan+UBSan), the same
in lfcheck's own tree the DPOR fuzzer (`./lfcheck dpor-fuzz --max-seconds S`: lfcheck's
DPOR search against Relacy's full search on random programs, issue 43, stopping at its
first disagreement; a build without its binary, a project's, has no such part), and the
kill matrix (`./lfcheck mutants`, every seeded fault of the structures with hand-written
scenarios x every layer) at one seed, picked by the night's seed, one row per group
(`mutants --shard J/R`, R its rows). Without sanitizer sub-builds there is no TSan/ASan
part and no kill matrix (it needs the TSan stress binary), and lin runs its model layer
only: each is listed as not checked.

The budget (--budget: the checks' wall time, not counting the build before it) is
split between them in proportion to tsan 30, asan 20, model 10, verify 10, lin 15, kill
matrix 15 and dpor-fuzz 5 (a part the build cannot run gives its share to the others);
each part's share is divided among the structures. The night runs in two phases
(tools/nightly_plan.py, which sizes every chunk): first every part's smallest chunk
(the matrix's first fault row, a model chunk of 1,000 PCT iterations per scenario, a lin
chunk of 2 scenarios, 4 s of TSan, of ASan and of the fuzzer), then the time left
shared in proportion to the split, each chunk sized at the rate its part measured
tonight, the stress parts last (their exact --duration absorbs what the estimates
missed). A verify part is one chunk in the second phase, its ladder given the part's
time (--max-seconds, at least 10 s; where the budget leaves it less, it is not checked
tonight): the bound it was raising when the time ended is reported as unfinished, not
as an error. A budget too small for the first phase is refused up front with the
smallest that works. Matrix rows the budget has no time for are "not checked tonight"
(another night's seed starts elsewhere). A chunk still running at the budget's end plus
a grace (5 %, at least 60 s) is stopped (SIGTERM; SIGKILL 60 s later): its unfinished
runs are errors, never passes; a part whose first chunk could not start before the
grace ended is an error too.

Shards (--shard I/N, or GTEST_SHARD_INDEX of GTEST_TOTAL_SHARDS): N machines, each
with the budget, do one night's plan: the plan is made for N x budget of machine
time and its parts are dealt out to the shards, longest share first, each to the
shard with the least time so far; every chunk's seed depends on the night's seed and
the part, not on the shard. `./lfcheck merge` of the N shards' JSON is the night's
report (it checks that every shard is there).

Seeds: the night's seed (--seed S, 1 to 10^9; default random) is printed first. A
stress or lin chunk's seed is derived from it and the chunk (printed by that chunk
and in its runs), a model chunk's is (S + chunk) mod 1001, the kill matrix's is
S mod 1000 + 1. Every failure carries the replay line its runner printed.

--fault F switches seeded fault F on in every part of its structure's plan (the
other structures and the kill matrix are not in that plan, and the report says so):
the night must end with the fault in its report — its verdict on the fault fails
(MISSED) unless a run rejected the code, in every layer its catalogue entry names.

Report: progress lines while it runs; at the end one summary — per structure and
layer the work done (iterations, operations, scenarios) and the verdict; failures
grouped by signature with their seeds, replay lines and artifact paths; what was not
checked and why — and the JSON (--json: {"nightly":{...}, "runs":[...]}) and JUnit
(--junit) written from the same runs, whole, both or neither. Every chunk's own output, JSON and JUnit stay
in the output directory (--out), its failure artifacts under OUT/artifacts.

SIGTERM or SIGINT: the running chunk is stopped (its finished runs are kept), every
part not started is an error run "interrupted: not run", and the report is written.

Exit status, from the report's runs: 1 if any failed (a bug found, a fault of the
kill matrix missed or a false alarm), else 2 if any is an error (or on a usage or
set-up error), else 0. Parts not checked for lack of budget or of a tool are listed
in the report and are not errors; a run that did start and did not finish is."""
import argparse
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from one_line_argparse import OneLineParser  # noqa: E402
from mutants import FALSE_ALARM, NO_SPEC, compact, judge, shard_of  # noqa: E402
from nightly_plan import (SHARES, Costs, Planner, deal, duration_words, make_plan, minimum_budget,  # noqa: E402
                          phase_a_parts)
from verdicts import command_runs, exit_status, fault_row, junit, summary, write_reports  # noqa: E402

HEARTBEAT_SECONDS = 300   # a progress line for a chunk running this long, and every as long again
KILL_AFTER_SECONDS = 60   # a chunk still running this long after its SIGTERM is killed
FUZZER = os.path.join("models", "lfcheck-dpor-fuzz")   # in the build: lfcheck's own tree only


def parse_duration(text):
    """Seconds of '90', '90s', '30m', '8h', '1h30m'; None if it is none of those."""
    text = str(text).strip()
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return float(text)
    m = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?", text)
    if not m or not any(m.groups()):
        return None
    h, mi, s = (int(g or 0) for g in m.groups())
    return float(h * 3600 + mi * 60 + s)


def clock(seconds):
    s = int(max(0, seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def derived_seed(night, *what):
    """A chunk's seed (1 .. 2^62), from the night's seed and the chunk's name."""
    digest = hashlib.sha256(":".join([str(night)] + [str(w) for w in what]).encode()).digest()
    return int.from_bytes(digest[:8], "big") % (1 << 62) + 1


def read_manifest(build):
    """[(name, set of layers)] and whether the sanitizer sub-builds are there."""
    structures, subbuilds = [], True
    with open(os.path.join(build, "lfcheck-manifest.txt")) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if cols[0] == "sanitizer_subbuilds" and len(cols) > 1:
                subbuilds = cols[1] == "ON"
            elif cols[0] == "structure" and len(cols) >= 3:
                structures.append((cols[1], set(filter(None, cols[2].split(",")))))
    return structures, subbuilds


class Nightly:
    def __init__(self, a):
        self.a = a
        self.child = None
        self.interrupted = False
        self.deadline = None

    # --- running one chunk ---------------------------------------------------
    def on_signal(self, signum, frame):
        if not self.interrupted:
            print(f"\n[nightly] {signal.Signals(signum).name}: stopping the running chunk; parts not started "
                  "are marked \"interrupted: not run\"", flush=True)
        self.interrupted = True
        if self.child and self.child.poll() is None:
            self.child.send_signal(signal.SIGTERM)

    def run_chunk(self, part, args, base):
        """Runs DRIVER ARGS for `part`, returns its settled runs and seconds."""
        a = self.a
        stem = os.path.join(a.out, f"{part.name.replace('/', '-of-')}.{part.chunks}")
        json_path, junit_path, log_path = stem + ".json", stem + ".xml", stem + ".log"
        cmd = [a.driver, "--build", a.build] + args + ["--json", json_path, "--junit", junit_path]
        env = {k: v for k, v in os.environ.items() if k not in ("GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX")}
        env.update(LFCHECK_SKIP_SETUP="1", LFCHECK_ARTIFACTS=os.path.join(a.out, "artifacts"))
        for stale in (json_path, junit_path):   # a reused --out: never an earlier night's report
            if os.path.exists(stale):
                os.unlink(stale)
        start = time.monotonic()
        with open(log_path, "w") as log:
            log.write("command: " + " ".join(cmd) + "\n")
            log.flush()
            self.child = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
            if self.interrupted:   # the signal came while it was starting: it stops too
                self.child.send_signal(signal.SIGTERM)
            stopped_at_deadline, termed_at, beat = False, None, start
            while True:
                try:
                    rc = self.child.wait(timeout=1)
                    break
                except subprocess.TimeoutExpired:
                    now = time.monotonic()
                    if now - beat >= HEARTBEAT_SECONDS:   # a long chunk is alive: say so
                        beat = now
                        print(f"[nightly {clock(now - self.start)} of {clock(a.budget)}] {part.name} chunk "
                              f"{part.chunks}: running for {now - start:.0f} s", flush=True)
                    if not stopped_at_deadline and now > self.deadline:
                        stopped_at_deadline = True
                        print(f"[nightly] {part.name}: still running at the budget's end: stopped (SIGTERM)",
                              flush=True)
                        self.child.send_signal(signal.SIGTERM)
                    if (stopped_at_deadline or self.interrupted) and termed_at is None:
                        termed_at = now
                    if termed_at is not None and now - termed_at > KILL_AFTER_SECONDS:
                        # It did not stop on SIGTERM: its whole process group goes (no
                        # report from it, so its run is an error that says so).
                        print(f"[nightly] {part.name}: did not stop {KILL_AFTER_SECONDS} s after SIGTERM: killed",
                              flush=True)
                        os.killpg(self.child.pid, signal.SIGKILL)
                        termed_at = float("inf")
            self.child = None
        if rc < 0:   # killed by a signal: the shell's way of saying it (128 + signal)
            rc = 128 - rc
        seconds = time.monotonic() - start
        base = dict(base, nightly_part=part.name, chunk=part.chunks)
        if part.kind == "kill-matrix":
            runs = matrix_runs(json_path, rc, base)
        else:
            runs = command_runs(json_path, rc, base)
        for r in runs:
            r.setdefault("nightly_part", part.name)
            r.setdefault("chunk", part.chunks)
            if stopped_at_deadline and r.get("verdict") == "error" and \
                    re.search(r"interrupted|NO REPORT|INCOMPLETE", str(r.get("failure", ""))):
                r["failure"] = "the nightly's budget ended during this run: " + str(r.get("failure", ""))
        part.runs += runs   # (the planner counts the chunk: Planner.done)
        return runs, seconds, log_path

    def chunk_args(self, part, spec):
        """The command of `part`'s chunk of size `spec` (nightly_plan.py), and its words."""
        a, k = self.a, part.chunks
        fault = ["--fault", a.fault] if a.fault else []
        if part.kind in ("tsan", "asan"):
            seconds = spec["duration"]
            return (["stress", part.structure, "--sanitizer", "thread" if part.kind == "tsan" else "address",
                     "--duration", str(seconds), "--threads", str(a.threads),
                     "--seed", str(derived_seed(a.seed, part.name, k)), "--quiet"] + fault,
                    f"{seconds} s, {a.threads} threads")
        if part.kind == "model":
            if spec["scheduler"] == "dpor":
                n = spec["dpor_executions"]
                return (["model", part.structure, "--scheduler", "dpor", "--dpor-executions", str(n), "--quiet"]
                        + fault, f"DPOR, at most {n:,} executions per scenario")
            depth = (3, 2, 4, 5)[k % 4]
            n = spec["iterations"]
            return (["model", part.structure, "--scheduler", "pct", "--iterations", str(n), "--depth", str(depth),
                     "--seed", str((a.seed + k) % 1001), "--first-failure", "--quiet"] + fault,
                    f"PCT depth {depth}, {n:,} iterations")
        if part.kind == "dpor-fuzz":
            seconds = spec["duration"]
            seed = derived_seed(a.seed, part.name, *([k] if k else []))
            return (["dpor-fuzz", "--seed", str(seed), "--max-seconds", str(seconds), "--quiet"],
                    f"random programs for {seconds} s")
        if part.kind == "verify":
            seconds = spec["duration"]
            return (["verify", part.structure, "--ladder", "--max-seconds", str(seconds),
                     "--jobs", str(os.cpu_count() or 1), "--quiet"] + fault,
                    f"the ladder of bounds for {seconds} s")
        if part.kind == "lin":
            layer = [] if self.subbuilds else ["--layer", "model"]
            history = [] if layer else ["--duration", str(spec["history"])]
            return (["lin", part.structure, "--scenarios", str(spec["scenarios"]), "--seed",
                     str(derived_seed(a.seed, part.name, k)), "--quiet"] + history + layer + fault,
                    f"{spec['scenarios']} scenarios" + (f", lin.history {spec['history']} s" if history else ""))
        return (["mutants", "--seeds", "1", "--first-seed", str(a.seed % 1000 + 1), "--shard",
                 f"{part.row}/{part.rows}"],
                f"row {part.row} of {part.rows} ({'correct code' if part.correct_row else 'a fault'}) at seed "
                f"{a.seed % 1000 + 1}")

    # --- the night -----------------------------------------------------------
    def run(self):
        a = self.a
        structures, subbuilds = read_manifest(a.build)
        faults = self.list_faults()
        if faults is None:
            return 2
        fault_structure = ""
        if a.fault:
            names = [n for n, _ in structures]
            matches = [(f, s) for f, s in faults if a.fault in (f, f.split(".", 1)[-1]) and s in names]
            if not matches:
                print(f"lfcheck nightly: unknown fault '{a.fault}' (see ./lfcheck faults)", file=sys.stderr)
                return 2
            if len(matches) > 1:
                print(f"lfcheck nightly: fault '{a.fault}' is ambiguous: {', '.join(f for f, _ in matches)} "
                      "(give the whole name)", file=sys.stderr)
                return 2
            fault_structure = matches[0][1]
            self.fault_name, self.fault_structure = matches[0]
        machine = a.budget * a.shards
        # The kill matrix (lfcheck mutants) is over the faults of the structures with
        # hand-written scenarios (lfcheck-model's catalogue); its rows are those faults,
        # then those structures' correct code, one row per group (mutants --shard J/R).
        modelled = {n for n, layers in structures if "model" in layers}
        matrix_faults = [(f, st) for f, st in faults if st in modelled]
        rows = len(matrix_faults) + len({st for _, st in matrix_faults})
        plan, unchecked, split = make_plan(structures, subbuilds, machine, fault_structure, a.seed, rows,
                                           len(matrix_faults), has_fuzzer(a.build), self.list_verifiable())
        self.subbuilds = subbuilds
        owner = deal(plan, a.shards)
        mine = [p for i, p in enumerate(plan) if owner[i] == a.shard]
        costs = Costs(first_costs())
        need = minimum_budget(mine, costs)
        if a.budget < need:
            print(f"lfcheck nightly: --budget {clock(a.budget)} is too small for one chunk of each of this night's "
                  f"{len(mine)} parts: the smallest that works is --budget {duration_words(need)}", file=sys.stderr)
            return 2
        print(f"seed: {a.seed}", flush=True)
        print(f"nightly: budget {clock(a.budget)} of checks"
              + (f", shard {a.shard}/{a.shards} of a night of {clock(machine)}" if a.shards > 1 else "")
              + f"; {a.threads} threads per stress run; output in {a.out}", flush=True)
        print("split of the night: " + ", ".join(f"{k} {clock(v)} ({round(100 * SHARES[k] / sum(SHARES[x] for x in split))} %)"
                                                for k, v in split.items()), flush=True)
        print(f"this shard: {len(mine)} of the plan's {len(plan)} parts: " + ", ".join(p.name for p in mine),
              flush=True)
        print(f"first every part's smallest chunk (about {clock(sum_first(mine, costs))}), then the time left shared "
              f"in proportion to the split (the least budget: {duration_words(need)})", flush=True)
        for u in unchecked:
            print(f"not checked: {u['part']}: {u['reason']}", flush=True)
        signal.signal(signal.SIGTERM, self.on_signal)
        signal.signal(signal.SIGINT, self.on_signal)
        start = self.start = time.monotonic()
        end = start + a.budget
        grace = float(os.environ.get("LFCHECK_NIGHTLY_GRACE", "0") or 0) or max(60.0, 0.05 * a.budget)
        self.deadline = end + grace
        matrix_parts = [p for p in mine if p.kind == "kill-matrix"]
        planner = Planner(mine, end, time.monotonic, costs)
        for part, spec, phase in planner.chunks():
            if self.interrupted:
                break
            if time.monotonic() > self.deadline:
                # Earlier chunks ran past the budget and its grace: this part's first
                # chunk did not happen, which is an error of the night, not a part left
                # out by plan (a phase-B chunk is never due past the budget).
                if phase == "A" and part.kind != "kill-matrix":
                    part.runs.append(error_run({"structure": part.structure, "nightly_part": part.name,
                                                "check": part.kind},
                                               "not run: the night's budget and its grace ended before this part"))
                part.done = True
                continue
            args, what = self.chunk_args(part, spec)
            print(f"[nightly {clock(time.monotonic() - start)} of {clock(a.budget)}] {part.name} chunk {part.chunks}: "
                  f"{what} ...", flush=True)
            base = {"structure": part.structure or "(kill matrix)", "check": part.kind}
            if part.kind in ("tsan", "asan"):
                base["sanitizer"] = "thread" if part.kind == "tsan" else "address"
            runs, seconds, log = self.run_chunk(part, args, base)
            planner.done(part, spec, seconds, runs, exit_status(runs) == 0)
            print(f"    {summary(part.name, runs)}; {work_text(runs)}; {seconds:.0f} s (log: {log})", flush=True)
        for part in matrix_parts:
            if not part.chunks and not self.interrupted:
                part.unchecked = "not checked tonight: the budget had no time left for this row of the matrix"
        for part in mine:
            if not part.runs and (not part.started or (part.kind != "kill-matrix" and self.interrupted)):
                if self.interrupted:
                    part.runs.append(error_run({"structure": part.structure or "(kill matrix)",
                                                "nightly_part": part.name, "check": part.kind},
                                               "interrupted: not run"))
                elif part.unchecked is None:
                    part.unchecked = "not checked tonight: no time left in the budget"
            if part.unchecked:
                unchecked.append({"part": part.name, "reason": part.unchecked})
        if matrix_parts and not any(p.chunks for p in matrix_parts) and not self.interrupted:
            # Rows left for another night rotate; a night whose kill matrix ran no row
            # at all did not check the checkers: that is an error of the night.
            matrix_parts[0].runs.append(error_run({"structure": "(kill matrix)", "nightly_part": "kill-matrix",
                                                   "check": "kill-matrix"},
                                                  "NOT CHECKED: the kill matrix ran no row (the budget had no time "
                                                  "left for it): the checkers were not checked tonight"))
        if a.fault and a.shards == 1 and not self.interrupted and mine:
            # The night's verdict on its fault: never a pass unless a run rejected the
            # code (a sharded night's is lfcheck merge's, over every shard's runs).
            mine[0].runs.append(self.fault_verdict(mine))
        return self.report(mine, unchecked, split, time.monotonic() - start, plan)

    def fault_verdict(self, parts):
        """A --fault night's verdict on its fault (verdicts.py's fault_row), printed."""
        r = fault_row([x for p in parts for x in p.runs], self.fault_name, self.fault_structure,
                      self.fault_layers.get(self.fault_name, ()))
        print(f"fault {self.fault_name}: " + (f"caught by {', '.join(r['caught_by'])}" if r["verdict"] == "pass"
                                               else r["failure"]), flush=True)
        return r

    def list_faults(self):
        """[(fault, structure)] of the build's catalogue (./lfcheck faults), or None; and
        self.fault_layers: {fault: the layers its catalogue entry says must catch it}."""
        listing = subprocess.run([self.a.driver, "--build", self.a.build, "faults"], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=dict(os.environ, LFCHECK_SKIP_SETUP="1"))
        if listing.returncode != 0:
            sys.stderr.write(listing.stderr)
            print("lfcheck nightly: cannot list the seeded faults (./lfcheck faults failed)", file=sys.stderr)
            return None
        self.fault_layers = {}
        for line in listing.stdout.splitlines():
            m = re.match(r"(\S+)\s+\[[^\]]*caught by: ([^\]]*)\]", line)
            if m:
                self.fault_layers[m.group(1)] = tuple(x.strip() for x in m.group(2).split(",") if x.strip())
        return [(m.group(1), m.group(2)) for m in
                (re.match(r"(\S+)\s+\[([^,\]]+)", line) for line in listing.stdout.splitlines()) if m]

    def list_verifiable(self):
        """The structures whose spec declares a call alphabet (./lfcheck verify --alphabets)."""
        listing = subprocess.run([self.a.driver, "--build", self.a.build, "verify", "--alphabets"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 env=dict(os.environ, LFCHECK_SKIP_SETUP="1"))
        return set(listing.stdout.split()) if listing.returncode == 0 else set()

    # --- the report ----------------------------------------------------------
    def report(self, parts, unchecked, split, seconds, plan):
        a = self.a
        runs = [r for p in parts for r in p.runs]
        status = exit_status(runs)
        print(f"\n=== lfcheck nightly: seed {a.seed}, budget {clock(a.budget)}"
              + (f", shard {a.shard}/{a.shards}" if a.shards > 1 else "") + f", {clock(seconds)} spent ===")
        table = {}
        for p in parts:
            if p.kind in ("kill-matrix", "dpor-fuzz"):
                continue
            table.setdefault(p.structure, {})[p.kind] = p
        kinds = ("model", "lin", "tsan", "asan")
        print(f"{'structure':<14}" + "".join(f"{k:<33} " for k in kinds).rstrip())
        for s, row in table.items():
            cells = []
            for k in kinds:
                p = row.get(k)
                if p is None:
                    cells.append("-")
                elif not p.runs:
                    cells.append("not checked")
                else:
                    cells.append(f"{part_verdict(p.runs)} {work_text(p.runs, short=True)} {p.seconds:.0f}s")
            print(f"{s:<14}" + "".join(f"{c:<33} " for c in cells).rstrip())
        for p in parts:
            if p.kind == "dpor-fuzz":
                print(f"dpor fuzz (dpor against the full search): " + (f"{part_verdict(p.runs)} {work_text(p.runs)} "
                      f"{p.seconds:.0f}s" if p.runs else "not checked"))
        verified = [(p.structure, r) for p in parts if p.kind == "verify" for r in p.runs if r.get("check") == "verify"]
        if verified:
            print("verified (every scenario of the spec's alphabet, each under DPOR to its end):")
        for structure, r in verified:
            said = (f"verified up to {r['verified_up_to']}" if r.get("verified_up_to") and r.get("verdict") == "pass"
                    else f"{r.get('verdict', '?').upper()}: {r.get('failure', '')}")
            print(f"  {structure}: {said}" + (f"; unfinished: {r['unfinished']}" if r.get("unfinished") else ""))
        matrix = [p for p in parts if p.kind == "kill-matrix"]
        if matrix:
            rows = [r for p in matrix for r in p.runs if r.get("fault")]
            cells = [r for p in matrix for r in p.runs if r.get("correct_code")]
            ran = sum(bool(p.chunks) for p in matrix)
            print(f"kill matrix (seed {a.seed % 1000 + 1}): {ran} of {len(matrix)} rows run; "
                  f"{sum(r['verdict'] == 'pass' for r in rows)} of {len(rows)} faults caught as the catalogue says; "
                  f"correct code {sum(r['verdict'] == 'pass' for r in cells)} of {len(cells)} cells clean")
        groups = {}
        for r in runs:
            if r.get("verdict") != "pass":
                key = (r.get("verdict"), r.get("structure", ""), r.get("scenario", r.get("workload", r.get("fault", ""))),
                       r.get("failure", ""))
                groups.setdefault(key, []).append(r)
        if groups:
            print("\nfailures and errors, by signature:")
        for (verdict, structure, where, failure), members in sorted(groups.items(), key=lambda g: (g[0][0] != "fail", -len(g[1]))):
            seeds = sorted({str(m["seed"]) for m in members if "seed" in m})
            print(f"  {len(members)} x {verdict}: {structure}/{where}: {failure}"
                  + (f"  (seeds {', '.join(seeds)})" if seeds else ""))
            unrun = [m for m in members if m.get("chunk") is None]
            if unrun:   # parts that never ran a chunk: no replay, no log; name them
                print("      parts: " + ", ".join(str(m.get("nightly_part")) for m in unrun))
            for m in [m for m in members if m.get("chunk") is not None][:3]:
                if m.get("replay"):   # a model runner's replay file, or a stress runner's replay line
                    line = m["replay"]
                    if line.endswith(".replay") and " " not in line:
                        line = f"{a.driver} replay {line}"
                    print(f"      replay: {line}")
                for k in ("trace", "table", "artifacts"):
                    if m.get(k):
                        print(f"      {k}: {m[k]}")
                print(f"      part {m.get('nightly_part')} chunk {m.get('chunk')}: log "
                      f"{os.path.join(a.out, str(m.get('nightly_part', '')).replace('/', '-of-'))}.{m.get('chunk')}.log")
        if unchecked:
            print("\nnot checked:")
            for u in unchecked:
                print(f"  {u['part']}: {u['reason']}")
        doc = {"nightly": {"seed": a.seed, "budget_seconds": a.budget, "shard": f"{a.shard}/{a.shards}",
                           "seconds": round(seconds, 1), "threads": a.threads, "split_seconds": split,
                           "fault": a.fault or None, "interrupted": self.interrupted, "out": a.out,
                           **({"fault_structure": self.fault_structure,
                               "fault_layers": list(self.fault_layers.get(self.fault_name, ()))} if a.fault else {}),
                           "plan_parts": [p.name for p in plan],
                           "parts": [{"part": p.name, "kind": p.kind, "structure": p.structure,
                                      "share_seconds": round(p.share, 1), "allotted_seconds": round(p.allotted, 1),
                                      "seconds": round(p.seconds, 1),
                                      "chunks": p.chunks, "work": work_of(p.runs),
                                      **verified_field(p),
                                      "verdict": part_verdict(p.runs) if p.runs else "not checked"}
                                     for p in parts],
                           "unchecked": unchecked, "exit": status},
               "runs": runs}
        # The JSON and the JUnit whole, both or neither (verdicts.write_reports): a JSON
        # that cannot be written is exit 2 with no JUnit at all, never an all-pass JUnit
        # beside no JSON (issue 46). In the JUnit a run's classname names its part and
        # chunk, and runs of one name are named apart (verdicts.testcase_names).
        files = []
        if a.json:
            files.append((a.json, '{"nightly":' + json.dumps(doc["nightly"], separators=(",", ":")) + ',\n"runs":['
                          + ",".join("\n" + json.dumps(r, separators=(",", ":")) for r in runs) + "\n]}\n"))
        if a.junit:
            files.append((a.junit, junit(runs, "lfcheck.nightly")))
        write_reports(files)
        print("\n" + summary("nightly", runs))
        return status


def error_run(base, failure):
    """The nightly's own error run (`base`: structure and the fields that say which part)."""
    return dict(base, verdict="error", failure=failure, seconds=0)


def has_fuzzer(build):
    """Whether the build has the DPOR fuzzer (lfcheck's own tree; a project's has none)."""
    return os.access(os.path.join(build, FUZZER), os.X_OK)


def first_costs():
    """The a priori seconds of each kind's first chunk (nightly_plan.FIRST_SECONDS), or
    the ones $LFCHECK_NIGHTLY_FIRST_SECONDS gives as JSON (tests/nightly_truth.sh: a
    stand-in driver's chunks take fractions of a second)."""
    text = os.environ.get("LFCHECK_NIGHTLY_FIRST_SECONDS", "")
    return json.loads(text) if text else {}


def sum_first(parts, costs):
    return sum(costs.matrix_row(p) if p.kind == "kill-matrix" else costs.first[p.kind] for p in phase_a_parts(parts))


def verified_field(part):
    """A verify part's "verified_up_to" (the largest bounds its ladder verified), if any."""
    said = [r["verified_up_to"] for r in part.runs if part.kind == "verify" and r.get("verified_up_to")
            and r.get("verdict") == "pass"]
    return {"verified_up_to": said[0]} if said else {}


def work_of(runs):
    """The work a part's runs did, by unit."""
    w = {}
    for r in runs:
        if r.get("check") == "kill-matrix":   # a row of the matrix: a fault, or a correct-code cell
            if r.get("verdict") != "error":
                key = "faults" if r.get("fault") else "correct-code cells" if r.get("correct_code") else None
                if key:
                    w[key] = w.get(key, 0) + 1
            continue
        if r.get("check") == "verify":   # lfcheck verify: the scenarios its bounds ran
            w["verify scenarios"] = w.get("verify scenarios", 0) + int(r.get("scenarios", 0) or 0)
            w["executions"] = w.get("executions", 0) + int(r.get("executions", 0) or 0)
        elif "programs" in r:   # the DPOR fuzzer: programs generated, comparisons made
            w["programs"] = w.get("programs", 0) + int(r["programs"] or 0)
            w["comparisons"] = w.get("comparisons", 0) + int(r.get("comparisons", 0) or 0)
        elif "layer" in r:   # lin: each layer's scenarios and executions apart (both run the chunk's)
            lay = "stress " if r["layer"] == "stress" else ""
            w[lay + "scenarios"] = w.get(lay + "scenarios", 0) + int(r.get("scenarios", 0) or 0)
            w[lay + "executions"] = w.get(lay + "executions", 0) + int(r.get("executions", 0) or 0)
            if "calls" in r:   # lin.history: calls, never executions (tools/lin_report.py)
                w[lay + "calls"] = w.get(lay + "calls", 0) + int(r["calls"] or 0)
        elif "ops" in r:   # stress
            unit = "executions" if r.get("unit") == "executions" else "operations"
            w[unit] = w.get(unit, 0) + int(r["ops"] or 0)
        elif "iterations" in r:   # model
            w["iterations"] = w.get("iterations", 0) + int(r["iterations"] or 0)
    return w


def work_text(runs, short=False):
    w = work_of(runs)
    if not w:
        return "no work" if not short else "0"
    names = {"operations": "ops", "executions": "exec", "iterations": "it", "scenarios": "scen",
             "stress scenarios": "rt-scen", "stress executions": "rt-exec", "stress calls": "rt-calls",
             "faults": "faults", "verify scenarios": "v-scen",
             "correct-code cells": "cells", "programs": "prog", "comparisons": "cmp"}
    return " ".join(f"{compact(v)} {names[k] if short else k}" for k, v in w.items())


def part_verdict(runs):
    return {0: "pass", 1: "FAIL", 2: "ERROR"}[exit_status(runs)]


def matrix_runs(path, status, base):
    """A kill-matrix shard's JSON as runs: one per fault (pass: caught, and by every layer
    its catalogue names; fail: missed), one per correct-code cell (pass: clean; fail: a
    false alarm; error: not checked, over budget or erring), an error run if the matrix is
    incomplete, and one if mutants' exit status is not the one its own rule gives its
    matrix (0 if whole and ok, 1 if it shows a miss or a bad cell, 2 if incomplete)."""
    try:
        with open(path) as f:
            doc = json.load(f)
        faults, correct, layers = doc["faults"], doc["correct_code"], doc["layers"]
    except (OSError, ValueError, KeyError, TypeError):
        return command_runs(path, status, base)   # the NO REPORT error run
    _, missed, bad, ok = judge(faults, correct, layers, doc.get("allow_unchecked", False))
    runs = []
    for f in faults:
        misses = [m for m in missed if m.startswith(f["name"] + " (")]
        r = dict(base, structure=f["mechanism"], fault=f["name"], seed=doc.get("first_seed"),
                 layer_runs=sum(c.get("seeds", 0) for c in f["layers"].values()), seconds=0)
        trouble = "; ".join(f"{l}: " + ", ".join(filter(None, [f"{c['timeouts']} over budget" if c.get("timeouts")
                                                               else "", f"errors {c['errors']}" if c.get("errors")
                                                               else ""]))
                            for l, c in f["layers"].items() if c.get("timeouts") or c.get("errors"))
        if not f["caught"]:
            r.update(verdict="fail", failure="MISSED: no layer caught this seeded fault"
                     + (f" (not every layer decided: {trouble})" if trouble else ""))
        elif misses:
            r.update(verdict="fail", failure="MISSED by a layer the catalogue says must catch it: " + ", ".join(misses)
                     + (f" ({trouble})" if trouble else ""))
        else:
            r.update(verdict="pass", caught_by={l: c.get("seconds") for l, c in f["layers"].items() if c["caught"]})
        runs.append(r)
    for c in correct:
        if c["status"] == NO_SPEC:
            continue
        r = dict(base, structure=c["structure"], correct_code=True, layer=c["layer"], seed=doc.get("first_seed"),
                 layer_runs=c.get("clean_seeds", 0), seconds=0)
        if c in bad:
            r.update(verdict="fail" if c["status"] == FALSE_ALARM else "error",
                     failure=f"correct code: {c['status']}" + (f": {c['errors']}" if c.get("errors") else ""))
        else:
            r.update(verdict="pass")
        runs.append(r)
    complete = doc.get("complete", True)
    if not complete:
        runs.append(dict(base, check="kill-matrix.complete", verdict="error", seconds=0,
                         failure="INCOMPLETE: the matrix was interrupted"))
    said = (0 if ok else 1) if complete else (1 if not ok else 2)
    if status != said:
        runs.append(dict(base, check="kill-matrix.status", verdict="error", seconds=0,
                         failure=f"NOT WHAT IT SAID: mutants exited {status}, but its matrix stands for exit {said}"))
    return runs


def parse_args(argv):
    ap = OneLineParser(prog="lfcheck nightly", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget", default="1h", help="the checks' wall time: 90s, 30m, 8h, 1h30m (default 1h; at least "
                                                   "the time of one chunk of every part: a budget under it is refused "
                                                   "with the smallest that works)")
    ap.add_argument("--shard", help="I/N: this machine's share of a night of N machines (default: GTEST_SHARD_INDEX "
                                    "of GTEST_TOTAL_SHARDS, if set)")
    ap.add_argument("--seed", type=int, help="the night's seed, 1 to 10^9 (default: random, printed first)")
    ap.add_argument("--fault", default="", help="switch seeded fault F on (its structure's plan only)")
    ap.add_argument("--threads", type=int, default=min(256, max(4, 2 * (os.cpu_count() or 1))),
                    help="threads per stress run (default: twice the cores, at least 4)")
    ap.add_argument("--json", help="write the report {\"nightly\":{...},\"runs\":[...]} here")
    ap.add_argument("--junit", help="write the report as JUnit XML here")
    ap.add_argument("--out", help="where every chunk's output, JSON and artifacts go")
    ap.add_argument("--driver", help=argparse.SUPPRESS)
    ap.add_argument("--build", help=argparse.SUPPRESS)
    ap.add_argument("--check-args", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    budget = parse_duration(a.budget)
    if budget is None:
        ap.error(f"--budget is a duration (90s, 30m, 8h, 1h30m), not '{a.budget}'")
    a.budget = budget
    a.shard, a.shards = shard_of(a.shard, ap)   # --shard, else GoogleTest's variables (as mutants)
    if a.shards > 1:
        if a.seed is None:
            print("lfcheck nightly: a shard without --seed draws its own seed: the shards do not split one night "
                  "(give them all --seed S)", file=sys.stderr)
    if a.seed is not None and not 1 <= a.seed <= 10 ** 9:
        ap.error(f"--seed is 1 to 10^9, not {a.seed}")
    if a.seed is None:
        a.seed = int.from_bytes(os.urandom(4), "big") % 10 ** 9 + 1
    if a.threads < 2 or a.threads > 256:
        ap.error("--threads is 2 to 256")
    # A budget too small for one chunk of every part is refused now when the build's
    # structures are known (its manifest), and otherwise once they are (Nightly.run).
    if a.build and os.path.exists(os.path.join(a.build, "lfcheck-manifest.txt")):
        structures, subbuilds = read_manifest(a.build)
        fault_structure = a.fault.split(".", 1)[0] if "." in a.fault else ""
        if not a.fault or fault_structure in {n for n, _ in structures}:
            plan, _, _ = make_plan(structures, subbuilds, budget * a.shards, fault_structure, a.seed, 1, 1,
                                   has_fuzzer(a.build))
            owner = deal(plan, a.shards)
            need = minimum_budget([p for i, p in enumerate(plan) if owner[i] == a.shard], Costs(first_costs()))
            if budget < need:
                ap.error(f"--budget {clock(budget)} is too small for one chunk of every part of the night: the "
                         f"smallest that works is --budget {duration_words(need)}")
    if a.check_args:
        sys.exit(0)
    if not a.driver or not a.build:
        ap.error("run it as ./lfcheck nightly (it needs the driver and the build)")
    if not a.out:
        a.out = os.path.join(a.build, "nightly", time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + f"-{a.seed}")
    a.out = os.path.abspath(a.out)
    return a


def main(argv):
    a = parse_args(argv)
    try:
        for f in (a.json, a.junit):   # no earlier report beside this night's status
            if f and os.path.exists(f):
                os.unlink(f)
            if f and os.path.dirname(f):
                os.makedirs(os.path.dirname(f), exist_ok=True)
        os.makedirs(os.path.join(a.out, "artifacts"), exist_ok=True)
        return Nightly(a).run()
    except Exception as e:   # a report it cannot write, or a fault of its own: never "a bug found"
        import traceback
        traceback.print_exc()
        print(f"lfcheck nightly: {e} (exit 2: the night's report is not complete)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

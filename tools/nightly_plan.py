#!/usr/bin/python3
"""nightly_plan.py — what a night runs and in what sizes: the plan of ./lfcheck nightly
(tools/nightly.py runs it). No process runs here and the clock is given, so the plan is
tested with a fake clock and made-up costs (tests/nightly_plan_truth.py).

The parts: for every structure model, lin, tsan, asan, and verify where its spec
declares a call alphabet (lfcheck verify --ladder); in lfcheck's own tree (a build
with the DPOR fuzzer) dpor-fuzz; and the kill matrix in row groups of one row each
(`mutants --shard J/R`, R its rows: the faults, then each structure's correct code),
each with its share of the machine time (SHARES, divided among the structures; the
matrix's among its rows).

The night in two phases, so that every part gets work at every accepted budget:
  A (coverage)  every part's first chunk, the smallest that does its job: a model part a
                PCT run of MODEL_FIRST_ITERATIONS per scenario, a lin part LIN_FIRST
                scenarios (and a short lin.history), a stress part STRESS_FIRST seconds,
                the DPOR fuzzer FUZZ_FIRST seconds,
                the kill matrix its first fault row from the row the night's seed picks
                (a correct-code row runs every layer to its end on correct code: the
                dearest row, left to phase B). The matrix's row comes first: it is the
                coarsest chunk, and the rest then knows the time it left.
  B (fill)      the time left, shared by the parts in proportion to their shares, each
                part taking its share of what is left when its turn comes (so one that
                ran long costs the ones after it, never the deadline): the matrix's
                further rows while the next row's estimate fits its share, then the model
                parts (a DPOR chunk, then PCT chunks), the verify parts (one ladder each,
                its --max-seconds the time it has: at least VERIFY_MIN, else not checked
                tonight; no first chunk of phase A, whose cost it would raise by a ladder
                per structure), lin, the DPOR fuzzer, and last
                the stress parts, whose chunks are exact (--duration) and absorb what the
                others' estimates missed.
A chunk is sized to the time it has at the rate its part measured tonight (Costs; a
model part's PCT chunk to a third of it, then again to what is left); before
any measurement, at the a priori FIRST_SECONDS. A part that failed or erred is done: its
result is in the report. A budget whose phase A does not fit in PHASE_A_SHARE of it is
refused before anything runs (minimum_budget: the smallest that works, in whole minutes).

Used as a library: Part, make_plan, deal, Costs, Planner, minimum_budget, duration_words."""
import math

SHARES = {"tsan": 0.30, "asan": 0.20, "model": 0.10, "verify": 0.10, "lin": 0.15, "kill-matrix": 0.15,
          "dpor-fuzz": 0.05}
KINDS = ("model", "lin", "tsan", "asan")   # the parts of each structure that phase A starts
FILL_ORDER = ("model", "verify", "lin", "dpor-fuzz", "tsan", "asan")   # phase B's order (the stress parts absorb)
TIMED = {"tsan", "asan", "dpor-fuzz", "verify"}   # a chunk runs for a given time (--duration, --max-seconds)

MODEL_FIRST_ITERATIONS = 1000      # phase A: one slice of PCT per scenario
MODEL_MIN_ITERATIONS = 1000        # a PCT chunk's least size per scenario
MODEL_MAX_ITERATIONS = 1000000     # and its most
# A PCT chunk of phase B takes a third of the time its part has left: its rate was
# measured on one earlier chunk, and a machine's pace can differ by 2x either way
# from one chunk to the next, so a chunk sized to all the time left could run 4x
# over; a third runs at most 4/3 over, and the next chunk is sized again, at the
# rate just measured, to what is left.
MODEL_PCT_CHUNK_DIVISOR = 3
DPOR_MIN_EXECUTIONS = 2000         # a DPOR chunk's least budget per scenario
DPOR_MAX_EXECUTIONS = 500000       # the default plan's
DPOR_SHARE = 0.5                   # of a model part's phase-B time, for its DPOR chunk
LIN_FIRST_SCENARIOS = 2
LIN_MIN_SCENARIOS = 2
LIN_MAX_SCENARIOS = 50
LIN_HISTORY_FIRST = 2              # seconds of lin.history in a first lin chunk
LIN_HISTORY_SHARE = 0.25           # of a later lin chunk's time, at most LIN_HISTORY_MAX
LIN_HISTORY_MAX = 60
STRESS_FIRST = 4                   # seconds of a first stress chunk
STRESS_MIN = 4                     # a stress chunk's least --duration
FUZZ_FIRST = 4                     # seconds of the DPOR fuzzer's first chunk (--max-seconds)
FUZZ_MIN = 4                       # and of any of its chunks
VERIFY_MIN = 10                    # a verify ladder's least --max-seconds
PHASE_A_SHARE = 0.8                # phase A may take this much of the budget, at most

# A priori seconds of each kind's first chunk (before the night measured anything):
# measured on the 2-core build machine, the slowest structure, rounded up (docs/nightly.md).
# "kill-matrix": a fault's row; "kill-matrix.correct": a correct-code row (every layer
# to its end on correct code: the dearest).
FIRST_SECONDS = {"model": 6.0, "lin": 12.0, "tsan": 7.0, "asan": 7.0, "dpor-fuzz": 6.0, "verify": 12.0,
                 "kill-matrix": 60.0,
                 "kill-matrix.correct": 240.0}


class Part:
    """One part of the plan: a kind (tsan, asan, model, lin, kill-matrix), a structure
    (or the matrix's row), and its share of the machine time in seconds."""

    def __init__(self, kind, structure, share, row=None, rows=None, correct_row=False):
        self.kind, self.structure, self.share, self.row, self.rows = kind, structure, share, row, rows
        self.correct_row = correct_row   # a kill-matrix row of correct code
        self.name = f"kill-matrix.{row}/{rows}" if kind == "kill-matrix" else f"{kind}.{structure}"
        self.seconds, self.last_seconds, self.chunks, self.runs, self.unchecked = 0.0, 0.0, 0, [], None
        self.allotted = 0.0
        self.started = False
        self.dpor_done = False   # a model part ran its DPOR chunk
        self.done = False        # failed, erred, or nothing more fits


def make_plan(structures, subbuilds, machine_seconds, fault_structure, night_seed, matrix_rows, fault_rows,
              fuzzer=False, verifiable=()):
    """(parts, unchecked, split) for the whole night (all shards): every part with its
    share. matrix_rows: the kill matrix's rows (0: no matrix for this build), of which
    the first fault_rows are faults and the rest correct code. The matrix's parts come
    in the night's rotation: from the row its seed picks. fuzzer: the build has the
    DPOR fuzzer (lfcheck's own tree); verifiable: the structures whose spec declares a
    call alphabet (lfcheck verify)."""
    unchecked = []
    kinds = {}
    for name, layers in structures:
        if fault_structure and name != fault_structure:
            continue
        for kind in ("model", "verify", "lin", "tsan", "asan"):
            if kind == "verify" and name not in verifiable:
                if "spec" in layers:
                    unchecked.append({"part": f"verify.{name}", "reason": "no model layer for its spec (NO_MODEL)"
                                      if "lin-model" not in layers else
                                      "its spec declares no call alphabet (lfcheck verify)"})
                continue
            if kind == "model" and "model" not in layers:
                unchecked.append({"part": f"model.{name}", "reason":
                                  "no hand-written scenarios: its generated ones run in lin." + name
                                  if "lin-model" in layers else "no model layer (NO_MODEL)"})
                continue
            if kind == "lin" and "spec" not in layers:
                unchecked.append({"part": f"lin.{name}", "reason": "no spec"})
                continue
            if kind == "lin" and not subbuilds:
                if "lin-model" not in layers:
                    unchecked.append({"part": f"lin.{name}", "reason": "no model layer, and no sanitizer sub-builds "
                                      "for its stress layer (LFCHECK_SANITIZER_SUBBUILDS=OFF)"})
                    continue
                unchecked.append({"part": f"lin.{name} (stress layer)", "reason": "this build has no sanitizer "
                                  "sub-builds (LFCHECK_SANITIZER_SUBBUILDS=OFF): lin runs its model layer only"})
            if kind in ("tsan", "asan"):
                if "stress" not in layers:
                    unchecked.append({"part": f"{kind}.{name}", "reason": "no stress layer"})
                    continue
                if not subbuilds:
                    unchecked.append({"part": f"{kind}.{name}",
                                      "reason": "this build has no sanitizer sub-builds (LFCHECK_SANITIZER_SUBBUILDS=OFF)"})
                    continue
            kinds.setdefault(kind, []).append(name)
    if fault_structure:
        unchecked.append({"part": "kill-matrix", "reason": "a --fault nightly checks the faulty build only"})
        unchecked += [{"part": f"*.{n}", "reason": f"not the structure of the fault ({fault_structure})"}
                      for n, _ in structures if n != fault_structure]
    elif not any("model" in layers for _, layers in structures):
        unchecked.append({"part": "kill-matrix", "reason": "the build has no hand-written model scenarios"})
    elif not subbuilds:
        unchecked.append({"part": "kill-matrix", "reason": "it needs the TSan stress binary, and this build has no "
                          "sanitizer sub-builds (LFCHECK_SANITIZER_SUBBUILDS=OFF)"})
    elif not matrix_rows:
        unchecked.append({"part": "kill-matrix", "reason": "no seeded faults in the structures with hand-written "
                          "scenarios"})
    else:
        kinds["kill-matrix"] = list(range(matrix_rows))
    if fuzzer and fault_structure:
        unchecked.append({"part": "dpor-fuzz", "reason": "a --fault nightly checks the faulty build only"})
    elif fuzzer:
        kinds["dpor-fuzz"] = ["lfcheck"]
    total_share = sum(SHARES[k] for k in kinds)
    parts = []
    for kind in ("model", "verify", "lin", "tsan", "asan", "dpor-fuzz", "kill-matrix"):
        members = kinds.get(kind, [])
        if not members:
            continue
        each = machine_seconds * SHARES[kind] / total_share / len(members)
        if kind == "kill-matrix":
            first = night_seed % matrix_rows   # the seed picks where tonight's rows start
            parts += [Part(kind, "", each, row=(first + j) % matrix_rows, rows=matrix_rows,
                           correct_row=(first + j) % matrix_rows >= fault_rows) for j in range(matrix_rows)]
        else:
            parts += [Part(kind, s, each) for s in members]
    split = {k: round(machine_seconds * SHARES[k] / total_share) for k in kinds}
    return parts, unchecked, split


def deal(parts, shards):
    """Each part's shard: longest share first, to the shard with the least time so far."""
    load = [0.0] * shards
    order = sorted(range(len(parts)), key=lambda i: (-parts[i].share, i))
    owner = {}
    for i in order:
        s = min(range(shards), key=lambda k: (load[k], k))
        owner[i] = s
        load[s] += parts[i].share
    return owner


class Costs:
    """What a chunk costs, measured tonight per part (a priori before that): seconds per
    unit of its size and the seconds of a chunk beyond them (start-up, set-up)."""

    def __init__(self, first_seconds=None):
        self.first = dict(FIRST_SECONDS, **(first_seconds or {}))
        self.rate = {}       # (part name, what) -> seconds per unit
        self.overhead = {}   # part name -> seconds a chunk costs beyond its units
        self.row = {}        # kill-matrix: "fault" / "correct" -> seconds of a row

    def measure(self, part, spec, seconds, runs):
        """Learns from one chunk of `part` (spec: its size) that took `seconds`."""
        if part.kind == "kill-matrix":
            self.row["correct" if part.correct_row else "fault"] = seconds
            return
        if part.kind in TIMED:
            self.overhead[part.name] = max(0.0, seconds - spec["duration"])
            return
        if part.kind == "lin":
            # Its two layers run at once: the chunk's time per scenario, lin.history's included.
            scenarios = sum(int(r.get("scenarios", 0) or 0) for r in runs
                            if r.get("layer") == "model") or spec["scenarios"]
            self.rate[(part.name, "scenario")] = seconds / max(1, scenarios)
            return
        # model: seconds per iteration (PCT) or per execution (DPOR) summed over the scenarios
        # (a DPOR run's work: its "executions", or "iterations" where a runner counts
        # every execution so; a PCT run's: its sampled "iterations")
        what = "dpor" if spec.get("scheduler") == "dpor" else "pct"
        fields = ("executions", "iterations") if what == "dpor" else ("iterations",)
        work = [(r, next((int(r[f]) for f in fields if r.get(f)), 0)) for r in runs if r.get("scheduler") == what]
        mine = [(r, n) for r, n in work if n > 0]
        per_unit = sum(float(r.get("seconds", 0) or 0) / n for r, n in mine)
        if per_unit > 0:
            self.rate[(part.name, what)] = per_unit
            self.overhead[part.name] = max(0.0, seconds - sum(float(r.get("seconds", 0) or 0) for r, _ in mine))
        elif seconds > 0 and what == "pct":
            # No run said its work (a failure stopped it early): the chunk as a whole.
            self.rate[(part.name, "pct")] = seconds / max(1, spec["iterations"])

    def model_rate(self, part, what):
        pct = self.rate.get((part.name, "pct"), self.first["model"] / MODEL_FIRST_ITERATIONS)
        if what == "pct":
            return pct
        return self.rate.get((part.name, "dpor"), 3 * pct)   # a DPOR execution: about 3 PCT iterations

    def lin_rate(self, part):
        return self.rate.get((part.name, "scenario"), self.first["lin"] / LIN_FIRST_SCENARIOS)

    def timed_overhead(self, part):
        """A timed part's (stress, the fuzzer) seconds beyond its chunk's --duration."""
        first = {"dpor-fuzz": FUZZ_FIRST, "verify": VERIFY_MIN}.get(part.kind, STRESS_FIRST)
        return self.overhead.get(part.name, max(0.0, self.first[part.kind] - first))

    def matrix_row(self, part):
        kind = "correct" if part.correct_row else "fault"
        return self.row.get(kind, self.first["kill-matrix.correct" if part.correct_row else "kill-matrix"])


def first_spec(part):
    """A part's first chunk (phase A): the smallest that does its job."""
    if part.kind == "model":
        return {"scheduler": "pct", "iterations": MODEL_FIRST_ITERATIONS}
    if part.kind == "lin":
        return {"scenarios": LIN_FIRST_SCENARIOS, "history": LIN_HISTORY_FIRST}
    if part.kind in ("tsan", "asan"):
        return {"duration": STRESS_FIRST}
    if part.kind == "dpor-fuzz":
        return {"duration": FUZZ_FIRST}
    return {"row": part.row}


def phase_a_parts(parts):
    """The parts phase A runs, in its order: the matrix's first fault row, then every
    structure's parts, structure by structure, then the DPOR fuzzer."""
    matrix = [p for p in parts if p.kind == "kill-matrix"]
    first_row = next((p for p in matrix if not p.correct_row), matrix[0] if matrix else None)
    others = [p for p in parts if p.kind in KINDS]
    structures = list(dict.fromkeys(p.structure for p in others))
    ordered = [p for s in structures for k in KINDS for p in others if p.structure == s and p.kind == k]
    return ([first_row] if first_row else []) + ordered + [p for p in parts if p.kind == "dpor-fuzz"]


def minimum_budget(parts, costs):
    """The smallest budget (seconds: whole minutes from a minute up) whose phase A fits in
    PHASE_A_SHARE of it."""
    least = sum(costs.first["kill-matrix"] if p.kind == "kill-matrix" else costs.first[p.kind]
                for p in phase_a_parts(parts)) / PHASE_A_SHARE
    return 60 * math.ceil(least / 60) if least > 60 else math.ceil(least)


def duration_words(seconds):
    """A budget as --budget takes it: "5m", "1h30m", "45s"."""
    s = int(seconds)
    h, m, rest = s // 3600, s % 3600 // 60, s % 60
    return (f"{h}h" if h else "") + (f"{m}m" if m else "") + (f"{rest}s" if rest or not s else "")


class Planner:
    """The night's chunks, one at a time: chunks() yields (part, spec, phase), and the
    caller runs the chunk and calls done(part, spec, seconds, runs) before it asks for
    the next. `clock()` is the time now, `end` the budget's end (same clock)."""

    def __init__(self, parts, end, clock, costs):
        self.parts, self.end, self.clock, self.costs = parts, end, clock, costs

    def left(self):
        return max(0.0, self.end - self.clock())

    def done(self, part, spec, seconds, runs, ok):
        part.chunks += 1
        part.seconds += seconds
        part.last_seconds = seconds
        self.costs.measure(part, spec, seconds, runs)
        if part.kind == "model" and spec.get("scheduler") == "dpor":
            part.dpor_done = True
        if not ok or part.kind == "kill-matrix":   # a failure or error is tonight's result; a row runs once
            part.done = True

    def chunks(self):
        # Phase A: every part's first chunk.
        first = phase_a_parts(self.parts)
        for part in first:
            part.started = True
            part.allotted = self.costs.first[part.kind] if part.kind != "kill-matrix" else self.costs.matrix_row(part)
            yield part, first_spec(part), "A"
        # Phase B: the time left, shared in proportion to the shares.
        matrix = [p for p in self.parts if p.kind == "kill-matrix" and not p.chunks]
        order = [p for k in FILL_ORDER for p in self.parts if p.kind == k]
        waiting = ([("matrix", matrix)] if matrix else []) + [("part", p) for p in order]
        for i, (what, item) in enumerate(waiting):
            rest = sum(sum(p.share for p in x) if w == "matrix" else x.share for w, x in waiting[i:])
            share = sum(p.share for p in item) if what == "matrix" else item.share
            allot = self.left() * share / rest if rest else 0.0
            if what == "matrix":
                yield from self.matrix_rows(item, allot)
            else:
                yield from self.fill(item, allot)

    def matrix_rows(self, rows, allot):
        """Further rows of the kill matrix, in rotation, while the next one's estimate fits."""
        start = self.clock()
        for part in rows:
            used = self.clock() - start
            if self.costs.matrix_row(part) > allot - used or self.costs.matrix_row(part) > self.left():
                continue   # a cheaper row later in the rotation may still fit
            part.started = True
            part.allotted = self.costs.matrix_row(part)
            yield part, {"row": part.row}, "B"

    def fill(self, part, allot):
        """A part's chunks in phase B, sized to `allot` seconds at its measured rates."""
        part.allotted += allot
        start = self.clock()
        while not part.done:
            left = min(allot - (self.clock() - start), self.left())
            spec = self.next_spec(part, left)
            if spec is None:
                return
            yield part, spec, "B"

    def next_spec(self, part, left):
        """The part's next chunk sized to `left` seconds, or None if none of its least size fits."""
        c = self.costs
        if part.kind in TIMED:
            if part.chunks > (0 if part.kind == "verify" else 1):   # one chunk of its share in phase B
                return None
            duration = int(left - c.timed_overhead(part))
            least = {"dpor-fuzz": FUZZ_MIN, "verify": VERIFY_MIN}.get(part.kind, STRESS_MIN)
            return {"duration": duration} if duration >= least else None
        if part.kind == "lin":
            history = min(LIN_HISTORY_MAX, max(LIN_HISTORY_FIRST, int(left * LIN_HISTORY_SHARE)))
            scenarios = min(LIN_MAX_SCENARIOS, int(left / max(c.lin_rate(part), 1e-3)))
            return {"scenarios": scenarios, "history": history} if scenarios >= LIN_MIN_SCENARIOS else None
        if part.kind == "model":
            overhead = c.overhead.get(part.name, 1.0)
            if not part.dpor_done:
                part.dpor_done = True   # tried once: if it does not fit now, PCT only
                budget = int((left * DPOR_SHARE - overhead) / c.model_rate(part, "dpor"))
                if budget >= DPOR_MIN_EXECUTIONS:
                    return {"scheduler": "dpor", "dpor_executions": min(DPOR_MAX_EXECUTIONS, budget)}
            iterations = int((left - overhead) / MODEL_PCT_CHUNK_DIVISOR / c.model_rate(part, "pct"))
            iterations = min(MODEL_MAX_ITERATIONS, iterations)
            return {"scheduler": "pct", "iterations": iterations} if iterations >= MODEL_MIN_ITERATIONS else None
        return None

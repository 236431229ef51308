#!/usr/bin/python3
"""nightly_plan_truth.py [SEED] — the nightly's plan (tools/nightly_plan.py) fits every
budget it accepts, on a fake clock: lfcheck's own five structures (every layer, each
with a verify alphabet), the DPOR fuzzer and a kill matrix of 33 fault rows and 5 correct-code rows, whose chunks cost what this
machine's did (each drawn from 0.5x to 2x of it, per chunk, from the printed seed) —
no process runs. For budgets of 5m, 10m, 30m and 8h, and 100 random nights each:
  coverage   every part ran a chunk (phase A: model, lin, TSan and ASan of every
             structure, with work, and the DPOR fuzzer), and the kill matrix at least
             one row; at 30m and 8h every verify part too (phase B only)
  order      no phase-B chunk before every phase-A chunk
  fit        the night ends within its budget plus the grace (5 %, at least 60 s),
             by its own accounting of the chunks it ran
  shares     at 30m and 8h each kind's seconds are within 50 %..200 % of its share (the
             kill matrix's may be less once it ran every row, and then the others' share
             is of the time it left: the time left is re-shared in proportion)
  refused    below minimum_budget the plan is refused (the check ./lfcheck nightly makes
             first), and minimum_budget itself leaves phase A within 80 % of it
  stops      a part whose chunk fails runs no further chunk
Exit 0 if all hold, else 1 (each broken case with its seed and budget)."""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import nightly_plan as plan  # noqa: E402

STRUCTURES = ["deliqueue", "removal", "shutdown", "timers", "treiber"]
# What a chunk costs on this machine (2 cores, measured; see docs/nightly.md):
SCENARIOS = {"deliqueue": 12, "removal": 9, "shutdown": 6, "timers": 10, "treiber": 8}
PCT_SECONDS_PER_ITERATION = 0.00012   # one scenario's PCT iteration
DPOR_SECONDS_PER_EXECUTION = 0.0004
DPOR_CLASSES = 30000                   # a scenario's DPOR ends after this many executions, about
LIN_SECONDS_PER_SCENARIO = 2.5
CHUNK_START = {"model": 1.0, "lin": 2.0, "tsan": 2.0, "asan": 2.0, "dpor-fuzz": 1.0, "verify": 2.0}
FAULT_ROW, CORRECT_ROW = 45.0, 200.0
failed = 0


def check(name, ok, why=""):
    global failed
    if not ok:
        print(f"FAIL: {name}: {why}")
        failed += 1
    return ok


def cost(part, spec, rng):
    """(seconds, runs) of a chunk, its cost drawn 0.5x..2x of the machine's."""
    noise = 2 ** rng.uniform(-1, 1)
    if part.kind == "kill-matrix":
        return (CORRECT_ROW if part.correct_row else FAULT_ROW) * noise, []
    if part.kind in ("tsan", "asan"):
        return spec["duration"] + CHUNK_START[part.kind] * noise, [{"kind": "stress", "ops": 1000}]
    if part.kind == "dpor-fuzz":
        return spec["duration"] + CHUNK_START[part.kind] * noise, [{"kind": "dpor-fuzz", "comparisons": 10}]
    if part.kind == "verify":
        return spec["duration"] + CHUNK_START[part.kind] * noise, [{"check": "verify", "scenarios": 12}]
    if part.kind == "lin":
        seconds = CHUNK_START["lin"] + spec["scenarios"] * LIN_SECONDS_PER_SCENARIO * noise
        return seconds, [{"kind": "lin", "layer": "model", "scenarios": spec["scenarios"]}]
    n = SCENARIOS[part.structure]
    if spec["scheduler"] == "dpor":
        runs = [{"kind": "model", "scheduler": "dpor", "executions": min(spec["dpor_executions"], DPOR_CLASSES),
                 "seconds": min(spec["dpor_executions"], DPOR_CLASSES) * DPOR_SECONDS_PER_EXECUTION * noise}
                for _ in range(n)]
    else:
        runs = [{"kind": "model", "scheduler": "pct", "iterations": spec["iterations"],
                 "seconds": spec["iterations"] * PCT_SECONDS_PER_ITERATION * noise} for _ in range(n)]
    return CHUNK_START["model"] + sum(r["seconds"] for r in runs), runs


def night(budget, seed, fail_part=None):
    """One simulated night: (parts, chunks [(part name, phase, start, seconds)], end, minimum)."""
    rng = random.Random(seed)
    structures = [(s, {"model", "lin-model", "stress", "props", "spec"}) for s in STRUCTURES]
    parts, _, _ = plan.make_plan(structures, True, budget, "", seed, 38, 33, fuzzer=True, verifiable=STRUCTURES)
    costs = plan.Costs()
    need = plan.minimum_budget(parts, costs)
    now = [0.0]
    planner = plan.Planner(parts, budget, lambda: now[0], costs)
    chunks = []
    for part, spec, phase in planner.chunks():
        seconds, runs = cost(part, spec, rng)
        chunks.append((part.name, phase, now[0], seconds, spec))
        now[0] += seconds
        planner.done(part, spec, seconds, runs, part.name != fail_part)
    return parts, chunks, now[0], need


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else random.randrange(1, 10 ** 9)
    print(f"seed: {seed}")
    master = random.Random(seed)
    for budget in (300, 600, 1800, 8 * 3600):
        for _ in range(100):
            s = master.randrange(1, 10 ** 9)
            where = f"budget {budget} s, night seed {s} (replay: {sys.argv[0]} {seed})"
            parts, chunks, end, need = night(budget, s)
            if not check("refused", budget >= need, f"{where}: the least budget is {need} s"):
                continue
            ran = {p.name for p in parts if p.chunks}
            missing = [p.name for p in parts if p.kind not in ("kill-matrix", "verify") and p.name not in ran]
            if budget >= 1800:
                missing += [p.name for p in parts if p.kind == "verify" and p.name not in ran]
            check("coverage", not missing, f"{where}: no chunk for {missing}")
            check("coverage", any(p.kind == "kill-matrix" and p.chunks for p in parts), f"{where}: no matrix row")
            stress = [p for p in parts if p.kind in ("tsan", "asan", "dpor-fuzz")]
            check("coverage", all(sum(c[4]["duration"] for c in chunks if c[0] == p.name) > 0 for p in stress),
                  f"{where}: a stress part with no duration")
            phases = [c[1] for c in chunks]
            check("order", "A" not in phases[phases.index("B"):] if "B" in phases else True,
                  f"{where}: a phase-A chunk after a phase-B one")
            grace = max(60.0, 0.05 * budget)
            check("fit", end <= budget + grace, f"{where}: ended at {end:.0f} s")
            if budget >= 1800:
                every_row = all(p.chunks for p in parts if p.kind == "kill-matrix")
                matrix_spent = sum(c[3] for c in chunks if c[0].startswith("kill-matrix."))
                for kind, weight in plan.SHARES.items():
                    spent = sum(c[3] for c in chunks if c[0].startswith(kind + "."))
                    if kind == "kill-matrix" or not every_row:
                        due = budget * weight / sum(plan.SHARES.values())   # every kind is in this plan
                    else:   # a matrix that ran every row gave the time it did not need to the others
                        due = (budget - matrix_spent) * weight / (sum(plan.SHARES.values()) - plan.SHARES["kill-matrix"])
                    low = 0 if kind == "kill-matrix" and every_row else 0.5 * due   # (nothing left to run)
                    check("shares", low <= spent <= 2 * due, f"{where}: {kind} took {spent:.0f} s of its {due:.0f}")
    # refused below the least budget; and the least budget fits its phase A
    structures = [(s, {"model", "lin-model", "stress", "props", "spec"}) for s in STRUCTURES]
    parts, _, _ = plan.make_plan(structures, True, 300, "", 1, 38, 33, fuzzer=True, verifiable=STRUCTURES)
    need = plan.minimum_budget(parts, plan.Costs())
    first = sum(plan.Costs().matrix_row(p) if p.kind == "kill-matrix" else plan.Costs().first[p.kind]
                for p in plan.phase_a_parts(parts))
    check("refused", first <= plan.PHASE_A_SHARE * need and need <= 300,
          f"the least budget {need} s for a phase A of {first:.0f} s (5m must be accepted)")
    # a failing part stops
    parts, chunks, _, _ = night(1800, 7, fail_part="model.treiber")
    check("stops", sum(1 for c in chunks if c[0] == "model.treiber") == 1,
          f"model.treiber ran {sum(1 for c in chunks if c[0] == 'model.treiber')} chunks after failing")
    print(f"nightly plan truth: {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

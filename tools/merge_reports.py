#!/usr/bin/python3
"""lfcheck merge FILES... [--json OUT] [--junit OUT]: one report from the reports
of several shards (or jobs, or machines).

FILES are the --json reports ({"runs":[...]}: model, stress, lin) and the --junit
files of the shards, in any mix (a file is JUnit when it starts with "<?xml" or
"<testsuites"). The merged JSON holds every run of every JSON file, in the order
given, with the shards joined as below and the merge's own error runs; the merged
JUnit is written from those same runs (one testcase per run, a <failure> per
failing run, an <error> per error run), the body of a failure taken from the
shard's JUnit testcase of the same run; the summary line says the exit status. So
the JSON, the JUnit, the summary and the exit status say the same: 1 if any run
failed, else 2 if any is an error or there is no run, else 0 (tools/verdicts.py,
the rule of harness/report/report.hpp). A file it cannot read is an error run.

Failures are grouped by signature — structure, scenario (or workload), the
checker's words ("failure") and, when the run names it, the top frame in the
user's code ("top_frame") — so fifty shards that hit one race print one group
with fifty seeds.

No sharded result passes unless all its parts are there:
- A lin run one command split into parts (`lfcheck lin --shard I/N`: each shard's
  run of a structure has "shard": "I/N", "of_scenarios" and the scenarios i = I
  mod N) is summed back into the unsharded run: its scenarios, executions and
  exhaustive scenarios are the parts' sums; it fails if a part fails, with the
  failure of the part whose failing scenario comes first in the unsharded run's
  order — every scenario's sampled run, then every scenario's search, so by
  ("failing_pass", "failing_index") — the one the unsharded run stops at; it is an
  error ("INCOMPLETE") if a part is missing, if the parts are of runs of other
  sizes or settings (of_scenarios, sampler, depth, iterations_per_scenario, bound,
  bound_executions, max_threads, max_ops), or if none executed anything. A shard
  that got no scenario (N above the scenario count) is an empty part, not an
  error of the whole.
- A verify run one command split into parts (`lfcheck verify --shard I/N`: each shard's
  record has "check": "verify", "shard": "I/N", "verify_bound" and "of_scenarios", the
  enumeration's size) is joined into the unsharded run: its scenarios, ended, not
  ended, not run, executions and seconds are the parts' sums; it fails if a part fails,
  with the failure of the part whose failing scenario comes first in the enumeration
  ("failing_index": a smallest one, as the unsharded run reports); it is VERIFIED
  ("verified_up_to") only if all N shards are there, of one enumeration and one set of
  settings (verify_bound, of_scenarios, unreduced_scenarios, reduction, dpor_executions,
  load_depth), and every one of the of_scenarios scenarios ended; else an error:
  INCOMPLETE (a shard missing, or parts of other enumerations or settings) or NOT
  VERIFIED (how many ended, how many did not or were not run).
- The runs of a sharded plan (`lfcheck model --shard I/N`, `lfcheck stress --shard
  I/N`: each record has "shard", "of_runs", the plan's size, and "plan", its
  command) stand for the unsharded runs (and lose those fields) only if all
  "of_runs" runs of the plan are here; otherwise an INCOMPLETE error run names
  the missing shards.
--keep-shards keeps the parts and plans as they are (one shard's own report, e.g.
`lfcheck run` in a shard).

A run that appears in two files (the same structure, scenario or workload,
scheduler, bound, depth, fault, seed, threads and sanitizer, check and verify bound; a lin part's shard; a
nightly's part and chunk, a kill-matrix row's correct-code cell) means the shards
overlapped: the merge keeps the first, says so, and adds an OVERLAP error run.

Nightly shards (`lfcheck nightly --shard I/N`: a report with a "nightly" record) are
one night only if they share its seed, budget, N, fault and plan, all N are there
once, and their parts are the plan's, each once; otherwise an INCOMPLETE (or
OVERLAP) error run says what is missing. The merged JSON holds the night's record:
its plan, every shard's parts, and the union of what was not checked.

Kill matrices (the --json of `lfcheck mutants --shard I/N`: {"faults":[...],
"correct_code":[...]}) merge into one matrix, when every JSON file is one: its
rows are every shard's rows; a fault or a correct-code cell in two files is an
overlap (exit 2), and so are matrices of different seeds, budgets or layers; the
shards must be all N of one N (otherwise the merge says which are missing and
the result is incomplete, exit 2 unless it already shows a miss). Exit status as
for one matrix: 1 if a fault is not caught (or missed by a layer its catalogue
names) or a correct-code cell is a false alarm, an error or (unless the shards
ran with --allow-unchecked) over budget; else 2 if incomplete; else 0. Its JUnit
is written from the merged matrix (tools/mutants.py's matrix_junit: an incomplete
matrix has an <error> testcase)."""
import argparse
import json
import sys
import xml.etree.ElementTree as ET

from mutants import ERROR, OVER_BUDGET, judge, matrix_junit
from verdicts import IDENTITY as RUN_IDENTITY, exit_status, fault_row, junit, rejected, summary, testcase_name

# Two records that agree on these are the same run (an OVERLAP of shards): a report's
# identity fields (verdicts.IDENTITY).
IDENTITY = RUN_IDENTITY
SUMMED = ("scenarios", "executions", "verified_scenarios", "exhaustive_scenarios", "shrink_runs", "seconds")
# What a lin run's parts must share to be parts of one run: the size of the whole and
# the settings every scenario ran with (lfcheck-lin-model's records).
LIN_SETTINGS = ("of_scenarios", "sampler", "depth", "iterations_per_scenario", "dpor_executions", "load_depth",
                "bound", "bound_executions",
                "max_threads", "max_ops")
# The unsharded lin model run stops at its first failure in this order of its passes.
PASSES = {"sampled": 0, "search": 1}
SHARD_FIELDS = ("shard", "of_runs", "plan")


def identity(run):
    """What makes a run one run. A run of a sharded plan ("of_runs": model, stress) is
    the same run whichever shard ran it; a lin part is its shard's part."""
    return tuple((k, run[k]) for k in IDENTITY if k in run and not (k == "shard" and "of_runs" in run))


def merge_error(structure, failure):
    """An error run of the merge itself (overlapping shards, a plan's missing runs, a file it cannot read)."""
    return {"structure": structure, "check": "merge", "verdict": "error", "failure": failure, "seconds": 0}


def shard_of(text):
    try:
        i, n = (int(x) for x in str(text).split("/"))
        return i, n
    except ValueError:
        return -1, -1


def gathered(runs, key):
    """The runs in order, those whose key(run) is not None gathered into one list per key,
    in the place of the first of them. Returns (items, number of lists)."""
    groups, out = {}, []
    for r in runs:
        k = key(r)
        if k is None:
            out.append(r)
            continue
        if k not in groups:
            groups[k] = []
            out.append(groups[k])
        groups[k].append(r)
    return out, len(groups)


def shard_numbers(parts):
    """The N of each part's "I/N" (a set) and the I of each (a list)."""
    shards = [shard_of(p["shard"]) for p in parts]
    return {n for _, n in shards}, [i for i, _ in shards]


def join_parts(runs):
    """Lin runs' parts (a "shard" and no "of_runs") become the unsharded run, in the
    place of its first part (see the module's doc)."""
    # A lin part's "scenario" is its failure's shrunk scenario, not a name; its
    # settings are checked below, so parts of runs of other settings are named.
    out, count = gathered(runs, lambda r: None if "shard" not in r or "of_runs" in r else
                          tuple(kv for kv in identity(r) if kv[0] not in ("shard", "scenario") + LIN_SETTINGS))
    joined = []
    for item in out:
        if isinstance(item, dict):
            joined.append(item)
            continue
        parts = item
        totals, indices = shard_numbers(parts)
        whole = {k: v for k, v in parts[0].items() if k not in ("shard", "of_scenarios", "failure", "scenario",
                                                                  "first_failure_seconds", "failing_index",
                                                                  "failing_pass")}
        for k in SUMMED:
            if any(k in p for p in parts):
                total = sum(p.get(k, 0) for p in parts)
                whole[k] = round(total, 3) if isinstance(total, float) else total
        # The unsharded run stops at its first failure: the first in its sampled pass
        # over every scenario, else the first in its searches — (pass, index) order.
        # A rejection (NOT LINEARIZABLE, a crash of the structure, ...) before a failure
        # that rejects nothing (LINEARIZABILITY UNKNOWN, NONDETERMINISTIC): the whole run
        # keeps one part's words, and a later shard's real rejection must not hide behind
        # an earlier shard's undecided check.
        failing = sorted((p for p in parts if p.get("verdict") == "fail"),
                         key=lambda p: (not rejected(p), PASSES.get(p.get("failing_pass"), 0), p.get("failing_index", 0)))
        broken = [p for p in parts if p.get("verdict") not in ("pass", "fail") and p.get("scenarios", 0) > 0]
        differ = [(k, sorted({json.dumps(p.get(k)) for p in parts})) for k in LIN_SETTINGS]
        differ = [(k, v) for k, v in differ if len(v) > 1]
        problem = ""
        if len(totals) != 1 or -1 in totals:
            problem = f"INCOMPLETE: the parts are not the shards of one N ({', '.join(p['shard'] for p in parts)})"
        elif differ:
            problem = ("INCOMPLETE: the parts are shards of runs with different settings ("
                       + "; ".join(f"{k} {', '.join(v)}" for k, v in differ) + ")")
        elif any(not 0 <= i < next(iter(totals)) for i in indices):
            problem = f"INCOMPLETE: the parts are not the shards of one N ({', '.join(p['shard'] for p in parts)})"
        elif len(set(indices)) == len(indices) and len(indices) < next(iter(totals)):
            missing = sorted(set(range(next(iter(totals)))) - set(indices))
            problem = f"INCOMPLETE: shards {', '.join(map(str, missing))} of {next(iter(totals))} are missing"
        elif not failing and not broken and {p.get("of_scenarios") for p in parts} != {None}:
            # Every shard ran all its scenarios unless it failed (it stops there) or
            # erred (its own failure says why): the parts together hold the run's every
            # scenario, or the run is not all here.
            planned = {p.get("of_scenarios") for p in parts}
            ran = sum(p.get("scenarios", 0) for p in parts)
            if len(planned) != 1 or ran != next(iter(planned)):
                problem = (f"INCOMPLETE: the parts ran {ran} of the run's "
                           f"{'/'.join(str(x) for x in sorted(planned, key=str))} scenarios")
        if failing:
            whole["verdict"] = "fail"
            for k in ("failure", "scenario", "first_failure_seconds", "failing_index", "failing_pass"):
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
    return joined, count


VERIFY_SETTINGS = ("of_scenarios", "unreduced_scenarios", "reduction", "dpor_executions", "load_depth")
VERIFY_SUMMED = ("scenarios", "ended", "not_ended", "not_run", "no_shared_access_scenarios", "executions", "seconds",
                 "cpu_seconds")


def join_verify_parts(runs):
    """The shards of one verify run ("check": "verify" with a "shard") become the unsharded
    run, in the place of its first part (see the module's doc). Returns (runs, joined)."""
    out, count = gathered(runs, lambda r: (r.get("structure"), r.get("verify_bound"), r.get("fault"))
                          if r.get("check") == "verify" and "shard" in r else None)
    joined = []
    for item in out:
        if isinstance(item, dict):
            joined.append(item)
            continue
        parts = item
        totals, indices = shard_numbers(parts)
        n = next(iter(totals))
        whole = {k: v for k, v in parts[0].items()
                 if k not in ("shard", "failure", "scenario", "failing_index", "replay", "trace", "stopped",
                              "not_ended_scenarios", "verified_up_to", "ended_in_order")}
        for k in VERIFY_SUMMED:
            total = sum(p.get(k, 0) for p in parts)
            whole[k] = round(total, 3) if isinstance(total, float) else total
        names = [s for p in parts for s in p.get("not_ended_scenarios", [])]
        if names:
            whole["not_ended_scenarios"] = names[:20]
        differ = [(k, sorted({json.dumps(p.get(k)) for p in parts})) for k in VERIFY_SETTINGS]
        differ = [(k, v) for k, v in differ if len(v) > 1]
        problem = ""
        if len(totals) != 1 or -1 in totals or any(not 0 <= i < n for i in indices):
            problem = f"INCOMPLETE: the parts are not the shards of one N ({', '.join(p['shard'] for p in parts)})"
        elif differ:
            problem = ("INCOMPLETE: the parts are shards of other enumerations or settings ("
                       + "; ".join(f"{k} {', '.join(v)}" for k, v in differ) + ")")
        elif len(set(indices)) != len(indices):
            problem = f"INCOMPLETE: a shard appears twice ({', '.join(p['shard'] for p in parts)})"
        elif len(indices) < n:
            missing = sorted(set(range(n)) - set(indices))
            problem = f"INCOMPLETE: shards {', '.join(map(str, missing))} of {n} are missing"
        failing = sorted((p for p in parts if p.get("verdict") == "fail"), key=lambda p: p.get("failing_index", 0))
        bound, total = whole.get("verify_bound", "?"), whole.get("of_scenarios", 0)
        if failing:
            whole["verdict"] = "fail"
            for k in ("failure", "scenario", "failing_index", "replay", "trace"):
                if k in failing[0]:
                    whole[k] = failing[0][k]
            if problem:
                whole["incomplete"] = problem  # the failure stands; the rest of the run is not all here
        elif problem:
            whole["verdict"] = "error"
            whole["failure"] = problem
        elif whole["ended"] and whole.get("no_shared_access_scenarios", 0) == whole["ended"]:
            whole["verdict"] = "error"
            whole["failure"] = f"NO WORK: no shared access seen in any of the {whole['ended']} scenarios"
        elif whole["scenarios"] != total or whole["ended"] != total or \
                any(p.get("verdict") != "pass" and p.get("scenarios", 0) > 0 for p in parts):  # (an empty shard: none)
            whole["verdict"] = "error"
            whole["failure"] = (f"NOT VERIFIED up to {bound}: {whole['ended']} of {total} scenarios ended; "
                                f"{whole['not_ended']} did not, {whole['not_run']} not run"
                                + "".join(f"; shard {p['shard']}: {p.get('failure', '')}" for p in parts
                                          if p.get("verdict") != "pass")[:2000])
        else:
            whole["verdict"] = "pass"
            whole["verified_up_to"] = bound
            whole["shards"] = n
        joined.append(whole)
    return joined, count


def recheck_verify_wholes(runs):
    """An unsharded verify record (one bound, not a ladder) is held to what its own counts
    say before the merge repeats its verdict: a pass whose scenarios did not all end, or
    whose run covered fewer scenarios than its bound holds, is an error here, whatever
    file it came from."""
    for r in runs:
        if r.get("check") != "verify" or r.get("mode") == "ladder" or "shard" in r or r.get("verdict") != "pass":
            continue
        counts = {k: r.get(k) for k in ("scenarios", "of_scenarios", "ended", "not_ended", "not_run")}
        total = counts["of_scenarios"] if counts["of_scenarios"] is not None else counts["scenarios"]
        if not (isinstance(total, int) and counts["scenarios"] == total and counts["ended"] == total
                and not counts["not_ended"] and not counts["not_run"]):
            r["verdict"] = "error"
            r.pop("verified_up_to", None)
            r["failure"] = ("INCONSISTENT: a verify pass whose counts do not add up ("
                            + ", ".join(f"{k} {v}" for k, v in counts.items() if v is not None) + ")")
    return runs


def check_plans(runs):
    """Runs of a sharded plan (model, stress: "shard", "of_runs", "plan") stand for the
    unsharded run only if every run of the plan is here: a complete plan's runs lose
    their shard fields (they are the unsharded runs); an incomplete one's keep them,
    and an error run says what is missing."""
    groups = {}
    for r in runs:
        if "of_runs" in r:
            groups.setdefault((r.get("plan", ""), shard_of(r.get("shard"))[1]), []).append(r)
    errors = []
    for (plan, n), members in groups.items():
        sizes = sorted({m["of_runs"] for m in members})
        size = sizes[-1]
        present = {shard_of(m.get("shard"))[0] for m in members}
        missing = sorted(set(range(min(n, size))) - present)
        structure = ",".join(sorted({str(m.get("structure", "")) for m in members}))
        if n < 1 or len(sizes) > 1:
            problem = f"INCOMPLETE: the runs are of plans of different sizes ({', '.join(map(str, sizes))} runs)"
        elif missing:
            problem = (f"INCOMPLETE: shards {', '.join(map(str, missing))} of {n} are missing "
                       f"({len(members)} of the plan's {size} runs are here)")
        elif len(members) != size:
            problem = f"INCOMPLETE: {len(members)} of the plan's {size} runs are here (a shard stopped early)"
        else:
            for m in members:
                for k in SHARD_FIELDS:
                    m.pop(k, None)
            continue
        errors.append(merge_error(structure, f"{problem}; plan: {plan}"))
    return runs + errors, len(groups)


def junit_details(texts):
    """details(run) for verdicts.junit: the body of the input JUnit testcase of the same
    structure, name and message (a failure's history or table), if any."""
    bodies = {}
    for t in texts:
        try:
            root = ET.fromstring(t)
        except ET.ParseError:
            continue
        for case in root.iter("testcase"):
            for element in list(case.findall("failure")) + list(case.findall("error")):
                key = (case.get("classname", ""), case.get("name", ""), element.get("message", ""))
                bodies.setdefault(key, (element.text or "").strip("\n"))
    return lambda run: bodies.get((str(run.get("structure", "")), testcase_name(run), str(run.get("failure", ""))))


def signature(run):
    return (run.get("structure", ""), run.get("scenario", run.get("workload", "")), run.get("failure", ""),
            run.get("top_frame", ""))


def merge_matrices(docs, paths, out_path, junit_path):
    """The kill matrices of mutants shards as one matrix (see the module's doc)."""
    problems = []
    same = {k: {json.dumps(d.get(k)) for d in docs} for k in ("seeds", "first_seed", "budget_seconds", "layers", "allow_unchecked")}
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
    incomplete = "" if complete else "a matrix merged is incomplete (interrupted)"
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
                incomplete = f"shards {', '.join(map(str, missing))} of {n} are missing"
    layers = docs[0].get("layers") or []
    allow = bool(docs[0].get("allow_unchecked"))
    caught, missed, bad, ok = judge(faults, correct, layers, allow)
    merged = {"faults": faults, "correct_code": correct,
              "false_alarms": sum(c.get("caught_seeds", 0) for c in correct),
              "unchecked": sum(c["status"] in (OVER_BUDGET, ERROR) for c in correct),
              "seeds": docs[0].get("seeds"), "first_seed": docs[0].get("first_seed"),
              "budget_seconds": docs[0].get("budget_seconds"), "layers": layers,
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
    if junit_path:
        with open(junit_path, "w") as out:
            out.write(matrix_junit(faults, correct, missed, bad, "; ".join(problems) or incomplete))
    # The one rule (verdicts.py): 1 if a fault was missed or the correct code failed,
    # else 2 if the matrices could not be joined whole (overlap, settings, a missing
    # shard), else 0 — as the JUnit written above says (a <failure> wins over an <error>).
    if not ok:
        return 1
    if problems:
        return 2
    return 0 if merged["complete"] else 2


def check_nights(nights, runs):
    """The shards of a nightly (`lfcheck nightly --shard I/N`: a "nightly" record each)
    are one night only if they are of one night (seed, budget, N, fault, plan) and all
    N are here once, their parts together the plan's, each once; else an INCOMPLETE (or
    OVERLAP) error run. A --fault night's shards, all here: the night's verdict on its
    fault, over every shard's runs (verdicts.fault_row: MISSED unless a run rejected the
    code). Returns (error and verdict runs, the merged night's record or None)."""
    if not nights:
        return [], None
    problems = []
    def night_of(n):
        return (n.get("seed"), n.get("budget_seconds"), shard_of(n.get("shard", ""))[1], n.get("fault"),
                tuple(n.get("plan_parts") or ()))
    kinds = {night_of(n) for _, n in nights}
    if len(kinds) > 1:
        problems.append(merge_error("(nightly)", "INCOMPLETE: the nightly reports are of different nights "
                                    "(seed, budget, shards, fault or plan differ): "
                                    + ", ".join(sorted(str(k[:4]) for k in kinds))))
        return problems, None
    total = shard_of(nights[0][1].get("shard", ""))[1]
    have, done = {}, {}
    for path, n in nights:
        i = shard_of(n.get("shard", ""))[0]
        if i in have:
            problems.append(merge_error("(nightly)", f"OVERLAP: nightly shard {i}/{total} twice: {have[i]} and {path}"))
            continue
        have[i] = path
        for p in n.get("parts", []):
            done.setdefault(p.get("part"), []).append(path)
    missing = [f"{i}/{total}" for i in range(total) if i not in have]
    if missing:
        problems.append(merge_error("(nightly)", f"INCOMPLETE: the nightly's shards {', '.join(missing)} are missing"))
    plan = list(nights[0][1].get("plan_parts") or [])
    if not missing and plan:
        absent = [p for p in plan if p not in done]
        twice = [p for p, paths in done.items() if len(paths) > 1]
        if absent:
            problems.append(merge_error("(nightly)", "INCOMPLETE: no shard ran the plan's parts " + ", ".join(absent)))
        if twice:
            problems.append(merge_error("(nightly)", "OVERLAP: parts in two shards: " + ", ".join(twice)))
    unchecked = []
    for _, n in nights:
        for u in n.get("unchecked", []):
            if u not in unchecked:
                unchecked.append(u)
                print(f"nightly: not checked: {u.get('part')}: {u.get('reason')}")
    first = nights[0][1]
    if first.get("fault") and not missing and total > 1:
        problems.append(fault_row(runs, first["fault"], first.get("fault_structure", ""),
                                  first.get("fault_layers", ())))
    merged = {"seed": first.get("seed"), "budget_seconds": first.get("budget_seconds"), "shards": total,
              "fault": first.get("fault"), "plan_parts": plan,
              **{k: first[k] for k in ("fault_structure", "fault_layers") if k in first},
              "parts": [p for _, n in sorted(nights, key=lambda x: shard_of(x[1].get("shard", ""))[0])
                        for p in n.get("parts", [])],
              "unchecked": unchecked, "interrupted": any(n.get("interrupted") for _, n in nights)}
    return problems, merged


def main():
    ap = argparse.ArgumentParser(prog="lfcheck merge", description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--json", help="write the merged {\"runs\":[...]} here")
    ap.add_argument("--junit", help="write the merged JUnit XML here")
    ap.add_argument("--keep-shards", action="store_true",
                    help="keep the shard parts of a run apart (one shard's report), not summed into the run")
    a = ap.parse_args()
    runs, junit_texts, matrices, matrix_paths, unreadable, nights = [], [], [], [], [], []
    for path in a.files:
        try:
            text = open(path).read()
        except OSError as e:
            unreadable.append(f"cannot read {path}: {e}")
            continue
        if text.lstrip().startswith(("<?xml", "<testsuites")):
            junit_texts.append(text)
            continue
        try:
            doc = json.loads(text)
            if isinstance(doc, dict) and "faults" in doc and "correct_code" in doc:
                matrices.append(doc)
                matrix_paths.append(path)
                continue
            runs += [dict(r, _from=path) for r in doc["runs"]]
            if isinstance(doc.get("nightly"), dict):
                nights.append((path, doc["nightly"]))
        except (ValueError, KeyError, TypeError) as e:
            unreadable.append(f"{path} is neither a {{\"runs\":[...]}} report, a kill matrix nor JUnit: {e}")
    for u in unreadable:
        print(f"lfcheck merge: {u}", file=sys.stderr)
    if matrices:
        if runs or unreadable:
            print("lfcheck merge: kill matrices (mutants) merge only with kill matrices", file=sys.stderr)
            return 2
        return merge_matrices(matrices, matrix_paths, a.json, a.junit)

    # A run in two files: the shards overlapped. The first copy stays, and an error run says so.
    seen, kept, problems = {}, [], [merge_error("(merge)", f"NO REPORT: {u}") for u in unreadable]
    for r in runs:
        key = identity(r)
        if key in seen:
            why = f"the same run twice (shards overlap): {dict(key)} in {seen[key]} and {r['_from']}"
            print(f"lfcheck merge: {why}", file=sys.stderr)
            problems.append(merge_error(r.get("structure", ""), f"OVERLAP: {why}"))
            continue
        seen[key] = r["_from"]
        del r["_from"]
        kept.append(r)
    runs = kept
    runs = recheck_verify_wholes(runs)
    if not a.keep_shards:
        runs, verify_wholes = join_verify_parts(runs)
        if verify_wholes:
            print(f"joined the shards of {verify_wholes} verify runs")
        parts = sum("shard" in r and "of_runs" not in r for r in runs)
        if parts:
            runs, wholes = join_parts(runs)
            print(f"joined {parts} shard parts into {wholes} runs")
        runs, plans = check_plans(runs)
        if plans:
            print(f"checked {plans} sharded plans for all their runs")
    night_problems, night = check_nights(nights, runs)
    problems += night_problems
    runs += problems
    groups = {}
    for r in runs:
        if r.get("verdict") != "pass":
            groups.setdefault((r.get("verdict"),) + signature(r), []).append(r)

    for r in runs:
        if r.get("check") == "verify" and r.get("verdict") == "pass" and r.get("verified_up_to"):
            print(f"  {r.get('structure')}: VERIFIED up to {r['verified_up_to']}"
                  + (f" ({r['shards']} shards)" if r.get("shards") else ""))
    jsons = len(a.files) - len(junit_texts)
    print(summary(f"merged {jsons} JSON files" + (f" and {len(junit_texts)} JUnit files" if junit_texts else ""),
                  runs))
    for (verdict, structure, scenario, failure, frame), members in sorted(groups.items(), key=lambda g: -len(g[1])):
        seeds = ", ".join(sorted({str(m["seed"]) for m in members if "seed" in m}))
        print(f"  {len(members)} x {verdict}: {structure}/{scenario}: {failure or '?'}"
              + (f" at {frame}" if frame else "") + (f"  (seeds {seeds})" if seeds else ""))
    if a.json:
        with open(a.json, "w") as out:
            # The shards of a nightly: the night's record too (its plan, parts, what was not checked).
            head = '{"nightly":' + json.dumps(dict(night, exit=exit_status(runs)), separators=(",", ":")) + ",\n" \
                if night else "{"
            out.write(head + '"runs":[' + ",".join("\n" + json.dumps(r, separators=(",", ":")) for r in runs)
                      + "\n]}\n")
    if a.junit:
        with open(a.junit, "w") as out:
            out.write(junit(runs, "lfcheck.merged", junit_details(junit_texts)))
    return exit_status(runs)


sys.exit(main())

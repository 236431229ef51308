#!/usr/bin/python3
"""verdicts.py — how lfcheck's Python tools read run records ({"runs":[...]}, the
--json of every runner), stated once:

  exit_status(runs)   the exit status the verdicts stand for: 1 if any run is
                      "fail", else 2 if any is "error" or there is no run, else 0
                      (the rule of harness/report/report.hpp's exit_status).
  rejected(run)       whether a run is the checker's own rejection of the code
                      under test — the only result that counts as catching a
                      fault: a failing run, unless its failure says the checker
                      did not decide (NOT_A_REJECTION).
  command_runs(...)   a command's runs held to its exit status: a command that
                      died or wrote no report, or whose report says another
                      status, gets an error run that says so.
  junit(runs, ...)    JUnit XML written from the runs themselves: one testcase
                      per run, a <failure> per "fail", an <error> per "error".
  fault_row(...)      a --fault night's verdict on its fault: MISSED (fail) unless
                      a run rejected the code, in every layer its catalogue names.
  write_reports(...)  report files written whole, all of them or none.

Every report of lfcheck's Python tools (lin_report.py, merge_reports.py) is
written from its runs with these, so its JSON, its JUnit, its summary line and
its exit status say the same.

Command line (for the shell scripts):
  verdicts.py caught FILE
      exit 0 if FILE (a --json report) holds a run the checker rejected, else 1
      and the reason on stdout (tests/check_faults_caught.sh)
  verdicts.py settle FILE STATUS STRUCTURE [KEY=VALUE...]
      FILE is the --json of a command that exited STATUS: rewrites it with the
      error run command_runs adds, if any (an error run has "structure":
      STRUCTURE and the KEY=VALUE fields), so it says what STATUS says
      (./lfcheck lin and ./lfcheck run, before they join their steps' reports)."""
import json
import os
import re
import sys
from xml.sax.saxutils import quoteattr

# Failures that are the runner's, not the checker's verdict on the code: the failing
# execution did not fail again when re-run alone (NONDETERMINISTIC SCENARIO: model and
# lin model runners), a worker process died before it reported (CRASHED (...): the
# model runner's --jobs workers; a crash of the code under test is "CRASH: SIGSEGV ..."
# under Relacy, "crash (signal)" on real threads, and is a rejection), or the
# linearizability checker's budget ran out before it decided (LINEARIZABILITY UNKNOWN,
# in lin model runs inside Relacy's "USER ASSERT FAILED (...)").
NOT_A_REJECTION = re.compile(r"^(NONDETERMINISTIC SCENARIO|CRASHED \()|LINEARIZABILITY UNKNOWN")


def exit_status(runs):
    verdicts = [r.get("verdict") for r in runs]
    return 1 if "fail" in verdicts else 2 if "error" in verdicts or not runs else 0


def rejected(run):
    return run.get("verdict") == "fail" and not NOT_A_REJECTION.search(run.get("failure", ""))


def read_runs(path):
    """The runs of a {"runs":[...]} file; raises ValueError (or OSError) if it is none."""
    with open(path) as f:
        runs = json.load(f)["runs"]
    if not isinstance(runs, list) or not all(isinstance(r, dict) for r in runs):
        raise ValueError("its runs are not a list of records")
    return runs


# The nightly's parts (their kind: the part's name up to its dot) that stand for a
# layer of a fault's catalogue entry.
NIGHTLY_KINDS_OF_LAYER = {"model": ("model",), "lin": ("lin",), "stress": ("tsan", "asan")}


def fault_row(runs, fault, structure, layers):
    """A --fault night's verdict on its fault (./lfcheck nightly, and lfcheck merge of a
    sharded night's shards): pass if a run of the night rejected the code (rejected())
    and every layer its catalogue entry names (`layers`) whose parts ran tonight has a
    part that did; else fail, MISSED. A night that never found its fault is never a
    pass; one in which no part ran a chunk that reported is an error (NOT CHECKED),
    not a miss. `runs`: the night's runs, each with its nightly_part (and "chunk" if a chunk
    of that part ran it; the nightly's own error runs have a "check")."""
    ran, caught = set(), {}
    for r in runs:
        part = str(r.get("nightly_part", ""))
        if "chunk" in r and not (r.get("verdict") == "error" and "check" in r):   # (not the nightly's error runs)
            ran.add(part.split(".")[0])
        if rejected(r):
            caught[part] = min(caught.get(part, float("inf")), float(r.get("seconds", 0) or 0))
    caught_kinds = {p.split(".")[0] for p in caught}
    missed = [layer for layer in layers if layer in NIGHTLY_KINDS_OF_LAYER
              and any(k in ran for k in NIGHTLY_KINDS_OF_LAYER[layer])
              and not any(k in caught_kinds for k in NIGHTLY_KINDS_OF_LAYER[layer])]
    row = {"structure": structure, "fault": fault, "check": "fault", "nightly_part": "fault",
           "layer_runs": sum(1 for r in runs if "chunk" in r and not (r.get("verdict") == "error" and "check" in r)),
           "seconds": 0}
    if not caught and not ran:
        # No part of the plan ran a chunk that reported: the fault was not looked for,
        # which is not a miss (and never a pass) — an error of the night.
        row.update(verdict="error", failure=f"NOT CHECKED: fault {fault}: no part of {structure}'s plan ran a "
                                            "chunk that reported")
    elif not caught:
        row.update(verdict="fail", failure=f"MISSED: fault {fault} was on in every part of {structure}'s plan, "
                                           "and no part's run rejected the code")
    elif missed:
        row.update(verdict="fail", failure=f"MISSED by a layer the catalogue says must catch it: {fault} "
                                           f"({', '.join(missed)})")
    else:
        row.update(verdict="pass", caught_by={p: round(x, 3) for p, x in caught.items()})
    return row


def write_reports(files):
    """Writes every (path, text) of `files` whole or none of them: each to a temporary
    file first, then all renamed; if any cannot be written, none is left (and OSError
    is raised). So a JUnit never stands beside a JSON that could not be written."""
    done = []
    try:
        for path, text in files:
            tmp = f"{path}.{os.getpid()}.tmp"
            done.append((tmp, path))
            with open(tmp, "w") as out:
                out.write(text)
        for tmp, path in done:
            os.replace(tmp, path)
    except OSError:
        for tmp, path in done:
            for f in (tmp, path):
                if os.path.exists(f):
                    os.unlink(f)
        raise


def describe_status(status):
    return f"exit {status}" + (f" (killed by signal {status - 128})" if status > 128 else "")


def command_runs(path, status, base):
    """The runs of the report at `path` of a command that exited `status`, plus an error
    run (`base` and verdict, failure, seconds) if the report is missing, unreadable or
    empty, or if its verdicts stand for another exit status than the command's."""
    def error(why):
        return dict(base, verdict="error", failure=why, seconds=0)
    try:
        runs = read_runs(path)
    except FileNotFoundError:
        return [error(f"NO REPORT: {describe_status(status)}, and it wrote no report")]
    except (OSError, ValueError, KeyError, TypeError) as e:
        return [error(f"NO REPORT: {describe_status(status)}, and its report is unreadable: {e}")]
    if not runs:
        runs.append(error(f"NO RUN: {describe_status(status)}, and its report holds no run (it checked nothing)"))
    elif exit_status(runs) != status:
        runs.append(error(f"NOT WHAT IT SAID: {describe_status(status)}, but its report stands for "
                          f"exit {exit_status(runs)}"))
    return runs


def testcase_name(run):
    """The JUnit testcase name of a run, as the runners name theirs (report.hpp's write_junit)."""
    if str(run.get("check", "")).startswith("verify"):  # lfcheck verify (its "scenario" is a failing one)
        return run["check"]
    if "layer" in run:  # lin: the layer (a stress layer's: and its workload)
        return run["layer"] + (f".{run['workload']}" if "workload" in run else "")
    if "scenario" in run:  # model
        return f"{run['scenario']}.{run.get('scheduler', '')}"
    return run.get("workload", run.get("check", "run"))  # stress; a check of the tools' own


def cdata(text):
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


# What tells two runs of one report apart (lfcheck merge's identity of a run: two
# records that agree on these are the same run): a report's JUnit names runs that share
# a classname and label by the fields of these in which they differ.
IDENTITY = ("structure", "layer", "scenario", "workload", "scheduler", "bound", "depth", "fault", "seed", "threads",
            "shard", "sanitizer", "nightly_part", "chunk", "correct_code", "check", "verify_bound")
BODY_LIMIT = 64 * 1024   # a failure body's bytes at most (a file's last ones)


def classname(run):
    """A run's JUnit classname: its structure, and a nightly's part and chunk."""
    name = str(run.get("structure", ""))
    if "nightly_part" in run:
        name += f".{run['nightly_part']}" + (f".{run['chunk']}" if "chunk" in run else "")
    return name


def testcase_names(runs):
    """(classname, name) of each run, unique in the report: the run's label
    (testcase_name), then the IDENTITY fields in which runs of one label differ
    ("w sanitizer=address"), then #2, #3, ... for runs that are the same run twice."""
    base = [(classname(r), testcase_name(r)) for r in runs]
    groups = {}
    for i, key in enumerate(base):
        groups.setdefault(key, []).append(i)
    names = list(base)
    for key, members in groups.items():
        if len(members) < 2:
            continue
        differing = [k for k in IDENTITY if len({json.dumps(runs[i].get(k)) for i in members}) > 1]
        seen = {}
        for i in members:
            name = key[1] + "".join(f" {k}={runs[i][k]}" for k in differing if k in runs[i])
            seen[name] = seen.get(name, 0) + 1
            names[i] = (key[0], name + (f" #{seen[name]}" if seen[name] > 1 else ""))
    return names


def read_tail(path, limit=BODY_LIMIT):
    """The last `limit` bytes of a file (saying what was left out), or None."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - limit))
            text = f.read().decode("utf-8", "replace")
        return (f"[... the first {size - limit} bytes of {path} left out]\n" if size > limit else "") + text
    except OSError:
        return None


def failure_body(run):
    """A failing or erring run's JUnit body from the record itself: its replay line and
    artifact paths, and its table (else its sanitizer report, else its history) as the
    file holds it now."""
    lines = [f"{k}: {run[k]}" for k in ("scenario", "replay", "trace", "table", "history", "report") if run.get(k)
             and (k != "scenario" or "layer" in run)]   # (a lin run's scenario: its shrunk failing one)
    for k in ("table", "report", "history"):
        text = read_tail(run[k]) if run.get(k) else None
        if text is not None:
            lines.append(f"\n{text}")
            break
    return "\n".join(lines)


def junit(runs, suite, details=None):
    """JUnit XML of `runs`: one testcase per run, named apart from every other
    (testcase_names); a failing run's <failure>, an error's <error>, with the run's
    failure as the message and as the body details(run) (text or None), else the run's
    own artifacts (failure_body)."""
    bad = {"fail": "failure", "error": "error"}
    failures = sum(r.get("verdict") == "fail" for r in runs)
    errors = sum(r.get("verdict") not in ("pass", "fail") for r in runs)
    total = sum(float(r.get("seconds", 0) or 0) for r in runs)
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n',
           f'<testsuite name={quoteattr(suite)} tests="{len(runs)}" failures="{failures}" errors="{errors}" '
           f'time="{total:.3f}">\n']
    for r, (cls, name) in zip(runs, testcase_names(runs)):
        out.append(f'  <testcase classname={quoteattr(cls)} '
                   f'name={quoteattr(name)} time="{float(r.get("seconds", 0) or 0):.3f}">')
        if r.get("verdict") != "pass":
            element = bad.get(r.get("verdict"), "error")
            body = (details(r) if details else None) or failure_body(r)
            out.append(f'\n    <{element} message={quoteattr(str(r.get("failure", r.get("verdict"))))}>'
                       f'{cdata(body) if body else ""}</{element}>\n  ')
        out.append("</testcase>\n")
    out.append("</testsuite>\n</testsuites>\n")
    return "".join(out)


def summary(what, runs):
    """One line: how many runs passed, failed, erred, and the exit status they stand for."""
    verdicts = [r.get("verdict") for r in runs]
    return (f"{what}: {len(runs)} runs, {verdicts.count('pass')} pass, {verdicts.count('fail')} fail, "
            f"{len(runs) - verdicts.count('pass') - verdicts.count('fail')} error: exit {exit_status(runs)}")


def main(argv):
    if len(argv) == 2 and argv[0] == "caught":
        try:
            runs = read_runs(argv[1])
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"no report: {e}")
            return 1
        if any(rejected(r) for r in runs):
            return 0
        failing = [r.get("failure", "?") for r in runs if r.get("verdict") == "fail"]
        print("no run the checker rejected" + (f" (failing, but not its rejection: {'; '.join(failing)})"
                                               if failing else ""))
        return 1
    if len(argv) >= 4 and argv[0] == "settle" and re.fullmatch(r"\d+", argv[2]):
        base = {"structure": argv[3]}
        for kv in argv[4:]:
            k, _, v = kv.partition("=")
            base[k] = v
        runs = command_runs(argv[1], int(argv[2]), base)
        with open(argv[1], "w") as out:
            out.write('{"runs":[' + ",".join("\n" + json.dumps(r, separators=(",", ":")) for r in runs) + "\n]}\n")
        return 0
    sys.stderr.write(__doc__.split("Command line (for the shell scripts):\n")[1])
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

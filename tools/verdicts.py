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


def junit(runs, suite, details=None):
    """JUnit XML of `runs`: one testcase per run; a failing run's <failure>, an error's
    <error>, with the run's failure as the message and details(run) (text or None) as
    the body."""
    bad = {"fail": "failure", "error": "error"}
    failures = sum(r.get("verdict") == "fail" for r in runs)
    errors = sum(r.get("verdict") not in ("pass", "fail") for r in runs)
    total = sum(float(r.get("seconds", 0) or 0) for r in runs)
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n',
           f'<testsuite name={quoteattr(suite)} tests="{len(runs)}" failures="{failures}" errors="{errors}" '
           f'time="{total:.3f}">\n']
    for r in runs:
        out.append(f'  <testcase classname={quoteattr(str(r.get("structure", "")))} '
                   f'name={quoteattr(testcase_name(r))} time="{float(r.get("seconds", 0) or 0):.3f}">')
        if r.get("verdict") != "pass":
            element = bad.get(r.get("verdict"), "error")
            body = (details(r) if details else None) or ""
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

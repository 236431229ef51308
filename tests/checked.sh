#!/usr/bin/env bash
# checked.sh JSON [JUNIT] -- COMMAND... — runs a model or stress command that writes
# JSON (and JUnit) there, then holds its report to the rules of verdict_rules.py
# (exit status = verdicts, no pass without work, exhaustive only from the root,
# JUnit = JSON). Exit status: the command's if the rules hold, else 1.
set -u
json=$1 junit=
shift
if [ "$1" != -- ]; then junit=$1; shift; fi
[ "$1" = -- ] || { echo "usage: checked.sh JSON [JUNIT] -- COMMAND..."; exit 2; }
shift
rm -f "$json" ${junit:+"$junit"}
"$@"
rc=$?
/usr/bin/python3 "$(dirname "$0")/verdict_rules.py" "$rc" "$json" ${junit:+"$junit"} || exit 1
exit $rc

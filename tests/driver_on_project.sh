#!/usr/bin/env bash
# driver_on_project.sh LFCHECK BUILD [MINE] — the installed `lfcheck` driver on a user's
# build trees (tests/run_examples.sh: BUILD holds examples/ handoff, ticket_lock and
# boost_spsc_queue built against the installed package; MINE, default BUILD, the README's
# copy of examples/bounded_queue):
# --build DIR and the current directory select the tree, a NAME builds and runs only
# that structure's binary, exit statuses are the usual ones (0 nothing found, 1 a check
# failed, 2 usage/set-up), a failure table names the project's own files, its replay
# file replays, a structure without a model layer (NO_MODEL) says why, and verify
# verifies a user's spec up to a bound.
set -u
lfcheck=$1 build=$2 mine=${3:-$2}
failed=0
out=$(mktemp) err=$(mktemp)
# expect STATUS WHAT [-- GREP_STDOUT_AND_STDERR] -- command...
expect() {
  local want=$1 what=$2 pattern=""; shift 2
  if [ "$1" = -- ] && [ "${3:-}" = -- ]; then pattern=$2; shift 3; else shift; fi
  "$@" >"$out" 2>"$err"
  local rc=$?
  if [ $rc -ne "$want" ]; then
    echo "FAIL: $what: exit $rc, want $want"; cat "$out" "$err" | tail -8; failed=$((failed + 1))
  elif [ -n "$pattern" ] && ! cat "$out" "$err" | grep -Eq -- "$pattern"; then
    echo "FAIL: $what: output lacks /$pattern/"; cat "$out" "$err" | tail -8; failed=$((failed + 1))
  else
    echo "ok:   $what (exit $rc)"
  fi
}
b=(--build "$build") m=(--build "$mine")
expect 0 "model NAME, spec only: the generated scenarios" -- 'no hand-written scenarios' -- \
  "$lfcheck" "${m[@]}" model bounded_queue --scenarios 3 --quiet
expect 0 "model NAME from the build tree itself (no --build)" -- 'put_then_take' -- \
  env -C "$build" "$lfcheck" model handoff --list
expect 2 "model NAME without a model layer says why" -- 'no model layer \(NO_MODEL\): boost::lockfree' -- \
  "$lfcheck" "${b[@]}" model boost_spsc_queue
expect 0 "lin NAME without a model layer: stress only, says why" -- 'no model layer \(NO_MODEL\)' -- \
  "$lfcheck" "${b[@]}" lin boost_spsc_queue --scenarios 3 --duration 4 --quiet
expect 0 "lin NAME" -- "$lfcheck" "${m[@]}" lin bounded_queue --scenarios 3 --duration 4 --quiet
expect 0 "props NAME" -- "$lfcheck" "${m[@]}" props bounded_queue
# lfcheck verify on a project's spec (issue 44): its alphabet, every scenario up to 2x2 (+1).
expect 0 "verify NAME: every scenario of a user's spec" -- '^VERIFIED up to 2×2 \(\+1\): bounded_queue' -- \
  "$lfcheck" "${m[@]}" verify bounded_queue --threads 2 --calls 2 --prefix 1
expect 2 "verify NAME without a model layer says why" -- 'no model layer \(NO_MODEL\)' -- \
  "$lfcheck" "${b[@]}" verify boost_spsc_queue
expect 2 "props: unknown structure" -- "$lfcheck" "${b[@]}" props nosuch
expect 0 "stress NAME (TSan)" -- 'seed: ' -- "$lfcheck" "${b[@]}" stress handoff --ops 20000 --quiet
expect 0 "faults lists the project's catalogue" -- 'ticket_lock\.relaxed_unlock' -- "$lfcheck" "${b[@]}" faults
# A seeded fault: the model run fails, its table names the project's header by its
# path in the project, and the replay file it wrote fails the same way.
expect 1 "model NAME --fault: caught, table names the project's file" -- '^source: ticket_lock/ticket_lock' -- \
  "$lfcheck" "${b[@]}" model ticket_lock --fault relaxed_unlock --first-failure --quiet
replay=$(cat "$out" "$err" | sed -n 's/^replay: .*lfcheck replay //p' | head -1)
line=$(cat "$out" "$err" | sed -n 's/^replay: //p' | head -1)
if [ -n "$replay" ] && [ -f "$replay" ]; then
  expect 1 "replay FILE of a user's structure" -- "$lfcheck" "${b[@]}" replay "$replay"
  # Issue 27: the line as printed, from another directory, and `lfcheck replay FILE`
  # with no --build: the replay file names its build tree. Before, the line said
  # ./lfcheck (a project has none), and without --build the driver found no build
  # ("cannot open the build lock /.lfcheck.lock", exit 2).
  expect 1 "the printed replay line, as printed, from /" -- env -C / -u LFCHECK_BUILD_DIR bash -c "$line"
  expect 1 "lfcheck replay FILE without --build, from /" -- env -C / -u LFCHECK_BUILD_DIR "$lfcheck" replay "$replay"
else
  echo "FAIL: the failing model run named no replay file"; failed=$((failed + 1))
fi
# A stress failure of a litmus workload (TSan sees the relaxed unlock): its record names
# the scenario's 3 threads and the executions it ran, and its printed replay line runs
# the same seed from / (exit 0 or 1: thread timing may differ). Before: "threads":4
# (the --threads default), "ops":0, and a ./lfcheck line (issue 27).
expect 1 "stress NAME --fault: a litmus failure" -- "$lfcheck" "${b[@]}" stress ticket_lock --fault relaxed_unlock \
  --ops 40000 --seed 5 --quiet --json "$build/driver-stress.json"
line=$(cat "$out" "$err" | sed -n 's/^ *replay: //p' | head -1)
record=$(/usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
print('ok' if r['threads'] == 3 and r['ops'] > 0 and r.get('unit') == 'executions' else r)" "$build/driver-stress.json" 2>&1)
if [ "$record" = ok ]; then echo "ok:   the litmus failure's record: 3 threads, executions done"
else echo "FAIL: the litmus failure's record: $record"; failed=$((failed + 1)); fi
env -C / -u LFCHECK_BUILD_DIR bash -c "$line" >"$out" 2>"$err"; rc=$?
if { [ $rc -eq 0 ] || [ $rc -eq 1 ]; } && grep -q '^seed: 5$' "$out"; then
  echo "ok:   the printed stress replay line, from /, re-runs seed 5 (exit $rc)"
else
  echo "FAIL: the printed stress replay line '$line', from /: exit $rc"; tail -n 5 "$out" "$err"; failed=$((failed + 1))
fi
expect 2 "a directory that is no build of a project" -- 'is not configured: configure your project first' -- "$lfcheck" --build /tmp model handoff
rm -f "$out" "$err"
echo "driver on a user's project: $failed failed"
[ $failed -eq 0 ]

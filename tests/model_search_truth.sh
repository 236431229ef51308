#!/usr/bin/env bash
# model_search_truth.sh PROBES — the PCT scheduler, --max-seconds and the progress of
# a search with no known total (issue 17). PROBES is lfcheck-model-probes (probe
# scenarios of models/selftest/probe_models.cpp). Every run's JSON and JUnit also go
# through verdict_rules.py.
#   pct depth 2     the window probe (a depth-2 bug) is found by --scheduler pct
#                   --depth 2 within 300 iterations for each of 5 seeds, and never
#                   at --depth 1 (no change point: the bug is out of its reach)
#   pct replay      the replay file of a pct failure re-runs that one execution
#                   and fails the same way
#   budget          --max-seconds ends a full search and a random run: verdict
#                   error, "stopped at budget", not exhaustive, exit 2 — never pass
#   progress        a search with no known total prints "total unknown" or an
#                   "estimate:", never an ETA; a dpor search prints no estimate, but
#                   a lower bound of what is left, in its line and its stopped record
#   jobs progress   with --jobs 2 a long run still shows its progress line (issue 27)
#   interrupt       SIGINT ends the command: the runs that finished keep their
#                   verdicts, the others (running or not started, --jobs 2 and 1) are
#                   "interrupted" (verdict error, exit 2) in the summary, JSON and
#                   JUnit (issue 27), in every step of the default plan: pct, and the
#                   search step's dpor and its fallback (bound, full)
#   full budget     a full search without --max-seconds gets the default budget and
#                   ends "stopped at budget" (LFCHECK_FULL_SEARCH_SECONDS shortens it
#                   here) (issue 27)
set -u
probes=$1
source "$(dirname "$0")/truth_lib.sh"
field() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['runs'][int(sys.argv[2])].get(sys.argv[3], ''))" "$@"; }
window=(probe --scenario window --fault probe.read_in_window --iterations 300)

# --- pct finds a depth-2 bug; depth 1 cannot -----------------------------------
for seed in 0 1 2 3 4; do
  if run pct-d2-$seed 1 -- "$probes" "${window[@]}" --scheduler pct --depth 2 --seed $seed --artifacts "$dir/arts-$seed"; then
    ok "pct depth 2, seed $seed: window bug found after $(field "$dir/pct-d2-$seed.json" 0 iterations) iterations"
  fi
done
# 300 sampled executions and PCT's 8 calibration executions, which count (harness/model/run.cpp).
if run pct-d1 0 -- "$probes" "${window[@]}" --scheduler pct --depth 1; then
  [ "$(field "$dir/pct-d1.json" 0 iterations)" = 308 ] &&
    ok "pct depth 1: 300 iterations (+ 8 of calibration), window bug out of reach" ||
    fail "pct depth 1: $(field "$dir/pct-d1.json" 0 iterations) iterations, want 308 (300 + 8 of calibration)"
fi

# --- a pct failure replays exactly ------------------------------------------------
replay=$dir/arts-0/probe.window.pct.read_in_window.replay
if [ -s "$replay" ] && run pct-replay 1 -- "$probes" --replay "$replay"; then
  it=$(field "$dir/pct-replay.json" 0 iterations) f=$(field "$dir/pct-replay.json" 0 failure)
  want=$(field "$dir/pct-d2-0.json" 0 failure)
  [ "$it" = 1 ] && [ "$f" = "$want" ] && ok "pct replay: 1 execution, same failure ($f)" ||
    fail "pct replay: $it executions, failure '$f' (want 1, '$want')"
elif [ ! -s "$replay" ]; then
  fail "pct depth 2, seed 0: no replay file $replay"
fi

# --- --max-seconds: stopped at budget, never pass ----------------------------------
for s in full random; do
  if run budget-$s 2 -- "$probes" probe --scenario endless --scheduler $s --iterations 1000000000 --max-seconds 1; then
    v=$(field "$dir/budget-$s.json" 0 verdict) f=$(field "$dir/budget-$s.json" 0 failure)
    ex=$(field "$dir/budget-$s.json" 0 exhaustive) it=$(field "$dir/budget-$s.json" 0 iterations)
    [ "$v" = error ] && [ "$f" = "stopped at budget" ] && [ "$ex" = False ] && [ "$it" -gt 0 ] &&
      grep -q "stopped at budget" "$dir/budget-$s.out" &&
      ok "$s, --max-seconds 1: stopped at budget after $it executions, not exhaustive, exit 2" ||
      fail "$s, --max-seconds 1: verdict $v, failure '$f', exhaustive $ex, $it iterations"
  fi
done

# --- progress of a search with no known total: no ETA --------------------------------
# On a pipe the progress line comes every 10 s: an 11-second search shows one.
timeout 60 "$probes" probe --scenario endless --scheduler full --max-seconds 11 >"$dir/progress.out" 2>"$dir/progress.err"
line=$(grep -m1 '^\[probe/endless full\]' "$dir/progress.err")
if [ -z "$line" ]; then
  fail "progress: no progress line in 11 s"; cat "$dir/progress.err"
elif echo "$line" | grep -q "ETA" || ! echo "$line" | grep -Eq "total unknown|estimate: "; then
  fail "progress: '$line' (want 'total unknown' or 'estimate:', no ETA)"
else
  ok "progress: '$line'"
fi

# --- dpor's progress and record: a lower bound, never an explored fraction -------------
# DPOR's tree grows as it finds races: a fraction read off its path said "19% explored,
# ~2s left" of searches that did not end in ten minutes. Its line and a stopped record
# say what is known: classes, redundant runs, at least how many executions are left.
# (LFCHECK_STDERR_TTY: the terminal's 0.25 s lines, on this pipe.)
LFCHECK_STDERR_TTY=1 timeout 60 "$probes" probe --scenario endless --scheduler dpor --max-seconds 2 \
  --json "$dir/dpor-progress.json" >"$dir/dpor-progress.out" 2>"$dir/dpor-progress.err"
line=$(tr '\r' '\n' <"$dir/dpor-progress.err" | grep -m1 '\[probe/endless dpor\] [0-9]* executions')
pending=$(field "$dir/dpor-progress.json" 0 pending_at_least)
estimate=$(field "$dir/dpor-progress.json" 0 explored_estimate)
if [ -z "$line" ]; then
  fail "dpor progress: no progress line in 2 s"; tail -3 "$dir/dpor-progress.err"
elif echo "$line" | grep -Eq "ETA|estimate" || ! echo "$line" | grep -Eq "classes, [0-9]+ redundant; at least [1-9][0-9]* more, open from choice [0-9]+ of [0-9]+\).*total unknown"; then
  fail "dpor progress: '$line' (want classes, redundant, 'at least N more, open from choice D of L', 'total unknown'; no estimate)"
elif [ -n "$estimate" ] || ! [ "${pending:-0}" -ge 1 ] 2>/dev/null || ! grep -q "not exhaustive; at least $pending more to run" "$dir/dpor-progress.out"; then
  fail "dpor stopped at budget: explored_estimate '$estimate', pending_at_least '$pending' (want none, >= 1, and said in the summary)"
else
  ok "dpor progress: '$(echo "$line" | sed 's/^.*\] //')'; stopped record: pending_at_least $pending, no explored_estimate"
fi

# --- --jobs 2: a long run's progress line; SIGINT keeps what finished -------------------
# endless's default plan (pct, then the search step: dpor, which does not end within
# 1000 executions, then bound and full) in two workers; SIGINT once the full search
# shows its progress line. Before: no progress line at all under --jobs (only the
# finished runs' one-liners), and SIGINT killed the command (130) with no summary, JSON
# or JUnit.
interrupt int INT '\[probe/endless full\] [0-9]* executions' -- "$probes" probe --scenario endless --iterations 200 \
  --dpor-executions 1000 --jobs 2 && held=1 || held=0
if ! grep -q '\[probe/endless full\] [0-9]* executions' "$dir/int.err"; then
  fail "jobs progress: no progress line of the full search under --jobs 2 in 60 s"; tail -3 "$dir/int.err"
else
  ok "jobs progress: the full search's progress line under --jobs 2"
fi
if [ $held = 1 ]; then
  verdict=$(/usr/bin/python3 -c "
import json, sys
runs = {r['scheduler']: r for r in json.load(open(sys.argv[1]))['runs']}
s = runs.get('bound+full', {})
ok = sorted(runs) == ['bound+full', 'pct'] and runs['pct']['verdict'] == 'pass' and \
     s['verdict'] == 'error' and s['failure'] == 'interrupted' and not s['exhaustive'] and \
     s['dpor_executions'] == 1000
print('ok' if ok else runs)" "$dir/int.json")
  [ "$verdict" = ok ] && grep -q '^probe *endless *bound+full .*interrupted' "$dir/int.out" &&
    ok "SIGINT: exit 2; pct passed, the search step's full search interrupted in the summary, JSON and JUnit" ||
    fail "interrupt: $verdict"
fi

# --- --jobs 1: the run in progress and the runs not started are interrupted ---------------
interrupt int1 INT '\[probe/endless pct\]' -- "$probes" probe --scenario endless --iterations 1000000000 --jobs 1 && held=1 || held=0
if [ $held = 1 ]; then
  verdict=$(/usr/bin/python3 -c "
import json, sys
runs = json.load(open(sys.argv[1]))['runs']
ok = [r['scheduler'] for r in runs] == ['pct', 'search'] and \
     all(r['verdict'] == 'error' and r['failure'] == 'interrupted' for r in runs) and \
     runs[0]['iterations'] > 0 and runs[1]['iterations'] == 0
print('ok' if ok else runs)" "$dir/int1.json")
  [ "$verdict" = ok ] && grep -q '2 interrupted' "$dir/int1.out" &&
    ok "SIGINT, --jobs 1: the pct run interrupted after its executions, the search step marked interrupted" ||
    fail "interrupt, --jobs 1: $verdict"
fi

# --- the search step's dpor search is interrupted like any run ----------------------------
# endless's dpor search does not end (its budget here is out of reach): SIGINT once
# it shows its progress line. The search step's record is dpor's, interrupted after
# its executions, with no fallback to the bound search. Before (runners as libraries,
# without the interrupt): exit 130, no summary, JSON or JUnit.
interrupt int-dpor INT '\[probe/endless dpor\] [0-9]* executions' -- "$probes" probe --scenario endless --iterations 200 \
  --dpor-executions 1000000000000 --jobs 1 && held=1 || held=0
if [ $held = 1 ]; then
  verdict=$(/usr/bin/python3 -c "
import json, sys
runs = json.load(open(sys.argv[1]))['runs']
ok = [r['scheduler'] for r in runs] == ['pct', 'dpor'] and runs[0]['verdict'] == 'pass' and \
     runs[1]['verdict'] == 'error' and runs[1]['failure'] == 'interrupted' and \
     runs[1]['stopped'] == 'interrupt' and runs[1]['iterations'] > 0 and not runs[1]['exhaustive']
print('ok' if ok else runs)" "$dir/int-dpor.json")
  [ "$verdict" = ok ] && grep -q '1 interrupted' "$dir/int-dpor.out" && ! grep -q 'falling back' "$dir/int-dpor.out" &&
    ok "SIGINT during the search step's dpor: dpor interrupted after its executions, no fallback, exit 2" ||
    fail "interrupt during dpor: $verdict"
fi

# --- a full search gets a default budget -------------------------------------------------
if LFCHECK_FULL_SEARCH_SECONDS=2 run full-default 2 -- "$probes" probe --scenario endless --scheduler full; then
  f=$(field "$dir/full-default.json" 0 failure)
  [ "$f" = "stopped at budget" ] && grep -q 'default budget' "$dir/full-default.out" &&
    ok "full search without --max-seconds: the default budget, stopped at budget, exit 2" ||
    fail "full search without --max-seconds: failure '$f'"
fi
# ... also the full search of the default plan's search step (endless declares that its
# full search finishes; its dpor search stops at 1000 executions, bound-2 ends).
if LFCHECK_FULL_SEARCH_SECONDS=2 run search-default 2 -- "$probes" probe --scenario endless --iterations 200 --dpor-executions 1000; then
  s=$(field "$dir/search-default.json" 1 scheduler) f=$(field "$dir/search-default.json" 1 failure)
  [ "$s" = bound+full ] && [ "$f" = "stopped at budget" ] && grep -q 'default budget' "$dir/search-default.out" &&
    ok "default plan: the search step's full search has the default budget, stopped at budget, exit 2" ||
    fail "default plan's full search without --max-seconds: scheduler '$s', failure '$f'"
fi

echo "model search truth: $failed failed"
[ $failed -eq 0 ]

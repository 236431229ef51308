#!/usr/bin/env bash
# lin_model_truth.sh LIN_MODEL_DELIQUEUE LIN_MODEL_TREIBER LIN_MODEL_PROBES — the lin model layer's
# order and schedulers (issue 17):
#   two passes    every scenario's sampled run before any scenario's bound search:
#                 deliqueue.barrier_token_race (seed 1: scenario 4's sampling shows
#                 it) is found after the sampled runs of scenarios 0..4, about 5,000
#                 executions; in one pass it waited for four bound searches (84,042)
#   first failure the JSON says when the failing run ended, before shrinking
#   pct           --scheduler pct finds treiber.pop_gives_up, names pct, and its
#                 replay file reproduces the failure (3 of 3)
#   words         the checker's rejection is recorded in its words ("NOT
#                 LINEARIZABLE: ..."), as printed, not as "USER ASSERT FAILED (...)"
#                 (issue 27)
#   interrupt     SIGINT stops the run: the structure's record is "interrupted"
#                 (verdict error, exit 2) with the scenarios that ran (issue 27)
#   usage         --scheduler other than random or pct is exit 2
#   no work       a Subject on std::atomic (models/selftest/probe_lin.cpp): Relacy saw no
#                 shared access — NO WORK (error, exit 2), never pass or verified; the
#                 same Subject on Sync::atomic is NOT LINEARIZABLE
#   verified      treiber's generated scenarios: most end their dpor search (verified),
#                 the JSON counts them, and a dpor failure replays
set -u
deli=$1 treiber=$2 probes=$3
source "$(dirname "$0")/truth_lib.sh"
field() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['runs'][0].get(sys.argv[2], ''))" "$@"; }

# --- two passes ------------------------------------------------------------------------
if run two-pass 1 -- "$deli" deliqueue --fault deliqueue.barrier_token_race --seed 1 --scenarios 200 --scheduler random; then
  n=$(field "$dir/two-pass.json" scenarios) e=$(field "$dir/two-pass.json" executions)
  [ "$n" = 5 ] && [ "$e" -le 5000 ] && ok "two passes: found in scenario 4's sampled run, $n scenarios, $e executions" ||
    fail "two passes: $n scenarios, $e executions (want 5 scenarios, at most 5000: the sampled runs of scenarios 0..4)"
  ff=$(field "$dir/two-pass.json" first_failure_seconds) all=$(field "$dir/two-pass.json" seconds)
  /usr/bin/python3 -c "import sys; f, a = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if 0 < f <= a else 1)" "${ff:-0}" "$all" &&
    grep -q "failed after [0-9.]*s, shrunk in" "$dir/two-pass.out" &&
    ok "first failure: after ${ff}s of ${all}s (the rest: shrinking)" || fail "first failure: '$ff' of '$all' seconds, or not printed"
fi

# --- pct, and its replay -----------------------------------------------------------------
if run pct 1 -- "$treiber" treiber --fault treiber.pop_gives_up --seed 1 --scenarios 50 --scheduler pct --depth 3 \
     --artifacts "$dir/arts"; then
  grep -q "(model, pct scheduler, fault treiber.pop_gives_up) FAILED" "$dir/pct.out" &&
    ok "pct: finds treiber.pop_gives_up and says pct" || fail "pct: the report does not name the pct scheduler"
  f=$(field "$dir/pct.json" failure)
  [[ "$f" == "NOT LINEARIZABLE: "* ]] && grep -qF "FAILED: $f ===" "$dir/pct.out" &&
    ok "words: recorded and printed as the checker's rejection ('$f')" ||
    fail "words: recorded '$f', want the checker's 'NOT LINEARIZABLE: ...' as printed"
  replay=$dir/arts/lin.treiber.pct.pop_gives_up.replay
  if [ -s "$replay" ] && grep -q '^scheduler=pct' "$replay"; then
    same=0
    for i in 1 2 3; do
      "$treiber" --replay "$replay" >"$dir/replay-$i.out" 2>&1
      [ $? -eq 1 ] && grep -q 'NOT LINEARIZABLE' "$dir/replay-$i.out" && same=$((same + 1))
    done
    [ $same -eq 3 ] && ok "pct replay: the failure again in 3/3 replays" || fail "pct replay: $same of 3 replays failed"
  else
    fail "pct: no replay file naming pct ($(ls "$dir/arts" 2>/dev/null | tr '\n' ' '))"
  fi
fi

# --- SIGINT: the scenarios that ran, the record interrupted --------------------------------
interrupt int INT '\[lin treiber model' -- "$treiber" treiber --scenarios 100000 --seed 1 && held=1 || held=0
if [ $held = 1 ]; then
  v=$(field "$dir/int.json" verdict) f=$(field "$dir/int.json" failure) n=$(field "$dir/int.json" scenarios)
  [ "$v" = error ] && [ "$f" = interrupted ] && [ "$n" -gt 0 ] && [ "$n" -lt 100000 ] &&
    ok "SIGINT: exit 2, interrupted after $n scenarios, in JSON and JUnit" ||
    fail "interrupt: verdict $v, failure '$f', $n scenarios"
fi

# --- usage -----------------------------------------------------------------------------------
"$treiber" treiber --scheduler bound --scenarios 1 >"$dir/usage.out" 2>&1
[ $? -eq 2 ] && ok "usage: --scheduler bound is exit 2" || fail "usage: --scheduler bound exit $?"


# --- no shared access: nothing was checked ----------------------------------------------
if run std-counter 2 -- "$probes" probe_std_counter --seed 1 --scenarios 5; then
  v=$(field "$dir/std-counter.json" verdict) f=$(field "$dir/std-counter.json" failure)
  ver=$(field "$dir/std-counter.json" verified_scenarios) ex=$(field "$dir/std-counter.json" exhaustive_scenarios)
  [ "$v" = error ] && [[ "$f" == "NO WORK: no shared access seen"* ]] && [ "$ver" = 0 ] && [ "$ex" = 0 ] &&
    ok "a Subject on std::atomic: NO WORK, nothing verified or exhaustive, exit 2" ||
    fail "std counter: verdict $v, failure '$f', verified $ver, exhaustive $ex"
fi
if run sync-counter 1 -- "$probes" probe_sync_counter --seed 1 --scenarios 5; then
  grep -q "NOT LINEARIZABLE" "$dir/sync-counter.out" && ok "the same Subject on Sync::atomic: NOT LINEARIZABLE" ||
    fail "sync counter: $(tail -3 "$dir/sync-counter.out")"
fi

# --- dpor: generated scenarios verified ----------------------------------------------------
if run verified 0 -- "$treiber" treiber --seed 1 --scenarios 10; then
  ver=$(field "$dir/verified.json" verified_scenarios)
  [ "${ver:-0}" -ge 1 ] && ok "treiber, 10 scenarios: $ver verified by dpor" || fail "treiber: no scenario verified ($ver)"
fi
if run dpor-fault 1 -- "$treiber" treiber --fault treiber.pop_gives_up --seed 1 --scenarios 50 --iterations 1 \
     --artifacts "$dir/dpor-arts"; then
  replay=$(ls "$dir"/dpor-arts/lin.treiber.*.replay 2>/dev/null | head -1)
  if [ -n "$replay" ] && run dpor-replay 1 -- "$treiber" --replay "$replay"; then
    grep -q "reproduced" "$dir/dpor-replay.out" && ok "a lin failure found by its search replays ($(basename "$replay"))" ||
      fail "lin replay did not reproduce"
  else
    fail "pop_gives_up: no replay file"
  fi
fi
echo "lin model truth: $failed failed"
[ $failed -eq 0 ]

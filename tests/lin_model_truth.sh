#!/usr/bin/env bash
# lin_model_truth.sh LIN_MODEL_DELIQUEUE LIN_MODEL_TREIBER — the lin model layer's
# order and schedulers (issue 17):
#   two passes    every scenario's sampled run before any scenario's bound search:
#                 deliqueue.barrier_token_race (seed 1: scenario 4's sampling shows
#                 it) is found after the sampled runs of scenarios 0..4, about 5,000
#                 executions; in one pass it waited for four bound searches (84,042)
#   first failure the JSON says when the failing run ended, before shrinking
#   pct           --scheduler pct finds treiber.pop_gives_up, names pct, and its
#                 replay file reproduces the failure (3 of 3)
#   usage         --scheduler other than random or pct is exit 2
set -u
deli=$1 treiber=$2
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

# --- usage -----------------------------------------------------------------------------------
"$treiber" treiber --scheduler bound --scenarios 1 >"$dir/usage.out" 2>&1
[ $? -eq 2 ] && ok "usage: --scheduler bound is exit 2" || fail "usage: --scheduler bound exit $?"

echo "lin model truth: $failed failed"
[ $failed -eq 0 ]

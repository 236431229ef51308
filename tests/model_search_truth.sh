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
#                   "estimate:", never an ETA
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
if run pct-d1 0 -- "$probes" "${window[@]}" --scheduler pct --depth 1; then
  [ "$(field "$dir/pct-d1.json" 0 iterations)" = 300 ] && ok "pct depth 1: 300 iterations, window bug out of reach" ||
    fail "pct depth 1: $(field "$dir/pct-d1.json" 0 iterations) iterations, want 300"
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

echo "model search truth: $failed failed"
[ $failed -eq 0 ]

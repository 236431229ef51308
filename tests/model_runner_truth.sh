#!/usr/bin/env bash
# model_runner_truth.sh PROBES MODEL — the model runner reports what ran, never more
# (issue 13). PROBES is lfcheck-model-probes (the runner with the probe scenarios of
# models/selftest/probe_models.cpp), MODEL the real lfcheck-model. Every run's JSON
# also goes through verdict_rules.py (exit status = verdicts, no pass without work,
# exhaustive only from the root).
#   nondeterministic  a failure that does not happen again when its execution is
#                     re-run alone is NONDETERMINISTIC SCENARIO, exit 1 — not pass
#   executions        the iterations reported are the executions the probe counted
#                     itself (random 1 and 10, bound, full); --iterations 1 ends
#   fault selection   --fault F without a structure runs F's structure only
#   resumed search    a bound/full search resumed from a replay file is not
#                     exhaustive, and a replay runs the recorded execution alone
set -u
probes=$1 model=$2
source "$(dirname "$0")/truth_lib.sh"
field() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['runs'][int(sys.argv[2])].get(sys.argv[3], ''))" "$@"; }
witness() { sed -n 's/^probe counted: \([0-9]*\) executions$/\1/p' "$dir/$1.err"; }

# --- nondeterministic scenario --------------------------------------------------
for s in random bound; do
  if run flaky-$s 1 -- "$probes" probe --scenario flaky --scheduler $s --iterations 10; then
    f=$(field "$dir/flaky-$s.json" 0 failure)
    [ "$f" = "NONDETERMINISTIC SCENARIO" ] && grep -q "NONDETERMINISTIC SCENARIO" "$dir/flaky-$s.out" &&
      ok "flaky ($s): NONDETERMINISTIC SCENARIO, exit 1" || fail "flaky ($s): failure '$f', want NONDETERMINISTIC SCENARIO"
  fi
done

# --- executions: reported = counted by the probe ---------------------------------
check_count() {  # name scheduler [--iterations N] ; want (empty: whatever the probe counted)
  local name=$1 want=$2; shift 2
  run "$name" 0 -- "$probes" probe --scenario counted "$@" || return
  local reported counted
  reported=$(field "$dir/$name.json" 0 iterations)
  counted=$(witness "$name")
  if [ "$reported" != "$counted" ] || { [ -n "$want" ] && [ "$counted" != "$want" ]; }; then
    fail "$name: reported $reported iterations, the probe counted ${counted:-none} executions${want:+, asked for $want}"
  else
    ok "$name: reported $reported iterations = $counted executions counted"
  fi
}
check_count random-1 1 --scheduler random --iterations 1
check_count random-10 10 --scheduler random --iterations 10
check_count random-seed 7 --scheduler random --iterations 7 --seed 3
check_count bound "" --scheduler bound
check_count full "" --scheduler full
[ "$(field "$dir/bound.json" 0 exhaustive)" = True ] && ok "bound from the root: exhaustive" ||
  fail "bound from the root: not exhaustive"

# --- a fault runs its own structure only ------------------------------------------
if run fault-only 1 -- "$model" --fault treiber.take_all_drops_last --scheduler random --iterations 200; then
  others=$(/usr/bin/python3 -c "import json,sys; print(sorted({r['structure'] for r in json.load(open(sys.argv[1]))['runs']} - {'treiber'}))" "$dir/fault-only.json")
  [ "$others" = "[]" ] && ok "--fault treiber.* without a structure runs treiber only" ||
    fail "--fault treiber.* without a structure also ran $others"
fi

# --- a search resumed from a replay file is not exhaustive ------------------------
for s in bound full; do
  arts=$dir/artifacts-$s
  run order-$s 1 -- "$probes" probe --scenario order --fault thread1_first --scheduler $s --artifacts "$arts" || continue
  replay=$arts/probe.order.$s.thread1_first.replay
  [ -s "$replay" ] || { fail "order ($s): no replay file"; continue; }
  sed 's/^fault=.*/fault=/' "$replay" >"$dir/resumed-$s.replay"  # the correct code, same state
  if run resumed-$s 0 -- "$probes" --replay "$dir/resumed-$s.replay"; then
    ex=$(field "$dir/resumed-$s.json" 0 exhaustive) it=$(field "$dir/resumed-$s.json" 0 iterations)
    [ "$ex" = False ] && [ "$it" = 1 ] && ok "resumed $s search: 1 execution, not exhaustive" ||
      fail "resumed $s search: exhaustive=$ex, iterations=$it (want False, 1)"
  fi
done

echo "model runner truth: $failed failed"
[ $failed -eq 0 ]

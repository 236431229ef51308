#!/usr/bin/env bash
# model_algorithms_truth.sh ALGORITHMS SCENARIO [full] — one textbook algorithm of
# lfcheck-model-algorithms (models/selftest/algorithms/, structure "algorithms"):
#   correct code   passes under pct (100000 iterations), under the bound-2 search
#                  (exhaustive), under DPOR (verified: exhaustive, said so, with its
#                  bounds) and with "full" under the full search (exhaustive: only
#                  where it ends within seconds)
#   every twin     (the faults whose short name starts with SCENARIO_, from the
#                  catalogue: at least two) fails under pct, under the bound-2
#                  search and under DPOR, exit 1, with the checker's own words for its bug (the
#                  table below) and a failure table pointing at the scenario's source
# Every run's JSON and JUnit also go through verdict_rules.py. No timing is asserted.
set -u
bin=$1 scenario=$2 full=${3:-}
source "$(dirname "$0")/truth_lib.sh"

# What each twin's failing execution must be reported as: Relacy's words, and for a
# failed check of the scenario, the check's own message.
expected() {
  case $1 in
    seqlock_reader_fence_missing | seqlock_writer_fence_missing | seqlock_relaxed_publish)
      echo "USER ASSERT FAILED|seqlock reader returned" ;;
    peterson_relaxed_flag | peterson_relaxed_unlock) echo "DATA RACE|" ;;
    spsc_ring_relaxed_publish | spsc_ring_relaxed_tail_load | spsc_ring_relaxed_free) echo "DATA RACE|" ;;
    chase_lev_take_fence_missing | chase_lev_steal_fence_missing)
      echo "USER ASSERT FAILED|a pushed item was taken twice or never" ;;
    chase_lev_relaxed_publish) echo "ACCESS TO UNINITIALIZED VARIABLE|" ;;
  esac
}

# --- the correct code passes -------------------------------------------------------
schedulers="pct bound dpor"
[ "$full" = full ] && schedulers="$schedulers full"
for s in $schedulers; do
  if run correct-$s 0 -- "$bin" algorithms --scenario "$scenario" --scheduler $s --jobs 1; then
    it=$(field "$dir/correct-$s.json" 0 iterations) ex=$(field "$dir/correct-$s.json" 0 exhaustive)
    if [ $s = pct ]; then
      [ "$it" = 100008 ] && ok "$scenario, correct, pct: 100000 executions (and 8 calibration) passed" ||
        fail "$scenario, correct, pct: $it executions, want 100008 (100000 and PCT's 8 calibration executions)"
    else
      [ "$ex" = True ] && ok "$scenario, correct, $s: exhaustive pass in $it executions" ||
        fail "$scenario, correct, $s: exhaustive '$ex' after $it executions"
      if [ $s = dpor ]; then  # verified: said so, with the bounds that remain
        grep -q "^verified (dpor ended" "$dir/correct-$s.out" &&
          [ -n "$(field "$dir/correct-$s.json" 0 bounds)" ] &&
          ok "$scenario, correct, dpor: the summary says verified, the JSON names its bounds" ||
          fail "$scenario, correct, dpor: no 'verified' line or no bounds in the JSON"
      fi
    fi
  fi
done

# --- every twin is caught, in the checker's words ------------------------------------
faults=$("$bin" algorithms --list-faults | awk '{print $1}' | grep "^algorithms\.${scenario}_") || true
n=$(echo "$faults" | grep -c .)
[ "$n" -ge 2 ] || fail "$scenario: $n seeded twins in the catalogue, want at least 2"
for f in $faults; do
  short=${f#algorithms.}
  want=$(expected "$short")
  if [ -z "$want" ]; then fail "$f: no expected failure in this script's table"; continue; fi
  words=${want%%|*} message=${want#*|}
  for s in pct bound dpor; do
    name=$short-$s
    run "$name" 1 -- "$bin" algorithms --scenario "$scenario" --fault "$f" --scheduler $s --first-failure \
      --history --jobs 1 --artifacts "$dir/arts" || continue
    got=$(field "$dir/$name.json" 0 failure) it=$(field "$dir/$name.json" 0 iterations)
    if [ "$got" != "$words" ]; then
      fail "$f, $s: failure '$got', want '$words'"
    elif [ -n "$message" ] && ! grep -qF "$message" "$dir/$name.out"; then
      fail "$f, $s: $words without the check's message '$message'"
    elif ! grep -q "^source: models/selftest/algorithms/$scenario.cpp" "$dir/$name.out"; then
      fail "$f, $s: the failure table does not point at models/selftest/algorithms/$scenario.cpp"
    else
      ok "$f, $s: caught after $it executions ($words${message:+: $message})"
    fi
  done
done

echo "$failed failed"
[ $failed -eq 0 ]

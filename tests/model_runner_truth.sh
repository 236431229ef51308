#!/usr/bin/env bash
# model_runner_truth.sh PROBES MODEL SOUNDNESS — the model runner reports what ran,
# never more (issue 13). PROBES is lfcheck-model-probes (the runner with the probe
# scenarios of models/selftest/probe_models.cpp), MODEL the real lfcheck-model,
# SOUNDNESS lfcheck-model-soundness (models/selftest/soundness_probes.cpp). Every run's JSON
# also goes through verdict_rules.py (exit status = verdicts, no pass without work,
# exhaustive only from the root).
#   nondeterministic  a failure that does not happen again when its execution is
#                     re-run alone is NONDETERMINISTIC SCENARIO, exit 1 — not pass;
#                     so is a dpor search whose last execution ended before the
#                     choices its path held (issue 43: it was verified)
#   executions        the iterations reported are the executions the probe counted
#                     itself (random 1 and 10, bound, full); --iterations 1 ends
#   fault selection   --fault F without a structure runs F's structure only
#   resumed search    a bound/full search resumed from a replay file is not
#                     exhaustive, and a replay runs the recorded execution alone
#   labels            a failure table names a buffer store after the buffer, not
#                     after another operand of its source line, and shows the value
#                     a racing store stores (Relacy records 0 for it) (issue 27)
set -u
probes=$1 model=$2 soundness=$3
source "$(dirname "$0")/truth_lib.sh"
field() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['runs'][int(sys.argv[2])].get(sys.argv[3], ''))" "$@"; }
witness() { sed -n 's/^probe counted: \([0-9]*\) executions$/\1/p' "$dir/$1.err"; }

# --- nondeterministic scenario --------------------------------------------------
# pct too: its calibration executions are executions of the scenario (before, their
# verdicts were thrown away and flaky passed under pct); dpor's replay of the path.
for s in random bound pct dpor; do
  if run flaky-$s 1 -- "$probes" probe --scenario flaky --scheduler $s --iterations 10; then
    f=$(field "$dir/flaky-$s.json" 0 failure)
    [ "$f" = "NONDETERMINISTIC SCENARIO" ] && grep -q "NONDETERMINISTIC SCENARIO" "$dir/flaky-$s.out" &&
      ok "flaky ($s): NONDETERMINISTIC SCENARIO, exit 1" || fail "flaky ($s): failure '$f', want NONDETERMINISTIC SCENARIO"
  fi
done

if run diverge-last 1 -- "$soundness" soundness --scenario diverge_last --scheduler dpor; then
  f=$(field "$dir/diverge-last.json" 0 failure)
  [ "$f" = "NONDETERMINISTIC SCENARIO" ] && grep -q "did not repeat the choices" "$dir/diverge-last.out" &&
    ok "diverge_last (dpor): NONDETERMINISTIC SCENARIO, exit 1" ||
    fail "diverge_last (dpor): failure '$f', want NONDETERMINISTIC SCENARIO"
fi

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
check_count dpor "" --scheduler dpor
# pct's calibration (8 executions at depth 1) is part of what ran (before: 10 reported, 18 ran).
check_count pct-10 18 --scheduler pct --iterations 10
[ "$(field "$dir/dpor.json" 0 exhaustive)" = True ] && ok "dpor from the root: exhaustive" ||
  fail "dpor from the root: not exhaustive"

# --- no shared access: nothing was checked -----------------------------------------
# A racy counter on std::atomic is invisible to Relacy: every scheduler ran the threads
# one after the other and passed it (bound and full even "exhaustive"). Now: NO WORK.
for s in pct random bound full dpor; do
  if run std-atomic-$s 2 -- "$probes" probe --scenario std_atomic --scheduler $s --iterations 200; then
    v=$(field "$dir/std-atomic-$s.json" 0 verdict) f=$(field "$dir/std-atomic-$s.json" 0 failure)
    ex=$(field "$dir/std-atomic-$s.json" 0 exhaustive)
    [ "$v" = error ] && [[ "$f" == "NO WORK: no shared access seen"* ]] && [ "$ex" = False ] &&
      ok "std_atomic ($s): NO WORK, not exhaustive, exit 2" || fail "std_atomic ($s): verdict $v, failure '$f', exhaustive $ex"
  fi
done
run sync-atomic 1 -- "$probes" probe --scenario sync_atomic --scheduler dpor &&
  ok "the same counter on Sync::atomic: the lost update is found (exit 1)"

# --- an over-aligned block is Relacy's too: its leak is reported ---------------------
if run leak-aligned 1 -- "$probes" probe --scenario leak_aligned --scheduler bound; then
  f=$(field "$dir/leak-aligned.json" 0 failure)
  [[ "$f" == "MEMORY LEAK"* ]] && ok "an alignas(64) object never destroyed: $f" ||
    fail "leak_aligned: failure '$f', want MEMORY LEAK"
fi

# --- pct: k and the executions that ran past it are reported -----------------------
if run pct-window 0 -- "$probes" probe --scenario window --scheduler pct --depth 3 --iterations 500; then
  /usr/bin/python3 - "$dir/pct-window.json" <<'PY' && ok "pct reports k (twice the longest calibration execution) and the executions past it" || fail "pct-window: $(cat "$dir/pct-window.json")"
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
k, longer, n = r.get('pct_steps'), r.get('longer_than_pct_steps'), r['iterations']
sys.exit(0 if isinstance(k, int) and k >= 2 and isinstance(longer, int) and 0 <= longer <= n else 1)
PY
fi
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

# --- a failure table names what each step touched (issue 27) ---------------------
# Before: the slot's store was "size#2 store 3" (the line's first operation, a load of
# size, named it) and the racing store "data store 0" (Relacy's T() for a racing access).
if run labels 1 -- "$probes" probe --scenario labels --scheduler random --iterations 10 --artifacts "$dir/arts-labels"; then
  table=$dir/arts-labels/probe.labels.random.table.txt
  racing=$(grep -B1 '!! DATA RACE' "$table" | head -1)
  if grep -q 'size#' "$table" || ! grep -q 'slots\[size.load(std::memory_order_relaxed)\] store 3' "$table"; then
    fail "labels: the slot's store is not named after the slot"; cat "$table"
  elif ! echo "$racing" | grep -q 'data store 3 '; then
    fail "labels: the racing store shows '$racing', want 'data store 3'"; cat "$table"
  else
    ok "labels: the slot's store named after the slot, the racing store shows its 3"
  fi
fi

echo "model runner truth: $failed failed"
[ $failed -eq 0 ]

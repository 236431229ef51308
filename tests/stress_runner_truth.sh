#!/usr/bin/env bash
# stress_runner_truth.sh STRESS PROBES [TSAN_STRESS ASAN_STRESS ASAN_PROBES TSAN_PROBES] — the
# stress runner reports what ran (issue 13). STRESS is the plain lfcheck-stress,
# PROBES the plain lfcheck-stress-probes (stress/selftest/probe_*stress.cpp), the
# others the TSan and ASan+UBSan builds (whose probes binaries hold probe_leak, probe_hang
# and probe_uninstrumented only: probe_sanitizer_stress.cpp). Every run's JSON (and JUnit) also goes
# through verdict_rules.py (exit status = verdicts, no pass without work, JUnit = JSON).
#   zero work   a budget too small for any work still runs at least one round or
#               litmus execution; a workload that does no work is an error (exit
#               2), never a pass
#   phases      the timers workload shuts a worker down halfway through the budget,
#               under --duration as under --ops ("worker_shutdowns":1 in its JSON)
#   hangs       a workload's own hang watchdog (shutdown's parked owner) leaves the
#               same whole verdict as the runner's
#   heartbeats  a nested lin.scenarios run beats per execution: no false HANG
#   positions   a HANG report shows each thread's last finished and running operation
#   bounded     a quiescent check within its own bound is no HANG; one past it is
#               LINEARIZABILITY UNKNOWN, not a HANG either (issue 47)
#   hooks       a spec's thread_begin/thread_end run on every thread lin starts
#   relaxed     a k-out-of-order FIFO passes its relaxed spec, fails the strict one, and a
#               fault beyond k fails the relaxed one; the same for a k-out-of-order LIFO
#   real time   lin.scenarios checks real-time order, not program order alone: probe_stale
#               (stress/selftest/probe_lin_stale.cpp), a register whose writes others see
#               late, is linearizable in program order and must fail
#   crashes     four threads that crash at once leave one whole verdict (JSON, JUnit)
#   pacing      DeliQueue's and removal's lin.history keep their queue short (at most 64 queued), so
#               their 10,000-call histories are checked, not judged unknown
#   monitored   a spec that declares its collection type and with_value has lin.history's
#               100,000-call histories checked by the monitor (histories_monitored, no
#               search), and an "empty" while values are held fails with the monitor's
#               witness (issue 47)
#   litmus      a failing litmus workload (a model scenario on real threads) records
#               the scenario's threads, the executions it ran and its unit, also when
#               the process dies in it, and shows each thread's last executions (issue 27)
#   lin check   a Sync::check failing inside a lin scenario is that scenario's failure:
#               what is printed as its failure is what the JSON records (issue 27)
#   interrupt   SIGTERM (as SIGINT) ends the run: the workload running and the ones after it are
#               "interrupted" (verdict error, exit 2) in the JSON and JUnit (issue 27)
#   uninstrumented  a TSan report through a library built without TSan is labelled so
#   sanitizers  environment options that switch reporting off are refused (exit 2);
#               a LeakSanitizer leak fails the run in its JSON and JUnit, with its
#               replay line, as the exit status (1) says
set -u
stress=$1 probes=$2 tsan=${3:-} asan=${4:-} asan_probes=${5:-} tsan_probes=${6:-}
source "$(dirname "$0")/truth_lib.sh"

# --- zero work ----------------------------------------------------------------------
run tiny-duration 0 -- "$stress" --duration 0.000001 --seed 1 &&
  ok "--duration 0.000001: every workload (litmus ones too) did work and passed"
if run idle 2 -- "$probes" probe_idle --seed 1; then
  grep -q '"verdict":"error"' "$dir/idle.json" && grep -q "NO WORK" "$dir/idle.out" &&
    ok "a workload that runs no round: NO WORK, verdict error, exit 2" || fail "idle workload: $(cat "$dir/idle.json")"
fi

# --- lin.scenarios on real threads: real-time order ----------------------------------
# A read invoked after write(v) returned must see v (or a later write). probe_stale's
# other threads read the old value until the writer's slow flush: only a real-time
# check rejects it (before this check, program order accepted every execution).
if run stale 1 -- "$probes" probe_stale --workload lin.scenarios --lin-scenarios 30 --seed 1; then
  grep -q "NOT LINEARIZABLE" "$dir/stale.out" && grep -q '"verdict":"fail"' "$dir/stale.json" &&
    ok "lin.scenarios rejects a read that missed a write which returned before it began (real time)" ||
    fail "probe_stale: no NOT LINEARIZABLE verdict: $(tail -3 "$dir/stale.out")"
fi

# --- --duration is a deadline: rounds end at it ------------------------------------
# probe_slow's rounds take 20 s each (1024 operations of 20 ms): a 1 s budget must
# end within about a second of it, counting the operations done (fewer than a
# round's 2 x 1024) and real seconds.
if run slow 0 -- "$probes" probe_slow --duration 1 --threads 2 --seed 1; then
  verdict=$(/usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
ok = 0 < r['ops'] < 2048 and 0.9 <= r['seconds'] < 3
print('ok' if ok else 'ops %s, seconds %s' % (r['ops'], r['seconds']))" "$dir/slow.json")
  [ "$verdict" = ok ] && ok "--duration 1 with 20 s rounds: ended at the deadline, operations counted as done" ||
    fail "--duration 1 with 20 s rounds: $verdict (want 0 < ops < 2048, 0.9 <= seconds < 3)"
fi

# --- timers: the worker-shutdown half runs under either budget --------------------
for budget in "--duration 2" "--ops 200000"; do
  name=timers-${budget%% *}; name=${name/--/}
  if run "$name" 0 -- "$stress" timers $budget --threads 4 --seed 3; then
    shutdowns=$(/usr/bin/python3 -c "import json,sys; print([r.get('worker_shutdowns') for r in json.load(open(sys.argv[1]))['runs'] if r['workload'] == 'add_modify_stop_run'])" "$dir/$name.json")
    [ "$shutdowns" = "[1]" ] && ok "timers $budget: the worker shutdown ran" ||
      fail "timers $budget: worker_shutdowns $shutdowns, want [1]"
  fi
done

# --- a crash on every thread at once: one whole verdict ------------------------------
# probe_crash: all threads take SIGSEGV together (plain build). Before the first
# thread's handler owned the death, another's _exit cut the JSON short in 4 of 10 runs.
lost=0
for i in 1 2 3 4 5 6 7 8 9 10; do
  if run crash$i 1 -- "$probes" probe_crash --threads 4 --seed $i; then
    grep -q '"failure":"crash (signal)' "$dir/crash$i.json" || lost=$((lost + 1))
  else
    lost=$((lost + 1))
  fi
done
[ $lost -eq 0 ] && ok "4 threads crash at once, 10 runs: every JSON and JUnit whole, verdict fail (crash)" ||
  fail "4 threads crash at once: $lost of 10 runs lost or garbled the verdict"

# --- a workload's own hang watchdog writes the verdict too --------------------------
# shutdown's watchdog (an owner parked past the window: a lost wake-up) used to end
# the process with a raw exit_group: exit 1 and a replay line, but no JSON, so the
# kill matrix counted the catch as an error. It now goes through StressRun::hang.
# --hang-seconds 30: the runner's own round watchdog (30 s) stays out of the way of the
# workload's (min(30, 10) = 10 s); with the derived 5 s for both, either could fire first
# (a clean-clone run saw the runner's "no round completed for 5 s" win the race).
if run own-hang 1 -- "$stress" shutdown --fault shutdown.park_no_recheck --duration 10 --hang-seconds 30 --seed 1; then
  grep -q '"failure":"HANG (an owner has not returned from shutdown()' "$dir/own-hang.json" &&
    ok "a workload's own hang watchdog: verdict fail (HANG) in JSON and JUnit, exit 1" ||
    fail "own hang watchdog: $(cat "$dir/own-hang.json")"
fi

# --- a hang report shows where each thread was (issue 30) ---------------------------
# probe_hang: thread 0's third operation never returns, thread 1 ends its round and
# waits at the barrier. The runner's HANG names thread 0's running operation and
# thread 1 between operations, in the table and in the JSON's thread_positions.
if run hang-positions 1 -- "$probes" probe_hang --threads 2 --hang-seconds 1 --seed 1; then
  positions=$(/usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
p = {x['thread']: x for x in r['thread_positions']}
ok = (r['failure'].startswith('HANG (no round completed') and p[0]['running']['op'] == 'wait_forever 7'
      and p[0]['finished'] == 2 and 'running' not in p[1] and p[1]['finished'] == 8
      and p[1]['last_finished']['op'].startswith('quick')
      and any('sleep' in f or 'nanosleep' in f for f in (p[0].get('stack') or [])))
print('ok' if ok else json.dumps(r['thread_positions']))" "$dir/hang-positions.json" 2>&1)
  [ "$positions" = ok ] && grep -q "wait_forever 7 since" "$dir/hang-positions.err" &&
    grep -q "nothing: between operations" "$dir/hang-positions.err" &&
    ok "a HANG shows each thread's last finished and running operation and its stack (table, JSON thread_positions)" ||
    fail "hang positions: $positions $(grep -A4 'where each thread' "$dir/hang-positions.err")"
fi

# A thread past the stack slots (64) has no stack, and the report says why — not "did
# not take the signal", which it was never sent — in the table and in the JSON's
# stack_missing.
if run hang-many 1 -- "$probes" probe_hang --threads 66 --hang-seconds 1 --seed 1; then
  why=$(/usr/bin/python3 -c "
import json, sys
p = {x['thread']: x for x in json.load(open(sys.argv[1]))['runs'][0]['thread_positions']}
print(p[65].get('stack') is None, p[65].get('stack_missing', ''))" "$dir/hang-many.json" 2>&1)
  [[ "$why" == "True not captured: only the first 64 threads' stacks are"* ]] &&
    grep -q "stack: not captured: only the first 64 threads' stacks are" "$dir/hang-many.err" &&
    ok "a HANG of 66 threads: thread 65's stack is missing for its real reason (64 slots)" ||
    fail "hang of 66 threads: thread 65: $why"
fi

# --- bounded work without heartbeats: no HANG within its bound, nor past it ------------
# A linearizability check of a long history beats no heartbeat; it ends by its own
# budget (60 s for lin.history, 5 s per lin.scenarios execution), so the watchdog
# must not call it a HANG before then — before StressRun::BoundedWork, a 2 s check
# under --hang-seconds 1 was one. A check that overruns its bound is the checker's
# silence, not the code's: LINEARIZABILITY UNKNOWN (exit 1, no pass), not a HANG
# (issue 47; it was "HANG (no round completed for 1 s)" before).
if run slow-check 0 -- "$probes" probe_slow_check --workload slow_bounded_check --threads 2 --ops 64 \
  --hang-seconds 1 --seed 1; then
  ok "a 2 s quiescent check within its 4 s bound, --hang-seconds 1: passes, no HANG"
fi
if run overrun-check 1 -- "$probes" probe_slow_check --workload overrun_bounded_check --threads 2 --ops 64 \
  --hang-seconds 1 --seed 1; then
  grep -q '"verdict":"fail","sanitizer":"[a-z]*","failure":"LINEARIZABILITY UNKNOWN: a check ran past its budget and 1 s more' \
    "$dir/overrun-check.json" && ! grep -q HANG "$dir/overrun-check.json" &&
    ok "a quiescent check past its 1 s bound: LINEARIZABILITY UNKNOWN (not a pass, not a HANG), exit 1" ||
    fail "overrun check: $(cat "$dir/overrun-check.json")"
fi

# --- a spec's per-thread hooks run on every thread lin starts (issue 30) --------------
# probe_hooks' Subject fails a check on a call (or its construction or destruction)
# from a thread its thread_begin did not register, and on a second registration.
if run hooks 0 -- "$probes" probe_hooks --lin-scenarios 5 --ops 40000 --threads 3 --seed 1; then
  grep -q '"workload":"lin.scenarios"' "$dir/hooks.json" && grep -q '"workload":"lin.history"' "$dir/hooks.json" &&
    ok "probe_hooks: lin.scenarios and lin.history call thread_begin/thread_end on every thread, the driver's too" ||
    fail "probe_hooks: $(cat "$dir/hooks.json")"
fi

# --- relaxed specs: k-out-of-order FIFO (issue 30) ----------------------------------
# probe_relaxed: pop takes any of the 3 oldest values, empty() is exempt. Its relaxed
# spec passes and the record says how far out of order the linearizations went (at
# most the bound, 2); the same queue fails a strict FIFO; the seeded fault (any of
# the 4 oldest) fails the relaxed spec.
if run relaxed 0 -- "$probes" probe_relaxed --lin-scenarios 30 --seed 1; then
  worst=$(/usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
print(r.get('worst_out_of_order'), r.get('out_of_order_bound'))" "$dir/relaxed.json")
  case $worst in
    "1 2"|"2 2") ok "a 3-out-of-order queue passes its relaxed spec; worst out of order $worst (bound 2)" ;;
    *) fail "relaxed: worst_out_of_order/bound '$worst' (want 1 or 2, bound 2)" ;;
  esac
fi
if run relaxed-strict 1 -- "$probes" probe_relaxed_strict --lin-scenarios 30 --seed 1; then
  grep -q "NOT LINEARIZABLE" "$dir/relaxed-strict.out" &&
    ok "the same queue against a strict FIFO spec: NOT LINEARIZABLE" ||
    fail "relaxed-strict: $(tail -3 "$dir/relaxed-strict.out")"
fi
if run relaxed-fault 1 -- "$probes" probe_relaxed --fault probe_relaxed.window_4 --lin-scenarios 100 --seed 1; then
  grep -q "relaxed spec: it allows results up to 2 places out of order, and still no order fits" "$dir/relaxed-fault.out" &&
    ok "probe_relaxed.window_4 (any of the 4 oldest) fails the 3-out-of-order spec, and the table says why" ||
    fail "relaxed-fault: $(tail -5 "$dir/relaxed-fault.out")"
fi

# probe_relaxed_lifo: the same for a stack that pops any of the 3 newest values (its
# spec's state is the set of stacks the history may have left: exact with repeats).
if run relaxed-lifo 0 -- "$probes" probe_relaxed_lifo --lin-scenarios 30 --seed 1; then
  worst=$(/usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
print(r.get('worst_out_of_order'), r.get('out_of_order_bound'))" "$dir/relaxed-lifo.json")
  case $worst in
    "1 2"|"2 2") ok "a 3-out-of-order stack passes its relaxed spec; worst out of order $worst (bound 2)" ;;
    *) fail "relaxed-lifo: worst_out_of_order/bound '$worst' (want 1 or 2, bound 2)" ;;
  esac
fi
if run relaxed-lifo-fault 1 -- "$probes" probe_relaxed_lifo --fault probe_relaxed_lifo.window_4 --lin-scenarios 100 --seed 1; then
  grep -q "relaxed spec: it allows results up to 2 places out of order, and still no order fits" "$dir/relaxed-lifo-fault.out" &&
    ok "probe_relaxed_lifo.window_4 (any of the 4 newest) fails the 3-out-of-order spec" ||
    fail "relaxed-lifo-fault: $(tail -5 "$dir/relaxed-lifo-fault.out")"
fi

# --- the hang window counts executions, not scenarios -----------------------------
# lin.scenarios runs each scenario (1,000 executions, ~2 s for shutdown) as a nested
# litmus run; its heartbeats reach the outer run's watchdog per execution. Before,
# one beat per scenario: a 0.5 s window (or 5 s on a loaded machine) saw a HANG of
# correct code.
if run beats 0 -- "$stress" shutdown --workload lin.scenarios --lin-scenarios 3 --hang-seconds 0.5 --seed 7; then
  ok "lin.scenarios under a 0.5 s hang window: every execution is a heartbeat, no false HANG"
fi

# --- long histories of a queue are paced -------------------------------------------
# DeliQueue's and removal's lin.history (harness/lin/history_pacing.hpp): the posters
# wait while 16 messages are queued, so every history's check finishes. Unpaced,
# deliqueue seed 1 met a history with 1,442 queued whose check ran past its 60 s
# budget (unknown).
for s in deliqueue removal; do
  if run paced-$s 0 -- "$stress" $s --workload lin.history --threads 4 --ops 100000 --seed 1; then
    verdict=$(/usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
ok = r['verdict'] == 'pass' and r['histories'] >= 10 and r['calls_checked'] >= 100000 and 0 < r['most_queued'] <= 64
print('ok' if ok else 'histories %s, calls_checked %s, most_queued %s' % (r.get('histories'), r.get('calls_checked'), r.get('most_queued')))" "$dir/paced-$s.json")
    [ "$verdict" = ok ] && ok "$s lin.history: 10 paced histories checked, the queue stayed short" ||
      fail "$s lin.history: $verdict (want >= 10 histories, 100,000 calls, 0 < most_queued <= 64)"
  fi
done

# --- collection specs: lin.history through the monitor (issue 47) ---------------------
# probe_rare_stack declares `collection = stack` and with_value: its lin.history histories
# are 100,000 calls (the --ops budget 400,000: 4 of them), every pushed value distinct,
# and the stack monitor decides each (histories_searched 0). Its _gives_up twin's pop says
# "empty" every 256th time it finds values: the monitor must fail it and show the witness.
if run monitored 0 -- "$probes" probe_rare_stack --workload lin.history --threads 4 --ops 400000 --seed 1; then
  verdict=$(/usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
ok = (r['verdict'] == 'pass' and r['histories'] == 4 and r['calls_checked'] == 400000 and
      r['histories_monitored'] == 4 and r['histories_searched'] == 0 and 'check_ms' in r)
print('ok' if ok else json.dumps(r))" "$dir/monitored.json")
  [ "$verdict" = ok ] && ok "a collection spec's lin.history: 4 histories of 100,000 calls, each decided by the stack monitor" ||
    fail "monitored lin.history: $verdict"
fi
if run monitored-bug 1 -- "$probes" probe_rare_stack_gives_up --workload lin.history --threads 4 --ops 400000 --seed 1; then
  grep -q '"failure":"NOT LINEARIZABLE: ' "$dir/monitored-bug.json" && grep -q '"histories_monitored":1' "$dir/monitored-bug.json" &&
    grep -q 'stack monitor: pop(): empty .* found the stack empty, but throughout it the stack certainly held' "$dir/monitored-bug.out" &&
    ok "an 'empty' pop while values are held: NOT LINEARIZABLE, with the stack monitor's witness" ||
    fail "monitored bug: $(cat "$dir/monitored-bug.json") $(head -c 600 "$dir/monitored-bug.out")"
fi

# --- litmus failures: the scenario's threads, the work done, the last executions --------
# Before: "threads":4 (the --threads default) for a 2-thread scenario, "ops":0 when the
# process died in the run, and an empty "last operations per thread" table.
litmus_record() {  # NAME THREADS EXECUTIONS FAILURE_PREFIX
  /usr/bin/python3 - "$dir/$1.json" "$2" "$3" "$4" <<'EOF2'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
ok = (r["threads"] == int(sys.argv[2]) and r["ops"] == int(sys.argv[3]) and r.get("unit") == "executions"
      and r["failure"].startswith(sys.argv[4]))
print("ok" if ok else "threads %s, ops %s, unit %s, failure %r" % (r["threads"], r["ops"], r.get("unit"), r["failure"]))
EOF2
}
if run litmus-check 1 -- "$probes" probe_litmus --workload litmus.check_fails --ops 10000 --seed 1 --artifacts "$dir/arts-litmus"; then
  verdict=$(litmus_record litmus-check 2 3 "ASSERT: probe_litmus: the third execution")
  rows=$(sed -n '/last operations per thread/,/trace:/p' "$dir/litmus-check.out" | grep -cE '^ +[0-9]+ ')
  table=$dir/arts-litmus/probe_litmus.litmus.check_fails.seed1.table.txt
  if [ "$verdict" != ok ]; then
    fail "litmus check failure: $verdict (want 2 threads, 3 executions)"
  elif [ "$rows" -lt 2 ] || ! grep -q 'execution 3' "$table"; then
    fail "litmus check failure: $rows rows of last operations, want each thread's executions"; cat "$dir/litmus-check.out"
  else
    ok "litmus check failure: 2 threads, 3 executions, each thread's last executions shown"
  fi
fi
if run litmus-crash 1 -- "$probes" probe_litmus --workload litmus.crash_later --ops 10000 --seed 1; then
  verdict=$(litmus_record litmus-crash 2 5 "crash (signal)")
  [ "$verdict" = ok ] && ok "litmus crash in execution 5: 2 threads, 5 executions in the dying run's JSON" ||
    fail "litmus crash in execution 5: $verdict (want 2 threads, 5 executions)"
fi

# --- a check failing inside a lin scenario: printed as recorded -----------------------
# Before: the check went to the outer run (JSON "ASSERT: ...") while the scenario ran
# on and was printed, shrunk, as NOT LINEARIZABLE.
if run lin-check 1 -- "$probes" probe_lin --workload 'lin.*' --lin-scenarios 1 --seed 1; then
  printed=$(sed -n 's/^lin probe_lin (real threads, [a-z]*) FAILED: //p' "$dir/lin-check.out")
  recorded=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['runs'][0]['failure'])" "$dir/lin-check.json")
  if [ -n "$printed" ] && [[ "$recorded" == "$printed"* ]] && [[ "$printed" == "ASSERT: probe_lin: boom()"* ]]; then
    ok "a check inside a lin scenario: printed and recorded as '$printed'"
  else
    fail "a check inside a lin scenario: printed '$printed', recorded '$recorded' (want both the check's ASSERT)"
  fi
fi

# --- SIGTERM: what finished is reported, the rest marked interrupted -------------------
# Two passing litmus workloads under a long --duration; SIGTERM once the first shows its
# progress line. Before: the litmus workload showed none, and the signal killed the
# process (143) with no JSON.
interrupt int TERM 'stress probe_litmus/litmus.quiet\]' -- "$probes" probe_litmus --workload 'litmus.quiet*' --duration 600 --seed 1 \
  && held=1 || held=0
if ! grep -q 'stress probe_litmus/litmus.quiet\]' "$dir/int.err"; then
  fail "interrupt: the litmus workload showed no progress line in 60 s"
elif [ $held = 1 ]; then
  verdict=$(/usr/bin/python3 -c "
import json, sys
runs = json.load(open(sys.argv[1]))['runs']
ok = [r['workload'] for r in runs] == ['litmus.quiet', 'litmus.quiet_too'] and \
     all(r['verdict'] == 'error' and r['failure'] == 'interrupted' for r in runs) and runs[0]['ops'] > 0 and runs[1]['ops'] == 0
print('ok' if ok else runs)" "$dir/int.json")
  [ "$verdict" = ok ] && grep -q 'interrupted' "$dir/int.out" &&
    ok "SIGTERM: exit 2, the running workload and the next one interrupted in JSON, JUnit and summary" ||
    fail "interrupt: $verdict"
fi

# --- sanitizer reports belong to the verdict ----------------------------------------
refused() {  # variable=value binary
  env "$1" "$2" treiber --ops 1000 --quiet >"$dir/env.out" 2>&1; local rc=$?
  if [ $rc -eq 2 ] && grep -q "sanitizer reporting disabled" "$dir/env.out" && [ "$(wc -l <"$dir/env.out")" -eq 1 ]; then
    ok "$1: refused in one line, exit 2"
  else
    fail "$1: exit $rc, want 2 with one line saying reporting is disabled"; tail -n 3 "$dir/env.out"
  fi
}
if [ -n "$tsan" ]; then
  refused TSAN_OPTIONS=halt_on_error=0 "$tsan"
  refused TSAN_OPTIONS=report_bugs=0 "$tsan"
  refused "TSAN_OPTIONS=second_deadlock_stack=1 suppressions=/dev/null" "$tsan"
  refused ASAN_OPTIONS=detect_leaks=0 "$asan"
  refused UBSAN_OPTIONS=halt_on_error=false "$asan"
  if run leak 1 -- "$asan_probes" probe_leak --ops 1000 --seed 5; then
    grep -q '"failure":"LeakSanitizer' "$dir/leak.json" && grep -q "replay: [^ ]*lfcheck --build [^ ]* stress probe_leak" "$dir/leak.out" &&
      ok "a leak: verdict fail in JSON and JUnit, replay line, exit 1" || fail "leak: $(cat "$dir/leak.json")"
  fi
  # The hang report under TSan: no report of its own (it read the run's start
  # unsynchronized once: TSan caught it), the HANG verdict, stacks symbolized.
  if [ -n "$tsan_probes" ] && run hang-tsan 1 -- "$tsan_probes" probe_hang --threads 2 --hang-seconds 1 --seed 1; then
    hang=$(/usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
p = {x['thread']: x for x in r['thread_positions']}
print('ok' if r['failure'].startswith('HANG (no round completed') and p[0]['running']['op'] == 'wait_forever 7'
      else json.dumps(r))" "$dir/hang-tsan.json" 2>&1)
    [ "$hang" = ok ] && ! grep -q "WARNING: ThreadSanitizer" "$dir/hang-tsan.err" &&
      ok "a HANG under TSan: the verdict is the HANG with every thread's position, and TSan reports nothing" ||
      fail "hang under TSan: $hang $(grep -m3 -A3 'WARNING: ThreadSanitizer' "$dir/hang-tsan.err")"
  fi
  # A TSan report whose stack passes through a shared object built without TSan:
  # still a failure, but labelled, in the words, the JSON and the JUnit (issue 30).
  if [ -n "$tsan_probes" ] && run uninstrumented 1 -- "$tsan_probes" probe_uninstrumented --threads 2 --ops 4000 --seed 1; then
    grep -q '"uninstrumented":\["liblfcheck_probe_uninstrumented.so"\]' "$dir/uninstrumented.json" &&
      grep -q '"failure":"ThreadSanitizer report through code built without TSan (liblfcheck_probe_uninstrumented.so)' "$dir/uninstrumented.json" &&
      grep -q 'message="ThreadSanitizer report through code built without TSan' "$dir/uninstrumented.xml" &&
      grep -q "Nothing is suppressed: the verdict stays FAIL" "$dir/uninstrumented.err" &&
      ok "a TSan report through code built without TSan: verdict fail, labelled in words, JSON and JUnit" ||
      fail "uninstrumented: $(cat "$dir/uninstrumented.json"; tail -5 "$dir/uninstrumented.err")"
  fi
  # A TSan report does not end the lin workloads (issue 47): probe_racy_stack's calls race
  # on a plain counter, and its stack is linearizable; lin.history runs to its end (2
  # histories of 100,000 calls), and its record gives both findings: the report (its
  # stacks all in code built with TSan, so the loaded library built without it is named
  # as a hint) and the lin verdict with the calls it checked. Exit 1: TSan found something.
  if [ -n "$tsan_probes" ] && run racy 1 -- "$tsan_probes" probe_racy_stack --workload lin.history --ops 200000 \
       --threads 4 --seed 1; then
    racy=$(/usr/bin/python3 -c "
import json, sys
h = json.load(open(sys.argv[1]))['runs'][0]
ok = (h['verdict'] == 'fail' and h['sanitizer_reports'] >= 1 and h['histories'] == 2 and h['calls_checked'] == 200000 and
      h['lin'] == 'linearizable, 200000 calls checked' and h['uninstrumented_loaded'] == ['liblfcheck_probe_uninstrumented.so'] and
      h['sanitizer_first_report'].startswith('data race stress/selftest/probe_lin_race.cpp:') and
      h['failure'].startswith('ThreadSanitizer: ') and h['failure'].endswith('; lin: linearizable, 200000 calls checked') and
      'its stacks are all in code built with TSan' in h['failure'] and 'liblfcheck_probe_uninstrumented.so' in h['failure'])
print('ok' if ok else json.dumps(h))" "$dir/racy.json" 2>&1)
    # The record counts the reports TSan says it made.
    reports=$(sed -n 's/^ThreadSanitizer: reported \([0-9]*\) warnings$/\1/p' "$dir/racy.err")
    [ "$racy" = ok ] && grep -q 'lin.history: FAIL  200000 ops' "$dir/racy.out" &&
      grep -q "failure: ThreadSanitizer: $reports reports\\? (first: .*; lin: linearizable, 200000 calls checked" "$dir/racy.out" &&
      grep -q "\"sanitizer_reports\":$reports," "$dir/racy.json" &&
      ok "a TSan report in lin.history: it runs to its end, its record gives the report and the lin verdict, exit 1" ||
      fail "racy lin.history: $racy $(tail -5 "$dir/racy.out")"
  fi
  # lin.scenarios likewise: every scenario runs, the record says how many executions were checked.
  if [ -n "$tsan_probes" ] && run racy-scenarios 1 -- "$tsan_probes" probe_racy_stack --workload lin.scenarios \
       --lin-scenarios 2 --seed 1; then
    grep -q '"failure":"ThreadSanitizer: [^"]*; lin: linearizable, 2000 executions checked"' "$dir/racy-scenarios.json" &&
      grep -q '"scenarios":2' "$dir/racy-scenarios.json" &&
      ok "a TSan report in lin.scenarios: its scenarios run to their end, and the record gives both findings" ||
      fail "racy lin.scenarios: $(cat "$dir/racy-scenarios.json")"
  fi
  # The same race on a stack whose pop says "empty" while values are held: both findings.
  if [ -n "$tsan_probes" ] && run racy-bug 1 -- "$tsan_probes" probe_racy_stack_gives_up --workload lin.history \
       --ops 400000 --threads 4 --seed 1; then
    grep -q '"failure":"ThreadSanitizer: [^"]*; lin: NOT LINEARIZABLE: ' "$dir/racy-bug.json" &&
      grep -q '"lin":"NOT LINEARIZABLE: ' "$dir/racy-bug.json" && grep -q '"sanitizer_reports":[1-9]' "$dir/racy-bug.json" &&
      ok "a TSan report and a NOT LINEARIZABLE history in one lin.history run: both in the record, exit 1" ||
      fail "racy lin bug: $(cat "$dir/racy-bug.json")"
  fi
  # The race, then a call that never returns: the HANG's record gives the report too.
  if [ -n "$tsan_probes" ] && run racy-hang 1 -- "$tsan_probes" probe_racy_stack_hangs --workload lin.history \
       --ops 200000 --threads 2 --hang-seconds 1 --seed 1; then
    grep -q '"failure":"ThreadSanitizer: [^"]*; lin: HANG (no round completed for 1 s)"' "$dir/racy-hang.json" &&
      grep -q '"lin":"HANG (no round completed for 1 s)"' "$dir/racy-hang.json" && grep -q '"thread_positions":' "$dir/racy-hang.json" &&
      grep -q '  and before it: ThreadSanitizer: ' "$dir/racy-hang.err" &&
      ok "a TSan report, then a HANG in lin.history: the HANG's record gives both, exit 1" ||
      fail "racy lin hang: $(cat "$dir/racy-hang.json"; tail -3 "$dir/racy-hang.err")"
  fi
fi

echo "stress runner truth: $failed failed"
[ $failed -eq 0 ]

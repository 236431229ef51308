#!/usr/bin/env bash
# driver_reports_truth.sh LFCHECK — ./lfcheck lin and ./lfcheck run say in every report
# what their exit status says, whatever their layers did (issue 27), on a stand-in build
# tree whose layer binaries are scripted (tests/fake_layer.py): structure "fake" (every
# layer) and "speconly" (no hand-written model scenarios: its model layer is lin's).
#   lin     the exit status is the one rule over the runs of both layers (1 if any
#           failed, else 2 if any is an error, else 0): a failing model layer and an
#           erring stress layer exit 1, not 2; a layer that died (a signal, exit 2
#           without a report) is an error run in the report, which is always written;
#           --json, --junit and the summary line agree with the exit status
#   run     the same for the joined report of the model and lin steps: a failing lin
#           model layer beside an erring stress layer exits 1 with every run in --json,
#           and a model step that died is an error run
#   int     a SIGTERM to the driver alone (a CI's time-out) stops the running step at once
#           and starts no other: exit 2, the report holds what finished, the interrupted
#           step and "interrupted: not run" for the steps not started
#   stale   a run that ends before writing its report leaves none (not an earlier one)
#   spec    ./lfcheck run NAME --seed S on a spec-only structure runs its lin model once
#           (the model step is it; the lin step runs the stress layer): exit 0, no overlap
#   fields  ./lfcheck lin's report holds the stress layer's records whole: every field the
#           runner wrote (a relaxed spec's worst_out_of_order and out_of_order_bound,
#           lin.history's histories and calls_checked, a HANG's thread_positions, a TSan
#           report's uninstrumented), its work named by its unit (lin.history's calls as
#           "calls", never "executions"); and its JUnit names the runs apart
#   verify  run's verify step (./lfcheck verify --ladder) on a structure whose spec
#           declares an alphabet: its record joins the report; a failing or dying verify
#           step is exit 1 or 2 like any step; without an alphabet the step is left out;
#           a listing of the alphabets that fails is an error run (exit 2), not "no alphabet"
set -u
lfcheck=$1
source "$(dirname "$0")/truth_lib.sh"
build=$dir/build
mkdir -p "$build/models" "$build/sanitizer-thread/stress"
printf 'lfcheck-manifest 1\nproject\tfake\nsanitizer_subbuilds\tON\n' >"$build/lfcheck-manifest.txt"
printf 'structure\tfake\tmodel,lin-model,stress,props,spec\t-\n' >>"$build/lfcheck-manifest.txt"
printf 'structure\tspeconly\tlin-model,stress,spec\t-\n' >>"$build/lfcheck-manifest.txt"
stand_in() {  # PATH LAYER
  printf '#!/bin/sh\nexec /usr/bin/python3 %s %s "$@"\n' "$here/fake_layer.py" "$2" >"$1"
  chmod +x "$1"
}
for s in fake speconly; do
  stand_in "$build/models/lfcheck-lin-model-$s" lin
  stand_in "$build/sanitizer-thread/stress/lfcheck-stress-$s" stress
done
stand_in "$build/models/lfcheck-model-fake" model
export LFCHECK_BUILD_DIR=$build LFCHECK_SKIP_SETUP=1 LFCHECK_ARTIFACTS=$dir/artifacts

# case NAME WANT_STATUS OUTCOMES WANT_RUNS -- ./lfcheck ARGS...: the command on the stand-ins;
# its exit status, its --json and --junit held to verdict_rules.py, the runs' verdicts
# (sorted "STEP:VERDICT" words: model, lin-model, lin-stress) and the summary line's exit status.
case_() {
  local name=$1 want=$2 outcomes=$3 runs=$4; shift 5
  FAKE_OUTCOMES=$outcomes FAKE_LOG=$dir/$name.log run "$name" "$want" -- "$lfcheck" "$@" || return 1
  local got
  got=$(/usr/bin/python3 - "$dir/$name.json" <<'EOF'
import json, sys
label = lambda r: "lin-" + r["layer"] if "layer" in r else r.get("check", "model")
print(" ".join(sorted(label(r) + ":" + r["verdict"] for r in json.load(open(sys.argv[1]))["runs"])))
EOF
)
  [ "$got" = "$runs" ] || { fail "$name: runs '$got', want '$runs'"; return 1; }
  grep -Eq "exit $want\$" "$dir/$name.out" || { fail "$name: no summary line saying exit $want"; tail -3 "$dir/$name.out"; return 1; }
  ok "$name: exit $want, runs $runs, JSON/JUnit/summary agree"
}

# --- lin: one rule over both layers, the report always written ------------------------
for j in 1 2; do
  case_ lin-fail-signal-j$j 1 "lin:correct=fail,stress:correct=signal" "lin-model:fail lin-stress:error" -- \
    lin fake --jobs $j --scenarios 3
  case_ lin-fail-exit2-j$j 1 "lin:correct=fail,stress:correct=exit2" "lin-model:fail lin-stress:error" -- \
    lin fake --jobs $j --scenarios 3
done
case_ lin-signal-pass 2 "lin:correct=signal" "lin-model:error lin-stress:pass" -- lin fake --jobs 1 --scenarios 3
case_ lin-model-signal 2 "lin:correct=signal" "lin-model:error" -- lin fake --layer model --scenarios 3
case_ lin-pass 0 "" "lin-model:pass lin-stress:pass" -- lin fake --jobs 1 --scenarios 3
grep -q 'killed by signal 11' "$dir/lin-model-signal.json" && ok "lin: the error run says the layer was killed by signal 11" ||
  fail "lin: the error run of a crashed layer does not say why: $(cat "$dir/lin-model-signal.json")"
# A layer that exits 1 with no report found nothing it can show: an error run, exit 2.
case_ lin-bare1 2 "stress:correct=bare1" "lin-model:pass lin-stress:error" -- lin fake --jobs 1 --scenarios 3

# --- run: model step + lin step, one report -----------------------------------------
case_ run-lin-fail 1 "lin:correct=fail,stress:correct=signal" "lin-model:fail lin-stress:error model:pass" -- \
  run fake --jobs 1
case_ run-model-signal 2 "model:correct=signal" "lin-model:pass lin-stress:pass model:error" -- run fake --jobs 1
case_ run-model-fail 1 "model:correct=fail,stress:correct=exit2" "lin-model:pass lin-stress:error model:fail" -- \
  run fake --jobs 1

# --- run's verify step ---------------------------------------------------------------
FAKE_ALPHABETS=fake case_ run-verify 0 "" "lin-model:pass lin-stress:pass model:pass verify:pass" -- run fake --jobs 1 &&
  grep -q '^verify fake --ladder --max-seconds 120 .*--jobs 1' "$dir/run-verify.log" &&
  ok "run: the verify step is the ladder, 120 s per structure, with run's --jobs"
FAKE_ALPHABETS=fake case_ run-verify-fail 1 "verify:correct=fail" "lin-model:pass lin-stress:pass model:pass verify:fail" -- \
  run fake --jobs 1
FAKE_ALPHABETS=fake case_ run-verify-signal 2 "verify:correct=signal" "lin-model:pass lin-stress:pass model:pass verify:error" -- \
  run fake --jobs 1
# A listing of the alphabets that fails is an error run, never "declares no alphabet".
FAKE_ALPHABETS=fake FAKE_ALPHABETS_STATUS=2 case_ run-verify-nolist 2 "" "lin-model:pass lin-stress:pass model:pass verify:error" -- \
  run fake --jobs 1
FAKE_ALPHABETS=fake case_ run-verify-off 0 "" "lin-model:pass lin-stress:pass model:pass" -- run fake --jobs 1 --verify-seconds 0

# --- run on a spec-only structure: its lin model once --------------------------------
if case_ run-speconly 0 "" "lin-model:pass lin-stress:pass" -- run speconly --seed 5 --jobs 1; then
  n=$(grep -c '^lin ' "$dir/run-speconly.log")
  [ "$n" -eq 1 ] && ok "run speconly --seed 5: the lin model ran once" || fail "run speconly: the lin model ran $n times"
fi

# --- fields: the stress layer's records whole in ./lfcheck lin's report ---------------
stress_records='[{"structure":"fake","workload":"lin.scenarios","threads":3,"seed":7,"ops":4000,"unit":"executions","seconds":1.5,"verdict":"pass","sanitizer":"thread","scenarios":4,"worst_out_of_order":1,"out_of_order_bound":2},
{"structure":"fake","workload":"lin.history","threads":4,"seed":7,"ops":20000,"seconds":2.5,"verdict":"fail","sanitizer":"thread","failure":"DATA RACE through code built without TSan (libx.so.1): TSan cannot see that code synchronize, so this may not be a race","replay":"./lfcheck stress fake --seed 7","histories":1,"calls_checked":10000,"uninstrumented":["libx.so.1"],"most_queued":12},
{"structure":"fake","workload":"lin.history","threads":4,"seed":8,"ops":9000,"seconds":70.0,"verdict":"fail","sanitizer":"address","failure":"HANG (no round completed for 60 s)","replay":"./lfcheck stress fake --seed 8","histories":0,"calls_checked":0,"thread_positions":[{"thread":0,"finished":9,"running":{"op":"push(3)","since_ms":1.5},"stack":null}]}]'
if FAKE_RECORDS_STRESS=$stress_records case_ lin-fields 1 "" "lin-model:pass lin-stress:fail lin-stress:fail lin-stress:pass" -- \
     lin fake --jobs 1 --scenarios 3; then
  got=$(/usr/bin/python3 - "$dir/lin-fields.json" "$stress_records" "$dir/lin-fields.xml" <<'EOF'
import collections, json, sys, xml.etree.ElementTree as ET
runs = [r for r in json.load(open(sys.argv[1]))["runs"] if r.get("layer") == "stress"]
problems = []
for r, w in zip(runs, json.loads(sys.argv[2])):
    unit = "calls" if w["workload"] == "lin.history" else "executions"
    want = dict({k: v for k, v in w.items() if k not in ("ops", "unit")}, layer="stress", **{unit: w["ops"]})
    if r != want:
        problems.append(f"{w['workload']}: {sorted(set(want) - set(r))} missing, "
                        f"{sorted(k for k in r if want.get(k) != r[k])} changed")
if len(runs) != 3:
    problems.append(f"{len(runs)} stress runs")
cases = list(ET.parse(sys.argv[3]).iter("testcase"))
twice = [k for k, n in collections.Counter((c.get("classname"), c.get("name")) for c in cases).items() if n > 1]
if twice:
    problems.append(f"JUnit testcases named twice: {twice}")
print("; ".join(problems) or "same")
EOF
)
  [ "$got" = same ] && ok "fields: ./lfcheck lin keeps the stress layer's records whole, lin.history's work as calls" ||
    fail "fields: $got"
fi

# --- interrupted: SIGTERM to the driver's pid alone, as a CI's time-out sends it ------
# interrupt_case NAME OUTCOMES WANT_RUNS STARTED NOT_STARTED -- ARGS: the driver in the
# background; once FAKE_LOG shows STARTED running, SIGTERM to the driver alone. It must
# end within 10 s (the running step stopped at once, not after its 30 s), exit 2 with
# its report holding WANT_RUNS (what finished, the interrupted step, the steps not
# started) and agreeing with the exit status, and no step matching NOT_STARTED may run.
interrupt_case() {
  local name=$1 outcomes=$2 runs=$3 started=$4 never=$5; shift 6
  : >"$dir/$name.log"
  FAKE_OUTCOMES=$outcomes FAKE_LOG=$dir/$name.log "$lfcheck" "$@" --quiet --json "$dir/$name.json" \
    --junit "$dir/$name.xml" >"$dir/$name.out" 2>"$dir/$name.err" &
  local pid=$! k
  for k in $(seq 100); do grep -q "$started" "$dir/$name.log" && break; sleep 0.1; done
  sleep 0.5  # the stand-in installs its handlers
  local t0=$SECONDS
  kill -TERM $pid
  wait $pid
  local rc=$? took=$((SECONDS - t0))
  if [ $rc -ne 2 ] || [ $took -gt 10 ]; then
    fail "$name: exit $rc after $took s (want 2 within 10 s)"; tail -5 "$dir/$name.err"; return 1
  fi
  /usr/bin/python3 "$here/verdict_rules.py" $rc "$dir/$name.json" "$dir/$name.xml" >"$dir/$name.rules" ||
    { fail "$name: $(cat "$dir/$name.rules")"; return 1; }
  local got
  got=$(/usr/bin/python3 - "$dir/$name.json" <<'EOF'
import json, sys
label = lambda r: "lin-" + r["layer"] if "layer" in r else r.get("check", "model")
print(" ".join(sorted(label(r) + ":" + r["verdict"] + ("(not run)" if r.get("failure") == "interrupted: not run" else "")
                      for r in json.load(open(sys.argv[1]))["runs"])))
EOF
)
  [ "$got" = "$runs" ] || { fail "$name: runs '$got', want '$runs'"; return 1; }
  if grep -q "$never" "$dir/$name.log"; then fail "$name: a step started after the interrupt: $(cat "$dir/$name.log")"; return 1; fi
  ok "$name: SIGTERM to the driver: exit 2 in $took s, runs $runs"
}
interrupt_case int-lin-j1 "lin:correct=interruptible" "lin-model:error lin-stress:error(not run)" '^lin ' '^stress ' -- \
  lin fake --jobs 1 --scenarios 3
interrupt_case int-lin-j2 "lin:correct=interruptible,stress:correct=interruptible" "lin-model:error lin-stress:error" \
  '^stress ' '^none' -- lin fake --jobs 2 --scenarios 3
interrupt_case int-run "model:correct=interruptible" "lin:error(not run) model:error verify:error(not run)" '^model ' '^lin \|^stress \|^verify ' -- \
  run fake --jobs 1

# --- an earlier run's report never stands beside a later run's exit status ------------
# A run that ends before it writes its report (here: a set-up error) leaves none: the
# file an earlier, passing run wrote at the same path is gone.
for cmd in lin run; do
  printf '{"runs":[{"structure":"fake","verdict":"pass","seconds":0}]}\n' >"$dir/stale-$cmd.json"
  cp "$dir/stale-$cmd.json" "$dir/stale-$cmd.xml"
  case $cmd in
    lin) LFCHECK_BUILD_DIR=$build "$lfcheck" lin fake --layer nosuch --json "$dir/stale-$cmd.json" --junit "$dir/stale-$cmd.xml" >/dev/null 2>&1 ;;
    run) LFCHECK_BUILD_DIR=$dir/no-such-build "$lfcheck" run --json "$dir/stale-$cmd.json" --junit "$dir/stale-$cmd.xml" >/dev/null 2>&1 ;;
  esac
  rc=$?
  [ $rc -eq 2 ] && [ ! -e "$dir/stale-$cmd.json" ] && [ ! -e "$dir/stale-$cmd.xml" ] &&
    ok "$cmd: a set-up error (exit 2) leaves no earlier report at --json/--junit" ||
    fail "$cmd: exit $rc, and the earlier passing report is $( [ -e "$dir/stale-$cmd.json" ] && echo still there || echo gone)"
done

echo "driver reports truth: $failed failed"
[ $failed -eq 0 ]

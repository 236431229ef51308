#!/usr/bin/env bash
# mutants_truth.sh — how the kill matrix (tools/mutants.py) and the faults tests
# (tests/check_faults_caught.sh) judge each kind of result, with scripted stand-ins
# for the layer binaries (tests/fake_layer.py), so every case takes a second or two:
#   caught    only exit 1 with the layer's evidence (props: RapidCheck's
#             "Falsifiable", or a waiting check's "TIMEOUT: ... (a hang)"); a missing binary, exit 2, a
#             signal or a bare exit 1 is an error of the cell, never a catch
#   rejected  a catch is the checker's own rejection of the code (NOT LINEARIZABLE, a
#             Relacy failure, a crash of the code: CRASH: SIGSEGV); a failing run that
#             is LINEARIZABILITY UNKNOWN, CRASHED (a worker died) or NONDETERMINISTIC
#             SCENARIO is an error of the cell in the matrix and NOT CAUGHT in the
#             faults test, on the faulty and on the correct code
#   correct   the correct-code cells are printed and written with their status
#             (clean, false alarm, over budget: not checked); an over-budget one
#             fails the matrix unless --allow-unchecked, and is never "clean"
#   shards    3 shards (--shard I/3, GoogleTest's variables) run every row once;
#             lfcheck merge of their JSON = the unsharded matrix; overlaps and
#             missing shards are named (exit 2)
#   usage     a bad option value is one line on stderr, exit 2
set -u
source "$(dirname "$0")/truth_lib.sh"
mutants=$here/../tools/mutants.py
for layer in model stress props lin; do
  printf '#!/bin/sh\nexec /usr/bin/python3 %s %s "$@"\n' "$here/fake_layer.py" $layer >"$dir/$layer"
  chmod +x "$dir/$layer"
done

# matrix NAME WANT_STATUS OUTCOMES [mutants args...]: runs the matrix on the fakes.
matrix() {
  local name=$1 want=$2 outcomes=$3; shift 3
  FAKE_OUTCOMES=$outcomes timeout 120 /usr/bin/python3 "$mutants" --model "$dir/model" --stress "$dir/stress" \
    --props "${PROPS:-$dir/props}" --artifacts "$dir/artifacts" --seeds 1 --budget 3 --stress-seconds 1 \
    --json "$dir/$name.json" "$@" >"$dir/$name.out" 2>"$dir/$name.err"
  local rc=$?
  if [ $rc -ne "$want" ]; then
    fail "$name: exit $rc, want $want"; tail -n 8 "$dir/$name.out" "$dir/$name.err"; return 1
  fi
  return 0
}
# q NAME PYTHON-EXPRESSION: evaluates it on the matrix JSON (d).
q() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$dir/$1.json"; }
# status_of NAME LAYER: the status of the correct-code cell of LAYER.
status_of() { q "$1" "[c['status'] for c in d['correct_code'] if c['layer'] == '$2'][0]"; }

# --- only exit 1 with evidence is a catch -----------------------------------------
for case in "missing:" "exit2:props:fake.b=exit2" "signal:props:fake.b=signal" "bare1:props:fake.b=bare1"; do
  name=props-${case%%:*} outcomes=${case#*:}
  [ "$name" = props-missing ] && export PROPS=/nonexistent/lfcheck-props
  if matrix "$name" 1 "$outcomes" --layer props; then
    caught=$(q "$name" "[f['layers']['props']['caught'] for f in d['faults']]")
    errors=$(q "$name" "[len(f['layers']['props'].get('errors', [])) for f in d['faults']]")
    if [ "$name" = props-missing ]; then want_errors="[1, 1]"; else want_errors="[0, 1]"; fi
    [ "$caught" = "[False, False]" ] && [ "$errors" = "$want_errors" ] &&
      ok "$name: not caught, an error of the cell" || fail "$name: caught $caught, errors $errors"
  fi
  unset PROPS
done
matrix evidence 0 "model:fake.a=fail,props:fake.b=fail" --layer all &&
  [ "$(q evidence "[f['caught'] for f in d['faults']]")" = "[True, True]" ] &&
  ok "exit 1 with evidence: caught" || fail "exit 1 with evidence: not caught"
matrix props-hang 0 "model:fake.a=fail,props:fake.b=hang" --layer all &&
  [ "$(q props-hang "d['faults'][1]['layers']['props']['caught']")" = True ] &&
  ok "props exit 1 with its watchdog's TIMEOUT (a hang) line: caught" || fail "props hang: not caught"
matrix model-bare1 1 "model:fake.a=bare1,props:fake.b=fail" --layer all &&
  [ "$(q model-bare1 "d['faults'][0]['layers']['model']['caught']")" = False ] &&
  ok "model exit 1 without a failing run in its JSON: not caught" || fail "model bare exit 1 counted as caught"

# The matrix's JUnit says what its exit status says: a fault another layer caught but
# a layer its catalogue names missed is a <failure> (exit 1).
if matrix expected-miss 1 "stress:fake.a=fail,props:fake.b=fail" --layer all --junit "$dir/expected-miss.xml"; then
  grep -q 'failures="1"' "$dir/expected-miss.xml" &&
    grep -q 'name="fake.a"><failure message="missed by a layer the catalogue says must catch it: fake.a (model)"' \
      "$dir/expected-miss.xml" && ok "a fault missed by its catalogue's layer: a <failure> in the JUnit, exit 1" ||
    { fail "a fault missed by its catalogue's layer: the JUnit does not say so"; cat "$dir/expected-miss.xml"; }
fi

# --- a catch is the checker's own rejection (the matrix and the faults tests alike) ---
# cell NAME LAYER FAULT: the cell's (caught, number of errors).
cell() { q "$1" "[(f['layers']['$2']['caught'], len(f['layers']['$2'].get('errors', []))) for f in d['faults'] if f['name'] == '$3'][0]"; }
for layer in model lin; do
  for outcome in unknown crashed nondet; do
    name=$layer-$outcome
    if matrix "$name" 1 "$layer:fake.a=$outcome,$layer:fake.b=fail" --layer $layer --lin "$dir/lin"; then
      [ "$(cell "$name" $layer fake.a)" = "(False, 1)" ] && [ "$(cell "$name" $layer fake.b)" = "(True, 0)" ] &&
        grep -q "not the checker's rejection" "$dir/$name.json" &&
        ok "$layer $outcome: not caught, an error of the cell (beside a real catch)" ||
        fail "$layer $outcome: fake.a $(cell "$name" $layer fake.a), fake.b $(cell "$name" $layer fake.b)"
    fi
  done
done
matrix model-crash 1 "model:fake.a=crash" --layer model &&
  [ "$(cell model-crash model fake.a)" = "(True, 0)" ] &&
  ok "model CRASH: SIGSEGV (the code under test crashed): caught" || fail "model CRASH: SIGSEGV: $(cell model-crash model fake.a)"
if matrix lin-correct-unknown 1 "lin:fake.a=fail,lin:fake.b=fail,lin:correct=unknown" --layer lin --lin "$dir/lin"; then
  [ "$(status_of lin-correct-unknown lin)" = "error: not checked" ] &&
    ok "LINEARIZABILITY UNKNOWN on the correct code: 'error: not checked', not a false alarm" ||
    fail "LINEARIZABILITY UNKNOWN on the correct code: '$(status_of lin-correct-unknown lin)'"
fi
# The faults test: FAKE_CAUGHT_BY names the layer for both fakes; fake.a's failure is
# not a rejection (NOT CAUGHT, exit 1), fake.b's is (caught).
for case in lin:unknown lin:crashed lin:nondet model:crashed model:nondet stress:unknown; do
  layer=${case%%:*} outcome=${case#*:}
  FAKE_CAUGHT_BY=$layer FAKE_OUTCOMES="$layer:fake.a=$outcome,$layer:fake.b=fail" \
    "$here/check_faults_caught.sh" $layer fake "$dir/$layer" >"$dir/faults-$layer-$outcome.out" 2>&1; rc=$?
  [ $rc -eq 1 ] && grep -q "^NOT CAUGHT: fake.a ($layer exit 1, but" "$dir/faults-$layer-$outcome.out" &&
    grep -q "^caught: fake.b " "$dir/faults-$layer-$outcome.out" &&
    ok "faults test, $layer $outcome: NOT CAUGHT (exit 1); a rejection beside it: caught" ||
    { fail "faults test, $layer $outcome: exit $rc"; cat "$dir/faults-$layer-$outcome.out"; }
done
FAKE_CAUGHT_BY=model FAKE_OUTCOMES="model:fake.a=crash,model:fake.b=fail" \
  "$here/check_faults_caught.sh" model fake "$dir/model" >"$dir/faults-crash.out" 2>&1 &&
  ok "faults test, model CRASH: SIGSEGV: caught" || { fail "faults test, model CRASH: SIGSEGV"; cat "$dir/faults-crash.out"; }

# --- the correct-code cells -------------------------------------------------------
all_caught="model:fake.a=fail,props:fake.b=fail"

if matrix clean 0 "$all_caught"; then
  [ "$(q clean "sorted({c['status'] for c in d['correct_code']})")" = "['clean']" ] &&
    grep -q "^correct code: 3 clean, 0 false alarm, 0 over budget: not checked" "$dir/clean.out" &&
    ok "all clean: exit 0, three clean cells printed and written" || fail "clean cells: $(q clean "d.get('correct_code')")"
fi
if matrix over-budget 1 "$all_caught,model:correct=sleep"; then
  [ "$(status_of over-budget model)" = "over budget: not checked" ] &&
    grep -q "NOT CHECKED, over budget: fake x model" "$dir/over-budget.out" &&
    ok "correct code over budget: 'over budget: not checked', exit 1" ||
    fail "correct code over budget: status '$(status_of over-budget model)'"
fi
if matrix unchecked 0 "$all_caught,model:correct=sleep" --allow-unchecked; then
  [ "$(status_of unchecked model)" = "over budget: not checked" ] &&
    grep -q "unchecked (--allow-unchecked): fake x model" "$dir/unchecked.out" &&
    ok "--allow-unchecked: exit 0, the cell still says not checked" ||
    fail "--allow-unchecked: status '$(status_of unchecked model)'"
fi
if matrix false-alarm 1 "$all_caught,stress:correct=fail"; then
  [ "$(status_of false-alarm stress)" = "false alarm" ] && [ "$(q false-alarm "d['false_alarms']")" = 1 ] &&
    ok "a failure on the correct code: 'false alarm', exit 1" || fail "false alarm: status '$(status_of false-alarm stress)'"
fi
matrix correct-error 1 "$all_caught,props:correct=exit2" &&
  [ "$(status_of correct-error props)" = "error: not checked" ] &&
  ok "an error on the correct code: 'error: not checked', exit 1" || fail "correct-code error not reported"

# --- shards: 3 shards run the matrix's rows once each; merge gives the whole matrix ---
# The fake catalogue has three rows: fake.a, fake.b, the correct code of "fake".
# rows NAME: the matrix's rows without their times, one JSON line each, sorted.
rows() {
  /usr/bin/python3 - "$dir/$1.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
drop = ("seconds", "seconds_worst")
clean = lambda c: {k: v for k, v in c.items() if k not in drop}
out = [json.dumps({"fault": f["name"], "caught": f["caught"], "expected": f["expected"],
                   "layers": {l: clean(c) for l, c in f["layers"].items()}}, sort_keys=True) for f in d["faults"]]
out += [json.dumps(clean(c), sort_keys=True) for c in d["correct_code"]]
print("\n".join(sorted(out)))
EOF
}
if matrix whole 0 "$all_caught"; then
  shard_files=() union=""
  for i in 0 1 2; do
    matrix "shard$i" 0 "$all_caught" --shard "$i/3" || continue
    shard_files+=("$dir/shard$i.json")
    [ "$(q "shard$i" "(len(d['faults']) + len({c['structure'] for c in d['correct_code']}), d['shard'])")" = \
      "(1, {'index': $i, 'total': 3})" ] || fail "shard $i/3 does not hold exactly one row: $(q "shard$i" "d.get('shard')")"
    union+="$(rows "shard$i")"$'\n'
  done
  [ "$(printf '%s' "$union" | sort)" = "$(rows whole | sort)" ] &&
    ok "3 shards (--shard I/3) hold the unsharded matrix's rows, none twice" ||
    fail "3 shards' rows differ from the unsharded matrix's"
  # GoogleTest's variables shard the same way, and are not passed on to the layers
  # (the fake layers refuse them: every cell would be an error).
  if GTEST_SHARD_INDEX=1 GTEST_TOTAL_SHARDS=3 matrix gtest1 0 "$all_caught"; then
    [ "$(rows gtest1)" = "$(rows shard1)" ] && ok "GTEST_SHARD_INDEX=1 GTEST_TOTAL_SHARDS=3 = --shard 1/3" ||
      fail "GoogleTest's shard variables give other rows than --shard 1/3"
  fi
  /usr/bin/python3 "$here/../tools/merge_reports.py" "${shard_files[@]}" --json "$dir/merged.json" \
    >"$dir/merge.out" 2>&1; rc=$?
  [ $rc -eq 0 ] && [ "$(rows merged)" = "$(rows whole)" ] &&
    [ "$(q merged "sorted(k for k in d)")" = "$(q whole "sorted(k for k in d)")" ] &&
    [ "$(q merged "(d['false_alarms'], d['unchecked'], d['complete'])")" = "(0, 0, True)" ] &&
    ok "merge of the 3 shards = the unsharded matrix (up to order and seconds), exit 0" ||
    { fail "merge of the 3 shards: exit $rc, or not the unsharded matrix"; cat "$dir/merge.out"; }
  /usr/bin/python3 "$here/../tools/merge_reports.py" "$dir/shard0.json" "$dir/shard0.json" "$dir/shard1.json" \
    "$dir/shard2.json" >"$dir/merge2.out" 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -q "fake.a in" "$dir/merge2.out" && ok "a shard merged twice: the overlap named, exit 2" ||
    fail "a shard merged twice: exit $rc"
  /usr/bin/python3 "$here/../tools/merge_reports.py" "$dir/shard0.json" "$dir/shard2.json" --junit "$dir/merge3.xml" \
    >"$dir/merge3.out" 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -q "shards 1 of 3 are missing" "$dir/merge3.out" &&
    grep -q 'errors="1"' "$dir/merge3.xml" && grep -q '<error message="INCOMPLETE: shards 1 of 3 are missing' "$dir/merge3.xml" &&
    ok "a missing shard: named, incomplete, exit 2, an <error> in the merged JUnit" ||
    { fail "a missing shard: exit $rc"; cat "$dir/merge3.out" "$dir/merge3.xml"; }
fi
if matrix shard-miss 1 "model:fake.a=pass,props:fake.b=fail" --shard 0/3; then
  ok "a shard's exit status is its own rows' (fake.a missed in shard 0/3: exit 1)"
  # A missed fault beside a problem of the merge (a shard merged twice): the exit
  # status is the missed fault's (1), as the merged JUnit's <failure> says, not 2.
  if [ -s "$dir/shard1.json" ] && [ -s "$dir/shard2.json" ]; then
    /usr/bin/python3 "$here/../tools/merge_reports.py" "$dir/shard-miss.json" "$dir/shard-miss.json" \
      "$dir/shard1.json" "$dir/shard2.json" --junit "$dir/merge4.xml" >"$dir/merge4.out" 2>&1; rc=$?
    [ $rc -eq 1 ] && grep -q '<failure' "$dir/merge4.xml" &&
      ok "a missed fault in a merge that also overlaps: exit 1, as its JUnit's <failure> says" ||
      { fail "a missed fault in an overlapping merge: exit $rc (want 1)"; cat "$dir/merge4.out"; }
  fi
fi
if matrix shard-empty 2 "$all_caught" --shard 5/6; then
  grep -q "has no row" "$dir/shard-empty.err" && ok "a shard with no row (5/6 of 3 rows): nothing checked, exit 2" ||
    fail "a shard with no row (5/6 of 3 rows): exit 2 without saying it has no row: $(cat "$dir/shard-empty.err")"
fi

# --- usage errors: one line, exit 2 -------------------------------------------------
for bad in "--budget 0" "--seeds x" "--layer nosuch" "--shard 3/3" "--shard 1"; do
  /usr/bin/python3 "$mutants" --model x --stress x --props x $bad >/dev/null 2>"$dir/usage.err"; rc=$?
  lines=$(wc -l <"$dir/usage.err")
  [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && ok "mutants $bad: one line, exit 2" ||
    { fail "mutants $bad: exit $rc, $lines lines on stderr"; cat "$dir/usage.err"; }
done

echo "mutants truth: $failed failed"
[ $failed -eq 0 ]

#!/usr/bin/env bash
# stress_lin_shards_truth.sh STRESS LIN_MODEL LFCHECK — shards of a stress run and of
# a lin model run do the work of one plain run, once (issue 17). STRESS is the plain
# lfcheck-stress, LIN_MODEL lfcheck-lin-model-treiber, LFCHECK the lfcheck script
# (for `lfcheck merge`). Every run's report goes through verdict_rules.py.
#   stress shards  3 shards (--shard I/3, and GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS)
#                  run exactly the unsharded run's workloads, same seed and budget,
#                  none twice; GTEST_SHARD_STATUS_FILE is touched; merge of the 3
#                  = the unsharded JSON up to order and seconds; a shard with no
#                  workload exits 2; every shard's record says its shard, the
#                  plan's size (of_runs) and the plan, and 2 of the 3 merge to an
#                  INCOMPLETE error, in JSON and JUnit (exit 2)
#   lin shards     3 shards run scenarios I, I+3, ... of the unsharded run: their
#                  scenario counts add up to it, and merge sums the 3 parts into
#                  the unsharded JSON (up to seconds); 2 of the 3 merge to an
#                  INCOMPLETE error, in JSON and JUnit (exit 2), as do a part whose
#                  shard index is out of range and parts whose scenarios do not add
#                  up to --scenarios; parts run with
#                  other --iterations, --depth or --bound are not summed (exit 2);
#                  with a seeded fault the merge fails with the unsharded run's
#                  first failing scenario, also where the shards' failures are of
#                  both passes (sampled and search); a shard with no scenario exits 2
set -u
stress=$1 lin=$2 lfcheck=$3
source "$(dirname "$0")/truth_lib.sh"

# Runs the 3 shards of COMMAND (shard 1 through GoogleTest's variables) as
# NAME0..NAME2 and sets `parts` to their JSON files; returns 1 if one failed.
three_shards() {  # NAME -- COMMAND...
  local name=$1 i; shift 2
  parts=""
  for i in 0 1 2; do
    if [ $i = 1 ]; then
      GTEST_SHARD_INDEX=1 GTEST_TOTAL_SHARDS=3 GTEST_SHARD_STATUS_FILE="$dir/$name.status" \
        run_shard $name$i -- "$@"
    else
      run_shard $name$i -- "$@" --shard $i/3
    fi || return 1
    parts+="$dir/$name$i.json "
  done
}

# lfcheck merge of the shards' JSON must exit 0 and equal the unsharded report (up to
# order and seconds) and obey the verdict rules.
merge_equals() {  # LAYER UNSHARDED.json SHARD.json...
  local layer=$1 want=$2; shift 2
  "$lfcheck" merge "$@" --json "$dir/$layer-merged.json" >"$dir/$layer-merge.out" 2>&1
  local rc=$?
  if [ $rc -ne 0 ]; then
    fail "$layer merge: exit $rc, want 0"; cat "$dir/$layer-merge.out"
  elif [ "$(runs_of "$dir/$layer-merged.json" sorted)" != "$(runs_of "$want" sorted)" ]; then
    fail "$layer merge: the merged JSON differs from the unsharded one:"
    diff <(runs_of "$dir/$layer-merged.json" sorted) <(runs_of "$want" sorted)
  elif ! /usr/bin/python3 "$here/verdict_rules.py" 0 "$dir/$layer-merged.json" >"$dir/$layer-merge.rules"; then
    fail "$layer merge: $(cat "$dir/$layer-merge.rules")"
  else
    ok "$layer merge: the unsharded JSON up to order and seconds ($(runs_of "$want" sorted | wc -l) runs), exit 0"
  fi
}

# partial LAYER WANT SHARD0.json SHARD2.json: lfcheck merge of the two (JSON and JUnit)
# exits WANT with an INCOMPLETE error run that names shard 1 missing, JSON and JUnit alike.
partial() {
  local layer=$1 want=$2; shift 2
  "$lfcheck" merge "$@" "${@/.json/.xml}" --json "$dir/$layer-partial.json" --junit "$dir/$layer-partial.xml" \
    >"$dir/$layer-partial.out" 2>&1
  local rc=$?
  if [ $rc -eq "$want" ] && grep -q 'INCOMPLETE: shards 1 of 3 are missing' "$dir/$layer-partial.out" &&
     /usr/bin/python3 "$here/verdict_rules.py" $rc "$dir/$layer-partial.json" "$dir/$layer-partial.xml" \
       >"$dir/$layer-partial.rules"; then
    ok "$layer merge: 2 of 3 shards are an INCOMPLETE error in JSON and JUnit (exit $rc)"
  else
    fail "$layer merge: 2 of 3 shards exit $rc (want $want): $(cat "$dir/$layer-partial.rules" 2>/dev/null)"
    cat "$dir/$layer-partial.out"
  fi
}

# --- stress: workloads --------------------------------------------------------------
splan=("$stress" treiber --threads 2 --ops 4000 --seed 11)
if run stress 0 -- "${splan[@]}"; then
  workloads=$(runs_of "$dir/stress.json" ordered | wc -l)
  if three_shards sshard -- "${splan[@]}"; then
    all=$(for p in $parts; do runs_of "$p" ordered unsharded; done | sort)
    if [ "$all" = "$(runs_of "$dir/stress.json" sorted)" ]; then
      ok "stress: 3 shards ran exactly the unsharded run's $workloads workloads (same seed, ops, verdicts), none twice"
    else
      fail "stress: the 3 shards' runs differ from the unsharded run's:"
      diff <(echo "$all") <(runs_of "$dir/stress.json" sorted)
    fi
    [ -e "$dir/sshard.status" ] && ok "stress: GTEST_SHARD_STATUS_FILE touched" ||
      fail "stress: GTEST_SHARD_STATUS_FILE not touched"
    merge_equals stress "$dir/stress.json" $parts
    i=0 before=$failed
    for p in $parts; do
      fields=$(/usr/bin/python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
print(sorted({(r.get("shard"), r.get("of_runs"), r.get("plan", "")[:14]) for r in runs}))' "$p")
      [ "$fields" = "[('$i/3', $workloads, 'stress treiber')]" ] ||
        fail "stress shard $i/3: its records say (shard, of_runs, plan) $fields"
      i=$((i + 1))
    done
    [ $failed -eq $before ] && ok "stress: every shard's records say their shard, of_runs $workloads and the plan"
    partial stress 2 $(echo $parts | cut -d' ' -f1,3)
  fi
  # More shards than workloads: the last shard has none.
  n=$((workloads + 1))
  "${splan[@]}" --shard $workloads/$n --quiet >"$dir/sempty.out" 2>&1
  rc=$?
  [ $rc -eq 2 ] && grep -q "has no workload" "$dir/sempty.out" &&
    ok "stress: shard $workloads/$n has no workload: exit 2, says so" ||
    { fail "stress: an empty shard exits $rc"; cat "$dir/sempty.out"; }
fi

# --- lin: scenarios --------------------------------------------------------------------
lplan=("$lin" treiber --scenarios 7 --iterations 200 --bound-executions 400 --seed 3)
if run lin 0 -- "${lplan[@]}"; then
  if three_shards lshard -- "${lplan[@]}"; then
    counts=$(for p in $parts; do /usr/bin/python3 -c 'import json,sys; print(*[r["scenarios"] for r in json.load(open(sys.argv[1]))["runs"]])' "$p"; done | tr '\n' ' ')
    [ "$counts" = "3 2 2 " ] && ok "lin: the 3 shards ran 3, 2 and 2 of the 7 scenarios" ||
      fail "lin: the shards ran $counts scenarios, want 3 2 2"
    merge_equals lin "$dir/lin.json" $parts  # the 3 parts summed into one run
    partial lin 2 $(echo $parts | cut -d' ' -f1,3)
    # Parts that are not the N shards of one run: shard 1/3 relabelled 3/3 (no such
    # shard: the merge must not count it as shard 1), and shard 1/3 with a scenario
    # fewer than it was given (parts that do not add up to --scenarios).
    for forge in 'r["shard"] = "3/3"' 'r["scenarios"] -= 1'; do
      /usr/bin/python3 - "$(echo $parts | cut -d' ' -f2)" "$dir/lforged.json" "$forge" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
      "$lfcheck" merge $(echo $parts | cut -d' ' -f1,3) "$dir/lforged.json" --json "$dir/lforged-merged.json" \
        >"$dir/lforged.out" 2>&1
      rc=$?
      [ $rc -eq 2 ] && grep -q "INCOMPLETE" "$dir/lforged.out" &&
        /usr/bin/python3 "$here/verdict_rules.py" $rc "$dir/lforged-merged.json" >/dev/null &&
        ok "lin merge: parts that are not the 3 shards of one run ($forge) are INCOMPLETE (exit 2)" ||
        { fail "lin merge: parts with $forge: exit $rc (want 2, INCOMPLETE)"; cat "$dir/lforged.out"; }
    done
    # A part run with other settings is not a part of the same run.
    for other in "--iterations 300" "--depth 2" "--bound 1"; do
      run_shard lother -- "${lplan[@]}" $other --shard 1/3 || continue
      "$lfcheck" merge $(echo $parts | cut -d' ' -f1,3) "$dir/lother.json" --json "$dir/lother-merged.json" \
        >"$dir/lother.out" 2>&1
      rc=$?
      [ $rc -eq 2 ] && grep -q "INCOMPLETE: the parts are shards of runs with different settings (${other:2:5}" \
        "$dir/lother.out" && ok "lin merge: a part run with $other is not summed with the others (INCOMPLETE, exit 2)" ||
        { fail "lin merge: a part run with $other: exit $rc"; cat "$dir/lother.out"; }
    done
  fi
  # A seeded lin fault: the unsharded run stops at its first failing scenario in (pass,
  # index) order — every scenario's sampled run comes before any search; the merge of
  # the shards fails with that same scenario's failure (exit 1). fault_merge N PLAN...
  # sets fm_rc, the merge's exit status, and fm_says: "same" or how they differ, then
  # "mixed" if a shard's failure comes at a lower index in a later pass than the
  # unsharded run's (where index order alone would pick it).
  fault_merge() {
    local name=fault$1; shift
    run $name 1 -- "$@" && three_shards ${name}s -- "$@" || return 1
    "$lfcheck" merge $parts --json "$dir/${name}m.json" >"$dir/${name}m.out" 2>&1
    fm_rc=$?
    fm_says=$(/usr/bin/python3 - "$dir/$name.json" "$dir/${name}m.json" $parts <<'EOF'
import json, sys
keys = ("verdict", "failure", "scenario", "failing_index", "failing_pass")
a, b, *parts = ([r for r in json.load(open(f))["runs"]] for f in sys.argv[1:])
print("same" if len(b) == 1 and all(a[0].get(k) == b[0].get(k) for k in keys) and "failing_pass" in a[0]
      else f"unsharded {[{k: r.get(k) for k in keys} for r in a]} merged {[{k: r.get(k) for k in keys} for r in b]}")
if any(p[0].get("verdict") == "fail" and p[0].get("failing_index", 99) < a[0].get("failing_index", 0) for p in parts):
    print("mixed")
EOF
)
  }
  if fault_merge 0 "${lplan[@]}" --fault treiber.pop_gives_up; then
    [ $fm_rc -eq 1 ] && [ "$(echo "$fm_says" | head -1)" = same ] &&
      ok "lin merge of a fault's shards: one failing run, the unsharded run's first failing scenario (exit 1)" ||
      { fail "lin merge of a fault's shards: exit $fm_rc, $fm_says"; cat "$dir/fault0m.out"; }
  fi
  # One sampled execution per scenario: some scenarios fail only in their search. Seeds
  # until one whose shards fail in both passes (the first such, seed 1 at the time of
  # writing: unsharded 7 sampled; shards 7 sampled, 2 search).
  mixed=""
  for seed in 1 2 3 4 5 6 7 8; do
    fault_merge $seed "$lin" treiber --scenarios 9 --iterations 1 --bound-executions 400 --seed $seed \
      --fault treiber.pop_gives_up || break
    [ "$(echo "$fm_says" | tail -1)" = mixed ] || continue
    mixed=$seed
    [ $fm_rc -eq 1 ] && [ "$(echo "$fm_says" | head -1)" = same ] &&
      ok "lin merge, shards failing in both passes (seed $seed): the unsharded run's first failure, (pass, index) order" ||
      fail "lin merge, shards failing in both passes (seed $seed): exit $fm_rc, $(echo "$fm_says" | head -1)"
    break
  done
  [ -n "$mixed" ] || fail "lin merge: no seed of 1..8 has shards failing in both passes (nothing checked the order)"
  "${lplan[@]}" --shard 8/9 --quiet --json "$dir/lempty.json" >"$dir/lempty.out" 2>&1
  rc=$?
  [ $rc -eq 2 ] && grep -q "NO WORK: shard 8/9 has none of the 7 scenarios" "$dir/lempty.out" &&
    ok "lin: shard 8/9 of 7 scenarios has none: exit 2, says so" ||
    { fail "lin: an empty shard exits $rc"; cat "$dir/lempty.out"; }
fi

# Two failing lin parts: shard 0's LINEARIZABILITY UNKNOWN (its check ran out of budget:
# no rejection) comes first in the order, shard 1's NOT LINEARIZABLE later. The whole run
# keeps one part's words: the rejection's, or a catch would read as "not caught".
for i in 0 1; do
  words=("LINEARIZABILITY UNKNOWN: budget exhausted" "NOT LINEARIZABLE: no sequential order")
  printf '{"runs":[{"structure":"treiber","layer":"model","workload":"lin.scenarios","seed":1,"shard":"%s/2",%s}]}\n' \
    "$i" "\"of_scenarios\":4,\"scenarios\":2,\"executions\":10,\"verdict\":\"fail\",\"failure\":\"${words[$i]}\",\"failing_index\":$((i * 3)),\"scenario\":\"s$i\"" \
    >"$dir/unknown-part$i.json"
done
"$lfcheck" merge "$dir/unknown-part0.json" "$dir/unknown-part1.json" --json "$dir/unknown-merged.json" >"$dir/unknown-merge.out" 2>&1
rc=$?
got=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["runs"][0]["failure"])' "$dir/unknown-merged.json" 2>&1)
[ $rc = 1 ] && [ "$got" = "NOT LINEARIZABLE: no sequential order" ] &&
  ok "lin merge: a later shard's NOT LINEARIZABLE stands over an earlier shard's UNKNOWN" ||
  { fail "lin merge: exit $rc, the whole run says: $got"; cat "$dir/unknown-merge.out"; }

echo "stress and lin shards truth: $failed failed"
[ $failed -eq 0 ]

#!/usr/bin/env bash
# model_shards_truth.sh PROBES LFCHECK — jobs, shards and merge do the work of one
# plain run, once (issue 17). PROBES is lfcheck-model-probes, LFCHECK the lfcheck
# script (for `lfcheck merge`). Every run's report goes through verdict_rules.py.
#   jobs          --jobs 2 reports the same runs, verdicts and iterations as
#                 --jobs 1, in the same order (only the seconds may differ)
#   first failure --jobs 2 --first-failure exits 1 with the failure it found and
#                 says how many runs it did not run to their end
#   shards        3 shards (--shard I/3, and GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS)
#                 hold exactly the unsharded run's runs: same keys, none twice
#   merge         lfcheck merge of the 3 shards' JSON = the unsharded JSON up to
#                 order and seconds, its exit status = the unsharded one's, its
#                 JUnit has one testcase per run; a shard merged twice is an OVERLAP
#                 error run (exit 2 unless a run failed)
#   all parts     every shard's record says its shard, the plan's size (of_runs) and
#                 the plan; a merge without one of the shards is INCOMPLETE, in its
#                 JSON and its JUnit: exit 2 for a plan whose runs pass (issue 27)
set -u
probes=$1 lfcheck=$2
source "$(dirname "$0")/truth_lib.sh"
# The probes' random and bound runs: every scenario, the window fault seeded (the
# flaky probe fails once per process, so each plan has it once per scheduler).
plan=(probe --fault probe.read_in_window --iterations 3000)
# --- jobs: same runs, same order -----------------------------------------------------
for s in random bound; do
  run jobs1-$s 1 -- "$probes" "${plan[@]}" --scheduler $s --jobs 1 &&
  run jobs2-$s 1 -- "$probes" "${plan[@]}" --scheduler $s --jobs 2 || continue
  if [ "$(runs_of "$dir/jobs1-$s.json" ordered)" = "$(runs_of "$dir/jobs2-$s.json" ordered)" ]; then
    ok "$s: --jobs 2 reports the runs of --jobs 1, in the same order ($(runs_of "$dir/jobs1-$s.json" ordered | wc -l) runs)"
  else
    fail "$s: --jobs 2 and --jobs 1 differ:"; diff <(runs_of "$dir/jobs1-$s.json" ordered) <(runs_of "$dir/jobs2-$s.json" ordered)
  fi
done

# --- jobs with --first-failure ---------------------------------------------------------
if run ff 1 -- "$probes" probe --fault probe.read_in_window --scheduler pct --depth 2 --jobs 2 --first-failure; then
  n=$(runs_of "$dir/ff.json" ordered | wc -l) f=$(runs_of "$dir/ff.json" ordered | grep -c '"verdict": "fail"')
  total=$("$probes" probe --list | wc -l)  # one pct run per probe scenario
  if [ "$f" -ge 1 ] && { [ "$n" -eq "$total" ] || grep -q "of $total runs not run to their end" "$dir/ff.out"; }; then
    ok "--jobs 2 --first-failure: $f failing of $n reported runs, the rest said to be stopped"
  else
    fail "--jobs 2 --first-failure: $n runs, $f failing"; cat "$dir/ff.out"
  fi
fi

# --- shards: exactly the unsharded work ----------------------------------------------------
for s in random bound; do
  parts=()
  for i in 0 1 2; do
    if [ $i = 1 ]; then  # one shard through GoogleTest's variables
      GTEST_SHARD_INDEX=1 GTEST_TOTAL_SHARDS=3 run_shard shard$i-$s -- "$probes" "${plan[@]}" --scheduler $s --jobs 1
    else
      run_shard shard$i-$s -- "$probes" "${plan[@]}" --scheduler $s --jobs 1 --shard $i/3
    fi || continue 2
    parts+=("$dir/shard$i-$s.json")
  done
  all=$(for p in "${parts[@]}"; do runs_of "$p" ordered unsharded; done | sort)
  if [ "$all" = "$(runs_of "$dir/jobs1-$s.json" sorted)" ]; then
    ok "$s: 3 shards hold exactly the unsharded runs ($(echo "$all" | wc -l)), none twice"
  else
    fail "$s: the 3 shards' runs differ from the unsharded run's:"; diff <(echo "$all") <(runs_of "$dir/jobs1-$s.json" sorted)
  fi

  # --- merge ---------------------------------------------------------------------------------
  "$lfcheck" merge "${parts[@]}" "${parts[@]/.json/.xml}" --json "$dir/merged-$s.json" --junit "$dir/merged-$s.xml" \
    >"$dir/merge-$s.out" 2>&1
  rc=$?
  if [ $rc -ne 1 ]; then
    fail "merge ($s): exit $rc, want 1 (as the unsharded run)"; cat "$dir/merge-$s.out"
  elif [ "$(runs_of "$dir/merged-$s.json" sorted)" != "$(runs_of "$dir/jobs1-$s.json" sorted)" ]; then
    fail "merge ($s): the merged JSON differs from the unsharded one"
  elif ! /usr/bin/python3 "$here/verdict_rules.py" 1 "$dir/merged-$s.json" "$dir/merged-$s.xml" >"$dir/merge-$s.rules"; then
    fail "merge ($s): $(cat "$dir/merge-$s.rules")"
  else
    ok "merge ($s): the unsharded JSON up to order and seconds, exit 1, JUnit consistent"
  fi
  "$lfcheck" merge "${parts[0]}" "${parts[0]}" --json "$dir/twice-$s.json" --junit "$dir/twice-$s.xml" \
    >"$dir/twice-$s.out" 2>&1
  rc=$?
  # The copy is dropped and an OVERLAP error run says so; shard 0's failures still stand (exit 1).
  [ $rc -eq 1 ] && grep -q "shards overlap" "$dir/twice-$s.out" && grep -q '"failure":"OVERLAP: ' "$dir/twice-$s.json" &&
    /usr/bin/python3 "$here/verdict_rules.py" 1 "$dir/twice-$s.json" "$dir/twice-$s.xml" >/dev/null &&
    ok "merge ($s): a shard merged twice is named, an OVERLAP error run in JSON and JUnit (exit 1: its failures stand)" ||
    fail "merge ($s): a shard merged twice exits $rc"
done

# --- all parts: a shard's records name it; a merge without a shard is INCOMPLETE ---------
# shard_fields FILE I RUNS [N]: every record says shard I/N (default 3), of_runs = the
# unsharded run count, and one plan.
shard_fields() {
  /usr/bin/python3 - "$1" "$2" "$3" "${4:-3}" <<'EOF'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
bad = [r for r in runs if r.get("shard") != f"{sys.argv[2]}/{sys.argv[4]}" or r.get("of_runs") != int(sys.argv[3]) or not r.get("plan")]
print("ok" if runs and not bad and len({r["plan"] for r in runs}) == 1 else f"records without their shard: {bad or runs}")
EOF
}
# partial NAME WANT FILE...: lfcheck merge of FILE... (JSON and JUnit) exits WANT with an
# INCOMPLETE error run naming the missing shard, in JSON and JUnit alike.
partial() {
  local name=$1 want=$2; shift 2
  "$lfcheck" merge "$@" "${@/.json/.xml}" --json "$dir/$name.json" --junit "$dir/$name.xml" >"$dir/$name.out" 2>&1
  local rc=$?
  if [ $rc -eq "$want" ] && grep -q '"verdict":"error","failure":"INCOMPLETE: shards 1 of '"${of:-3}"' are missing' "$dir/$name.json" &&
     /usr/bin/python3 "$here/verdict_rules.py" $rc "$dir/$name.json" "$dir/$name.xml" >"$dir/$name.rules"; then
    ok "$name: shard 1 of ${of:-3} missing: INCOMPLETE (exit $rc), JSON and JUnit alike"
  else
    fail "$name: exit $rc (want $want) or no INCOMPLETE error run: $(cat "$dir/$name.rules" 2>/dev/null)"; cat "$dir/$name.out"
  fi
}
for s in random bound; do
  for i in 0 1 2; do
    [ "$(shard_fields "$dir/shard$i-$s.json" $i "$(runs_of "$dir/jobs1-$s.json" ordered | wc -l)")" = ok ] ||
      fail "$s shard $i/3: $(shard_fields "$dir/shard$i-$s.json" $i "$(runs_of "$dir/jobs1-$s.json" ordered | wc -l)")"
  done
  partial partial-$s 1 "$dir/shard0-$s.json" "$dir/shard2-$s.json"  # a failure stands, the rest is missing
done
# A plan whose runs pass (order's pct and its search: 2 runs, one per shard).
if run order 0 -- "$probes" probe --scenario order --jobs 1; then
  for i in 0 1; do
    run_shard order$i -- "$probes" probe --scenario order --jobs 1 --shard $i/2 || continue
    [ "$(shard_fields "$dir/order$i.json" $i 2 2)" = ok ] && ok "order shard $i/2: its record says shard, of_runs 2, plan" ||
      fail "order shard $i/2: $(shard_fields "$dir/order$i.json" $i 2 2)"
  done
  of=2 partial partial-order 2 "$dir/order0.json"
  "$lfcheck" merge "$dir/order0.json" "$dir/order1.json" --json "$dir/order-merged.json" \
    >"$dir/order-merged.out" 2>&1 && [ "$(runs_of "$dir/order-merged.json" sorted)" = "$(runs_of "$dir/order.json" sorted)" ] &&
    ok "order: the 2 shards merge to the unsharded runs, exit 0" || { fail "order: merge of the 2 shards"; cat "$dir/order-merged.out"; }
fi

echo "model shards truth: $failed failed"
[ $failed -eq 0 ]
